"""Taking gem tokens: three different colours, or two of one colour, never gold.

Rulebook: "Take 1 gem token from each of 3 different color piles. You may not take gold tokens
with this action. If fewer than 3 colors are available, you may only take as many different
colors as remain." "Take 2 gem tokens from a single color pile. This action is only permitted if
there are at least 4 tokens of that color in the supply when the player takes them."
Design: fewer than three different colours only when fewer than three colours are in the supply.
"""

from __future__ import annotations

import copy
from itertools import combinations

import pytest

from games.engine import IllegalAction, State, apply_action, legal_actions
from games.engine.splendor.actions import TakeGems
from games.engine.splendor.gems import GOLD
from games.engine.splendor.state import MAIN
from tests.engine.positions import GEM_NAMES, hand, position, take


def takes(state: State) -> set[TakeGems]:
    return {action for action in legal_actions(state) if isinstance(action, TakeGems)}


def test_taking_three_different_colours_moves_one_of_each_from_the_supply() -> None:
    state = position()
    after = apply_action(state, take("white", "blue", "black"))
    assert after.supply == (3, 3, 4, 4, 3, 5)
    assert after.players[0].tokens == (1, 1, 0, 0, 1, 0)
    assert after.phase == MAIN
    assert after.current == 1


def test_taking_two_of_a_colour_moves_two_from_the_supply() -> None:
    after = apply_action(position(), take("red", "red"))
    assert after.supply == (4, 4, 4, 2, 4, 5)
    assert after.players[0].tokens == (0, 0, 0, 2, 0, 0)


def test_every_choice_of_three_colours_and_every_pair_is_offered_with_a_full_supply() -> None:
    expected = {take(*combo) for combo in combinations(GEM_NAMES, 3)}
    expected |= {take(name, name) for name in GEM_NAMES}
    assert takes(position()) == expected


def test_gold_cannot_be_taken_with_three_different() -> None:
    with pytest.raises(IllegalAction, match=r"(?i)gold"):
        apply_action(position(), TakeGems((0, 1, GOLD)))


def test_gold_cannot_be_taken_two_at_a_time() -> None:
    with pytest.raises(IllegalAction, match=r"(?i)gold"):
        apply_action(position(), TakeGems((GOLD, GOLD)))


def test_gold_is_never_offered_as_a_take() -> None:
    state = position(
        supply={"gold": 5},
        hands=[
            hand({"white": 4, "blue": 4, "green": 2}),
            hand({"green": 2, "red": 4, "black": 4}),
        ],
    )
    assert all(GOLD not in action.gems for action in takes(position()))
    assert takes(state) == set()


def test_fewer_than_three_colours_are_refused_while_three_colours_remain() -> None:
    state = position()
    with pytest.raises(IllegalAction, match="three"):
        apply_action(state, take("white", "blue"))
    with pytest.raises(IllegalAction, match="three"):
        apply_action(state, take("white"))


def test_no_tokens_at_all_is_not_a_take() -> None:
    with pytest.raises(IllegalAction):
        apply_action(position(), TakeGems(()))


def test_with_exactly_three_colours_left_all_three_must_be_taken() -> None:
    state = position(
        supply={"white": 1, "blue": 1, "green": 1, "gold": 5},
        hands=[
            hand({"white": 3, "blue": 3, "red": 3}),
            hand({"green": 3, "red": 1, "black": 4}),
        ],
    )
    assert takes(state) == {take("white", "blue", "green")}
    with pytest.raises(IllegalAction):
        apply_action(state, take("white", "blue"))


def two_colours_left() -> State:
    return position(
        supply={"blue": 1, "green": 3, "gold": 5},
        hands=[
            hand({"white": 2, "blue": 1, "red": 2, "black": 2}),
            hand({"white": 2, "blue": 2, "green": 1, "red": 2, "black": 2}),
        ],
    )


def test_with_two_colours_left_one_of_each_may_be_taken() -> None:
    state = two_colours_left()
    after = apply_action(state, take("blue", "green"))
    assert after.supply[:5] == (0, 0, 2, 0, 0)
    assert after.players[0].tokens[:5] == (2, 2, 1, 2, 2)


def test_with_two_colours_left_only_the_pair_of_them_is_offered() -> None:
    assert takes(two_colours_left()) == {take("blue", "green")}


