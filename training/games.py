"""What training needs of each game's Expert: its encoder, its chooser, where its network lies.

TEMPORARY: this is the one place in the app that names the games' modules. When each game's
package carries its Expert part (``GAMES[variant].expert`` in ``games.variants.base.Game``),
``expert_of`` returns that instead and the table below goes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import games.variants
from games.bots import expert as splendor_expert
from games.bots import features as splendor_features
from games.bots.duel import expert as duel_expert
from games.bots.duel import features as duel_features
from games.bots.learning.selfplay import Encoder
from games.engine import Action

ExpertChooser = Callable[..., Action]
"""``(view, rng, *, network, iterations=None, budget_seconds=None) -> action``."""


@dataclass(frozen=True)
class GameExpert:
    encode: Encoder
    """``seat_rows``: a position as one row of features per seat, as an observer knows it."""
    features: int
    max_seats: int
    choose: ExpertChooser
    network_path: Path
    """The game's installed network: ``games/variants/<game>/expert.npz``."""
    training_iterations: int
    """The search's iterations per move in self-play and in the gate unless a run says
    otherwise: the units differ by game (the base game's search counts tree iterations, the
    Duel's samples per candidate move), and so does what a game's CPU time allows."""


def _package_file(variant: str) -> Path:
    return Path(games.variants.__file__).parent / variant / "expert.npz"


_EXPERTS: Mapping[str, GameExpert] = {
    "splendor": GameExpert(
        encode=splendor_features.seat_rows,
        features=splendor_features.FEATURES,
        max_seats=splendor_features.MAX_SEATS,
        choose=splendor_expert.choose,
        network_path=_package_file("splendor"),
        training_iterations=50,
    ),
    "duel": GameExpert(
        encode=duel_features.seat_rows,
        features=duel_features.FEATURES,
        max_seats=2,
        choose=duel_expert.choose,
        network_path=_package_file("duel"),
        training_iterations=2,
    ),
}


def expert_of(variant: str) -> GameExpert:
    """The game's Expert part; ``KeyError`` for a game without one."""
    return _EXPERTS[variant]


def has_expert(variant: str) -> bool:
    return variant in _EXPERTS
