"""The value network: a small multilayer perceptron that gives each seat its chance to win.

A position is encoded by its game's ``features`` as one row per seat, each row the position seen
from that seat's chair (its own figures first, then the others' in turn order) but with only
what the observer knows. The network maps each row to a logit; a softmax across the seats makes
the chances, which sum to one, as one player wins (a shared win splits it). Two hidden layers of
rectified units are enough for positions whose features already carry the hand-set evaluation:
the network learns how much each part of it is worth, when, against whom.

Evaluating one position costs a handful of numpy calls on a few thousand weights: tens of
microseconds on one core (``benchmarks/expert.py`` prints it). The weights, with where they
came from (``metadata``: seeds, settings, data counts, the gate's result), live in one ``.npz``
file, read without pickling.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import numpy as np

Layers = tuple[tuple[np.ndarray, np.ndarray], ...]


@dataclass(frozen=True)
class ValueNetwork:
    layers: Layers
    """Each layer's weights (inputs × outputs) and biases; rectified between layers, the last
    one's single output is the seat's logit."""
    metadata: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def provisional(self) -> bool:
        """Untrained weights standing in until a network passes its training run's gate: the
        Expert then judges with the hand-set evaluation (``"provisional": true`` in the
        metadata)."""
        return self.metadata.get("provisional") is True

    @cached_property
    def fingerprint(self) -> str:
        """A short digest of the weights: what names this network where its judgements are
        stored (an analysis's settings), so that another network's are never served for it."""
        digest = hashlib.sha256()
        for weights, biases in self.layers:
            for array in (weights, biases):
                digest.update(str(array.shape).encode())
                digest.update(np.ascontiguousarray(array, dtype=np.float64).tobytes())
        return digest.hexdigest()[:16]

    @property
    def inputs(self) -> int:
        return int(self.layers[0][0].shape[0])

    def logits(self, rows: np.ndarray) -> np.ndarray:
        """One logit per row of ``rows`` (any leading shape, features last)."""
        activation = rows
        last = len(self.layers) - 1
        for index, (weights, biases) in enumerate(self.layers):
            activation = activation @ weights + biases
            if index < last:
                activation = np.maximum(activation, 0.0)
        return activation[..., 0]

    def chances(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """Each seat's chance to win, from one row per seat; they sum to one."""
        logits = self.logits(np.asarray(rows, dtype=np.float64))
        logits -= logits.max()
        exponentials = np.exp(logits)
        chances: list[float] = (exponentials / exponentials.sum()).tolist()
        return chances

    def save(self, path: Path) -> None:
        path.write_bytes(self.to_bytes())

    def to_bytes(self) -> bytes:
        """The file's content: what a database row holds to hand a network to the workers."""
        arrays: dict[str, np.ndarray] = {}
        for index, (weights, biases) in enumerate(self.layers):
            arrays[f"weights_{index}"] = weights
            arrays[f"biases_{index}"] = biases
        arrays["metadata"] = np.array(json.dumps(self.metadata, sort_keys=True))
        buffer = io.BytesIO()
        np.savez(buffer, allow_pickle=False, **arrays)
        return buffer.getvalue()


def load(path: Path) -> ValueNetwork:
    """The network stored at ``path``; raises ``FileNotFoundError`` or ``ValueError``."""
    return from_bytes(path.read_bytes(), source=str(path))


def from_bytes(data: bytes, *, source: str = "the data") -> ValueNetwork:
    """The network of a file's content (``ValueNetwork.to_bytes``); raises ``ValueError``."""
    with np.load(io.BytesIO(data), allow_pickle=False) as stored:
        count = sum(1 for name in stored.files if name.startswith("weights_"))
        if count == 0 or "metadata" not in stored.files:
            raise ValueError(f"{source} holds no value network")
        layers = tuple(
            (
                np.asarray(stored[f"weights_{index}"], dtype=np.float64),
                np.asarray(stored[f"biases_{index}"], dtype=np.float64),
            )
            for index in range(count)
        )
        metadata = json.loads(str(stored["metadata"]))
    for (weights, _), (following, _) in itertools.pairwise(layers):
        if weights.shape[1] != following.shape[0]:
            raise ValueError(f"{source}: layer sizes do not chain")
    if layers[-1][0].shape[1] != 1:
        raise ValueError(f"{source}: the last layer must have one output")
    return ValueNetwork(layers, metadata)


@cache
def installed(path: Path) -> ValueNetwork:
    """The network at ``path``, read once per process: a worker loads each game's network on
    its first Expert move and keeps it."""
    return load(path)


def initial(inputs: int, hidden: Sequence[int], seed: int) -> ValueNetwork:
    """A network of random weights (He initialisation) to train from."""
    generator = np.random.default_rng(seed)
    sizes = [inputs, *hidden, 1]
    layers = tuple(
        (
            generator.normal(0.0, np.sqrt(2.0 / fan_in), size=(fan_in, fan_out)),
            np.zeros(fan_out),
        )
        for fan_in, fan_out in itertools.pairwise(sizes)
    )
    return ValueNetwork(layers)
