"""The readers refuse bookkeeping no game can reach, and setups ``new_game`` cannot draw.

``state_from_json`` used to check where the cards and tokens are but not the turn counter, the
seat to act or the passes of the round, so a state whose round had recorded two passes before
anyone played in it ended the game "all passed" after two ordinary turns. ``setup_from_json``
let a setup with the wrong nobles or decks through, to fail later inside ``initial_state``.
The property tests at the end perturb reachable states and real setups: each perturbation is
refused with ``MalformedJSON`` or leaves something consistent that plays on by the rules.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games.engine as engine
from games.engine import MalformedJSON

Json = dict[str, Any]
PHASES = ("main", "return_tokens", "choose_noble", "game_over")
COLOURS = ("white", "blue", "green", "red", "black", "gold")
WINNING_POINTS = 15
LEVEL_SIZES = {1: 40, 2: 30, 3: 20}
NOBLE_COUNT = 10


def played(players: int, seed: int, actions: int) -> engine.State:
    """The state after ``actions`` random legal actions (fewer if the game ends first)."""
    state = engine.initial_state(engine.new_game("splendor", players, seed))
    rng = random.Random(seed)
    for _ in range(actions):
        if engine.outcome(state) is not None:
            break
        state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
    return state


def as_json(state: engine.State) -> Json:
    return json.loads(json.dumps(engine.state_to_json(state)))


def read(reader: Any, data: Json) -> tuple[Any, str | None]:
    """What ``reader`` makes of ``data``, or None and its refusal's message."""
    try:
        return reader(copy.deepcopy(data)), None
    except MalformedJSON as error:
        return None, str(error)


def refusal(data: Any, reader: Any = engine.state_from_json) -> str:
    with pytest.raises(MalformedJSON) as caught:
        reader(data)
    return str(caught.value)


def reached(players: int, wanted: Any, seed: int = 77) -> engine.State:
    """The first state of a random game (from ``seed`` on) for which ``wanted`` holds."""
    for attempt in range(seed, seed + 50):
        state = engine.initial_state(engine.new_game("splendor", players, attempt))
        rng = random.Random(attempt)
        while True:
            if wanted(state):
                return state
            if engine.outcome(state) is not None:
                break
            state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
    raise AssertionError("no random game reached the wanted state")


def round_start(players: int = 2) -> Json:
    """A state in the main phase at the start of a round after the first."""
    return as_json(
        reached(players, lambda s: s.phase == "main" and s.current == 0 and s.turn >= 2 * players)
    )


# Turns, seats and passes ----------------------------------------------------------------------


def test_a_round_that_recorded_passes_before_anyone_played_in_it_is_refused() -> None:
    data = round_start()
    data["passes_this_round"] = 2
    assert "pass" in refusal(data)


def test_a_round_cannot_record_more_passes_than_players_who_have_played() -> None:
    data = as_json(reached(3, lambda s: s.phase == "main" and s.current == 1 and s.turn > 3))
    data["passes_this_round"] = 2
    assert "pass" in refusal(data)


def test_the_seat_to_act_must_follow_the_turn_number() -> None:
    data = round_start(3)
    data["current"] = 1
    assert "seat" in refusal(data)


def test_a_turn_number_from_another_seat_is_refused() -> None:
    data = round_start(3)
    data["turn"] += 1
    assert "seat" in refusal(data)


def test_a_game_cannot_end_in_the_middle_of_a_round() -> None:
    data = round_start(3)
    data["phase"] = "game_over"
    data["passes_this_round"] = 3
    assert "round" in refusal(data)


def test_a_game_ends_only_with_fifteen_points_or_a_round_of_passes() -> None:
    data = round_start(2)
    data["phase"] = "game_over"
    data["current"] = 1
    assert "15 points" in refusal(data)


def test_the_round_after_someone_reached_fifteen_points_never_starts() -> None:
    def won_on_points(state: engine.State) -> bool:
        result = engine.outcome(state)
        return result is not None and result.ended_by == "reached_points"

    data = as_json(reached(2, won_on_points))
    data.update(phase="main", current=0, passes_this_round=0)
    assert "15 points" in refusal(data)


# Setups ---------------------------------------------------------------------------------------


def setup_json(players: int = 3) -> Json:
    return json.loads(json.dumps(engine.setup_to_json(engine.new_game("splendor", players, 9))))


def test_a_setup_with_too_few_nobles_for_its_players_is_refused() -> None:
    data = setup_json(3)
    data["nobles"].pop()
    assert "4 nobles" in refusal(data, engine.setup_from_json)


def test_a_setup_with_a_noble_too_many_is_refused() -> None:
    data = setup_json(2)
    data["nobles"].append(next(n for n in range(NOBLE_COUNT) if n not in data["nobles"]))
    assert "3 nobles" in refusal(data, engine.setup_from_json)


def test_a_setup_missing_a_card_names_it() -> None:
    data = setup_json()
    missing = data["decks"][1].pop(5)
    assert f"lacks card {missing}" in refusal(data, engine.setup_from_json)


def test_a_setup_listing_a_card_twice_names_it() -> None:
    data = setup_json()
    data["decks"][2][0] = data["decks"][2][1]
    assert f"card {data['decks'][2][1]} more than once" in refusal(data, engine.setup_from_json)


def test_a_setup_with_a_card_of_another_level_names_it() -> None:
    data = setup_json()
    data["decks"][0][0], data["decks"][1][0] = data["decks"][1][0], data["decks"][0][0]
    assert f"card {data['decks'][0][0]} is not a level 1 card" in refusal(
        data, engine.setup_from_json
    )


def test_a_setup_with_a_card_too_many_is_refused() -> None:
    data = setup_json()
    data["decks"][2].append(data["decks"][2][0])
    assert "more than once" in refusal(data, engine.setup_from_json)


