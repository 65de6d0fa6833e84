"""Words every game shares: gem marks and counts, events, and results as a player reads them.

Everything here reads what ``games.reads.game_view`` gives one viewer (the redacted view, the
redacted event history). A game's own actions are put in words by its package
(``describe_action`` of its ``Game``): :func:`event_in_words` is given that function, and
``games.variants.describe_event`` picks it by the game's variant.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.vocabulary import EventKind

LETTERS = {"white": "W", "blue": "B", "green": "G", "red": "R", "black": "K", "gold": "★"}
"""One mark per colour, printed on every gem, so colour is never the only cue."""

GEM_NAMES = {
    "white": "white (diamond)",
    "blue": "blue (sapphire)",
    "green": "green (emerald)",
    "red": "red (ruby)",
    "black": "black (onyx)",
    "gold": "gold (joker)",
}


def gems_in_words(counts: Mapping[str, int]) -> str:
    parts = [f"{count} {colour}" for colour, count in counts.items() if count]
    return ", ".join(parts) if parts else "nothing"


# Events in words ------------------------------------------------------------------------------
#
# One sentence per event kind, registered with ``@sentence(kind)``: a new kind of event (a
# time-out, a bot taking over a seat) adds one function here and every reader of the history
# (the game page's log, the History page, the replay viewer, the text export) has its words.

SentenceFor = Callable[[Mapping[str, Any], str, Sequence[str]], str]
"""(payload, the name of the event's seat, every seat's name) -> the sentence."""

EVENT_SENTENCES: dict[str, SentenceFor] = {}
CONSEQUENCE_SENTENCES: dict[str, Callable[[Mapping[str, Any], Sequence[str]], str]] = {}
"""What an action brought about by itself, such as a noble's automatic visit, by kind."""


def sentence(kind: str) -> Callable[[SentenceFor], SentenceFor]:
    def register(words: SentenceFor) -> SentenceFor:
        EVENT_SENTENCES[kind] = words
        return words

    return register


def event_in_words(
    event: Mapping[str, Any],
    names: Sequence[str],
    *,
    describe_action: Callable[[Mapping[str, Any]], str],
) -> str:
    """One past event as a sentence, e.g. "alice bought a level 1 red card (1 point).".

    ``describe_action`` is the game's own (its ``Game``'s): each game puts its actions in its
    own words, and no caller can put a Duel move in the base game's words, as turn mail once did.

    The event's ``consequences`` (filled in by the selectors that replay the game) follow as
    sentences of their own: "alice was visited by a noble: +3.".
    """
    seat = event["seat"]
    who = names[seat] if seat is not None and seat < len(names) else "Someone"
    kind = event["kind"]
    payload = event["payload"]
    if kind == EventKind.ACTION_TAKEN:
        text = f"{who} {describe_action(payload['action'])}"
        text += f"{played_for_note(payload)}."
    elif kind in EVENT_SENTENCES:
        text = EVENT_SENTENCES[kind](payload, who, names)
    else:
        text = describe_deadline_event(kind, who) or _words_of_kind(kind)
    for consequence in event.get("consequences", ()):
        text += " " + CONSEQUENCE_SENTENCES[consequence["kind"]](consequence, names)
    return text


def _words_of_kind(kind: str) -> str:
    """A kind without a sentence yet still reads as words: "SeatSwapped" -> "Seat swapped."."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", kind).lower()
    return words[:1].upper() + words[1:] + "."


@sentence(EventKind.GAME_CREATED)
def _game_created(payload: Mapping[str, Any], who: str, names: Sequence[str]) -> str:
    origin = payload.get("origin") or {}
    source = {
        "import": " from an uploaded file",
        "fork": f" from step {origin.get('step')} of game {origin.get('game')}",
    }.get(origin.get("kind", ""), "")
    return f"The game was created{source} for {payload.get('seat_count')} players."


@sentence(EventKind.SEAT_TAKEN)
def _seat_taken(payload: Mapping[str, Any], who: str, names: Sequence[str]) -> str:
    return f"{_sitter(payload, who) or who} took seat {payload['seat'] + 1}."


@sentence(EventKind.BOT_ADDED)
def _bot_added(payload: Mapping[str, Any], who: str, names: Sequence[str]) -> str:
    return f"{_sitter(payload, who) or 'A bot'} took seat {payload['seat'] + 1}."


def _sitter(payload: Mapping[str, Any], who: str) -> str:
    """Who sat down: the name recorded then (a seat may change hands), unless the seat's name
    now is that name numbered, as bots of one level are told apart ("Random bot 2")."""
    recorded = str(payload.get("display_name") or "")
    number = who[len(recorded) + 1 :] if who.startswith(f"{recorded} ") else ""
    return who if recorded and number.isdigit() else recorded


@sentence(EventKind.SEAT_LEFT)
def _seat_left(payload: Mapping[str, Any], who: str, names: Sequence[str]) -> str:
    return f"Seat {payload['seat'] + 1} was left open again."


@sentence(EventKind.GAME_STARTED)
def _game_started(payload: Mapping[str, Any], who: str, names: Sequence[str]) -> str:
    commitment = payload.get("commitment", "")
    return f"The game started (shuffle commitment {commitment[:12]}…)."


@sentence(EventKind.PLAYER_RESIGNED)
def _player_resigned(payload: Mapping[str, Any], who: str, names: Sequence[str]) -> str:
    return f"{who} resigned."


@sentence(EventKind.GAME_FINISHED)
def _game_finished(payload: Mapping[str, Any], who: str, names: Sequence[str]) -> str:
    return "The game is over: " + result_summary(payload.get("result") or {}, names) + "."


@sentence(EventKind.GAME_ABORTED)
def _game_aborted(payload: Mapping[str, Any], who: str, names: Sequence[str]) -> str:
    reason = payload.get("reason")
    return "The game was called off" + (f": {reason}." if reason else ".")


def _noble_visit(consequence: Mapping[str, Any], names: Sequence[str]) -> str:
    seat = consequence["seat"]
    return f"{names[seat]} was visited by a noble: +{consequence['points']}."


CONSEQUENCE_SENTENCES["noble_visit"] = _noble_visit


def in_a_list(words: Sequence[str]) -> str:
    """Words joined as a sentence lists them: "white, blue and red"."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# Deadlines: time-outs and seats played by the bot (kept together, apart from the rest) ---------


