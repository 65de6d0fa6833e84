"""The Splendor Duel page's table: one context per region, built from one viewer's data.

As ``games.variants.splendor.table`` for the base game, everything here reads only what
``games.reads.game_view`` gives one viewer (the engine's redacted view, their legal actions, the
redacted events), so the page cannot show more than that viewer may see. Every legal action is
offered as its own button posting the action's JSON, so every phase (lines, gold, joker colour,
abilities, royals, discards, privileges, replenishing) is playable without JavaScript. With the
page's script the same decisions are also made on the table (``games.variants.duel.clicks``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from games.variants.duel.cards import (
    ABILITIES,
    GEM_COLOURS,
    MARKS,
    NAMES,
    TOKEN_COLOURS,
    Buyer,
    card_view,
    counts_in_words,
    gem,
)
from games.variants.duel.clicks import TABLE_HINTS, TableChoices
from games.variants.duel.words import COLUMNS, describe_action, describe_card, space_name
from games.variants.table_common import digest, is_over, round_number, seat_names
from games.variants.words import event_in_words

LOG_LENGTH = 10
GOALS = {"points": 20, "crowns": 10, "colour_points": 10}
"""The three ways to win, as the rulebook counts them."""
GOAL_WORDS = (
    ("points", "points", "pts", GOALS["points"]),
    ("crowns", "crowns", "♛", GOALS["crowns"]),
    ("colour_points", "points in one colour", "in a colour", GOALS["colour_points"]),
)
"""Each way to win: its key, its words, its short mark on a panel, and the count it needs."""


GROUPS = (
    ("take_tokens", "Take a line of tokens"),
    ("take_gold", "Take a gold (then reserve a card)"),
    ("buy_card", "Buy a card"),
    ("use_privilege", "Spend a privilege"),
    ("replenish", "Refill the board"),
    ("reserve_card", "Reserve a card of the pyramid"),
    ("reserve_from_deck", "Reserve from a deck"),
    ("choose_joker_colour", "Place the joker with a colour"),
    ("take_matching_token", "Take a matching token"),
    ("steal_token", "Take a token from your opponent"),
    ("choose_royal", "Choose a royal"),
    ("discard_tokens", "Put tokens back (ten at most)"),
    ("pass", "Pass"),
)
PHASE_HEADLINES = {
    "main": "Your turn",
    "mandatory": "Your turn: take tokens or buy a card",
    "reserve": "Your turn: reserve a card with your gold",
    "choose_joker_colour": "Your turn: place the joker with a colour",
    "take_matching_token": "Your turn: take a matching token",
    "steal_token": "Your turn: take a token from your opponent",
    "choose_royal": "Your turn: choose a royal",
    "discard_tokens": "Your turn: put tokens back in the bag",
}


def table_for_viewer(
    data: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    *,
    seen_cards: set[int] | None = None,
    notices: Sequence[Mapping[str, str]] = (),
) -> dict[str, dict[str, Any]]:
    """The context of every region of the Duel page, each with its ``digest``."""
    state = data["state"]
    names = seat_names(data)
    viewer = data["viewer_seat"]
    acting = data["acting_seat"]
    is_my_turn = acting is not None and acting == viewer
    me = state["players"][viewer] if viewer is not None else None
    buyer = Buyer(me, data["legal_actions"])
    clicks = TableChoices(data["legal_actions"], state["tokens_to_discard"])
    is_choosing = is_my_turn and data["status"] == "active"
    regions: dict[str, dict[str, Any]] = {
        "status": {
            "version": data["version"],
            "round": round_number(state["turn"], len(state["players"]), is_over=is_over(data)),
            "is_my_turn": is_my_turn,
            "headline": _headline(data, names, is_my_turn),
            "is_seated": viewer is not None,
            "is_running": data["status"] == "active",
            "notices": list(notices),
        },
        "decision": _decision(state, data["legal_actions"], data["version"]),
        "board": _board(state, data["legal_actions"], clicks, me if is_choosing else None),
        "pyramid": _pyramid(state, data["legal_actions"], buyer, clicks),
        "players": {
            "players": [
                _player(player, names, acting, viewer, buyer, clicks) for player in state["players"]
            ],
        },
        "log": {
            "entries": [
                {
                    "seq": event["seq"],
                    "text": event.get("text")
                    or event_in_words(event, names, describe_action=describe_action),
                }
                for event in reversed(events[-LOG_LENGTH:])
            ],
        },
    }
    for region in regions.values():
        region["digest"] = digest(region)
    return regions


def _board(
    state: Mapping[str, Any],
    legal_actions: Sequence[Mapping[str, Any]],
    clicks: TableChoices,
    chooser: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The token board region: each space, what a click on it does, the bag and privileges.
    ``chooser`` is the player whose turn it is when they are the viewer, else ``None``."""
    lines = _lines(legal_actions)
    pickable = {space for line in lines for space in line["spaces"]}
    why_no_gold = clicks.why_no_gold(state, chooser)
    return {
        "columns": list(COLUMNS),
        "rows": [
            {
                "number": row + 1,
                "cells": [
                    {
                        "name": space_name((row, column)),
                        "gem": colour and gem(colour, 1),
                        "pickable": space_name((row, column)) in pickable,
                        "why_no_gold": why_no_gold if colour == "gold" else "",
                        **clicks.on_space(space_name((row, column))),
                    }
                    for column, colour in enumerate(cells)
                ],
            }
            for row, cells in enumerate(state["board"])
        ],
        "bag": sum(state["bag"].values()),
        **clicks.on_board(),
        "privileges": state["privileges"],
        # The legal lines, for picking one by its tokens (static/game.js); the decision
        # region lists the same lines as buttons for a page without JavaScript.
        "lines": json.dumps(lines, separators=(",", ":")) if lines else "",
    }


