"""The game page's table: one context per swappable region, built from one viewer's data.

Everything here reads what ``games.reads.game_view`` gives one viewer (the engine's redacted view,
their legal actions, the redacted event history), so a page cannot show more than that viewer
may see. The page is cut into regions (status, nobles, board, supply, players, decision, log);
each region's context carries a digest of its content, so an htmx refresh can leave out the
regions a browser already shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from games import engine
from games.variants.splendor.buying_power import power_by_colour, shortfall
from games.variants.splendor.choices import Choices, WhyNot
from games.variants.splendor.describe import describe_action, gems
from games.variants.splendor.forms import GEM_COLOURS, tokens_to_field
from games.variants.table_common import digest, is_over, round_number, seat_names
from games.variants.words import GEM_NAMES, LETTERS, event_in_words
from games.vocabulary import EventKind

LOG_LENGTH = 10


# Payments -------------------------------------------------------------------------------------


def payment_options(player: Mapping[str, Any], card: Mapping[str, Any]) -> list[dict[str, int]]:
    """Every exact payment ``player`` could make for ``card``, fewest gold first (the engine's
    rule, applied to the viewer's own view; the engine checks whatever is posted)."""
    return engine.payment_options_in_view(player, card)


# The table: one context per region ------------------------------------------------------------


def table_for_viewer(
    data: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    *,
    seen_cards: set[int] | None = None,
    notices: Sequence[Mapping[str, str]] = (),
) -> dict[str, dict[str, Any]]:
    """The context of every region of the game page, each with its ``digest``.

    ``events`` are the latest events the viewer may see, ``seen_cards`` the face-up cards to
    count as already seen (None: highlight none), ``notices`` the messages to show.
    """
    state = data["state"]
    viewer_seat = data["viewer_seat"]
    choices = Choices.from_actions(data["legal_actions"])
    me = state["players"][viewer_seat] if viewer_seat is not None else None
    names = seat_names(data)
    is_running = data["status"] == "active"
    my_last_move = _last_move_of(viewer_seat, events) if is_running else 0
    # Forms carry the version they were chosen at: a region with forms changes with it.
    forms_version = data["version"] if choices.has_any else None
    why_not = WhyNot.for_viewer(data, me, choices)
    card = partial(
        _face_up_card,
        buyer=me if is_running else None,
        viewer_seat=viewer_seat,
        choices=choices,
        seen_cards=seen_cards,
        why_not_reserve=why_not.reserve,
    )
    moved_since = _seats_moved_since(my_last_move, viewer_seat, events)
    regions: dict[str, dict[str, Any]] = {
        "status": _status(data, names, notices),
        "nobles": {"nobles": [_noble(noble) for noble in state["nobles"]]},
        "board": _board(state, choices, forms_version, why_not, card),
        "supply": _supply(state, choices, forms_version, why_not),
        "players": {
            "forms_version": forms_version,
            "players": [
                _player(player, data, names, card, moved_since, _last_mover(events))
                for player in state["players"]
            ],
        },
        "decision": _decision(state, me, choices, forms_version),
        "log": _log(events, names, my_last_move),
    }
    for region in regions.values():
        region["digest"] = digest(region)
    return regions


def _face_up_card(
    item: Mapping[str, Any],
    *,
    owner: int | None = None,
    buyer: Mapping[str, Any] | None,
    viewer_seat: int | None,
    choices: Choices,
    seen_cards: set[int] | None,
    why_not_reserve: str,
) -> dict[str, Any]:
    """A face-up card on the board (no owner) or in a player's reserve; ``buyer`` (the viewer
    in a running game) is marked able to buy it only on the board or in their own reserve."""
    on_board = owner is None
    return _card(
        item,
        buyer=buyer if on_board or owner == viewer_seat else None,
        choices=choices,
        on_board=on_board,
        is_new=on_board and seen_cards is not None and item["id"] not in seen_cards,
        why_not_reserve=why_not_reserve if on_board else "",
    )


def _board(
    state: Mapping[str, Any],
    choices: Choices,
    forms_version: int | None,
    why_not: WhyNot,
    card: Callable[[Mapping[str, Any]], dict[str, Any]],
) -> dict[str, Any]:
    """The cards region: the three rows of face-up cards, each with its deck."""
    return {
        "forms_version": forms_version,
        "rows": [
            {
                "level": level,
                "deck": state["decks"][level - 1],
                "can_reserve_deck": level in choices.reserve_levels,
                "why_not_reserve_deck": why_not.reserve
                if state["decks"][level - 1] and level not in choices.reserve_levels
                else "",
                "cards": [item and card(item) for item in state["board"][level - 1]],
            }
            for level in (3, 2, 1)
        ],
    }


def _log(
    events: Sequence[Mapping[str, Any]], names: Sequence[str], my_last_move: int
) -> dict[str, Any]:
    """The log region: the latest events in words, newest first, marked new since my move."""
    return {
        "entries": [
            {
                "seq": event["seq"],
                "text": event.get("text")
                or event_in_words(event, names, describe_action=describe_action),
                "is_new": bool(my_last_move) and event["seq"] > my_last_move,
            }
            for event in reversed(events[-LOG_LENGTH:])
        ],
    }


def _last_move_of(seat: int | None, events: Sequence[Mapping[str, Any]]) -> int:
    """The seq of ``seat``'s latest move among ``events``; 0 if none (or no seat)."""
    if seat is None:
        return 0
    moves = [event["seq"] for event in events if _is_move(event) and event["seat"] == seat]
    return max(moves, default=0)


def _seats_moved_since(
    seq: int, viewer_seat: int | None, events: Sequence[Mapping[str, Any]]
) -> set[int]:
    """The other seats that moved after the viewer's last move (none before their first)."""
    if not seq:
        return set()
    return {
        event["seat"]
        for event in events
        if _is_move(event) and event["seq"] > seq and event["seat"] != viewer_seat
    }


def _last_mover(events: Sequence[Mapping[str, Any]]) -> int | None:
    """The seat of the latest move among ``events``, to highlight for a moment."""
    moves = [event for event in events if _is_move(event)]
    return moves[-1]["seat"] if moves else None


def _is_move(event: Mapping[str, Any]) -> bool:
    return bool(event["kind"] == EventKind.ACTION_TAKEN)


def _supply(
    state: Mapping[str, Any], choices: Choices, forms_version: int | None, why_not: WhyNot
) -> dict[str, Any]:
    return {
        "forms_version": forms_version,
        "tokens": gems(state["supply"], zeros=True),
        "take_colours": choices.take_colours,
        "take_two": gems(dict.fromkeys(choices.take_two, 2), GEM_COLOURS),
        # The combinations the page's script accepts: the same list the server would.
        "legal_takes": [",".join(combo) for combo in choices.takes],
        "most_to_take": max((len(combo) for combo in choices.takes), default=0),
        "why_not_take": why_not.takes,
        "why_not_two": why_not.take_two,
    }


def _status(
    data: Mapping[str, Any], names: Sequence[str], notices: Sequence[Mapping[str, str]]
) -> dict[str, Any]:
    state = data["state"]
    viewer_seat = data["viewer_seat"]
    acting = data["acting_seat"]
    is_my_turn = acting is not None and acting == viewer_seat
    return {
        "version": data["version"],
        "status": data["status"],
        "turn": state["turn"] + 1,
        "round": round_number(state["turn"], len(state["players"]), is_over=is_over(data)),
        "is_my_turn": is_my_turn,
        "headline": _headline(data, names, is_my_turn),
        "is_seated": viewer_seat is not None,
        "is_running": data["status"] == "active",
        "notices": list(notices),
    }


def _headline(data: Mapping[str, Any], names: Sequence[str], is_my_turn: bool) -> str:
    state = data["state"]
    if data["status"] == "finished":
        return "Game over"
    if data["status"] == "aborted":
        return "This game was called off"
    acting = data["acting_seat"]
    phase = state["phase"]
    if is_my_turn:
        if phase == "return_tokens":
            count = state["tokens_to_return"]
            return f"Your turn: give back {count} token{'s' if count != 1 else ''}"
        if phase == "choose_noble":
            return "Your turn: choose the noble who visits you"
        return "Your turn"
    who = names[acting] if acting is not None else "nobody"
    if phase == "return_tokens":
        return f"{who} is giving back tokens"
    if phase == "choose_noble":
        return f"{who} is choosing a noble"
    bot = data["seats"][acting]["bot_level"] if acting is not None else None
    return f"{who} is thinking…" if bot else f"Waiting for {who}"


def _card(
    item: Mapping[str, Any],
    *,
    buyer: Mapping[str, Any] | None,
    choices: Choices,
    on_board: bool,
    is_new: bool,
    why_not_reserve: str = "",
) -> dict[str, Any]:
    """A card for the ``card`` partial; ``buyer`` is the viewer if they could ever buy it."""
    options = payment_options(buyer, item) if buyer is not None else []
    can_buy = item["id"] in choices.buys
    lacking = shortfall(buyer, item["cost"]) if buyer is not None and not options else None
    return {
        "id": item["id"],
        "level": item["level"],
        "colour": item["colour"],
        "letter": LETTERS[item["colour"]],
        "name": GEM_NAMES[item["colour"]],
        "points": item["points"],
        "cost": gems(item["cost"], GEM_COLOURS),
        "affordable": bool(options),
        "can_buy": can_buy,
        "can_reserve": on_board and item["id"] in choices.reserve_cards,
        "payments": [
            {"value": tokens_to_field(option), "gems": gems(option), "gold": option.get("gold", 0)}
            for option in options
        ]
        if can_buy
        else [],
        "is_new": is_new,
        "needs": lacking["text"] if lacking else "",
        "why_not_reserve": "" if item["id"] in choices.reserve_cards else why_not_reserve,
    }


def _noble(noble: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "id": noble["id"],
        "points": noble["points"],
        "requires": gems(noble["requires"], GEM_COLOURS),
    }


def _player(
    player: Mapping[str, Any],
    data: Mapping[str, Any],
    names: Sequence[str],
    card: Any,
    moved_since: set[int],
    last_mover: int | None = None,
) -> dict[str, Any]:
    seat = player["seat"]
    noble_points = sum(noble["points"] for noble in player["nobles"])
    is_viewer = seat == data["viewer_seat"]
    bot_level = data["seats"][seat]["bot_level"]
    return {
        "seat": seat,
        "name": names[seat],
        "bot_level": bot_level,
        "is_viewer": is_viewer,
        "is_acting": seat == data["acting_seat"],
        "acted_since": seat in moved_since,
        "points": player["points"],
        "card_points": player["points"] - noble_points,
        "noble_points": noble_points,
        "is_last_mover": seat == last_mover and not is_viewer,
        "power": power_by_colour(player),
        "token_count": player["token_count"],
        "tokens": gems(player["tokens"], zeros=True),
        "bonuses": gems(player["bonuses"], GEM_COLOURS, zeros=True),
        "cards_bought": len(player["cards"]),
        "nobles": [_noble(noble) for noble in player["nobles"]],
        "reserved": [
            {"hidden": True, "level": item["level"]}
            if item.get("hidden")
            else card(item, owner=seat)
            for item in player["reserved"]
        ],
    }


def _decision(
    state: Mapping[str, Any],
    me: Mapping[str, Any] | None,
    choices: Choices,
    forms_version: int | None,
) -> dict[str, Any]:
    decision: dict[str, Any] = {"kind": None, "forms_version": forms_version}
    if choices.can_return and me is not None:
        decision["kind"] = "return_tokens"
        decision["count"] = state["tokens_to_return"]
        decision["held"] = gems(me["tokens"])
    elif choices.nobles:
        decision["kind"] = "choose_noble"
        decision["nobles"] = [
            _noble(noble) for noble in state["pending_nobles"] if noble["id"] in choices.nobles
        ]
    elif choices.can_pass:
        decision["kind"] = "pass"
    return decision
