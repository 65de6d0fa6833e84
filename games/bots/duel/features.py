"""Splendor Duel positions as the Expert's value network reads them: one row per seat.

A row sees the table from one seat's chair: that player's figures, then the opponent's, then
the table. A player's figures are the three races (points, crowns, the best colour's points),
points and bonuses by colour, tokens by kind, privileges, royals, reserved and bought cards, and
the hand-set evaluation's estimate of them (``games.bots.duel.evaluation.scored_player``); the
table's are whose turn it is (and whether an extra one follows), how far the game has gone,
the tokens on the board by kind, the privileges and royals still free.

Everything is encoded for an ``observer``: the opponent's blind reserve (a card drawn unseen
from a deck) counts only as a reserved card, never as the card it is. The tokens in the bag and
on the board are public, the decks' order is not read.
"""

from __future__ import annotations

from games.bots.duel.evaluation import scored_player
from games.engine.duel.catalogue import TOKEN_COUNTS
from games.engine.duel.state import DuelState, PlayerState

PLAYER_FEATURES = 27
CONTEXT_FEATURES = 12
FEATURES = 2 * PLAYER_FEATURES + CONTEXT_FEATURES
PRIVILEGES = 3
_TOKEN_SCALE = (4.0, 4.0, 4.0, 4.0, 4.0, 2.0, 3.0)


def seat_rows(state: DuelState, observer: int) -> list[list[float]]:
    """Two rows of ``FEATURES`` numbers, seat 0's then seat 1's, as ``observer`` knows them."""
    blocks = [_player_block(state, seat, observer) for seat in (0, 1)]
    on_board = [
        total - in_bag - state.players[0].tokens[kind] - state.players[1].tokens[kind]
        for kind, (total, in_bag) in enumerate(zip(TOKEN_COUNTS, state.bag, strict=True))
    ]
    free_privileges = PRIVILEGES - state.players[0].privileges - state.players[1].privileges
    rows = []
    for seat in (0, 1):
        row = [*blocks[seat], *blocks[1 - seat]]
        row.append(1.0 if state.current == seat else 0.0)
        row.append(1.0 if state.extra_turn else 0.0)
        row.append(state.turn / 60.0)
        row.extend(count / scale for count, scale in zip(on_board, _TOKEN_SCALE, strict=True))
        row.append(free_privileges / 3.0)
        row.append(len(state.royals) / 4.0)
        rows.append(row)
    return rows


def _player_block(state: DuelState, seat: int, observer: int) -> tuple[float, ...]:
    player: PlayerState = state.players[seat]
    reserved_count = len(player.reserved)
    if seat != observer and player.blind:
        hidden = set(player.blind)
        player = player._replace(
            reserved=tuple(card for card in player.reserved if card not in hidden)
        )
    tokens = player.tokens
    bonuses = player.bonuses
    colour_points = player.colour_points
    return (
        player.points / 20.0,
        player.crowns / 10.0,
        max(colour_points) / 10.0,
        *(points / 10.0 for points in colour_points),
        *(bonus / 4.0 for bonus in bonuses),
        sum(bonuses) / 10.0,
        *(count / scale for count, scale in zip(tokens, _TOKEN_SCALE, strict=True)),
        sum(tokens) / 10.0,
        player.privileges / 3.0,
        len(player.royals) / 2.0,
        reserved_count / 3.0,
        len(player.cards) / 15.0,
        scored_player(state.pyramid, player) / 20.0,
    )
