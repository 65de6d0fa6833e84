"""A setup that starts a new game from a position someone saw: "fork from here".

The input is a ``view`` (what one viewer could see at that moment), never a state, so a fork
cannot reveal more than its viewer saw. Everything the view shows is kept exactly: the board,
the supply, every hand, the nobles, whose turn and which phase. What it hides is dealt afresh
from ``seed``: the order of every deck (always, even when the viewer could know it, so the new
game's players cannot foresee the next card) and the cards other players reserved unseen,
which get cards of the same level from the unseen ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.errors import IllegalAction, MalformedJSON
from games.engine.splendor import codec
from games.engine.splendor.catalogue import CARD_IDS_BY_LEVEL, LEVELS
from games.engine.splendor.setup import shuffled
from games.engine.splendor.state import GAME_OVER, GameState, Setup


def setup_from_position(position: Mapping[str, Any], seed: int) -> Setup:
    """A setup whose game begins at ``position`` (a Splendor view), its hidden cards reshuffled.

    Raises ``IllegalAction`` for a position where the game is over (nothing to play) and
    ``MalformedJSON`` for a view that no real game could show.
    """
    try:
        return _setup_from_position(position, seed)
    except (KeyError, TypeError, AttributeError) as error:
        raise MalformedJSON(f"not a Splendor view: {error!r}") from None


def _setup_from_position(position: Mapping[str, Any], seed: int) -> Setup:
    if position.get("variant") != codec.VARIANT:
        raise MalformedJSON("not a Splendor view")
    if position["phase"] == GAME_OVER:
        raise IllegalAction("The game is over at this position: there is nothing left to play.")
    seen: set[int] = {card["id"] for row in position["board"] for card in row if card}
    for player in position["players"]:
        seen.update(card["id"] for card in player["cards"])
        seen.update(card["id"] for card in player["reserved"] if not card.get("hidden"))
    pools = shuffled(
        [[card for card in CARD_IDS_BY_LEVEL[level] if card not in seen] for level in LEVELS], seed
    )
    players = []
    for player in position["players"]:
        reserved: list[int] = []
        blind: list[int] = []
        for card in player["reserved"]:
            if card.get("hidden"):
                pool = pools[card["level"] - 1]
                if not pool:
                    raise MalformedJSON("a hidden reserve has no unseen card of its level left")
                dealt = pool.pop()
                reserved.append(dealt)
                blind.append(dealt)
            else:
                reserved.append(card["id"])
                if card.get("blind"):
                    blind.append(card["id"])
        players.append(
            {
                "tokens": dict(player["tokens"]),
                "cards": [card["id"] for card in player["cards"]],
                "reserved": reserved,
                "blind": blind,
                "nobles": [noble["id"] for noble in player["nobles"]],
            }
        )
    if [len(pool) for pool in pools] != list(position["decks"]):
        raise MalformedJSON("the decks' sizes do not match the cards nobody could see")
    state = codec.state_from_json(
        {
            "variant": codec.VARIANT,
            "players": players,
            "supply": dict(position["supply"]),
            "decks": pools,
            "board": [[card and card["id"] for card in row] for row in position["board"]],
            "nobles": [noble["id"] for noble in position["nobles"]],
            "current": position["current"],
            "phase": position["phase"],
            "turn": position["turn"],
            "passes_this_round": position["passes_this_round"],
            "pending_nobles": [noble["id"] for noble in position["pending_nobles"]],
        }
    )
    return _setup_for(state, seed)


def _setup_for(state: GameState, seed: int) -> Setup:
    nobles = [*state.nobles, *(noble for player in state.players for noble in player.nobles)]
    return Setup(
        players=len(state.players),
        seed=seed,
        decks=state.decks,
        nobles=tuple(sorted(nobles)),
        position=state,
    )
