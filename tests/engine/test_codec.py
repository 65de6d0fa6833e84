"""Reading states and setups back from JSON: every state play reaches is accepted, and a state
or setup that could not come from a real game is refused loudly.

``state_from_json`` and ``setup_from_json`` raise ``MalformedJSON``; ``initial_state`` checks a
setup built by hand again, raising ``IllegalAction`` (``MalformedJSON`` is a kind of it).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

import games.engine as engine
from games.engine import IllegalAction, MalformedJSON
from games.engine.splendor.actions import BuyCard, ReserveFromDeck

Json = dict[str, Any]
PHASES = {"main", "return_tokens", "choose_noble", "game_over"}


def playout(players: int, chooser_seed: int) -> list[engine.State]:
    """A whole game; odd chooser seeds mostly take and reserve, for long games and full hands."""
    state = engine.initial_state(engine.new_game("splendor", players, 1000 + chooser_seed))
    rng = random.Random(chooser_seed)
    states = [state]
    while engine.outcome(state) is None:
        legal = engine.legal_actions(state)
        if chooser_seed % 2 and rng.random() > 0.1:
            legal = [action for action in legal if not isinstance(action, BuyCard)] or legal
        state = engine.apply_action(state, rng.choice(legal))
        states.append(state)
    return states


@cache
def played_states() -> tuple[engine.State, ...]:
    return tuple(
        state
        for players in (2, 3, 4)
        for chooser_seed in range(12)
        for state in playout(players, chooser_seed)
    )


@cache
def mid_game() -> engine.State:
    """Three players, some way in: seat 0 holds a blind reserve and a visible one."""
    state = engine.initial_state(engine.new_game("splendor", 3, 2**40))
    state = engine.apply_action(state, ReserveFromDeck(2))
    rng = random.Random(1)
    for _ in range(20):
        state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
    assert state.phase == "main"
    assert state.players[0].blind
    assert set(state.players[0].reserved) - set(state.players[0].blind)
    return state


def mid_game_json() -> Json:
    return json.loads(json.dumps(engine.state_to_json(mid_game())))


def refused(data: Any) -> MalformedJSON:
    with pytest.raises(MalformedJSON) as caught:
        engine.state_from_json(data)
    return caught.value


# Accepting what play reaches ------------------------------------------------------------------


def test_every_state_reached_in_play_is_accepted_and_read_back_unchanged() -> None:
    phases = set()
    for state in played_states():
        data = json.loads(json.dumps(engine.state_to_json(state)))
        assert engine.state_from_json(data) == state
        phases.add(state.phase)
    # choose_noble is rare in random play (the sample has it today, but need not keep it).
    assert {"main", "return_tokens", "game_over"} <= phases <= PHASES


def test_the_mid_game_sample_is_accepted() -> None:
    assert engine.state_from_json(mid_game_json()) == mid_game()


# Refusing what play cannot reach ----------------------------------------------------------------


def add_a_board_card_to_a_hand(data: Json) -> None:
    data["players"][1]["cards"].append(data["board"][0][0])


def add_a_deck_card_to_the_board_too(data: Json) -> None:
    data["board"][2][0] = data["decks"][2][0]


def reserve_a_purchased_card(data: Json) -> None:
    data["players"][0]["reserved"] = [data["players"][0]["cards"][0]]
    data["players"][0]["blind"] = []


def drop_the_top_of_a_deck(data: Json) -> None:
    data["decks"][0].pop(0)


def empty_a_board_slot(data: Json) -> None:
    data["board"][1][0] = None


def forget_a_reserved_card(data: Json) -> None:
    data["players"][0]["reserved"].pop()
    data["players"][0]["blind"] = [
        card for card in data["players"][0]["blind"] if card in data["players"][0]["reserved"]
    ]


@pytest.mark.parametrize(
    "corrupt",
    [add_a_board_card_to_a_hand, add_a_deck_card_to_the_board_too, reserve_a_purchased_card],
)
def test_refuses_a_card_in_two_places(corrupt: Callable[[Json], None]) -> None:
    data = mid_game_json()
    assert data["players"][0]["cards"], "the sample needs a purchased card"
    corrupt(data)
    refused(data)


@pytest.mark.parametrize(
    "corrupt", [drop_the_top_of_a_deck, empty_a_board_slot, forget_a_reserved_card]
)
def test_refuses_a_missing_card(corrupt: Callable[[Json], None]) -> None:
    data = mid_game_json()
    corrupt(data)
    refused(data)


def test_refuses_a_card_at_the_wrong_level() -> None:
    data = mid_game_json()
    data["decks"][0].append(data["decks"][1].pop())
    refused(data)


@pytest.mark.parametrize("card", [90, -1, 10**9])
def test_refuses_a_card_that_does_not_exist(card: int) -> None:
    data = mid_game_json()
    data["decks"][2].append(card)
    refused(data)


def test_refuses_a_blind_reserve_that_is_not_reserved() -> None:
    data = mid_game_json()
    data["players"][1]["blind"] = [data["decks"][0][0]]
    refused(data)


def test_refuses_a_fourth_reserved_card() -> None:
    data = mid_game_json()
    owner = next(player for player in data["players"] if len(player["reserved"]) < 3)
    while len(owner["reserved"]) < 4:
        owner["reserved"].append(data["decks"][0].pop())
    refused(data)


@pytest.mark.parametrize(
    ("where", "colour", "change"),
    [
        ("supply", "white", +1),
        ("supply", "gold", -1),
        ("player", "red", +1),
        ("player", "gold", +1),
    ],
)
def test_refuses_tokens_that_do_not_add_up(where: str, colour: str, change: int) -> None:
    data = mid_game_json()
    counts = data["supply"] if where == "supply" else data["players"][2]["tokens"]
    counts[colour] = counts.get(colour, 0) + change
    assert counts[colour] >= 0
    refused(data)


def test_refuses_tokens_laid_out_for_another_player_count() -> None:
    data = mid_game_json()
    data["players"].append({"tokens": {}, "cards": [], "reserved": [], "blind": [], "nobles": []})
    data["nobles"].append(next(noble for noble in range(10) if noble not in data["nobles"]))
    # Four players play with seven tokens of each colour; this supply was laid out for three.
    assert "add up" in str(refused(data))


@pytest.mark.parametrize("phase", ["dancing", "", "MAIN", None, 3, ["main"]])
def test_refuses_an_unknown_phase(phase: Any) -> None:
    data = mid_game_json()
    data["phase"] = phase
    refused(data)


@pytest.mark.parametrize("variant", ["duel", "Splendor", "", None])
def test_refuses_another_variant(variant: Any) -> None:
    data = mid_game_json()
    data["variant"] = variant
    refused(data)


def test_refuses_a_state_without_a_variant() -> None:
    data = mid_game_json()
    del data["variant"]
    refused(data)


@pytest.mark.parametrize("data", [None, [], "state", 5, ["variant", "splendor"]])
def test_refuses_what_is_not_a_json_object(data: Any) -> None:
    refused(data)


@pytest.mark.parametrize("where", ["supply", "player"])
def test_refuses_a_negative_token_count_even_when_the_totals_add_up(where: str) -> None:
    data = mid_game_json()
    supply, hand = data["supply"], data["players"][1]["tokens"]
    negative, other = (supply, hand) if where == "supply" else (hand, supply)
    # Move all of one count and one more to the other side: the total is unchanged.
    other["blue"] = other.get("blue", 0) + negative.get("blue", 0) + 1
    negative["blue"] = -1
    refused(data)


@pytest.mark.parametrize("colour", ["purple", "pearl", "gem", "White"])
@pytest.mark.parametrize("where", ["supply", "player"])
def test_refuses_an_unknown_colour(where: str, colour: str) -> None:
    data = mid_game_json()
    counts = data["supply"] if where == "supply" else data["players"][0]["tokens"]
    counts[colour] = 0
    refused(data)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("turn", True),
        ("turn", 1.0),
        ("turn", "19"),
        ("current", None),
        ("passes_this_round", 0.0),
    ],
)
def test_refuses_a_number_that_is_not_a_whole_number(field: str, value: Any) -> None:
    data = mid_game_json()
    data[field] = value
    refused(data)


@pytest.mark.parametrize("current", [-1, 3, 99])
def test_refuses_a_current_seat_outside_the_game(current: int) -> None:
    data = mid_game_json()
    data["current"] = current
    refused(data)


@pytest.mark.parametrize(
    "field",
    [
        "players",
        "supply",
        "decks",
        "board",
        "nobles",
        "current",
        "phase",
        "turn",
        "passes_this_round",
        "pending_nobles",
    ],
)
def test_refuses_a_state_missing_a_field(field: str) -> None:
    data = mid_game_json()
    del data[field]
    refused(data)


def test_refuses_a_board_row_of_the_wrong_width() -> None:
    data = mid_game_json()
    data["board"][0].append(None)
    refused(data)


def test_refuses_a_noble_in_two_places() -> None:
    data = mid_game_json()
    data["players"][0]["nobles"].append(data["nobles"][0])
    refused(data)


def test_refuses_the_wrong_number_of_nobles() -> None:
    data = mid_game_json()
    data["nobles"].pop()
    refused(data)


def test_refuses_a_pending_noble_that_is_not_on_the_table() -> None:
    data = mid_game_json()
    data["phase"] = "choose_noble"
    absent = [noble for noble in range(10) if noble not in data["nobles"]]
    data["pending_nobles"] = absent[:2]
    refused(data)


# States the rules cannot reach, which would leave the game stuck or wrong --------------------


def test_refuses_returning_tokens_when_the_player_holds_ten_or_fewer() -> None:
    data = mid_game_json()
    data["phase"] = "return_tokens"
    # Accepted, this state would wait on a decision with no options: the game could not go on.
    refused(data)


def test_refuses_choosing_a_noble_with_none_to_choose_from() -> None:
    data = mid_game_json()
    data["phase"] = "choose_noble"
    data["pending_nobles"] = []
    refused(data)


def test_refuses_a_player_above_ten_tokens_outside_the_return_phase() -> None:
    data = mid_game_json()
    hand = data["players"][(data["current"] + 1) % 3]["tokens"]
    supply = data["supply"]
    while sum(hand.values()) <= 10:
        colour = next(
            name for name in ("white", "blue", "green", "red", "black") if supply.get(name)
        )
        supply[colour] -= 1
        hand[colour] = hand.get(colour, 0) + 1
    refused(data)


@pytest.mark.parametrize("field", ["turn", "passes_this_round"])
def test_refuses_a_negative_count(field: str) -> None:
    data = mid_game_json()
    data[field] = -1
    refused(data)


# Setups ---------------------------------------------------------------------------------------


def setup_json(players: int = 3) -> Json:
    setup = engine.new_game("splendor", players, 2**41 + players)
    return json.loads(json.dumps(engine.setup_to_json(setup)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_setup_round_trips_and_deals_the_same_game(players: int) -> None:
    setup = engine.new_game("splendor", players, 2**41 + players)
    read = engine.setup_from_json(setup_json(players))
    assert read == setup
    assert engine.initial_state(read) == engine.initial_state(setup)


def move_a_card_between_levels(data: Json) -> None:
    data["decks"][0].append(data["decks"][1].pop())


def drop_a_card(data: Json) -> None:
    data["decks"][2].pop()


def repeat_a_card(data: Json) -> None:
    data["decks"][0][0] = data["decks"][0][1]


def add_a_card_that_does_not_exist(data: Json) -> None:
    data["decks"][2].append(90)


def swap_two_whole_decks(data: Json) -> None:
    data["decks"][0], data["decks"][1] = data["decks"][1], data["decks"][0]


def leave_out_a_deck(data: Json) -> None:
    data["decks"].pop()


def draw_one_noble_too_many(data: Json) -> None:
    data["nobles"].append(next(noble for noble in range(10) if noble not in data["nobles"]))


def draw_a_noble_twice(data: Json) -> None:
    data["nobles"][0] = data["nobles"][1]


def draw_a_noble_that_does_not_exist(data: Json) -> None:
    data["nobles"][0] = 10


def seat_five_players(data: Json) -> None:
    data["players"] = 5


@pytest.mark.parametrize(
    "corrupt",
    [
        move_a_card_between_levels,
        drop_a_card,
        repeat_a_card,
        add_a_card_that_does_not_exist,
        swap_two_whole_decks,
        leave_out_a_deck,
        draw_one_noble_too_many,
        draw_a_noble_twice,
        draw_a_noble_that_does_not_exist,
        seat_five_players,
    ],
)
def test_initial_state_refuses_a_setup_that_is_not_a_real_shuffle(
    corrupt: Callable[[Json], None],
) -> None:
    data = setup_json()
    corrupt(data)
    try:
        setup = engine.setup_from_json(data)
    except MalformedJSON:
        return  # refused even earlier, which is as good
    with pytest.raises(IllegalAction):
        engine.initial_state(setup)


def test_a_reordered_deck_is_still_a_real_shuffle() -> None:
    data = setup_json()
    data["decks"][1].reverse()
    setup = engine.setup_from_json(data)
    assert engine.initial_state(setup).board[1] == tuple(data["decks"][1][:4])


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "setup",
        {**setup_json(), "variant": "duel"},
        {key: value for key, value in setup_json().items() if key != "variant"},
        {key: value for key, value in setup_json().items() if key != "decks"},
        {**setup_json(), "seed": "42"},
        {**setup_json(), "decks": "shuffled"},
        {**setup_json(), "nobles": [1.0, 2, 3, 4]},
    ],
    ids=[
        "none",
        "list",
        "string",
        "other-variant",
        "no-variant",
        "no-decks",
        "seed-text",
        "decks-text",
        "noble-float",
    ],
)
def test_setup_from_json_refuses_a_malformed_setup(data: Any) -> None:
    with pytest.raises(MalformedJSON):
        engine.setup_from_json(data)
