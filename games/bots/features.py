"""The base game's positions as the Expert's value network reads them: one row per seat.

A row sees the table from one seat's chair: that player's figures, then each other player's in
turn order after them (a table of fewer than four leaves the last blocks zero), then the
context (how many play, how far the turn is from this seat, which seat this is in the round,
how far the game has gone, whether the last round has begun). A player's figures are their
points, bonuses and tokens by colour, reserved and bought cards, nobles, progress toward the
closest noble still on the table, and the hand-set evaluation's estimate of them
(``games.bots.evaluation.player_value``), so that the network starts from what the bots already
know and learns what it is worth.

Everything is encoded for an ``observer``: another player's blind reserve (a card taken unseen
from a deck) counts only as a reserved card, never as the card it is, so a row holds nothing
the observer could not see. The search calls this on its sampled deals, in which those cards
are guesses; training calls it on the real positions, with the mover as the observer.
"""

from __future__ import annotations

from games.bots.evaluation import NOBLE_REQUIRES, player_value
from games.engine.splendor.state import WINNING_POINTS, GameState, PlayerState

PLAYER_FEATURES = 19
CONTEXT_FEATURES = 13
MAX_SEATS = 4
FEATURES = PLAYER_FEATURES * MAX_SEATS + CONTEXT_FEATURES
_ABSENT = (0.0,) * PLAYER_FEATURES


def seat_rows(state: GameState, observer: int) -> list[list[float]]:
    """One row of ``FEATURES`` numbers per seat, in seat order, as ``observer`` knows them."""
    seen = _as_seen_by(state, observer)
    seats = len(state.players)
    blocks = [_player_block(seen, seat) for seat in range(seats)]
    final_round = any(player.points >= WINNING_POINTS for player in state.players)
    rows = []
    for seat in range(seats):
        row: list[float] = []
        for offset in range(MAX_SEATS):
            row.extend(blocks[(seat + offset) % seats] if offset < seats else _ABSENT)
        row.extend(1.0 if seats == count else 0.0 for count in (2, 3, 4))
        waiting = (seat - state.current) % seats
        row.extend(1.0 if waiting == distance else 0.0 for distance in range(MAX_SEATS))
        row.extend(1.0 if seat == index else 0.0 for index in range(MAX_SEATS))
        row.append(state.turn / seats / 30.0)
        row.append(1.0 if final_round else 0.0)
        rows.append(row)
    return rows


def _as_seen_by(state: GameState, observer: int) -> GameState:
    """The state with every other player's blind reserves taken out of their hands."""
    players = list(state.players)
    changed = False
    for seat, player in enumerate(players):
        if seat != observer and player.blind:
            hidden = set(player.blind)
            players[seat] = player._replace(
                reserved=tuple(card for card in player.reserved if card not in hidden)
            )
            changed = True
    return state._replace(players=tuple(players)) if changed else state


def _player_block(seen: GameState, seat: int) -> tuple[float, ...]:
    player: PlayerState = seen.players[seat]
    true_reserved = len(player.reserved) + _hidden_count(seen, seat)
    bonuses = player.bonuses
    tokens = player.tokens
    closest = 1.0
    for noble in seen.nobles:
        requires = NOBLE_REQUIRES[noble]
        missing = sum(
            need - have for need, have in zip(requires, bonuses, strict=True) if need > have
        )
        closest = min(closest, missing / 10.0)
    return (
        player.points / 15.0,
        bonuses[0] / 4.0,
        bonuses[1] / 4.0,
        bonuses[2] / 4.0,
        bonuses[3] / 4.0,
        bonuses[4] / 4.0,
        sum(bonuses) / 10.0,
        tokens[0] / 4.0,
        tokens[1] / 4.0,
        tokens[2] / 4.0,
        tokens[3] / 4.0,
        tokens[4] / 4.0,
        tokens[5] / 3.0,
        sum(tokens) / 10.0,
        true_reserved / 3.0,
        len(player.cards) / 15.0,
        len(player.nobles) / 3.0,
        closest,
        player_value(seen, seat) / 15.0,
    )


def _hidden_count(seen: GameState, seat: int) -> int:
    """How many reserves ``_as_seen_by`` took out of this player's hand (zero for the
    observer, whose hand is whole)."""
    player = seen.players[seat]
    kept = set(player.reserved)
    return sum(1 for card in player.blind if card not in kept)
