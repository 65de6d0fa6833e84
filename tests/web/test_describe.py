"""The words and values the game pages are made of, checked without a database."""

from __future__ import annotations

from typing import Any

import pytest

from games.variants import describe_action, describe_event
from games.variants.splendor.table import payment_options
from games.variants.splendor.turn_memory import Memory, remember_turn
from games.variants.words import result_for_page

NAMES = ["alice", "bob", "carol"]


def result(**fields: Any) -> dict[str, Any]:
    return {"points": [15, 15, 9], "cards_bought": [12, 14, 10], **fields}


def test_most_points_wins() -> None:
    page = result_for_page(
        result(points=[16, 15, 9], winners=[0], decided_by="points", ended_by="reached_points"),
        NAMES,
    )

    assert page["headline"] == "alice wins!"
    assert "Most points wins: alice has 16." in page["explanation"]
    assert [row["name"] for row in page["rows"]] == ["alice", "bob", "carol"]


def test_a_tie_on_points_is_broken_by_fewest_cards() -> None:
    page = result_for_page(
        result(winners=[0], decided_by="fewest_cards", ended_by="reached_points"), NAMES
    )

    assert page["headline"] == "alice wins!"
    assert "Tied on 15 points" in page["explanation"]
    assert "fewest cards bought: alice bought 12 (bob 14)" in page["explanation"]


def test_a_tie_on_points_and_cards_is_a_shared_win() -> None:
    page = result_for_page(
        result(
            cards_bought=[12, 12, 10], winners=[0, 1], decided_by="shared", ended_by="all_passed"
        ),
        NAMES,
    )

    assert page["headline"] == "alice and bob share the win!"
    assert "Every player passed in one round" in page["explanation"]
    assert "shared win" in page["explanation"]
    assert [row["is_winner"] for row in page["rows"]] == [True, True, False]


def test_a_resignation_says_who_resigned() -> None:
    page = result_for_page(
        result(winners=[1], decided_by="resignation", ended_by="resignation", resigned=[0]),
        NAMES,
    )

    assert page["headline"] == "bob wins!"
    assert "alice resigned" in page["explanation"]
    assert page["rows"][-1] == {
        "seat": 0,
        "name": "alice",
        "points": 15,
        "cards": 12,
        "is_winner": False,
        "resigned": True,
    }


def test_an_aborted_game_has_no_scores() -> None:
    page = result_for_page({"aborted": True, "reason": "called off by its creator"}, NAMES)

    assert page["headline"] == "This game was called off."
    assert page["rows"] == []


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"type": "take_gems", "gems": ["white", "blue", "red"]}, "took white, blue and red"),
        ({"type": "take_gems", "gems": ["red", "red"]}, "took two red"),
        ({"type": "reserve_card", "card": 62}, "reserved a level 2 red card worth 2 points"),
        (
            {"type": "reserve_from_deck", "level": 3},
            "reserved a card from the level 3 deck, unseen",
        ),
        ({"type": "buy_card", "card": 5}, "bought a level 1 white card"),
        (
            {"type": "buy_card", "card": 7, "payment": {"green": 3, "gold": 1}},
            "bought a level 1 white card worth 1 point, paying 3 green, 1 gold",
        ),
        ({"type": "return_tokens", "tokens": {"gold": 1}}, "gave back 1 gold"),
        ({"type": "choose_noble", "noble": 3}, "welcomed the noble asking for 4 green, 4 red"),
        ({"type": "pass"}, "passed (no move was possible)"),
    ],
)
def test_actions_in_words(action: dict[str, Any], words: str) -> None:
    assert describe_action(action, variant="splendor") == words


def test_an_event_names_its_player() -> None:
    event = {"kind": "ActionTaken", "seat": 1, "payload": {"action": {"type": "pass"}}}

    assert describe_event(event, NAMES, variant="splendor") == "bob passed (no move was possible)."


def test_a_started_game_shows_only_the_commitment() -> None:
    event = {"kind": "GameStarted", "seat": None, "payload": {"commitment": "ab" * 32}}

    assert (
        describe_event(event, NAMES, variant="splendor")
        == f"The game started (shuffle commitment {'ab' * 6}…)."
    )


def test_payment_options_put_the_default_first_and_offer_gold_in_place_of_colours() -> None:
    player = {"tokens": {"white": 2, "blue": 1, "gold": 1}, "bonuses": {"blue": 1}}
    card = {"cost": {"white": 2, "blue": 2}}

    options = payment_options(player, card)

    assert options == [
        {"white": 2, "blue": 1},
        {"white": 2, "gold": 1},
        {"white": 1, "blue": 1, "gold": 1},
    ]


def test_a_card_out_of_reach_has_no_payment() -> None:
    player = {"tokens": {"white": 1}, "bonuses": {}}

    assert payment_options(player, {"cost": {"white": 3}}) == []


def board(*cards: int) -> list[list[dict[str, int] | None]]:
    return [[{"id": card} for card in cards], [], []]


def game_data(turn: int, current: int, cards: tuple[int, ...]) -> dict[str, Any]:
    state = {"turn": turn, "current": current, "phase": "main", "board": board(*cards)}
    return {"state": state, "viewer_seat": 0, "status": "active"}


def test_new_cards_are_those_dealt_since_the_viewers_previous_turn() -> None:
    memory, seen = remember_turn(None, game_data(0, 0, (1, 2, 3)))
    assert seen is None  # a first visit highlights nothing

    memory, seen = remember_turn(memory, game_data(1, 1, (1, 4, 3)))
    assert seen == {1, 2, 3}  # while the others play: new since my latest turn

    memory, seen = remember_turn(memory, game_data(2, 0, (1, 4, 5)))
    assert seen == {1, 2, 3}  # my turn again: new since my previous one
    assert memory == Memory(turn=2, board=(1, 4, 5), before=(1, 2, 3))
