"""The lines a playout's board offers: counted from a table, and only the one picked listed.

``legality.lines_within`` lists the lines whose spaces all hold a gem or pearl token, row by row
of their first space, remembering each board it has seen. A playout's boards are mostly new, and
it needs only how many lines there are (and, when one is picked, which): a line starting in a
row lies within that row and the two below, so the lines starting in a row are counted by one
lookup of those three rows' 15 bits in :func:`line_counts`, and a board's count is three lookups
(the bottom three rows' lines at once, in :func:`bottom_line_counts`).
"""

from __future__ import annotations

from functools import cache

from games.engine.duel.board import LINE_MASKS, LINES, MAX_LINE, SIZE

BAND = (1 << (MAX_LINE * SIZE)) - 1
"""The bits of three rows: every line starting in a row lies within it and the two below."""
_ROW = (1 << SIZE) - 1

_TOP_ROW_LINES: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
    (mask, spaces) for mask, spaces in zip(LINE_MASKS, LINES, strict=True) if spaces[0] < SIZE
)
"""The lines starting in the top row, in the engine's order, as masks and spaces."""


@cache
def line_counts() -> list[int]:
    """For each 15-bit band (three rows, the top one lowest), the lines starting in its top row
    whose spaces are all in the band: 32,768 counts, worked out at the first playout.

    A band cut from the bottom rows of the board has no bits beyond the board, so the same
    table serves them: no line reaching past the board lies within them.
    """
    pop = [bin(bits).count("1") for bits in range(1 << SIZE)]
    # The lines within the top row alone: single spaces, pairs and triples side by side.
    in_row = [
        pop[top] + pop[top & top >> 1] + pop[top & top >> 1 & top >> 2] for top in range(1 << SIZE)
    ]
    # Down, down-right and down-left from the top row: pairs into the second row ...
    with_second = [
        in_row[top] + pop[top & second] + pop[top & second >> 1] + pop[top & second << 1 & _ROW]
        for second in range(1 << SIZE)
        for top in range(1 << SIZE)
    ]
    # ... and triples into the third.
    return [
        with_second[top_two]
        + pop[top & second & third]
        + pop[top & second >> 1 & third >> 2]
        + pop[top & (second << 1) & (third << 2) & _ROW]
        for third in range(1 << SIZE)
        for top_two, top, second in _TOP_TWO_ROWS
    ]


_TOP_TWO_ROWS: tuple[tuple[int, int, int], ...] = tuple(
    (second << SIZE | top, top, second) for second in range(1 << SIZE) for top in range(1 << SIZE)
)


@cache
def bottom_line_counts() -> list[int]:
    """For each 15-bit pattern of the board's bottom three rows, the lines starting in any of
    them: with :func:`line_counts` of the two top rows' bands, a board's count in three lookups."""
    counts = line_counts()
    return [
        counts[band] + counts[band >> SIZE] + counts[band >> 2 * SIZE] for band in range(BAND + 1)
    ]


def line_count(takeable: int) -> int:
    """How many lines lie within ``takeable`` (a mask of spaces): ``len(lines_within(...))``."""
    counts = line_counts()
    return (
        counts[takeable & BAND] + counts[takeable >> SIZE & BAND]
        + bottom_line_counts()[takeable >> 2 * SIZE]
    )  # fmt: skip


def nth_line(takeable: int, index: int) -> tuple[int, ...]:
    """The spaces of ``lines_within(takeable)[index]``."""
    counts = line_counts()
    # Row by row of the lines' first spaces, unrolled: many of a playout's steps take a line.
    band = takeable & BAND
    if index < counts[band]:
        return _FROM_ROW_0[(_BAND_LINES[band] or _band_lines(band))[index]]
    index -= counts[band]
    band = takeable >> SIZE & BAND
    if index < counts[band]:
        return _FROM_ROW_1[(_BAND_LINES[band] or _band_lines(band))[index]]
    index -= counts[band]
    band = takeable >> 2 * SIZE & BAND
    if index < counts[band]:
        return _FROM_ROW_2[(_BAND_LINES[band] or _band_lines(band))[index]]
    index -= counts[band]
    band = takeable >> 3 * SIZE & BAND
    if index < counts[band]:
        return _FROM_ROW_3[(_BAND_LINES[band] or _band_lines(band))[index]]
    index -= counts[band]
    band = takeable >> 4 * SIZE & BAND
    return _FROM_ROW_4[(_BAND_LINES[band] or _band_lines(band))[index]]


_ROW_OFFSETS = tuple(range(0, SIZE * SIZE, SIZE))
"""The first space of each row: how far a band starting there is shifted."""
_LINES_FROM_ROW: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(space + offset for space in spaces) for _, spaces in _TOP_ROW_LINES)
    for offset in _ROW_OFFSETS
)
"""The spaces of each line of the top row moved down to each row (those that leave the board
are never within a band, so never read)."""
_FROM_ROW_0, _FROM_ROW_1, _FROM_ROW_2, _FROM_ROW_3, _FROM_ROW_4 = _LINES_FROM_ROW

_BAND_LINES: list[tuple[int, ...]] = [()] * (BAND + 1)
"""For each 15-bit band, :func:`_band_lines` once worked out (empty until then, and for a band
with no line, which is never read): a list read is cheaper than a cached call."""


def _band_lines(band: int) -> tuple[int, ...]:
    """Which lines of the top row lie within ``band`` (as their places in the top row's list),
    as if the band were the board's top three rows: at most 32,768 bands, all remembered."""
    lines = _BAND_LINES[band] = tuple(
        number for number, (mask, _) in enumerate(_TOP_ROW_LINES) if mask & band == mask
    )
    return lines
