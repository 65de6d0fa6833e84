"""The JSON of Duel actions, setups and states (docs/notation.md, "Splendor Duel").

Readers refuse malformed or inconsistent input with ``MalformedJSON``, saying what is wrong.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import games.engine as engine
from games.engine import MalformedJSON
from games.engine.duel import actions as duel
from games.engine.duel.state import DuelState
from tests.engine.duel.positions import hand, position

Json = dict[str, Any]

EXAMPLES: list[tuple[Json, duel.Action]] = [
    ({"type": "use_privilege", "space": [4, 0]}, duel.UsePrivilege(20)),
    ({"type": "replenish"}, duel.Replenish()),
    ({"type": "take_tokens", "spaces": [[0, 0], [1, 1], [2, 2]]}, duel.TakeTokens((0, 6, 12))),
    ({"type": "take_gold", "space": [2, 3]}, duel.TakeGold(13)),
    ({"type": "reserve_card", "card": 57}, duel.ReserveCard(57)),
    ({"type": "reserve_from_deck", "level": 2}, duel.ReserveFromDeck(2)),
    ({"type": "buy_card", "card": 12}, duel.BuyCard(12)),
    (
        {"type": "buy_card", "card": 12, "payment": {"red": 1, "pearl": 1, "gold": 1}},
        duel.BuyCard(12, (0, 0, 0, 1, 0, 1, 1)),
    ),
    ({"type": "choose_joker_colour", "colour": "green"}, duel.ChooseJokerColour(2)),
    ({"type": "take_matching_token", "space": [1, 4]}, duel.TakeMatchingToken(9)),
    ({"type": "steal_token", "colour": "pearl"}, duel.StealToken(5)),
    ({"type": "choose_royal", "royal": 3}, duel.ChooseRoyal(3)),
    (
        {"type": "discard_tokens", "tokens": {"white": 1, "gold": 1}},
        duel.DiscardTokens((1, 0, 0, 0, 0, 0, 1)),
    ),
    ({"type": "pass"}, duel.Pass()),
]


@pytest.mark.parametrize(("data", "action"), EXAMPLES, ids=[d["type"] for d, _ in EXAMPLES])
def test_each_documented_action_reads_and_writes_back(data: Json, action: duel.Action) -> None:
    assert engine.action_from_json(data, "duel") == action
    assert engine.action_to_json(action) == data


def test_the_spaces_of_a_line_are_read_in_any_order() -> None:
    data = {"type": "take_tokens", "spaces": [[2, 2], [0, 0], [1, 1]]}
    assert engine.action_from_json(data, "duel") == duel.TakeTokens((0, 6, 12))


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ([], "JSON object"),
        ({"type": "take_gems", "gems": []}, "unknown action type"),
        ({"type": "take_tokens"}, "needs the field"),
        ({"type": "take_tokens", "spaces": [[0, 0]], "extra": 1}, "unexpected field"),
        ({"type": "take_tokens", "spaces": [[0, 5]]}, r"\[row, column\]"),
        ({"type": "take_tokens", "spaces": [[0]]}, r"\[row, column\]"),
        ({"type": "take_tokens", "spaces": "0,0"}, "list"),
        ({"type": "use_privilege", "space": [1.0, 2]}, r"\[row, column\]"),
        ({"type": "reserve_card", "card": "5"}, "whole number"),
        ({"type": "choose_joker_colour", "colour": "purple"}, "colour must be"),
        ({"type": "discard_tokens", "tokens": {"white": -1}}, "zero or more"),
        ({"type": "buy_card", "card": 1, "payment": {"ruby": 1}}, "unknown colour"),
    ],
)
def test_malformed_actions_are_refused(data: Any, reason: str) -> None:
    with pytest.raises(MalformedJSON, match=reason):
        engine.action_from_json(data, "duel")


def test_a_setup_round_trips_and_says_it_is_a_duel() -> None:
    setup = engine.new_game("duel", 2, 99)
    data = json.loads(json.dumps(engine.setup_to_json(setup)))
    assert data["variant"] == "duel"
    assert data["players"] == 2
    assert len(data["tokens"]) == 25
    assert engine.setup_from_json(data) == setup


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(players=3), "2 players"),
        (lambda d: d["decks"][0].pop(), "decks"),
        (lambda d: d["tokens"].__setitem__(0, "ruby"), "not a token colour"),
        (lambda d: d["tokens"].pop(), "tokens"),
        (lambda d: d["bag_draws"][0].__setitem__(0, 99), "bag draw"),
        (lambda d: d.update(first_player=2), "first player"),
        (lambda d: d.pop("seed"), "lacks: seed"),
        (lambda d: d.update(variant="splendor"), "lacks"),
    ],
)
def test_an_inconsistent_setup_is_refused(change: Any, reason: str) -> None:
    data = engine.setup_to_json(engine.new_game("duel", 2, 99))
    change(data)
    with pytest.raises(MalformedJSON, match=reason):
        engine.setup_from_json(data)


def state_json(state: DuelState | None = None) -> Json:
    return copy.deepcopy(engine.state_to_json(state or position()))


def test_a_state_round_trips_through_json() -> None:
    state = position(hands=[hand({"red": 2}, privileges=1, cards=[5, 26], jokers={26: "blue"})])
    assert engine.state_from_json(json.loads(json.dumps(engine.state_to_json(state)))) == state


def refuse(data: Json, reason: str) -> None:
    with pytest.raises(MalformedJSON, match=reason):
        engine.state_from_json(data)


def test_refuses_tokens_that_do_not_add_up_to_25() -> None:
    data = state_json()
    data["bag"]["white"] = data["bag"].get("white", 0) + 1
    refuse(data, "add up to 25")


def test_refuses_a_card_in_two_places() -> None:
    data = state_json()
    data["players"][0]["reserved"] = [data["pyramid"][0][0]]
    refuse(data, "exactly one place")


def test_refuses_more_than_three_privileges() -> None:
    data = state_json()
    data["players"][0]["privileges"] = 2
    data["players"][1]["privileges"] = 2
    refuse(data, "privileges")


def test_refuses_a_royal_without_the_crowns_for_it() -> None:
    data = state_json()
    data["players"][0]["royals"] = [0]
    data["royals"] = [1, 2, 3]
    refuse(data, "crown threshold")


def test_refuses_a_joker_joined_to_a_colour_the_player_had_no_card_of() -> None:
    data = state_json(position(hands=[hand(cards=[5, 26], jokers={26: "blue"})]))
    data["players"][0]["card_colours"] = ["blue", "red"]
    refuse(data, "joker card 26")


def test_refuses_a_card_counted_in_another_colour_than_its_own() -> None:
    data = state_json(position(hands=[hand(cards=[5])]))
    data["players"][0]["card_colours"] = ["red"]
    refuse(data, "its own colour")


def test_refuses_a_pending_card_outside_the_purchase_phases() -> None:
    data = state_json(position(hands=[hand(cards=[5])]))
    data["pending_card"] = 5
    refuse(data, "pending card")


def test_refuses_a_discard_phase_without_an_excess() -> None:
    data = state_json()
    data["phase"] = "discard_tokens"
    refuse(data, "more than 10")


def test_refuses_a_bad_board() -> None:
    data = state_json()
    data["board"] = data["board"][:4]
    refuse(data, "5 rows")
    data = state_json()
    data["board"][0][0] = "ruby"
    refuse(data, "not a token colour")


def test_refuses_a_game_that_should_already_be_over() -> None:
    fours = [55, 57, 59, 61]
    with pytest.raises(MalformedJSON, match="already won"):
        position(hands=[hand(cards=[*fours, 66])])  # 22 points, yet the game goes on


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("phase", "nap", "unknown phase"),
        ("current", 2, "seat 0 or 1"),
        ("extra_turn", 1, "true or false"),
        ("turn", -1, "counts"),
        ("bag_draws", [], "shuffle of 0 to 24"),
        ("variant", "chess", "variant of"),
    ],
)
def test_refuses_a_bad_field(field: str, value: Any, reason: str) -> None:
    data = state_json()
    data[field] = value
    refuse(data, reason)


def test_refuses_a_state_missing_a_field_or_with_an_unknown_one() -> None:
    data = state_json()
    del data["passes"]
    refuse(data, "lacks: passes")
    data = state_json()
    data["seed"] = 1
    refuse(data, "unknown field")


def test_every_action_example_in_the_notation_reads_and_writes_back() -> None:
    notation = Path(__file__).resolve().parents[3] / "docs" / "notation.md"
    duel_section = notation.read_text(encoding="utf-8").split("# Splendor Duel", 1)[1]
    examples = [
        json.loads(line) for line in duel_section.splitlines() if line.startswith('{"type": ')
    ]
    assert len(examples) == len(EXAMPLES)
    for data in examples:
        assert engine.action_to_json(engine.action_from_json(data, "duel")) == data
