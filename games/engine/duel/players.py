"""One player's holdings: what buying a card adds, and where a privilege comes from.

A :class:`PlayerState` keeps its bonuses, points, crowns and points per colour beside the cards
and royals they come from; :func:`derive` computes them, and the transitions keep them in step.
"""

from __future__ import annotations

from games.engine.duel.catalogue import CARDS, PRIVILEGES, ROYALS
from games.engine.duel.state import PlayerState
from games.engine.duel.tokens import GEM_COLOURS, NO_GEMS, NO_TOKENS, Tokens

EMPTY_HAND = PlayerState(
    tokens=NO_TOKENS,
    privileges=0,
    cards=(),
    card_colours=(),
    reserved=(),
    blind=(),
    royals=(),
    bonuses=NO_GEMS,
    points=0,
    crowns=0,
    colour_points=NO_GEMS,
)


def derive(
    tokens: Tokens,
    privileges: int,
    cards: tuple[int, ...],
    card_colours: tuple[int, ...],
    reserved: tuple[int, ...],
    blind: tuple[int, ...],
    royals: tuple[int, ...],
) -> PlayerState:
    """A player with bonuses, points, crowns and points per colour worked out from the cards.

    A card counts in the colour it is placed with (rulebook, victory condition 3): its own, or
    the one a joker joined. A joker whose colour is still being chosen counts in none yet.
    """
    bonuses = [0] * len(GEM_COLOURS)
    colour_points = [0] * len(GEM_COLOURS)
    for card, colour in zip(cards, card_colours, strict=True):
        if colour in GEM_COLOURS:
            bonuses[colour] += CARDS[card].bonus
            colour_points[colour] += CARDS[card].points
    return PlayerState(
        tokens=tokens,
        privileges=privileges,
        cards=cards,
        card_colours=card_colours,
        reserved=reserved,
        blind=blind,
        royals=royals,
        bonuses=tuple(bonuses),
        points=sum(CARDS[card].points for card in cards) + sum(ROYALS[r].points for r in royals),
        crowns=sum(CARDS[card].crowns for card in cards),
        colour_points=tuple(colour_points),
    )


def with_card(
    player: PlayerState,
    card: int,
    colour: int,
    tokens: Tokens,
    reserved: tuple[int, ...],
    blind: tuple[int, ...],
) -> PlayerState:
    """The player with ``card`` bought and placed with ``colour`` (its bonus, points, crowns),
    holding ``tokens`` after paying and the reserve without the card."""
    bought = CARDS[card]
    bonuses = player.bonuses
    colour_points = player.colour_points
    if colour in GEM_COLOURS:
        bonuses = _plus(bonuses, colour, bought.bonus)
        colour_points = _plus(colour_points, colour, bought.points)
    # Built field by field rather than with _replace: a purchase is a common action.
    return PlayerState(
        tokens,
        player.privileges,
        (*player.cards, card),
        (*player.card_colours, colour),
        reserved,
        blind,
        player.royals,
        bonuses,
        player.points + bought.points,
        player.crowns + bought.crowns,
        colour_points,
    )


def with_joker_colour(player: PlayerState, colour: int) -> PlayerState:
    """The player with the joker bought last placed with their cards of ``colour``."""
    card = player.cards[-1]
    joker = CARDS[card]
    return player._replace(
        card_colours=(*player.card_colours[:-1], colour),
        bonuses=_plus(player.bonuses, colour, joker.bonus),
        colour_points=_plus(player.colour_points, colour, joker.points),
    )


def with_royal(player: PlayerState, royal: int) -> PlayerState:
    return player._replace(
        royals=(*player.royals, royal), points=player.points + ROYALS[royal].points
    )


def take_privilege(players: tuple[PlayerState, ...], seat: int) -> tuple[PlayerState, ...]:
    """``seat`` takes a privilege: from the table, else from the opponent; none if it has all.

    Rulebook, "Replenish the Game Board": "when you must take a Privilege, and there are none
    left above the board, take 1 from your opponent. If you already have all 3 Privileges,
    nothing happens."
    """
    taker = players[seat]
    if taker.privileges >= PRIVILEGES:
        return players
    other = 1 - seat
    opponent = players[other]
    if sum(player.privileges for player in players) >= PRIVILEGES:
        opponent = opponent._replace(privileges=opponent.privileges - 1)
    taker = taker._replace(privileges=taker.privileges + 1)
    return (taker, opponent) if seat == 0 else (opponent, taker)


def with_tokens(player: PlayerState, colour: int, change: int) -> PlayerState:
    return player._replace(tokens=_plus(player.tokens, colour, change))


def _plus(vector: tuple[int, ...], index: int, change: int) -> tuple[int, ...]:
    return (*vector[:index], vector[index] + change, *vector[index + 1 :])


def replace_seat(
    players: tuple[PlayerState, ...], seat: int, player: PlayerState
) -> tuple[PlayerState, ...]:
    """The two players with ``seat``'s replaced by ``player``."""
    return (player, players[1]) if seat == 0 else (players[0], player)
