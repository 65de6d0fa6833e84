"""The fit of a run's network, in a process of its own: ``python -m training.fitting``.

Training is minutes of numpy on every core it is given; it must run neither in a Celery worker
(where it would hold a queue) nor in the web process. ``training.runs`` writes the games to fit
on into one file, starts this module as a child process and reads back the network file and
the report it prints. Nothing here uses Django or the database.

    python -m training.fitting GAMES.npz NETWORK.npz --seed 7 --max-seats 4 --settings '{...}'

``GAMES.npz`` holds each stored game (``PlayedGame.to_bytes``) as an array of bytes; the network
is written with the fit's report in its metadata (``"fit"``), and the report is the last line
printed, as JSON.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from games.bots.learning import fit, selfplay
from games.bots.learning.network import ValueNetwork


def write_games(path: Path, stored: Iterable[bytes]) -> None:
    """The games' stored bytes as one file of arrays, in order, for :func:`read_games`."""
    arrays = {
        f"game_{number:07d}": np.frombuffer(data, dtype=np.uint8)
        for number, data in enumerate(stored)
    }
    with path.open("wb") as file:
        np.savez(file, allow_pickle=False, **arrays)


def read_games(path: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    with np.load(path, allow_pickle=False) as stored:
        return [selfplay.from_bytes(stored[name].tobytes()) for name in sorted(stored.files)]


def fit_settings_from(settings: Mapping[str, Any]) -> fit.FitSettings:
    return fit.FitSettings(**{**settings, "hidden": tuple(settings["hidden"])})


def report_as_json(report: fit.FitReport) -> dict[str, Any]:
    """The report as JSON can hold it: a figure that could not be measured (no game held out
    of a tiny run) is ``None``, never NaN."""
    return {
        name: None if isinstance(value, float) and not math.isfinite(value) else value
        for name, value in report.as_dict().items()
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training.fitting", description=__doc__)
    parser.add_argument("games", type=Path)
    parser.add_argument("network", type=Path)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--max-seats", type=int, required=True)
    parser.add_argument("--settings", type=json.loads, required=True, help="FitSettings, JSON")
    arguments = parser.parse_args(argv)
    rows, seated, results, game_of_position = selfplay.stack(
        read_games(arguments.games), arguments.max_seats
    )
    network, report = fit.fit(
        rows,
        seated,
        results,
        game_of_position,
        fit_settings_from(arguments.settings),
        arguments.seed,
    )
    report_json = report_as_json(report)
    ValueNetwork(network.layers, {"fit": report_json}).save(arguments.network)
    print(json.dumps(report_json))


if __name__ == "__main__":
    main()
