"""A static evaluation of Splendor positions, in points: what the greedy and search bots optimise.

``player_value`` estimates how far along a player is, counted in victory points: the points they
hold, plus what their bonuses, tokens and reserved cards are worth as an engine for future points
(bonuses count less as the game nears its end), progress toward the nobles still on the table,
and their prospects: the best cards they could buy soon, discounted by the turns still needed to
afford them. ``position_scores`` turns the values of all players into a score in [0, 1] per seat,
and a finished game into its real result.

The weights live in :class:`Weights`, so a benchmark or a test can try others.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from games.engine import State, outcome
from games.engine.splendor.catalogue import CARDS, NOBLES
from games.engine.splendor.state import GAME_OVER, TOKEN_LIMIT, WINNING_POINTS

CARD_COST: tuple[tuple[int, ...], ...] = tuple(card.cost for card in CARDS)
CARD_COLOUR: tuple[int, ...] = tuple(card.colour for card in CARDS)
CARD_POINTS: tuple[int, ...] = tuple(card.points for card in CARDS)
CARD_LEVEL: tuple[int, ...] = tuple(card.level for card in CARDS)
NOBLE_REQUIRES: tuple[tuple[int, ...], ...] = tuple(noble.requires for noble in NOBLES)
NOBLE_POINTS: tuple[int, ...] = tuple(noble.points for noble in NOBLES)


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's tunable numbers, each in points."""

    bonus: tuple[float, ...] = (0.0, 1.3, 2.5, 3.6, 4.6, 5.4, 6.0, 6.4, 6.7)
    """Cumulative worth of 0, 1, 2, … bonuses of one colour, early in the game."""
    bonus_late: float = 0.35
    """The share of a bonus's worth left when a player is about to win."""
    token: float = 0.1
    gold: float = 0.25
    noble: float = 1.0
    """The share of a noble's points credited at full progress toward it (then squared)."""
    noble_others: float = 0.35
    """Nobles other than the closest count this much of the closest's weight."""
    prospect: tuple[float, ...] = (0.55, 0.25, 0.1)
    """Weights of the best, second and third prospective purchase."""
    prospect_decay: float = 0.45
    """A prospect's worth is multiplied by this for each turn still needed to afford it."""
    reserved_bonus: float = 1.0
    """A reserved card cannot be taken by others: its prospect counts this much more."""
    reserve_slot: float = 0.35
    """The cost of each reserved card held: a slot and a turn spent."""
    useless_reserve: float = 0.4
    """The further cost of a reserved card that is far from affordable."""
    opponent: float = 0.7
    """How much the greedy bot counts the best opponent's value against its own."""
    temperature: float = 2.5
    """Points of advantage that lift a score from 0.5 to about 0.73 (logistic)."""


DEFAULT_WEIGHTS = Weights()


def player_value(
    state: State,
    seat: int,
    weights: Weights = DEFAULT_WEIGHTS,
    board: tuple[int, ...] | None = None,
) -> float:
    """How far along ``seat`` is, in points. ``board`` overrides the face-up cards considered."""
    player = state.players[seat]
    bonuses = player.bonuses
    tokens = player.tokens
    gold = tokens[5]
    top = max(other.points for other in state.players)
    stage = min(top, WINNING_POINTS) / WINNING_POINTS
    bonus_share = 1.0 - (1.0 - weights.bonus_late) * stage
    bonus_table = weights.bonus
    last = len(bonus_table) - 1
    value = float(player.points)

    engine = 0.0
    for count in bonuses:
        engine += bonus_table[count if count < last else last]
    value += engine * bonus_share

    noble_values = []
    for noble in state.nobles:
        requires = NOBLE_REQUIRES[noble]
        missing = 0
        for need, have in zip(requires, bonuses, strict=True):
            if need > have:
                missing += need - have
        progress = 1.0 - missing / sum(requires)
        noble_values.append(NOBLE_POINTS[noble] * progress * progress)
    if noble_values:
        noble_values.sort(reverse=True)
        value += weights.noble * (noble_values[0] + weights.noble_others * sum(noble_values[1:]))

    coloured = tokens[0] + tokens[1] + tokens[2] + tokens[3] + tokens[4]
    value += weights.token * coloured + weights.gold * gold
    excess = coloured + gold - TOKEN_LIMIT
    if excess > 0:
        value -= weights.token * excess

    if board is None:
        board = tuple(card for row in state.board for card in row if card is not None)
    prospects = []
    decay = weights.prospect_decay
    for card in board:
        prospects.append(_prospect(card, bonuses, tokens, gold, bonus_share, decay, bonus_table))
    for card in player.reserved:
        worth = _prospect(card, bonuses, tokens, gold, bonus_share, decay, bonus_table)
        value -= weights.reserve_slot
        if worth < 0.05:
            value -= weights.useless_reserve
        prospects.append(worth * weights.reserved_bonus)
    prospects.sort(reverse=True)
    for weight, worth in zip(weights.prospect, prospects, strict=False):
        value += weight * worth
    return value


def _prospect(
    card: int,
    bonuses: tuple[int, ...],
    tokens: tuple[int, ...],
    gold: int,
    bonus_share: float,
    decay: float,
    bonus_table: tuple[float, ...],
) -> float:
    """The card's worth to the player, discounted by the turns of taking it needs."""
    # Unrolled over the five colours: this runs for every visible card at every evaluation.
    white_bonus, blue_bonus, green_bonus, red_bonus, black_bonus = bonuses
    white, blue, green, red, black = CARD_COST[card]
    white = white - white_bonus if white > white_bonus else 0
    blue = blue - blue_bonus if blue > blue_bonus else 0
    green = green - green_bonus if green > green_bonus else 0
    red = red - red_bonus if red > red_bonus else 0
    black = black - black_bonus if black > black_bonus else 0
    if white + blue + green + red + black > TOKEN_LIMIT:
        return 0.0
    white = white - tokens[0] if white > tokens[0] else 0
    blue = blue - tokens[1] if blue > tokens[1] else 0
    green = green - tokens[2] if green > tokens[2] else 0
    red = red - tokens[3] if red > tokens[3] else 0
    black = black - tokens[4] if black > tokens[4] else 0
    colour_count = bonuses[CARD_COLOUR[card]]
    last = len(bonus_table) - 1
    gain = bonus_table[min(colour_count + 1, last)] - bonus_table[min(colour_count, last)]
    worth = CARD_POINTS[card] + gain * bonus_share
    short = white + blue + green + red + black - gold
    if short <= 0:
        return worth
    most_short = max(white, blue, green, red, black)
    turns = max((short + 2) // 3, (most_short - gold + 1) // 2)
    return worth * decay ** (turns if turns > 0 else 1)


def position_scores(state: State, weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """Each seat's score in [0, 1]: its result once the game is over, else a logistic estimate.

    A finished game scores 1 for a sole winner, 1/k for each of k sharing a win, 0 otherwise.
    A running one compares each player's value with the best of the others'.
    """
    seats = len(state.players)
    if state.phase == GAME_OVER:
        return _final_scores(state)
    values = [player_value(state, seat, weights) for seat in range(seats)]
    scores = []
    for seat in range(seats):
        best_other = max(values[other] for other in range(seats) if other != seat)
        advantage = (values[seat] - best_other) / weights.temperature
        scores.append(1.0 / (1.0 + math.exp(-advantage)))
    return scores


def _final_scores(state: State) -> list[float]:
    result = outcome(state)
    assert result is not None
    share = 1.0 / len(result.winners)
    return [share if seat in result.winners else 0.0 for seat in range(len(state.players))]