def test_with_two_colours_left_taking_just_one_is_refused() -> None:
    with pytest.raises(IllegalAction, match="2 colour"):
        apply_action(two_colours_left(), take("green"))


def test_with_one_colour_left_one_token_of_it_may_be_taken() -> None:
    state = position(
        supply={"red": 2, "gold": 5},
        hands=[
            hand({"white": 2, "blue": 2, "green": 2, "red": 1, "black": 2}),
            hand({"white": 2, "blue": 2, "green": 2, "red": 1, "black": 2}),
        ],
    )
    assert takes(state) == {take("red")}
    after = apply_action(state, take("red"))
    assert after.supply[:5] == (0, 0, 0, 1, 0)
    assert after.players[0].tokens[3] == 2


def test_with_fewer_than_three_colours_left_two_of_a_colour_with_four_is_still_allowed() -> None:
    state = position(
        supply={"red": 4, "black": 1, "gold": 5},
        hands=[
            hand({"white": 2, "blue": 2, "green": 2, "black": 1}),
            hand({"white": 2, "blue": 2, "green": 2, "black": 2}),
        ],
    )
    assert takes(state) == {take("red", "black"), take("red", "red")}
    assert apply_action(state, take("red", "red")).supply[3] == 2


def test_an_empty_colour_cannot_be_taken() -> None:
    state = position(
        supply={"white": 4, "blue": 4, "green": 4, "red": 0, "black": 4, "gold": 5},
        hands=[hand(), hand({"red": 4})],
    )
    with pytest.raises(IllegalAction, match="red"):
        apply_action(state, take("white", "blue", "red"))
    assert all(3 not in action.gems for action in takes(state))


def test_two_of_a_colour_with_four_in_supply_is_allowed() -> None:
    state = position(
        3,
        supply={"white": 5, "blue": 5, "green": 5, "red": 4, "black": 5, "gold": 5},
        hands=[hand(), hand({"red": 1})],
    )
    assert take("red", "red") in takes(state)
    after = apply_action(state, take("red", "red"))
    assert after.supply[3] == 2
    assert after.players[0].tokens[3] == 2


def test_two_of_a_colour_needs_four_in_supply() -> None:
    state = position(
        supply={"white": 4, "blue": 4, "green": 4, "red": 3, "black": 4, "gold": 5},
        hands=[hand(), hand({"red": 1})],
    )
    assert take("red", "red") not in takes(state)
    with pytest.raises(IllegalAction, match=r"red.*4.*3"):
        apply_action(state, take("red", "red"))


def test_no_colour_may_be_repeated_in_a_take_of_three() -> None:
    state = position()
    with pytest.raises(IllegalAction, match="different colours"):
        apply_action(state, TakeGems((0, 0, 1)))
    with pytest.raises(IllegalAction, match="different colours"):
        apply_action(state, TakeGems((2, 2, 2)))


def test_more_than_three_tokens_cannot_be_taken() -> None:
    with pytest.raises(IllegalAction):
        apply_action(position(4), take("white", "blue", "green", "red"))


def test_there_is_no_seventh_colour() -> None:
    with pytest.raises(IllegalAction, match="colour"):
        apply_action(position(), TakeGems((0, 1, 7)))


def test_illegal_take_messages_are_sentences_for_a_player() -> None:
    state = position(
        supply={"white": 4, "blue": 4, "green": 4, "red": 3, "black": 4, "gold": 5},
        hands=[hand(), hand({"red": 1})],
    )
    for action in (take("red", "red"), take("white"), TakeGems((GOLD,)), TakeGems((0, 0, 1))):
        with pytest.raises(IllegalAction) as raised:
            apply_action(state, action)
        message = str(raised.value)
        assert message[:1].isupper()
        assert "TakeGems" not in message
        assert "Traceback" not in message


def test_the_state_is_unchanged_after_an_illegal_take() -> None:
    state = position(
        supply={"white": 4, "blue": 4, "green": 4, "red": 3, "black": 4, "gold": 5},
        hands=[hand(), hand({"red": 1})],
    )
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        apply_action(state, take("red", "red"))
    assert state == before
    assert apply_action(state, take("white", "blue", "red")).supply[:5] == (3, 3, 4, 2, 4)
