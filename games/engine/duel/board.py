"""The 5×5 board: its spaces, the lines a player may take, and laying tokens out of the bag.

A space is an index ``row * 5 + column`` (row 0 at the top); a board is a tuple of 25 token
colours with :data:`EMPTY` for an empty space. A line is one, two or three spaces next to each
other in a row, a column or a diagonal (rulebook, "Take up to 3 tokens").
"""

from __future__ import annotations

from games.engine.duel.catalogue import SPIRAL
from games.engine.duel.tokens import TOKEN_COLOURS, Tokens

SIZE = 5
SPACES = SIZE * SIZE
EMPTY = -1
MAX_LINE = 3

Board = tuple[int, ...]
"""25 token colours, :data:`EMPTY` where a space holds none."""

SPIRAL_SPACES: tuple[int, ...] = tuple(row * SIZE + column for row, column in SPIRAL)
"""The spaces in the order tokens are laid out, the centre first."""

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))
"""Right, down, and the two diagonals: every line read from its first space (lowest index)."""


def space_of(row: int, column: int) -> int:
    return row * SIZE + column


def row_column(space: int) -> tuple[int, int]:
    return divmod(space, SIZE)


def space_name(space: int) -> str:
    """A space as a player reads it: ``row 1, column 3`` (counted from 1, top left)."""
    row, column = row_column(space)
    return f"row {row + 1}, column {column + 1}"


def _lines() -> tuple[tuple[int, ...], ...]:
    lines: list[tuple[int, ...]] = [(space,) for space in range(SPACES)]
    for length in range(2, MAX_LINE + 1):
        for space in range(SPACES):
            row, column = row_column(space)
            for down, right in DIRECTIONS:
                end_row = row + down * (length - 1)
                end_column = column + right * (length - 1)
                if 0 <= end_row < SIZE and 0 <= end_column < SIZE:
                    lines.append(
                        tuple(
                            space_of(row + down * step, column + right * step)
                            for step in range(length)
                        )
                    )
    return tuple(tuple(sorted(line)) for line in lines)


LINES: tuple[tuple[int, ...], ...] = _lines()
"""Every line of one to three spaces, each as its spaces in ascending order."""
LINE_MASKS: tuple[int, ...] = tuple(sum(1 << space for space in line) for line in LINES)
"""Each line of :data:`LINES` as a bit mask of its spaces."""


def is_straight(spaces: tuple[int, ...]) -> bool:
    """Whether the spaces (ascending) lie on one row, column or diagonal, gaps allowed."""
    if len(spaces) < 2:
        return True
    first_row, first_column = row_column(spaces[0])
    for down, right in DIRECTIONS:
        on_line = True
        for space in spaces[1:]:
            row, column = row_column(space)
            steps = row - first_row if down else column - first_column
            expected = (first_row + down * steps, first_column + right * steps)
            if steps <= 0 or (row, column) != expected:
                on_line = False
                break
        if on_line:
            return True
    return False


def bag_listing(bag: Tokens) -> tuple[int, ...]:
    """The bag's tokens one by one, in colour order: what a recorded draw order indexes."""
    return tuple(colour for colour in TOKEN_COLOURS for _ in range(bag[colour]))


def draw_order(bag: Tokens, permutation: tuple[int, ...]) -> tuple[int, ...]:
    """The bag's tokens in the order a replenishment draws them.

    ``permutation`` is a recorded shuffle of ``0 … 24``. Its entries below the bag's size, in
    the order they appear, are a uniformly random order of the bag's tokens whatever the size,
    so one recorded shuffle serves any bag (docs/decisions/0042-duel-bag-from-the-setup.md).
    """
    listing = bag_listing(bag)
    size = len(listing)
    return tuple(listing[index] for index in permutation if index < size)


def lay_out(board: Board, tokens: tuple[int, ...]) -> Board:
    """The board with ``tokens`` placed, in order, on its empty spaces along the spiral."""
    spaces = list(board)
    empty = [space for space in SPIRAL_SPACES if spaces[space] == EMPTY]
    # As many tokens as there are, or as empty spaces: the last may stay in the bag.
    for space, token in zip(empty, tokens, strict=False):
        spaces[space] = token
    return tuple(spaces)
