"""The trusted path's end of an action: tokens above ten, a noble's visit, the next seat.

``trusted``'s steps hand over the parts of the state their action changed, and
:func:`end_action` builds the one next state, deciding what ``transitions`` decides after an
action (``_conclude_action``, ``_visit_nobles`` and ``_end_turn``) from tables built once.
"""

from __future__ import annotations

from games.engine.splendor.catalogue import CARDS, NOBLES
from games.engine.splendor.gems import GEM_COLOURS, Gems, Tokens
from games.engine.splendor.state import (
    CHOOSE_NOBLE,
    GAME_OVER,
    MAIN,
    RETURN_TOKENS,
    WINNING_POINTS,
    GameState,
    PlayerState,
)

_Decks = tuple[tuple[int, ...], ...]
_Board = tuple[tuple[int | None, ...], ...]

_NOBLE_POINTS: tuple[int, ...] = tuple(noble.points for noble in NOBLES)
_NOBLE_REQUIREMENTS: tuple[Gems, ...] = tuple(noble.requires for noble in NOBLES)
_FEWEST_CARDS_FOR_A_NOBLE = min(sum(noble.requires) for noble in NOBLES)
_NOBLES_MET: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << noble for noble, requires in enumerate(_NOBLE_REQUIREMENTS)
            if requires[colour] <= count)
        for count in range(len(CARDS) + 1)
    )
    for colour in GEM_COLOURS
)  # fmt: skip
"""Per colour and bonus count, the nobles (one bit each) whose need in that colour it meets."""
(
    _NOBLES_MET_WHITE, _NOBLES_MET_BLUE, _NOBLES_MET_GREEN, _NOBLES_MET_RED, _NOBLES_MET_BLACK,
) = _NOBLES_MET  # fmt: skip
_new_tuple = tuple.__new__
"""What a named tuple's generated ``__new__`` calls, called directly to skip a Python frame."""

VISITED = 0
"""What the action leaves to check: nothing but passing play on (a noble was just chosen)."""
MAY_VISIT = 1
"""A noble may visit."""
OVER = 2
"""The player holds more than ten tokens and must return some first."""


def end_action(
    players: tuple[PlayerState, ...],
    seat: int,
    turn: int,
    player: PlayerState,
    supply: Tokens,
    decks: _Decks,
    board: _Board,
    nobles: tuple[int, ...],
    passes: int,
    left_to_check: int,
) -> GameState:
    """The one builder of the state that ends an action (as ``transitions._conclude_action``).

    Returning tokens above ten comes first, then at most one noble's visit (the player chooses
    when several qualify), then the next seat acts; at the end of a round the game ends if
    someone has 15 points or every player passed. ``left_to_check`` says which of those the
    action calls for."""
    phase = MAIN
    pending: tuple[int, ...] = ()
    if left_to_check == OVER:
        phase = RETURN_TOKENS
    elif left_to_check and len(player[1]) >= _FEWEST_CARDS_FOR_A_NOBLE:
        bonus_white, bonus_blue, bonus_green, bonus_red, bonus_black = player[5]
        met = (
            _NOBLES_MET_WHITE[bonus_white] & _NOBLES_MET_BLUE[bonus_blue]
            & _NOBLES_MET_GREEN[bonus_green] & _NOBLES_MET_RED[bonus_red]
            & _NOBLES_MET_BLACK[bonus_black]
        )  # fmt: skip
        if met:
            # Loops, not comprehensions: a comprehension is a function call of its own.
            qualifying: tuple[int, ...] = ()
            for noble in nobles:
                if met >> noble & 1:
                    qualifying += (noble,)
            if len(qualifying) > 1:
                phase = CHOOSE_NOBLE
                pending = qualifying
            elif qualifying:
                noble = qualifying[0]
                player = visited(player, noble)
                nobles = without(nobles, noble)
    seats = len(players)
    if seats == 2:  # the commonest table, rebuilt without a list
        players = (player, players[1]) if seat == 0 else (players[0], player)
    else:
        rebuilt = list(players)
        rebuilt[seat] = player
        players = tuple(rebuilt)
    current = seat
    if phase == MAIN:
        turn += 1
        current += 1
        if current == seats:
            finished = passes == current
            if not finished:
                for other in players:
                    if other[6] >= WINNING_POINTS:
                        finished = True
                        break
            if finished:
                current, phase = seat, GAME_OVER
            else:
                current = passes = 0
    return _new_tuple(
        GameState, (players, supply, decks, board, nobles, current, phase, turn, passes, pending)
    )


def without(held: tuple[int, ...], item: int) -> tuple[int, ...]:
    """``held`` (nobles or cards, each at most once) without ``item``, which it holds."""
    index = held.index(item)
    return held[:index] + held[index + 1 :]


def visited(player: PlayerState, noble: int) -> PlayerState:
    """The player once ``noble`` has visited them."""
    tokens, cards, reserved, blind, won, bonuses, points = player
    return _new_tuple(
        PlayerState,
        (tokens, cards, reserved, blind, (*won, noble), bonuses, points + _NOBLE_POINTS[noble]),
    )
