"""What makes a state or a setup one that a real game could hold: the readers' checks.

``codec`` parses the JSON shape; this module decides whether the parsed value could have come
from play (every card and token in one place, a phase the rules could be in, a turn counter in
step with the seat to act and the passes of the round) or from ``setup.new_game`` (each level's
whole deck, players + 1 nobles). Each refusal is a ``MalformedJSON`` naming the problem, so a
damaged snapshot or a forged state is stopped at the door instead of being played on.
"""

from __future__ import annotations

from collections import Counter

from games.engine.errors import MalformedJSON
from games.engine.splendor.catalogue import CARD_IDS_BY_LEVEL, CARDS, LEVELS, NOBLES, Card
from games.engine.splendor.gems import GEM_COLOURS
from games.engine.splendor.setup import GEMS_PER_COLOUR, GOLD_TOKENS
from games.engine.splendor.state import (
    BOARD_WIDTH,
    CHOOSE_NOBLE,
    GAME_OVER,
    MAIN,
    PHASES,
    RETURN_TOKENS,
    TOKEN_LIMIT,
    WINNING_POINTS,
    GameState,
    Setup,
)


def check_card(card: int) -> Card:
    if not 0 <= card < len(CARDS):
        raise MalformedJSON(f"there is no card {card}")
    return CARDS[card]


def check_noble(noble: int) -> None:
    if not 0 <= noble < len(NOBLES):
        raise MalformedJSON(f"there is no noble {noble}")


# Setups ---------------------------------------------------------------------------------------


def check_setup(setup: Setup) -> None:
    """A setup must be what ``new_game`` draws: each level's whole deck once, players + 1 nobles."""
    if setup.players not in GEMS_PER_COLOUR:
        raise MalformedJSON("a setup has 2 to 4 players")
    if len(setup.decks) != len(LEVELS):
        raise MalformedJSON(f"a setup has {len(LEVELS)} decks, one per level")
    for level, deck in zip(LEVELS, setup.decks, strict=True):
        _check_whole_deck(level, deck)
    for noble in setup.nobles:
        check_noble(noble)
    if len(set(setup.nobles)) != len(setup.nobles):
        raise MalformedJSON("a setup draws each noble at most once")
    if len(setup.nobles) != setup.players + 1:
        raise MalformedJSON(
            f"a {setup.players}-player setup draws {setup.players + 1} nobles, "
            f"not {len(setup.nobles)}"
        )


def _check_whole_deck(level: int, deck: tuple[int, ...]) -> None:
    expected = _WHOLE_DECKS[level]
    if len(deck) == len(expected) and expected == set(deck):
        return  # every card of the level, as many as there are: each once (else, say what's off)
    for card in deck:
        if check_card(card).level != level:
            raise MalformedJSON(f"card {card} is not a level {level} card")
    repeated = sorted(card for card, count in Counter(deck).items() if count > 1)
    if repeated:
        raise MalformedJSON(f"the level {level} deck lists card {repeated[0]} more than once")
    missing = sorted(expected - set(deck))
    if missing:
        raise MalformedJSON(f"the level {level} deck lacks card {missing[0]}")


_WHOLE_DECKS: dict[int, frozenset[int]] = {
    level: frozenset(cards) for level, cards in CARD_IDS_BY_LEVEL.items()
}


# States ---------------------------------------------------------------------------------------


def check_state(state: GameState) -> None:
    seats = len(state.players)
    if seats not in GEMS_PER_COLOUR:
        raise MalformedJSON("a state has 2 to 4 players")
    if state.phase not in PHASES:
        raise MalformedJSON(f"unknown phase {state.phase!r}")
    if not 0 <= state.current < seats:
        raise MalformedJSON("current must be a seat of the game")
    if state.turn < 0 or not 0 <= state.passes_this_round <= seats:
        raise MalformedJSON("turn and passes_this_round must be counts within the game")
    _check_cards(state)
    _check_nobles(state)
    _check_phase(state)
    _check_tokens(state)
    _check_turn_bookkeeping(state)