def describe_deadline_event(kind: str, who: str) -> str | None:
    """Sentences for the events of turn deadlines; None for any other kind."""
    if kind == EventKind.TURN_TIMED_OUT:
        return f"{who} ran out of time; the Greedy bot played the turn for them."
    if kind == EventKind.SEAT_HANDED_TO_BOT:
        return (
            f"{who} ran out of time twice in a row, so the Greedy bot plays for them "
            "until they take their seat back."
        )
    if kind == EventKind.SEAT_RECLAIMED:
        return f"{who} took their seat back from the bot."
    return None


def played_for_note(payload: Mapping[str, Any]) -> str:
    """How an action the bot played on a player's behalf is marked in the history."""
    if payload.get("on_time_out"):
        return " (played on time-out)"
    if payload.get("for_away_seat"):
        return " (played by the bot standing in)"
    return ""


# The result -----------------------------------------------------------------------------------


def result_summary(result: Mapping[str, Any], names: Sequence[str]) -> str:
    winners = [names[seat] for seat in result.get("winners", [])]
    if result.get("aborted"):
        return "called off"
    if not winners:
        return "no winner"
    if len(winners) > 1:
        return f"{in_a_list(winners)} share the win"
    return f"{winners[0]} wins"


def result_for_page(
    result: Mapping[str, Any] | None,
    names: Sequence[str],
    players: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The final scores, the winners and why they won, for the game-over panel.

    ``players`` (the final view's) name the colour of a Duel won by 10 points in one colour.
    """
    if not result:
        return {"headline": "The game is over.", "explanation": "", "rows": []}
    if result.get("aborted"):
        reason = result.get("reason")
        return {
            "headline": "This game was called off.",
            "rows": [],
            "explanation": reason or "It ended without a result.",
        }
    winners = set(result["winners"])
    points, cards = result["points"], result["cards_bought"]
    resigned = set(result.get("resigned", ()))
    rows = sorted(
        (
            {
                "seat": seat,
                "name": names[seat],
                "points": points[seat],
                "cards": cards[seat],
                "is_winner": seat in winners,
                "resigned": seat in resigned,
            }
            for seat in range(len(points))
        ),
        key=lambda row: (not row["is_winner"], row["resigned"], -row["points"], row["cards"]),
    )
    timed_out = in_a_list([names[seat] for seat in result.get("timed_out", ())])
    away = f"{timed_out} had run out of time: the Greedy bot played for them." if timed_out else ""
    return {
        "headline": result_summary(result, names) + "!",
        "explanation": " ".join(
            part for part in (_tie_break(result, names, players), away) if part
        ),
        "rows": rows,
    }


def _best_colour(players: Sequence[Mapping[str, Any]], seat: int) -> str:
    """The colour of a Duel player's most points on cards ("one colour" without their view)."""
    if seat >= len(players) or not players[seat].get("colour_points"):
        return "one colour"
    colour_points = players[seat]["colour_points"]
    colour = max(colour_points, key=colour_points.get)
    return f"one colour ({colour_points[colour]} on {colour})"


def _tie_break(
    result: Mapping[str, Any], names: Sequence[str], players: Sequence[Mapping[str, Any]] = ()
) -> str:
    winners = result["winners"]
    points, cards = result["points"], result["cards_bought"]
    first = winners[0]
    decided_by = result.get("decided_by")
    ended_by = result.get("ended_by")
    ending = {
        "reached_points": "A player reached 15 points and the round was played out.",
        "all_passed": "Every player passed in one round, so the game ended.",
        "resignation": "The game ended when a player resigned.",
        # Splendor Duel's three victory conditions: the game ends at once, its player wins.
        "twenty_points": f"{names[first]} reached 20 points.",
        "ten_crowns": f"{names[first]} gathered 10 crowns.",
        "ten_points_in_a_colour": f"{names[first]} has 10 points on cards of "
        f"{_best_colour(players, first)}.",
    }.get(ended_by or "", "")
    if decided_by == "points":
        reason = f"Most points wins: {names[first]} has {points[first]}."
    elif decided_by == "fewest_cards":
        tied = [seat for seat in range(len(points)) if points[seat] == points[first]]
        others = ", ".join(f"{names[seat]} {cards[seat]}" for seat in tied if seat != first)
        reason = (
            f"Tied on {points[first]} points; the rulebook's tie-break is the fewest cards "
            f"bought: {names[first]} bought {cards[first]} ({others})."
        )
    elif decided_by == "shared":
        reason = (
            f"Tied on {points[first]} points and on {cards[first]} cards bought: "
            "the rules call that a shared win."
        )
    elif decided_by == "resignation":
        resigned = result.get("resigned", [])
        gone = in_a_list([names[seat] for seat in resigned])
        if len(points) - len(resigned) == 1:
            reason = f"{gone} resigned, so {names[first]} wins."
        else:
            reason = f"{gone} resigned; of the others, most points wins, then fewest cards bought."
    else:
        reason = ""
    return " ".join(part for part in (ending, reason) if part)
