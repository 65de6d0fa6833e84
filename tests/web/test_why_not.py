"""A choice the base game's table does not offer says why, in the table's data: a reserve with
three reserved already, two of a colour with fewer than four in the bank, a colour the bank has
run out of, and gold, which comes only with a reserve. Positions are played on the engine from
a seed; no database."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games import engine
from games.variants.splendor.table import table_for_viewer

SEED = 7


def table_after(line: Sequence[dict[str, Any]], *, viewer: int = 0) -> dict[str, dict[str, Any]]:
    """The table ``viewer`` sees after ``line`` is played from the deal of a two-player game."""
    state = engine.initial_state(engine.new_game("splendor", 2, SEED))
    for action in line:
        state = engine.apply_action(state, engine.action_from_json(action, "splendor"))
    acting = engine.acting_seat(state)
    legal = engine.legal_actions(state) if acting == viewer else []
    data = {
        "variant": "splendor",
        "status": "active",
        "version": len(line) + 1,
        "viewer_seat": viewer,
        "acting_seat": acting,
        "seats": [
            {"index": index, "display_name": name, "bot_level": None}
            for index, name in enumerate(["alice", "bob"])
        ],
        "state": engine.view(state, viewer),
        "legal_actions": [engine.action_to_json(action) for action in legal],
        "result": None,
    }
    return table_for_viewer(data, [])


def board_cards(table: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [card for row in table["board"]["rows"] for card in row["cards"] if card]


def reserve_first_card(table: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {"type": "reserve_card", "card": board_cards(table)[0]["id"]}


def take(*gems: str) -> dict[str, Any]:
    return {"type": "take_gems", "gems": list(gems)}


def test_at_the_deal_every_choice_is_offered_and_none_says_why_not() -> None:
    table = table_after([])

    assert table["supply"]["why_not_two"] == {}
    assert table["supply"]["why_not_take"] == {"gold": "gold comes only with a reserve"}
    assert all(not row["why_not_reserve_deck"] for row in table["board"]["rows"])
    assert all(not card["why_not_reserve"] for card in board_cards(table))


def test_with_three_reserved_every_reserve_says_three_reserved_already() -> None:
    line: list[dict[str, Any]] = []
    for _ in range(3):
        line.append(reserve_first_card(table_after(line)))  # alice
        line.append(take("white", "blue", "green"))  # bob
    table = table_after(line)

    assert [row["can_reserve_deck"] for row in table["board"]["rows"]] == [False] * 3
    assert {row["why_not_reserve_deck"] for row in table["board"]["rows"]} == {
        "three reserved already"
    }
    assert {card["why_not_reserve"] for card in board_cards(table)} == {"three reserved already"}


def test_two_of_a_colour_with_fewer_than_four_left_says_how_many_are_left() -> None:
    table = table_after([take("white", "blue", "green"), take("white", "blue", "red")])

    assert table["supply"]["why_not_two"] == {
        "white": "two need four in the bank, 2 left",
        "blue": "two need four in the bank, 2 left",
        "green": "two need four in the bank, 3 left",
        "red": "two need four in the bank, 3 left",
    }
    assert "black" in {two["colour"] for two in table["supply"]["take_two"]}


def test_a_colour_the_bank_ran_out_of_says_none_left() -> None:
    line = [
        take("white", "blue", "green"),
        take("white", "blue", "red"),
        take("white", "blue", "black"),
        take("white", "blue", "green"),
    ]
    table = table_after(line)

    assert table["supply"]["why_not_take"] == {
        "white": "none left in the bank",
        "blue": "none left in the bank",
        "gold": "gold comes only with a reserve",
    }
    assert table["supply"]["why_not_two"]["white"] == "two need four in the bank, none left"


def test_nothing_says_why_not_while_it_is_another_seat_s_turn() -> None:
    table = table_after([take("white", "blue", "green")])

    assert table["supply"]["why_not_take"] == {}
    assert table["supply"]["why_not_two"] == {}
    assert all(not card["why_not_reserve"] for card in board_cards(table))