def _pyramid(
    state: Mapping[str, Any],
    legal_actions: Sequence[Mapping[str, Any]],
    buyer: Buyer,
    clicks: TableChoices,
) -> dict[str, Any]:
    """The pyramid region: the three rows of cards with their decks, and the royals."""
    deck_moves = {
        action["level"]: json.dumps(action, separators=(",", ":"))
        for action in legal_actions
        if action["type"] == "reserve_from_deck"
    }
    return {
        "rows": [
            {
                "level": level,
                "deck": state["decks"][level - 1],
                "cards": [card_view(item, buyer) for item in state["pyramid"][level - 1] if item],
                "deck_move": deck_moves.get(level),
            }
            for level in (3, 2, 1)
        ],
        "royals": [_royal(royal, clicks) for royal in state["royals"]],
    }


def _lines(actions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each legal line of tokens: its spaces by name and the action that takes it."""
    return [
        {
            "spaces": [space_name(space) for space in action["spaces"]],
            "action": json.dumps(action, separators=(",", ":")),
        }
        for action in actions
        if action["type"] == "take_tokens"
    ]


def _headline(data: Mapping[str, Any], names: Sequence[str], is_my_turn: bool) -> str:
    if data["status"] == "finished":
        return "Game over"
    if data["status"] == "aborted":
        return "This game was called off"
    phase = data["state"]["phase"]
    if is_my_turn:
        return PHASE_HEADLINES.get(phase, "Your turn")
    acting = data["acting_seat"]
    who = names[acting] if acting is not None else "nobody"
    bot = data["seats"][acting]["bot_level"] if acting is not None else None
    return f"{who} is thinking…" if bot else f"Waiting for {who}"


def _decision(
    state: Mapping[str, Any], actions: Sequence[Mapping[str, Any]], version: int
) -> dict[str, Any]:
    """Every legal action as a button, grouped by kind in the rulebook's order."""
    groups = []
    for kind, title in GROUPS:
        options = [
            {"label": _label(action, state), "json": json.dumps(action, separators=(",", ":"))}
            for action in actions
            if action["type"] == kind
        ]
        if options:
            groups.append({"kind": kind, "title": title, "options": options})
    return {
        "groups": groups,
        # In these phases the board and the cards are where a move is made (static/game.js);
        # the grouped buttons start closed. Any other decision opens its only group.
        "opens_first": state["phase"] not in ("main", "mandatory", "reserve"),
        # With the script the table makes these decisions: it closes the list and says so.
        "table_hint": TABLE_HINTS.get(state["phase"], "") if groups else "",
        "pending": state["pending_card"] and card_view(state["pending_card"]),
        "to_discard": state["tokens_to_discard"],
        # Buttons carry the version they were drawn at: the region changes with it.
        "forms_version": version if groups else None,
    }


def _label(action: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """A button's words: the colours on the spaces named, which the history cannot know."""
    board = state["board"]
    kind = action["type"]
    if kind == "take_tokens":
        colours = [board[row][column] for row, column in action["spaces"]]
        where = ", ".join(space_name(space) for space in action["spaces"])
        return f"{', '.join(colours)} ({where})"
    if kind in ("use_privilege", "take_gold", "take_matching_token"):
        row, column = action["space"]
        return f"{board[row][column]} ({space_name(action['space'])})"
    if kind in ("buy_card", "reserve_card"):
        return describe_card(action["card"]) + (
            f", paying {counts_in_words(action['payment'])}" if action.get("payment") else ""
        )
    if kind == "reserve_from_deck":
        return f"the top card of the level {action['level']} deck"
    if kind in ("choose_joker_colour", "steal_token"):
        return str(action["colour"])
    if kind == "choose_royal":
        royal = next((item for item in state["royals"] if item["id"] == action["royal"]), None)
        return _royal_words(royal) if royal else f"royal {action['royal'] + 1}"
    if kind == "discard_tokens":
        return counts_in_words(action["tokens"])
    return describe_action(action).capitalize()


def _royal(royal: Mapping[str, Any], clicks: TableChoices | None = None) -> dict[str, Any]:
    return {
        "id": royal["id"],
        "choice": clicks and clicks.on_royal(royal["id"]),
        "number": royal["id"] + 1,
        "points": royal["points"],
        "ability": ABILITIES.get(royal["ability"]),
        "words": _royal_words(royal),
    }


def _royal_words(royal: Mapping[str, Any]) -> str:
    ability = ABILITIES.get(royal["ability"])
    points = f"{royal['points']} points"
    return f"{points}, {ability['name']}: {ability['rule']}" if ability else points


def _player(
    player: Mapping[str, Any],
    names: Sequence[str],
    acting: int | None,
    viewer: int | None,
    buyer: Buyer,
    clicks: TableChoices,
) -> dict[str, Any]:
    is_viewer = player["seat"] == viewer
    best_colour = max(player["colour_points"].values(), default=0)
    progress = {"points": player["points"], "crowns": player["crowns"],
                "colour_points": best_colour}  # fmt: skip
    return {
        "seat": player["seat"],
        "name": names[player["seat"]],
        "is_acting": player["seat"] == acting,
        "is_viewer": is_viewer,
        "tokens": [gem(colour, player["tokens"].get(colour, 0)) for colour in TOKEN_COLOURS],
        "token_count": player["token_count"],
        # A column per token colour; only the five gem colours have bonuses and points.
        "colours": [
            {
                "gem": {"colour": colour, "letter": MARKS[colour], "name": NAMES[colour]},
                "tokens": player["tokens"].get(colour, 0),
                "has_cards": colour in GEM_COLOURS,
                "bonus": player["bonuses"].get(colour, 0),
                "points": player["colour_points"].get(colour, 0),
                "is_best": 0 < best_colour == player["colour_points"].get(colour, 0),
                **clicks.on_colour(colour, player["tokens"].get(colour, 0), is_viewer=is_viewer),
            }
            for colour in TOKEN_COLOURS
        ],
        "privileges": player["privileges"],
        "to_discard": clicks.to_discard if is_viewer else 0,
        "crowns": player["crowns"],
        "points": player["points"],
        "goals": [
            {"key": key, "name": name, "short": short, "have": progress[key], "need": need}
            for key, name, short, need in GOAL_WORDS
        ],
        "cards": len(player["cards"]),
        "reserved": [
            card_view(item, buyer if player["seat"] == viewer else None)
            for item in player["reserved"]
        ],
        "royals": [_royal(royal) for royal in player["royals"]],
    }
