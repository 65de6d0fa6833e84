"""The optional actions, in order: spend privileges, then replenish the board.

Rulebook, "Use a Privilege": return 1 or more privileges; for each, take 1 gem or pearl token of
your choice from the board, never gold. "Replenish the Game Board": not when the bag is empty;
place the bag's tokens on the empty spaces from the centre along the spiral; then the opponent
takes 1 privilege. When you must take a privilege and none is left above the board, take 1 from
your opponent; with all 3 already, nothing happens. "Special case": with no mandatory action
possible, the board must be replenished first.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, apply_action, legal_actions, outcome
from games.engine.duel.actions import (
    DiscardTokens,
    Pass,
    Replenish,
    TakeGold,
    TakeTokens,
    UsePrivilege,
)
from games.engine.duel.catalogue import CARDS, SPIRAL
from games.engine.duel.state import MAIN, MANDATORY, DuelState
from tests.engine.duel.positions import EMPTY_BOARD, hand, line, position, space, tokens

PLAIN_BOARD = ["WBGRK", "WBGRK", "WBGRK", "WBGRK", "PPYYY"]


def test_spending_a_privilege_takes_a_chosen_token_and_returns_the_privilege() -> None:
    state = position(board=PLAIN_BOARD, hands=[hand(privileges=1)])
    after = apply_action(state, UsePrivilege(space(4, 0)))
    assert after.players[0].tokens == tokens(pearl=1)
    assert after.players[0].privileges == 0
    assert after.board[space(4, 0)] == -1
    assert after.phase == MAIN
    assert after.current == 0


def test_several_privileges_can_be_spent_one_after_another_in_one_turn() -> None:
    state = position(board=PLAIN_BOARD, hands=[hand(privileges=3)])
    after = state
    for column in range(3):
        after = apply_action(after, UsePrivilege(space(0, column)))
    assert after.players[0].tokens == tokens(white=1, blue=1, green=1)
    assert after.players[0].privileges == 0
    assert after.current == 0


def test_a_privilege_cannot_take_gold() -> None:
    state = position(board=PLAIN_BOARD, hands=[hand(privileges=1)])
    with pytest.raises(IllegalAction, match=r"(?i)gold"):
        apply_action(state, UsePrivilege(space(4, 4)))
    assert UsePrivilege(space(4, 4)) not in legal_actions(state)


def test_a_privilege_cannot_take_from_an_empty_space() -> None:
    state = position(board=["WBGR.", *PLAIN_BOARD[1:]], hands=[hand(privileges=1)])
    with pytest.raises(IllegalAction, match="no token"):
        apply_action(state, UsePrivilege(space(0, 4)))


def test_no_privilege_can_be_spent_without_holding_one() -> None:
    state = position(board=PLAIN_BOARD)
    with pytest.raises(IllegalAction, match="no privilege"):
        apply_action(state, UsePrivilege(space(0, 0)))
    assert not [action for action in legal_actions(state) if isinstance(action, UsePrivilege)]


def test_privileges_are_offered_for_every_gem_and_pearl_token_on_the_board() -> None:
    state = position(board=PLAIN_BOARD, hands=[hand(privileges=1)])
    offered = {action.space for action in legal_actions(state) if isinstance(action, UsePrivilege)}
    assert offered == set(range(22))


def test_replenishing_lays_the_bag_along_the_spiral_in_the_recorded_draw_order() -> None:
    board = [".....", ".WBG.", ".R.K.", ".....", "....."]
    state = position(board=board, bag_draws=[list(reversed(range(25)))])
    bag = [colour for colour, count in enumerate(state.bag) for _ in range(count)]
    after = apply_action(state, Replenish())
    empties = [row * 5 + column for row, column in SPIRAL if state.board[row * 5 + column] < 0]
    # The recorded order 24, 23, ... 0 keeps the entries below the bag's size: the bag's
    # listing (in colour order) read backwards.
    assert [after.board[cell] for cell in empties] == list(reversed(bag))
    assert sum(after.bag) == 0
    for cell in range(25):
        if state.board[cell] >= 0:
            assert after.board[cell] == state.board[cell]


def test_the_bag_draw_takes_the_entries_of_the_recorded_shuffle_below_the_bag_size() -> None:
    board = ["WBGRK", "WBGRK", "WBGRK", "WBGR.", "PP..."]
    # The bag: black, gold, gold, gold (listed in colour order: 0=black, 1..3=gold).
    shuffle = [24, 3, 10, 1, 2, 0, *range(4, 10), *range(11, 24)]
    state = position(board=board, bag_draws=[shuffle])
    after = apply_action(state, Replenish())
    empties_in_spiral_order = [space(4, 2), space(4, 3), space(3, 4), space(4, 4)]
    black, gold = 4, 6
    assert [after.board[cell] for cell in empties_in_spiral_order] == [gold, gold, gold, black]


def test_replenishing_gives_the_opponent_a_privilege() -> None:
    state = position(board=[".....", *PLAIN_BOARD[1:]])
    after = apply_action(state, Replenish())
    assert after.players[1].privileges == 1
    assert after.players[0].privileges == 0


def test_after_replenishing_only_a_mandatory_action_is_left() -> None:
    state = position(board=[".....", *PLAIN_BOARD[1:]], hands=[hand(privileges=1)])
    after = apply_action(state, Replenish())
    assert after.phase == MANDATORY
    assert after.current == 0
    with pytest.raises(IllegalAction, match="before replenishing"):
        apply_action(after, UsePrivilege(space(1, 0)))
    with pytest.raises(IllegalAction, match="already replenished"):
        apply_action(after, Replenish())
    kinds = {type(action) for action in legal_actions(after)}
    assert kinds <= {TakeTokens, TakeGold}


def test_privileges_may_be_spent_and_then_the_board_replenished_in_the_same_turn() -> None:
    state = position(board=[".....", *PLAIN_BOARD[1:]], hands=[hand(privileges=1)])
    after = apply_action(apply_action(state, UsePrivilege(space(1, 0))), Replenish())
    assert after.phase == MANDATORY
    assert after.players[0].tokens == tokens(white=1)


def test_replenishing_from_an_empty_bag_is_refused() -> None:
    state = position(board=[*PLAIN_BOARD[:4], "PPYYY"])
    assert sum(state.bag) == 0
    with pytest.raises(IllegalAction, match="bag is empty"):
        apply_action(state, Replenish())
    assert Replenish() not in legal_actions(state)


def test_replenishing_uses_the_next_recorded_draw_order_each_time() -> None:
    board = [".....", *PLAIN_BOARD[1:]]
    identity = list(range(25))
    state = position(board=board, bag_draws=[identity, list(reversed(identity))], replenishments=1)
    after = apply_action(state, Replenish())
    assert after.replenishments == 2
    bag = [colour for colour, count in enumerate(state.bag) for _ in range(count)]
    assert after.board[space(2, 2)] != -1
    first_empty_in_spiral = [space(0, 0), space(0, 1), space(0, 2), space(0, 3), space(0, 4)]
    assert [after.board[cell] for cell in first_empty_in_spiral] == list(reversed(bag))


def test_a_privilege_taken_when_none_is_left_comes_from_the_opponent() -> None:
    state = position(
        board=[".....", *PLAIN_BOARD[1:]], hands=[hand(privileges=2), hand(privileges=1)]
    )
    after = apply_action(state, Replenish())
    assert after.players[1].privileges == 2
    assert after.players[0].privileges == 1


def test_a_player_with_all_three_privileges_takes_none_and_nothing_happens() -> None:
    state = position(board=[".....", *PLAIN_BOARD[1:]], hands=[hand(), hand(privileges=3)])
    after = apply_action(state, Replenish())
    assert [player.privileges for player in after.players] == [0, 3]


def test_replenishing_is_compulsory_when_no_mandatory_action_is_possible() -> None:
    # Only gold on the board, and three cards already reserved: nothing to take, reserve or buy.
    board = ["YYY..", ".....", ".....", ".....", "....."]
    state = position(board=board, hands=[hand(reserved=[60, 61, 62])])
    assert legal_actions(state) == [Replenish()]
    with pytest.raises(IllegalAction, match="pass only"):
        apply_action(state, Pass())


def unaffordable(*hands: dict[str, int]) -> list[int]:
    """Cards none of these token sets can pay for (no bonuses, no gold)."""
    names = ("white", "blue", "green", "red", "black", "pearl")
    return [
        card.id
        for card in CARDS
        if all(
            any(need > held.get(name, 0) for name, need in zip(names, card.cost, strict=True))
            for held in hands
        )
    ]


MINE = {"red": 4, "black": 4, "green": 2, "pearl": 2}
THEIRS = {"white": 4, "blue": 4, "green": 2}


def stuck_position(**changes: object) -> DuelState:
    """Nothing but gold on the board, three reserves each and nothing either player can afford.

    Seat 0 holds twelve tokens: it spent two privileges on the board's last pearls this turn.
    """
    cards = unaffordable(MINE, THEIRS)
    by_level = {
        level: [card for card in cards if CARDS[card].level == level] for level in (1, 2, 3)
    }
    defaults: dict[str, object] = {
        "board": ["YYY..", *EMPTY_BOARD[1:]],
        "hands": [hand(MINE, reserved=by_level[3][:3]), hand(THEIRS, reserved=by_level[3][3:6])],
        "pyramid": {1: by_level[1][:5], 2: by_level[2][:4], 3: by_level[3][6:9]},
    }
    return position(**{**defaults, **changes})  # type: ignore[arg-type]


def test_with_nothing_possible_and_an_empty_bag_the_player_passes_and_discards() -> None:
    state = stuck_position()
    assert legal_actions(state) == [Pass()]
    with pytest.raises(IllegalAction, match="bag is empty"):
        apply_action(state, Replenish())
    after = apply_action(state, Pass())
    assert after.phase == "discard_tokens"
    after = apply_action(after, DiscardTokens(tokens(pearl=2)))
    assert after.current == 1
    assert after.passes == 1
    assert after.phase == MAIN


def test_a_pass_then_an_action_starts_the_count_of_passes_again() -> None:
    stuck = stuck_position().players
    state = stuck_position(
        hands=[hand(MINE, reserved=stuck[0].reserved), hand(THEIRS, reserved=stuck[1].reserved[:2])]
    )
    after = apply_action(apply_action(state, Pass()), DiscardTokens(tokens(pearl=2)))
    assert after.passes == 1
    after = apply_action(after, TakeGold(space(0, 0)))
    after = apply_action(after, legal_actions(after)[0])
    assert after.passes == 0


def test_two_passes_in_a_row_end_the_game_without_a_winner() -> None:
    state = stuck_position(passes=1)
    over = apply_action(apply_action(state, Pass()), DiscardTokens(tokens(pearl=2)))
    result = outcome(over)
    assert result is not None
    assert result.winners == (0, 1)
    assert result.ended_by == "all_passed"
    assert legal_actions(over) == []


def test_a_line_is_the_usual_mandatory_action() -> None:
    state = position(board=PLAIN_BOARD)
    assert line((0, 0), (0, 1), (0, 2)) in legal_actions(state)
