"""Actions as JSON, and values at the boundary.

Design: actions round-trip through plain JSON dicts (the format the REST API speaks); a malformed
one raises ``MalformedJSON``, an ``IllegalAction`` whose message a player can read;
``apply_action`` never mutates its input.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import (
    Action,
    IllegalAction,
    MalformedJSON,
    State,
    action_from_json,
    action_to_json,
    apply_action,
    state_to_json,
)
from games.engine.splendor.actions import (
    BuyCard,
    ChooseNoble,
    Pass,
    ReserveCard,
    ReserveFromDeck,
    ReturnTokens,
    TakeGems,
)
from tests.engine.positions import cards_where, hand, noble_where, position, take, tokens

EVERY_KIND: list[tuple[Action, dict[str, Any]]] = [
    (take("white", "blue", "black"), {"type": "take_gems", "gems": ["white", "blue", "black"]}),
    (take("red", "red"), {"type": "take_gems", "gems": ["red", "red"]}),
    (take("green"), {"type": "take_gems", "gems": ["green"]}),
    (ReserveCard(62), {"type": "reserve_card", "card": 62}),
    (ReserveFromDeck(3), {"type": "reserve_from_deck", "level": 3}),
    (BuyCard(12), {"type": "buy_card", "card": 12}),
    (
        BuyCard(12, tokens(white=1, green=1, gold=2)),
        {"type": "buy_card", "card": 12, "payment": {"white": 1, "green": 1, "gold": 2}},
    ),
    (ReturnTokens(tokens(gold=1)), {"type": "return_tokens", "tokens": {"gold": 1}}),
    (ChooseNoble(7), {"type": "choose_noble", "noble": 7}),
    (Pass(), {"type": "pass"}),
]


@pytest.mark.parametrize(("action", "data"), EVERY_KIND, ids=lambda x: type(x).__name__)
def test_every_kind_of_action_round_trips_through_json(
    action: Action, data: dict[str, Any]
) -> None:
    assert action_to_json(action) == data
    assert action_from_json(data, "splendor") == action
    text = json.dumps(action_to_json(action))
    assert action_from_json(json.loads(text), "splendor") == action


def test_the_colours_of_a_take_may_come_in_any_order() -> None:
    data = {"type": "take_gems", "gems": ["black", "white", "blue"]}
    assert action_from_json(data, "splendor") == take("white", "blue", "black")


def malformed(data: Any) -> str:
    with pytest.raises(MalformedJSON) as raised:
        action_from_json(data, "splendor")
    return str(raised.value)


def test_malformed_json_is_an_illegal_action_and_a_value_error() -> None:
    assert issubclass(MalformedJSON, IllegalAction)
    assert issubclass(MalformedJSON, ValueError)
    with pytest.raises(IllegalAction):
        action_from_json({"type": "fly"}, "splendor")


@pytest.mark.parametrize("data", [None, [], "pass", 3, ["type", "pass"]])
def test_an_action_that_is_not_an_object_is_malformed(data: Any) -> None:
    assert "object" in malformed(data)


def test_an_unknown_action_type_is_malformed_and_the_known_ones_are_listed() -> None:
    message = malformed({"type": "steal_gems"})
    assert "steal_gems" in message
    assert "take_gems" in message


def test_an_action_without_a_type_is_malformed() -> None:
    assert "type" in malformed({"card": 3})


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"type": "take_gems"}, "gems"),
        ({"type": "reserve_card"}, "card"),
        ({"type": "reserve_from_deck"}, "level"),
        ({"type": "buy_card"}, "card"),
        ({"type": "return_tokens"}, "tokens"),
        ({"type": "choose_noble"}, "noble"),
    ],
)
def test_a_missing_field_is_malformed(data: dict[str, Any], field: str) -> None:
    assert field in malformed(data)


@pytest.mark.parametrize(
    ("data", "extra"),
    [
        ({"type": "pass", "card": 3}, "card"),
        ({"type": "reserve_card", "card": 3, "gold": True}, "gold"),
        ({"type": "take_gems", "gems": ["red", "red"], "seat": 1}, "seat"),
    ],
)
def test_an_extra_field_is_malformed(data: dict[str, Any], extra: str) -> None:
    assert extra in malformed(data)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"type": "reserve_card", "card": "62"}, "card"),
        ({"type": "reserve_card", "card": 62.0}, "card"),
        ({"type": "reserve_card", "card": True}, "card"),
        ({"type": "reserve_card", "card": None}, "card"),
        ({"type": "reserve_from_deck", "level": "3"}, "level"),
        ({"type": "choose_noble", "noble": [7]}, "noble"),
        ({"type": "take_gems", "gems": "red"}, "gems"),
        ({"type": "take_gems", "gems": [3, 4]}, "gems"),
        ({"type": "take_gems", "gems": {"red": 2}}, "gems"),
        ({"type": "buy_card", "card": 12, "payment": [1, 0, 0, 0, 0, 0]}, "payment"),
        ({"type": "buy_card", "card": 12, "payment": {"white": "1"}}, "white"),
        ({"type": "buy_card", "card": 12, "payment": {"white": 1.5}}, "white"),
        ({"type": "return_tokens", "tokens": "gold"}, "tokens"),
        ({"type": "return_tokens", "tokens": {"gold": True}}, "gold"),
    ],
)
def test_a_field_of_the_wrong_type_is_malformed(data: dict[str, Any], field: str) -> None:
    assert field in malformed(data)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "take_gems", "gems": ["red", "purple"]},
        {"type": "buy_card", "card": 12, "payment": {"purple": 1}},
        {"type": "return_tokens", "tokens": {"purple": 1}},
    ],
)
def test_an_unknown_colour_is_malformed(data: dict[str, Any]) -> None:
    assert "purple" in malformed(data)


@pytest.mark.parametrize(
    "data",
    [
        {"type": "buy_card", "card": 12, "payment": {"red": -1}},
        {"type": "return_tokens", "tokens": {"red": 2, "gold": -1}},
    ],
)
def test_a_negative_count_is_malformed(data: dict[str, Any]) -> None:
    message = malformed(data)
    assert "zero or more" in message


def test_a_well_formed_action_against_the_rules_is_illegal_but_not_malformed() -> None:
    action = action_from_json({"type": "take_gems", "gems": ["gold"]}, "splendor")
    with pytest.raises(IllegalAction) as raised:
        apply_action(position(), action)
    assert not isinstance(raised.value, MalformedJSON)


def start() -> State:
    return position(hands=[hand({"blue": 2, "green": 1}, reserved=[25])])


def over_ten() -> State:
    held = {"white": 2, "blue": 2, "green": 2, "red": 2, "black": 2}
    return apply_action(position(hands=[hand(held)]), take("white", "blue", "green"))


def two_nobles() -> State:
    def level_one(colour: str) -> list[int]:
        return cards_where(level=1, colour=colour, points=0)[:3]

    owned = [*level_one("white"), *level_one("blue"), *level_one("green")[:2], *level_one("red")]
    state = position(
        board={1: [19, 32, 33, 34]},
        hands=[hand(cards=owned)],
        nobles=[
            noble_where(white=3, blue=3, green=3),
            noble_where(blue=3, green=3, red=3),
            noble_where(red=4, black=4),
        ],
    )
    return apply_action(state, BuyCard(19))


def nobody_can_act() -> State:
    return position(
        supply={"gold": 5},
        board={1: [30, 12, 36, 21], 2: [41, 49, 62, 60], 3: [70, 74, 78, 82]},
        hands=[
            hand({"white": 4, "blue": 4, "green": 2}, reserved=[45, 51, 73]),
            hand({"green": 2, "red": 4, "black": 4}, reserved=[57, 63, 69]),
        ],
    )


# (position, action, whether the rules allow it): every kind of action, legal and illegal.
EVERY_KIND_IN_PLAY: list[tuple[Callable[[], State], Action, bool]] = [
    (start, take("white", "blue", "black"), True),
    (start, take("red", "red"), True),
    (start, take("white"), False),
    (start, ReserveCard(40), True),
    (start, ReserveCard(89), False),
    (start, ReserveFromDeck(2), True),
    (start, BuyCard(25), True),
    (start, BuyCard(25, tokens(blue=1, green=1, gold=1)), False),
    (over_ten, ReturnTokens(tokens(white=1, blue=1, green=1)), True),
    (over_ten, ReturnTokens(tokens(gold=3)), False),
    (two_nobles, ChooseNoble(noble_where(white=3, blue=3, green=3)), True),
    (two_nobles, ChooseNoble(noble_where(red=4, black=4)), False),
    (nobody_can_act, Pass(), True),
    (start, Pass(), False),
]


@pytest.mark.parametrize(("build", "action", "legal"), EVERY_KIND_IN_PLAY)
def test_applying_an_action_never_changes_the_state_given(
    build: Callable[[], State], action: Action, legal: bool
) -> None:
    state = build()
    before = copy.deepcopy(state)
    before_json = copy.deepcopy(state_to_json(state))
    if legal:
        assert apply_action(state, action) != state
    else:
        with pytest.raises(IllegalAction):
            apply_action(state, action)
    assert state == before
    assert state_to_json(state) == before_json


def test_every_spelling_of_a_take_card_or_reserve_parses_to_the_same_action() -> None:
    # The commonest forms are looked up rather than parsed (a replay reads one per action):
    # every spelling, in any order, must give what the rules of the notation say.
    names = ["white", "blue", "green", "red", "black", "gold"]
    for size in range(4):
        for gems in itertools.product(names, repeat=size):
            data = {"type": "take_gems", "gems": list(gems)}
            assert action_from_json(data, "splendor") == TakeGems(
                tuple(sorted(map(names.index, gems)))
            )
    for card in [-1, 0, 45, 89, 90, 10**6]:
        assert action_from_json({"type": "buy_card", "card": card}, "splendor") == BuyCard(card)
        assert action_from_json({"type": "reserve_card", "card": card}, "splendor") == ReserveCard(
            card
        )
    for bad in [True, 1.0, "3", None]:
        with pytest.raises(MalformedJSON, match="card must be a whole number"):
            action_from_json({"type": "buy_card", "card": bad}, "splendor")
    with pytest.raises(MalformedJSON, match="unknown action type"):
        action_from_json({"type": ["take_gems"], "gems": []}, "splendor")
