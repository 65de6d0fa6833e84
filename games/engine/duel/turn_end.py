"""The end of a turn: discard down to ten, check victory, refill the pyramid, pass play on.

Rulebook, "End of player turn": "If you have more than 10 tokens in total, you must discard down
to 10 tokens ... Finally, check if you have fulfilled any of the three victory conditions." The
pyramid is refilled at the end of the turn (design.md), after the victory check; an extra turn
("Refresh") gives the same player the next turn.
"""

from __future__ import annotations

from games.engine.duel.scoring import has_won
from games.engine.duel.state import DISCARD_TOKENS, GAME_OVER, MAIN, TOKEN_LIMIT, DuelState

PASSES_TO_END = 2
"""Two turns passed in a row, one by each player: nobody can act, so the game ends."""


def end_turn(state: DuelState, *, passed: bool = False) -> DuelState:
    """After the mandatory action and its effects (or a pass): discard first if above ten.

    A pass ends the turn like any action: a player who spent privileges before finding nothing
    to do still discards down to ten.
    """
    passes = state.passes + 1 if passed else 0
    if sum(state.players[state.current].tokens) > TOKEN_LIMIT:
        return state._replace(
            phase=DISCARD_TOKENS, pending_card=None, royal_due=False, passes=passes
        )
    if passes != state.passes:
        state = state._replace(passes=passes)
    return finish_turn(state)


def finish_turn(state: DuelState) -> DuelState:
    """Check victory, refill the pyramid and start the next turn (or the same player's)."""
    passes = state.passes
    if has_won(state.players[state.current]) or passes >= PASSES_TO_END:
        return state._replace(
            phase=GAME_OVER,
            turn=state.turn + 1,
            extra_turn=False,
            pending_card=None,
            royal_due=False,
            passes=passes,
        )
    decks, pyramid = refill_pyramid(state.decks, state.pyramid)
    # Built field by field rather than with _replace: this runs at the end of every turn.
    return DuelState(
        state.players,
        state.board,
        state.bag,
        state.bag_draws,
        state.replenishments,
        decks,
        pyramid,
        state.royals,
        state.current if state.extra_turn else 1 - state.current,
        MAIN,
        state.turn + 1,
        False,
        None,
        False,
        passes,
    )


def refill_pyramid(
    decks: tuple[tuple[int, ...], ...], pyramid: tuple[tuple[int | None, ...], ...]
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int | None, ...], ...]]:
    """Each empty slot gets its level's top card, slots left to right; a dry deck leaves it."""
    # Unrolled over the three levels: most turns end with every slot filled.
    first, second, third = decks
    if not (
        (first and None in pyramid[0])
        or (second and None in pyramid[1])
        or (third and None in pyramid[2])
    ):
        return decks, pyramid
    new_decks = []
    new_pyramid = []
    for deck, row in zip(decks, pyramid, strict=True):
        slots = list(row)
        for index, card in enumerate(slots):
            if card is None and deck:
                slots[index] = deck[0]
                deck = deck[1:]
        new_decks.append(deck)
        new_pyramid.append(tuple(slots))
    return tuple(new_decks), tuple(new_pyramid)
