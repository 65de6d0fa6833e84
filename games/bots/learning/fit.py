"""Training a value network on recorded positions: each position's seats and who won.

The data is three arrays: ``rows`` (positions × seats × features; a table of fewer players than
the widest is padded), ``seated`` (positions × seats, true for a seat at the table) and
``results`` (positions × seats, each seat's share of the win: 1 for the winner, 1/k each for k
sharing, 0 otherwise). The loss is the cross-entropy between the softmax of the network's
logits over the seated seats and the results, with a little L2 decay; the optimiser is Adam on
shuffled minibatches. A share of the games (never single positions, which would leak a game's
later positions into the check) is held out to report how well the network predicts games it
never saw: its loss and Brier score beside those of the base rate.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from games.bots.learning.network import ValueNetwork, initial

MASKED = -1e9


@dataclass(frozen=True)
class FitSettings:
    hidden: tuple[int, ...] = (32,)
    epochs: int = 30
    batch: int = 256
    learning_rate: float = 1e-3
    decay: float = 1e-3
    """L2 weight decay, added to the gradient."""
    held_out: float = 0.1
    """The share of games kept out of training to check the network on."""

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class FitReport:
    positions: int
    games: int
    held_out_games: int
    epoch: int
    """The epoch kept: the one whose network predicted the held-out games best."""
    loss: float
    """Cross-entropy on the held-out positions."""
    brier: float
    """The Brier score of every seat's predicted chance on the held-out positions."""
    base_rate_brier: float
    """The Brier score of predicting each seat an equal share: what the network must beat."""

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def fit(
    rows: np.ndarray,
    seated: np.ndarray,
    results: np.ndarray,
    game_of_position: np.ndarray,
    settings: FitSettings,
    seed: int,
) -> tuple[ValueNetwork, FitReport]:
    """Train a network from scratch on the positions; reproducible from ``seed``."""
    generator = np.random.default_rng(seed)
    games = np.unique(game_of_position)
    held = generator.choice(games, size=int(len(games) * settings.held_out), replace=False)
    is_held = np.isin(game_of_position, held)
    train = np.flatnonzero(~is_held)
    check = np.flatnonzero(is_held)
    network = initial(rows.shape[2], settings.hidden, seed)
    parameters = [array.copy() for layer in network.layers for array in layer]
    first_moments = [np.zeros_like(array) for array in parameters]
    second_moments = [np.zeros_like(array) for array in parameters]
    step = 0
    best = (np.inf, [array.copy() for array in parameters], 0)
    for epoch in range(1, settings.epochs + 1):
        order = generator.permutation(train)
        for start in range(0, len(order), settings.batch):
            batch = order[start : start + settings.batch]
            gradients = _gradients(parameters, rows[batch], seated[batch], results[batch])
            step += 1
            for index, gradient in enumerate(gradients):
                gradient = gradient + settings.decay * parameters[index]
                first_moments[index] = 0.9 * first_moments[index] + 0.1 * gradient
                second_moments[index] = 0.999 * second_moments[index] + 0.001 * gradient**2
                corrected_first = first_moments[index] / (1 - 0.9**step)
                corrected_second = second_moments[index] / (1 - 0.999**step)
                parameters[index] -= (
                    settings.learning_rate * corrected_first / (np.sqrt(corrected_second) + 1e-8)
                )
        if len(check):
            # Early stopping: a game's positions share its one result, so a network soon
            # learns the training games by heart; keep the epoch that predicted unseen best.
            loss = _loss(_network(parameters), rows[check], seated[check], results[check])
            if loss < best[0]:
                best = (loss, [array.copy() for array in parameters], epoch)
        else:
            best = (np.inf, parameters, epoch)
    trained = _network(best[1])
    report = _report(trained, rows, seated, results, check, len(games), len(held), best[2])
    return trained, report


def _network(parameters: list[np.ndarray]) -> ValueNetwork:
    return ValueNetwork(tuple(zip(parameters[::2], parameters[1::2], strict=True)))


def _loss(
    network: ValueNetwork, rows: np.ndarray, seated: np.ndarray, results: np.ndarray
) -> float:
    predicted = chances(network, rows, seated)
    return float(-(results * np.log(np.clip(predicted, 1e-12, 1.0))).sum(axis=1).mean())


def chances(network: ValueNetwork, rows: np.ndarray, seated: np.ndarray) -> np.ndarray:
    """Each seat's predicted chance for a batch of positions (zero for an empty seat)."""
    logits = np.where(seated, network.logits(rows), MASKED)
    logits -= logits.max(axis=1, keepdims=True)
    exponentials = np.exp(logits) * seated
    normalised: np.ndarray = exponentials / exponentials.sum(axis=1, keepdims=True)
    return normalised


def _report(
    network: ValueNetwork,
    rows: np.ndarray,
    seated: np.ndarray,
    results: np.ndarray,
    check: np.ndarray,
    games: int,
    held_games: int,
    epoch: int,
) -> FitReport:
    if len(check) == 0:
        nan = float("nan")
        return FitReport(len(rows), games, 0, epoch, nan, nan, nan)
    predicted = chances(network, rows[check], seated[check])
    truth = results[check]
    mask = seated[check]
    loss = _loss(network, rows[check], seated[check], truth)
    brier = float((((predicted - truth) ** 2) * mask).sum() / mask.sum())
    equal = mask / mask.sum(axis=1, keepdims=True)
    base_rate = float((((equal - truth) ** 2) * mask).sum() / mask.sum())
    return FitReport(len(rows), games, held_games, epoch, loss, brier, base_rate)


def _gradients(
    parameters: list[np.ndarray], rows: np.ndarray, seated: np.ndarray, results: np.ndarray
) -> list[np.ndarray]:
    """The loss's gradient for every weight and bias, by backpropagation, on one batch."""
    positions, seats, features = rows.shape
    activation = rows.reshape(positions * seats, features)
    inputs = []
    pre_activations = []
    layer_count = len(parameters) // 2
    for index in range(layer_count):
        weights, biases = parameters[2 * index], parameters[2 * index + 1]
        inputs.append(activation)
        pre = activation @ weights + biases
        pre_activations.append(pre)
        activation = np.maximum(pre, 0.0) if index < layer_count - 1 else pre
    logits = np.where(seated, activation.reshape(positions, seats), MASKED)
    logits -= logits.max(axis=1, keepdims=True)
    exponentials = np.exp(logits) * seated
    predicted = exponentials / exponentials.sum(axis=1, keepdims=True)
    upstream = ((predicted - results) / positions).reshape(positions * seats, 1)
    gradients: list[np.ndarray] = [np.empty(0)] * len(parameters)
    for index in reversed(range(layer_count)):
        weights = parameters[2 * index]
        gradients[2 * index] = inputs[index].T @ upstream
        gradients[2 * index + 1] = upstream.sum(axis=0)
        if index:
            upstream = (upstream @ weights.T) * (pre_activations[index - 1] > 0)
    return gradients