def test_a_setup_listing_a_flag_for_a_card_is_refused() -> None:
    data = setup_json()
    card_one = data["decks"][0].index(1)
    data["decks"][0][card_one] = True  # equal to 1 as a number, and not a card
    assert "decks must be a whole number" in refusal(data, engine.setup_from_json)


# Properties: perturb, then refused or still consistent ----------------------------------------


def bookkeeping_problem(state: engine.State) -> str | None:
    """The rules' bookkeeping, stated independently of the engine: None when it holds."""
    seats = len(state.players)
    top = max(player.points for player in state.players)
    if state.phase == "game_over":
        if state.turn == 0 or state.turn % seats or state.current != seats - 1:
            return "ended mid-round"
        if top < WINNING_POINTS and state.passes_this_round != seats:
            return "ended without cause"
        return None
    if state.current != state.turn % seats:
        return "seat out of step"
    if state.passes_this_round > state.current + (state.phase == "choose_noble"):
        return "passes before play"
    if state.phase == "main" and state.current == 0 and state.turn and top >= WINNING_POINTS:
        return "round after fifteen points"
    return None


def plays_on_by_the_rules(state: engine.State, rng: random.Random) -> None:
    """Every successor is readable and keeps the bookkeeping; the game ends in time."""
    for _ in range(600):
        assert bookkeeping_problem(state) is None, bookkeeping_problem(state)
        assert engine.state_from_json(as_json(state)) == state
        if engine.outcome(state) is not None:
            return
        state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
    raise AssertionError("the game did not end within 600 actions")


def perturb_state(data: Json, rng: random.Random, how: str) -> None:
    seats = len(data["players"])
    if how == "turn":
        data["turn"] = rng.randrange(0, 200)
    elif how == "turn_by_rounds":
        data["turn"] += seats * rng.randrange(1, 5)
    elif how == "current":
        data["current"] = rng.randrange(seats)
    elif how == "passes":
        data["passes_this_round"] = rng.randrange(seats + 1)
    elif how == "phase":
        data["phase"] = rng.choice(PHASES)
    elif how == "token":
        holder = rng.choice([data["supply"], *(player["tokens"] for player in data["players"])])
        colour = rng.choice(COLOURS)
        holder[colour] = max(0, holder.get(colour, 0) + rng.choice((-1, 1)))
    elif how == "move_token":
        player = rng.choice(data["players"])
        colour = rng.choice(COLOURS)
        if data["supply"].get(colour, 0):
            data["supply"][colour] -= 1
            player["tokens"][colour] = player["tokens"].get(colour, 0) + 1
    elif how == "card":
        row = rng.choice([row for row in data["board"] if any(c is not None for c in row)])
        card = rng.choice([card for card in row if card is not None])
        rng.choice(data["players"])[rng.choice(("cards", "reserved"))].append(card)
    elif how == "pending":
        data["pending_nobles"] = rng.sample(data["nobles"], min(2, len(data["nobles"])))


STATE_PERTURBATIONS = (
    "turn", "turn_by_rounds", "current", "passes", "phase", "token", "move_token", "card",
    "pending",
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    actions=st.integers(0, 250),
    perturbations=st.lists(st.sampled_from(STATE_PERTURBATIONS), min_size=1, max_size=3),
)
def test_a_perturbed_reachable_state_is_refused_or_still_consistent(
    players: int, seed: int, actions: int, perturbations: list[str]
) -> None:
    rng = random.Random(seed)
    data = as_json(played(players, seed, actions))
    for how in perturbations:
        perturb_state(data, rng, how)
    state, problem = read(engine.state_from_json, data)
    if problem is not None:
        assert problem.strip(), "a refusal names the problem"
        return
    plays_on_by_the_rules(state, rng)


def perturb_setup(data: Json, rng: random.Random, how: str) -> None:
    if how == "players":
        data["players"] = rng.randrange(1, 6)
    elif how == "drop_noble" and data["nobles"]:
        data["nobles"].pop(rng.randrange(len(data["nobles"])))
    elif how == "add_noble":
        data["nobles"].append(rng.randrange(NOBLE_COUNT + 1))
    elif how == "drop_card":
        deck = rng.choice(data["decks"])
        deck.pop(rng.randrange(len(deck)))
    elif how == "repeat_card":
        deck = rng.choice(data["decks"])
        deck[rng.randrange(len(deck))] = rng.choice(deck)
    elif how == "swap_levels":
        first, second = rng.sample(range(3), 2)
        data["decks"][first].append(data["decks"][second].pop())
    elif how == "shuffle":
        rng.shuffle(rng.choice(data["decks"]))


SETUP_PERTURBATIONS = (
    "players", "drop_noble", "add_noble", "drop_card", "repeat_card", "swap_levels", "shuffle",
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**52),
    perturbations=st.lists(st.sampled_from(SETUP_PERTURBATIONS), min_size=1, max_size=3),
)
def test_a_perturbed_setup_is_refused_or_still_a_real_deal(
    players: int, seed: int, perturbations: list[str]
) -> None:
    rng = random.Random(seed)
    data = json.loads(json.dumps(engine.setup_to_json(engine.new_game("splendor", players, seed))))
    for how in perturbations:
        perturb_setup(data, rng, how)
    setup, problem = read(engine.setup_from_json, data)
    if problem is not None:
        assert problem.strip(), "a refusal names the problem"
        return
    assert len(set(setup.nobles)) == setup.players + 1
    for level, deck in zip((1, 2, 3), setup.decks, strict=True):
        assert len(set(deck)) == len(deck) == LEVEL_SIZES[level]
    # The deal must come from the setup alone, so initial_state cannot refuse it any more.
    plays_on_by_the_rules(engine.initial_state(setup), rng)
