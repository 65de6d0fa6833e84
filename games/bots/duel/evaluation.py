"""A static evaluation of Splendor Duel positions, in points: what the Duel bots optimise.

Duel is a race on three tracks (20 points, 10 crowns, 10 points in one colour), so a player's
value credits points, crowns and the best colour's points, each weighted by how close it is to
its goal, plus an engine: bonuses, tokens (pearls and gold count more), privileges, and the
best cards of the pyramid or the reserve the player could buy soon. A finished game is worth
far more than any running position.
"""

from __future__ import annotations

import math
from functools import lru_cache

from games.engine.duel.catalogue import CARDS, JOKER
from games.engine.duel.legality import shortfall
from games.engine.duel.scoring import outcome
from games.engine.duel.state import GAME_OVER, TOKEN_LIMIT, DuelState, PlayerState

WIN = 1000.0
_POINTS = tuple(card.points for card in CARDS)
_CROWNS = tuple(card.crowns for card in CARDS)
_COLOURS = tuple(card.colour for card in CARDS)
_BONUS = tuple(card.bonus for card in CARDS)
_DECAY = 0.45
_PROSPECTS = (0.6, 0.25, 0.1)


OPPONENT_WEIGHT = 0.8
"""How much of the opponent's value a position's value takes off."""


def player_value(state: DuelState, seat: int) -> float:
    return scored_player(state.pyramid, state.players[seat])


@lru_cache(maxsize=1 << 16)
def scored_player(pyramid: tuple[tuple[int | None, ...], ...], player: PlayerState) -> float:
    """A player's value given the pyramid: remembered, since a search scores the same player
    (most often the one not moving) against the same pyramid again and again."""
    tokens = player.tokens
    bonuses = player.bonuses
    best_colour = max(player.colour_points)
    value = float(player.points)
    value += 1.6 * player.crowns + 0.06 * player.crowns * player.crowns
    value += 0.8 * best_colour + 0.05 * best_colour * best_colour
    value += 0.9 * sum(bonuses)
    held = sum(tokens)
    value += 0.25 * (held - tokens[5] - tokens[6]) + 0.55 * tokens[5] + 0.6 * tokens[6]
    if held > TOKEN_LIMIT:
        value -= 0.4 * (held - TOKEN_LIMIT)
    value += 0.5 * player.privileges
    value += 1.5 * len(player.royals)
    prospects = []
    for row in pyramid:
        for card in row:
            if card is not None:
                prospects.append(_prospect(card, bonuses, tokens, best_colour))
    for card in player.reserved:
        prospects.append(1.1 * _prospect(card, bonuses, tokens, best_colour) - 0.3)
    prospects.sort(reverse=True)
    for weight, worth in zip(_PROSPECTS, prospects, strict=False):
        value += weight * worth
    return value


def _prospect(card: int, bonuses: tuple[int, ...], tokens: tuple[int, ...], best: int) -> float:
    """The card's worth to the player, discounted by the turns needed to afford it."""
    if _COLOURS[card] == JOKER and not any(bonuses):
        return 0.0
    # What the card still needs beyond bonuses and tokens, less the gold that can cover it.
    short = shortfall(tokens, bonuses, card) - tokens[6]
    worth = _WORTH[card]
    if best and _COLOUR_POINTS_BONUS[card]:
        worth += _COLOUR_POINTS_BONUS[card]
    if short <= 0:
        return worth
    return worth * _DECAY_BY_TURNS[(short + 2) // 3]


_WORTH = tuple(
    _POINTS[card] + 1.6 * _CROWNS[card] + 0.9 * _BONUS[card] for card in range(len(CARDS))
)
"""A card's points, crowns and bonus, in points: its worth once afforded."""
_COLOUR_POINTS_BONUS = tuple(
    0.3 * _POINTS[card] if 0 <= _COLOURS[card] < 5 and _POINTS[card] else 0.0
    for card in range(len(CARDS))
)
"""What a card with points adds towards ten points in a colour, once the player has some."""
_DECAY_BY_TURNS = tuple(_DECAY**turns for turns in range(40))


def position_value(state: DuelState, seat: int, opponent_weight: float = OPPONENT_WEIGHT) -> float:
    """The seat's value less a share of the opponent's; a finished game is ±``WIN``."""
    if state.phase == GAME_OVER:
        result = outcome(state)
        assert result is not None
        if len(result.winners) > 1:
            return 0.0
        return WIN if seat in result.winners else -WIN
    return player_value(state, seat) - opponent_weight * player_value(state, 1 - seat)


POINTS_PER_LOG_ODDS = 12.0
"""The value's points that one unit of log-odds of winning is worth: on 300 games of the search
bot against itself, a logistic of the value predicts the results best at about 12 points a unit
(Brier 0.229, where 3 a unit scored 0.266 and was over-sure: positions it gave 98% were won 78%
of the time in the analysis's calibration, issue 27)."""


def win_probability(state: DuelState, seat: int) -> float:
    """The seat's chance to win by the hand-set value: a logistic of its points, for averaging
    over samples (the analysis's judgement when no network judges)."""
    value = position_value(state, seat)
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, value / POINTS_PER_LOG_ODDS))))
