"""The win-probability graph of an analysed game: one small SVG chart per player, drawn on the
server (``templates/analysis/graph.html``), with no script and no style attribute.

Each chart plots the player's chance to win after each of their moves, step by step across the
whole game; every point is a link to that step of the replay, marked moves drawn larger and
named in their title.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

WIDTH = 600
HEIGHT = 120
PAD_LEFT = 40
PAD_RIGHT = 8
PAD_Y = 8


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    step: int
    chance: int
    """The chance to win after the move, in whole percent."""
    mark: str | None
    words: str


@dataclass(frozen=True)
class Chart:
    seat: int
    name: str
    points: list[Point]

    @property
    def polyline(self) -> str:
        return " ".join(f"{point.x:.1f},{point.y:.1f}" for point in self.points)


@dataclass(frozen=True)
class Axes:
    width: int = WIDTH
    height: int = HEIGHT
    left: int = PAD_LEFT
    right: int = WIDTH - PAD_RIGHT
    top: float = PAD_Y
    middle: float = PAD_Y + (HEIGHT - 2 * PAD_Y) / 2
    bottom: float = HEIGHT - PAD_Y


AXES = Axes()


def charts(steps: Sequence[dict[str, Any]], names: Sequence[str], last_step: int) -> list[Chart]:
    """One chart per seat from an analysis's judged moves (``analysis.runner.step_row``)."""
    span = max(1, last_step)
    plot_width = AXES.right - AXES.left
    plot_height = AXES.bottom - AXES.top
    by_seat: dict[int, list[Point]] = {seat: [] for seat in range(len(names))}
    for step in steps:
        chance = float(step["after"])
        by_seat.setdefault(step["mover"], []).append(
            Point(
                x=AXES.left + plot_width * step["step"] / span,
                y=AXES.top + plot_height * (1.0 - chance),
                step=step["step"],
                chance=round(chance * 100),
                mark=step["mark"],
                words=step["played_text"],
            )
        )
    return [
        Chart(seat=seat, name=names[seat] if seat < len(names) else f"Seat {seat + 1}", points=pts)
        for seat, pts in sorted(by_seat.items())
    ]
