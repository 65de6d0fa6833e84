"""Taking up to three tokens: adjacent gem or pearl tokens in one unbroken line, never gold.

Rulebook, "Take up to 3 tokens": "Take up to 3 adjacent Gem and/or Pearl tokens from the board.
The tokens must be in an uninterrupted horizontal, vertical, or diagonal line. You can take 2
adjacent tokens or even a single token. This action cannot be used to take a Gold token. If you
use this action to take 3 tokens of the same color or 2 Pearls, your opponent takes 1 Privilege."
"""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, apply_action, legal_actions, state_to_json
from games.engine.duel.actions import TakeTokens
from games.engine.duel.state import DuelState
from tests.engine.duel.positions import hand, line, position, space, tokens

BOARD = [
    "WBGRK",
    "WBGRK",
    "WBGRK",
    "WBGRK",
    "PPYYY",
]


def lines_offered(state: DuelState) -> set[TakeTokens]:
    return {action for action in legal_actions(state) if isinstance(action, TakeTokens)}


def refused(state: DuelState, action: TakeTokens, reason: str) -> None:
    before = state_to_json(state)
    with pytest.raises(IllegalAction, match=reason):
        apply_action(state, action)
    assert state_to_json(state) == before


def test_taking_three_in_a_row_moves_them_to_the_player_and_empties_the_spaces() -> None:
    state = position(board=BOARD)
    after = apply_action(state, line((0, 0), (0, 1), (0, 2)))
    assert after.players[0].tokens == tokens(white=1, blue=1, green=1)
    assert [after.board[space(0, column)] for column in range(3)] == [-1, -1, -1]
    assert after.current == 1


@pytest.mark.parametrize(
    "cells",
    [
        ((0, 0), (1, 0), (2, 0)),  # a column
        ((0, 0), (1, 1), (2, 2)),  # a diagonal
        ((0, 4), (1, 3), (2, 2)),  # the other diagonal
        ((3, 3), (2, 3)),  # two in a column
        ((1, 1),),  # a single token
        ((2, 1), (3, 2)),  # two on a diagonal
    ],
)
def test_columns_diagonals_pairs_and_single_tokens_are_lines_too(
    cells: tuple[tuple[int, int], ...],
) -> None:
    after = apply_action(position(board=BOARD), line(*cells))
    assert sum(after.players[0].tokens) == len(cells)


def all_lines() -> set[tuple[int, ...]]:
    """Every run of one to three spaces stepping by one of the eight directions (brute force)."""
    found = set()
    for row in range(5):
        for column in range(5):
            for down in (-1, 0, 1):
                for right in (-1, 0, 1):
                    for length in (1, 2, 3):
                        cells = [
                            (row + down * step, column + right * step) for step in range(length)
                        ]
                        if (down, right) == (0, 0) and length > 1:
                            continue
                        if all(0 <= r < 5 and 0 <= c < 5 for r, c in cells):
                            found.add(tuple(sorted(space(r, c) for r, c in cells)))
    return found


def test_every_line_of_one_to_three_gem_or_pearl_tokens_is_offered() -> None:
    state = position(board=BOARD)
    takeable = {cell for cell in range(25) if 0 <= state.board[cell] < 6}
    expected = {TakeTokens(cells) for cells in all_lines() if set(cells) <= takeable}
    assert lines_offered(state) == expected
    assert len(all_lines()) == 25 + 72 + 48


def test_tokens_that_are_not_in_a_straight_line_are_refused() -> None:
    refused(position(board=BOARD), line((0, 0), (0, 1), (1, 2)), "straight line")
    refused(position(board=BOARD), line((0, 0), (1, 2)), "straight line")


def test_tokens_that_are_not_adjacent_are_refused() -> None:
    refused(position(board=BOARD), line((0, 0), (0, 2)), "next to each other")
    refused(position(board=BOARD), line((0, 0), (2, 2)), "next to each other")


def test_a_line_broken_by_an_empty_space_is_refused() -> None:
    board = ["W.GRK", *BOARD[1:]]
    state = position(board=board)
    refused(state, line((0, 0), (0, 1), (0, 2)), "no token")
    refused(state, line((0, 0), (0, 2)), "next to each other")
    assert line((0, 0), (0, 2)) not in lines_offered(state)


def test_gold_cannot_be_taken_in_a_line() -> None:
    state = position(board=BOARD)
    refused(state, line((4, 1), (4, 2)), "(?i)gold")
    refused(
        state,
        line(
            (4, 2),
        ),
        "(?i)gold",
    )
    assert all(state.board[cell] != 6 for action in lines_offered(state) for cell in action.spaces)


def test_more_than_three_tokens_or_none_are_refused() -> None:
    state = position(board=BOARD)
    refused(state, line((0, 0), (0, 1), (0, 2), (0, 3)), "one, two or three")
    refused(state, TakeTokens(()), "one, two or three")


def test_the_same_space_twice_is_refused() -> None:
    refused(position(board=BOARD), TakeTokens((0, 0)), "only once")


def test_a_space_off_the_board_is_refused() -> None:
    refused(position(board=BOARD), TakeTokens((24, 25)), "no space")


def test_three_of_one_colour_give_the_opponent_a_privilege() -> None:
    after = apply_action(position(board=BOARD), line((0, 0), (1, 0), (2, 0)))
    assert after.players[1].privileges == 1
    assert after.players[0].privileges == 0


def test_two_pearls_give_the_opponent_a_privilege() -> None:
    after = apply_action(position(board=BOARD), line((4, 0), (4, 1)))
    assert after.players[1].privileges == 1


def test_two_of_one_colour_or_three_different_give_no_privilege() -> None:
    state = position(board=BOARD)
    for action in (line((0, 0), (1, 0)), line((0, 0), (0, 1), (0, 2)), line((3, 0), (4, 0))):
        assert apply_action(state, action).players[1].privileges == 0


def test_the_privilege_for_three_of_a_colour_comes_from_the_taker_when_none_is_left() -> None:
    state = position(board=BOARD, hands=[hand(privileges=3)])
    after = apply_action(state, line((0, 0), (1, 0), (2, 0)))
    assert [player.privileges for player in after.players] == [2, 1]