def _check_cards(state: GameState) -> None:
    if len(state.decks) != 3 or len(state.board) != 3:
        raise MalformedJSON("a state has three decks and three board rows")
    if any(len(row) != BOARD_WIDTH for row in state.board):
        raise MalformedJSON(f"each board row has {BOARD_WIDTH} slots")
    places: list[int] = []
    for level, (deck, row) in enumerate(zip(state.decks, state.board, strict=True), start=1):
        if deck and None in row:
            raise MalformedJSON(f"a level {level} slot is empty while its deck has cards")
        on_table = (*deck, *(card for card in row if card is not None))
        if not _WHOLE_DECKS[level].issuperset(on_table):  # then say which card is not
            for card in on_table:
                if check_card(card).level != level:
                    raise MalformedJSON(f"card {card} is not a level {level} card")
        places.extend(on_table)
    for player in state.players:
        if len(set(player.blind)) != len(player.blind):
            raise MalformedJSON("a blind reserve is listed once")
        if not set(player.blind) <= set(player.reserved):
            raise MalformedJSON("a blind reserve must be one of the player's reserved cards")
        if len(player.reserved) > 3:
            raise MalformedJSON("a player holds at most three reserved cards")
        places.extend(player.cards)
        places.extend(player.reserved)
    if sorted(places) != list(range(len(CARDS))):
        raise MalformedJSON("every card must be in exactly one place")


def _check_nobles(state: GameState) -> None:
    nobles = [*state.nobles, *(noble for player in state.players for noble in player.nobles)]
    if len(set(nobles)) != len(nobles) or len(nobles) != len(state.players) + 1:
        raise MalformedJSON("the game's nobles must each be in exactly one place")
    for noble in nobles:
        check_noble(noble)


def _check_tokens(state: GameState) -> None:
    totals = [
        state.supply[colour] + sum(player.tokens[colour] for player in state.players)
        for colour in range(len(state.supply))
    ]
    gems = GEMS_PER_COLOUR[len(state.players)]
    if totals != [gems] * len(GEM_COLOURS) + [GOLD_TOKENS]:
        raise MalformedJSON("the tokens in the supply and the players' hands must add up")


def _check_phase(state: GameState) -> None:
    """The phase must be one the rules could be in, so that the game can always go on."""
    acting = state.players[state.current]
    for seat, player in enumerate(state.players):
        returning = state.phase == RETURN_TOKENS and seat == state.current
        if sum(player.tokens) > TOKEN_LIMIT and not returning:
            raise MalformedJSON(f"only a player returning tokens may hold more than {TOKEN_LIMIT}")
    if state.phase == RETURN_TOKENS and sum(acting.tokens) <= TOKEN_LIMIT:
        raise MalformedJSON(f"returning tokens needs more than {TOKEN_LIMIT} in hand")
    if state.phase != CHOOSE_NOBLE:
        if state.pending_nobles:
            raise MalformedJSON("pending nobles exist only while a noble is being chosen")
        return
    pending = set(state.pending_nobles)
    if len(pending) < 2 or len(pending) != len(state.pending_nobles):
        raise MalformedJSON("a noble choice needs two or more different nobles")
    if not pending <= set(state.nobles):
        raise MalformedJSON("pending nobles must be on the table")
    for noble in pending:
        if any(
            have < need for have, need in zip(acting.bonuses, NOBLES[noble].requires, strict=True)
        ):
            raise MalformedJSON(f"the player to act does not qualify for noble {noble}")


def _check_turn_bookkeeping(state: GameState) -> None:
    """The turn counter, the seat to act and the round's passes move together (rules: seats
    play in order; a round in which every player passed, or after which someone has 15 points,
    ends the game, on the last seat's turn)."""
    seats = len(state.players)
    top_score = max(player.points for player in state.players)
    if state.phase == GAME_OVER:
        if state.turn == 0 or state.turn % seats or state.current != seats - 1:
            raise MalformedJSON("a game ends when its last seat completes a round")
        if top_score < WINNING_POINTS and state.passes_this_round != seats:
            raise MalformedJSON(
                f"a game ends only with {WINNING_POINTS} points or a round in which all passed"
            )
        return
    if state.current != state.turn % seats:
        raise MalformedJSON(
            f"after {state.turn} turn(s) seat {state.turn % seats} acts, not seat {state.current}"
        )
    # Seats before the current one have played this round; the current seat's own pass counts
    # only once it has passed, which leaves it choosing a noble at most.
    played = state.current + (1 if state.phase == CHOOSE_NOBLE else 0)
    if state.passes_this_round > played:
        raise MalformedJSON(
            f"the round records {state.passes_this_round} pass(es) but only {played} "
            "player(s) have played in it"
        )
    if state.phase == MAIN and state.current == 0 and state.turn and top_score >= WINNING_POINTS:
        raise MalformedJSON(f"a round that ends with {WINNING_POINTS} points ends the game")
