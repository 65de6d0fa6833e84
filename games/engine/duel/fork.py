"""A setup that starts a new Duel from a position someone saw: "fork from here".

The input is a ``view`` (what one viewer could see at that moment), never a state, so a fork
cannot reveal more than its viewer saw. Everything the view shows is kept exactly: the board,
the bag's contents, the pyramid, every hand, the royals left, privileges, whose turn and which
phase, and the turn's pending card. What it hides is dealt afresh from ``seed``: the order of
every deck (always, even when the viewer could know it, so the new game's players cannot foresee
the next card), the cards the other player reserved unseen (cards of the same level from the
unseen ones) and the bag's draw orders for every later replenishment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.duel import codec
from games.engine.duel.catalogue import CARD_IDS_BY_LEVEL, LEVELS
from games.engine.duel.setup import reshuffled
from games.engine.duel.state import GAME_OVER, DuelState, Setup
from games.engine.duel.visibility import VARIANT
from games.engine.errors import IllegalAction, MalformedJSON


def setup_from_position(position: Mapping[str, Any], seed: int) -> Setup:
    """A setup whose game begins at ``position`` (a Duel view), its hidden parts reshuffled.

    Raises ``IllegalAction`` for a position where the game is over (nothing to play) and
    ``MalformedJSON`` for a view that no real game could show.
    """
    try:
        return _setup_from_position(position, seed)
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise MalformedJSON(f"not a Splendor Duel view: {error!r}") from None


def _setup_from_position(position: Mapping[str, Any], seed: int) -> Setup:
    if position.get("variant") != VARIANT:
        raise MalformedJSON("not a Splendor Duel view")
    if position["phase"] == GAME_OVER:
        raise IllegalAction("The game is over at this position: there is nothing left to play.")
    seen: set[int] = {card["id"] for row in position["pyramid"] for card in row if card}
    for player in position["players"]:
        seen.update(card["id"] for card in player["cards"])
        seen.update(card["id"] for card in player["reserved"] if not card.get("hidden"))
    pools = [[card for card in CARD_IDS_BY_LEVEL[level] if card not in seen] for level in LEVELS]
    bag_draws = reshuffled(pools, seed)
    players = [_player(player, pools) for player in position["players"]]
    if [len(pool) for pool in pools] != list(position["decks"]):
        raise MalformedJSON("the decks' sizes do not match the cards nobody could see")
    pending = position["pending_card"]
    state = codec.state_from_json(
        {
            "variant": VARIANT,
            "players": players,
            "board": position["board"],
            "bag": dict(position["bag"]),
            "bag_draws": [list(order) for order in bag_draws],
            "replenishments": 0,
            "decks": pools,
            "pyramid": [[card and card["id"] for card in row] for row in position["pyramid"]],
            "royals": [royal["id"] for royal in position["royals"]],
            "current": position["current"],
            "phase": position["phase"],
            "turn": position["turn"],
            "extra_turn": position["extra_turn"],
            "pending_card": None if pending is None else pending["id"],
            "royal_due": position["royal_due"],
            "passes": position["passes"],
        }
    )
    return setup_for(state, seed)


def _player(player: Mapping[str, Any], pools: list[list[int]]) -> dict[str, Any]:
    """A player's state JSON: a hidden reserve gets an unseen card of its level."""
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
    return {
        "tokens": dict(player["tokens"]),
        "privileges": player["privileges"],
        "cards": [card["id"] for card in player["cards"]],
        "card_colours": [card["placed_as"] for card in player["cards"]],
        "reserved": reserved,
        "blind": blind,
        "royals": [royal["id"] for royal in player["royals"]],
    }


def setup_for(state: DuelState, seed: int) -> Setup:
    """The setup of a game that begins at ``state`` (see ``Setup.position``)."""
    return Setup(
        seed=seed,
        first_player=state.current,
        decks=state.decks,
        tokens=codec.ALL_TOKENS,
        bag_draws=state.bag_draws,
        position=state,
    )
