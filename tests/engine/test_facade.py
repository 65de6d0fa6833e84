"""The facade: one registry of games keyed by variant, dispatching by the value it is given."""

from __future__ import annotations

import inspect

import pytest

import games.engine as engine
from games.engine import IllegalAction, MalformedJSON, UnknownVariant, facade
from games.engine.duel.actions import TakeTokens
from games.engine.rules import Rules
from games.engine.splendor.actions import TakeGems


def test_the_variants_are_the_base_game_and_duel() -> None:
    assert engine.VARIANTS == ("splendor", "duel")


def test_every_registered_game_provides_the_whole_rules_contract() -> None:
    members = {name for name, _ in inspect.getmembers(Rules) if not name.startswith("_")}
    assert members >= {"new_game", "apply_action", "view", "state_from_json", "VARIANT"}
    for variant, rules in facade._REGISTRY.items():
        assert variant == rules.VARIANT
        missing = [name for name in members if not hasattr(rules, name)]
        assert missing == [], f"{variant} lacks {missing}"


@pytest.mark.parametrize(("variant", "seats"), [("splendor", 3), ("duel", 2)])
def test_each_game_is_played_through_the_same_calls(variant: str, seats: int) -> None:
    setup = engine.new_game(variant, seats, 5)
    state = engine.initial_state(setup)
    assert engine.variant_of(state) == variant
    action = engine.legal_actions(state)[0]
    data = engine.action_to_json(action)
    assert engine.action_from_json(data, variant) == action
    after = engine.apply_action(state, action)
    assert engine.state_from_json(engine.state_to_json(after)) == after
    assert engine.setup_from_json(engine.setup_to_json(setup)) == setup
    assert engine.view(after, 0)["variant"] == variant
    assert engine.outcome(after) is None
    assert engine.acting_seat(after) in range(seats)


def test_the_seat_counts_come_from_each_game() -> None:
    assert engine.seat_counts("splendor") == (2, 3, 4)
    assert engine.seat_counts("duel") == (2,)


def test_an_unknown_variant_is_refused_by_name() -> None:
    with pytest.raises(UnknownVariant, match="chess"):
        engine.new_game("chess", 2, 1)
    with pytest.raises(UnknownVariant):
        engine.action_from_json({"type": "pass"}, "chess")
    with pytest.raises(MalformedJSON, match="variant"):
        engine.state_from_json({"variant": "chess"})


def test_an_action_of_one_game_is_refused_in_the_other() -> None:
    duel = engine.initial_state(engine.new_game("duel", 2, 1))
    splendor = engine.initial_state(engine.new_game("splendor", 2, 1))
    with pytest.raises(IllegalAction, match="not a Splendor Duel action"):
        engine.apply_action(duel, TakeGems((0, 1, 2)))
    with pytest.raises(IllegalAction):
        engine.apply_action(splendor, TakeTokens((0,)))


def test_a_value_of_no_known_game_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"not a known game.s state"):
        engine.legal_actions(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"not a known game.s action"):
        engine.action_to_json(object())  # type: ignore[arg-type]
