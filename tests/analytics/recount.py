"""A brute-force recount of every statistic, straight from the event log.

Deliberately naive and independent of ``analytics``: it folds each finished game's events with
the services' own fold, reads the public view (the one the end reveals) before and after every
action, and counts. The projections must agree with it exactly.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import UTC
from typing import Any

from games import engine
from games.models import Game, GameEvent
from games.records import projection
from games.records.record import Event, GameRecord

CARDS, NOBLES = range(90), range(10)


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def _matches(record: GameRecord, wanted: dict[str, Any]) -> bool:
    with_bots = any(seat.bot_level for seat in record.seats)
    day = record.finished_at.astimezone(UTC).date()  # type: ignore[union-attr]
    return (
        wanted.get("variant", record.variant) == record.variant
        and wanted.get("players", record.seat_count) == record.seat_count
        and (not wanted.get("bots") or (wanted["bots"] == "bots") == with_bots)
        and (wanted.get("since") is None or day >= wanted["since"])
        and (wanted.get("until") is None or day <= wanted["until"])
    )


def finished_games() -> list[dict[str, Any]]:
    """Every finished game, replayed once: ``recount`` filters them."""
    games = []
    for game in Game.objects.filter(status="finished").order_by("pk"):
        record = None
        seen: set[int] = set()
        bought: list[tuple[int, int, int]] = []
        reserved: list[int] = []
        visits: list[tuple[int, int]] = []
        actions: Counter[str] = Counter()
        nobles: list[int] = []
        for row in GameEvent.objects.filter(game=game).order_by("seq"):
            before = record
            record = projection.evolve(
                record, Event(row.seq, row.kind, row.payload, row.seat, row.created_at)
            )
            if record.state is None:
                continue
            after_view = engine.view(record.state, None, reveal=True)
            if row.kind == "GameStarted":
                nobles = [noble["id"] for noble in after_view["nobles"]]
                first_seat = after_view["current"]
            seen |= {card["id"] for line in after_view["board"] for card in line if card}
            if row.kind != "ActionTaken":
                continue
            before_view = engine.view(before.state, None, reveal=True)  # type: ignore[union-attr]
            seat = row.seat
            actions[row.payload["action"]["type"]] += 1
            turn = before_view["turn"] // record.seat_count + 1
            old, new = before_view["players"][seat], after_view["players"][seat]
            old_cards = {card["id"] for card in old["cards"]}
            bought += [(c["id"], seat, turn) for c in new["cards"] if c["id"] not in old_cards]
            old_reserved = {card["id"] for card in old["reserved"]}
            reserved += [c["id"] for c in new["reserved"] if c["id"] not in old_reserved]
            old_nobles = {noble["id"] for noble in old["nobles"]}
            visits += [(n["id"], seat) for n in new["nobles"] if n["id"] not in old_nobles]
        seen |= set(reserved)  # a card reserved unseen from a deck came into play in the hand
        assert record is not None
        result = record.result
        assert result is not None
        final = engine.view(record.state, None, reveal=True)  # type: ignore[arg-type]
        games.append({
            "players": record.seat_count, "result": result, "seats": record.seats,
            "seen": seen, "bought": bought, "reserved": reserved, "visits": visits,
            "nobles": nobles, "actions": actions, "turns": final["turn"], "record": record,
            "first_seat": first_seat,
        })  # fmt: skip
    return games


def _ranks(result: dict[str, Any], count: int) -> list[int]:
    resigned = result.get("resigned", [])
    order = sorted(
        {(s in resigned, -result["points"][s], result["cards_bought"][s])
         for s in range(count) if s not in result["winners"]}
    )  # fmt: skip
    return [
        1
        if s in result["winners"]
        else 2 + order.index((s in resigned, -result["points"][s], result["cards_bought"][s]))
        for s in range(count)
    ]


def recount(
    wanted: dict[str, Any], everything: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    if everything is None:
        everything = finished_games()
    games = [game for game in everything if _matches(game["record"], wanted)]
    seats = sum(game["players"] for game in games)
    winners = sum(len(game["result"]["winners"]) for game in games)
    base = _ratio(winners, seats)
    card = defaultdict(Counter)
    noble = defaultdict(Counter)
    seat_games, seat_wins, rounds, points, endings, actions = (Counter() for _ in range(6))
    kinds, kind_wins, versus, ahead = Counter(), Counter(), Counter(), Counter()
    for game in games:
        winners_of = set(game["result"]["winners"])
        for c in game["seen"]:
            card[c]["seen"] += 1
        for c, seat, turn in game["bought"]:
            card[c]["bought"] += 1
            card[c]["turns"] += turn
            card[c]["wins"] += seat in winners_of
        for c in game["reserved"]:
            card[c]["reserved"] += 1
        for n in game["nobles"]:
            noble[n]["in_play"] += 1
        for n, seat in game["visits"]:
            noble[n]["visits"] += 1
            noble[n]["wins"] += seat in winners_of
        rounds[-(-game["turns"] // game["players"])] += 1
        endings[game["result"]["ended_by"]] += 1
        actions.update(game["actions"])
        ranks = _ranks(game["result"], game["players"])
        for s, seat in enumerate(game["seats"]):
            kind = seat.bot_level or "human"
            place = (s - game["first_seat"]) % game["players"]  # 0 moved first
            seat_games[place] += 1
            seat_wins[place] += s in winners_of
            points[game["result"]["points"][s]] += 1
            kinds[kind] += 1
            kind_wins[kind] += s in winners_of
            for o, other in enumerate(game["seats"]):
                if o != s:
                    pair = (kind, other.bot_level or "human")
                    versus[pair] += 1
                    ahead[pair] += ranks[s] < ranks[o]
    cards = []
    for c in CARDS:
        counts = card[c]
        buyer = _ratio(counts["wins"], counts["bought"])
        cards.append({
            "id": c, "times_on_display": counts["seen"], "times_bought": counts["bought"],
            "times_reserved": counts["reserved"],
            "purchase_rate": _ratio(counts["bought"], counts["seen"]),
            "mean_turn_of_purchase": _ratio(counts["turns"], counts["bought"]),
            "buyer_win_rate": buyer,
            "lift": None if buyer is None or not base else buyer / base,
        })  # fmt: skip
    total_actions = sum(actions.values())
    return {
        "games": len(games),
        "seats": seats,
        "base_win_rate": base,
        "cards": cards,
        "nobles": [
            {"id": n, "games_in_play": noble[n]["in_play"], "visits": noble[n]["visits"],
             "visit_rate": _ratio(noble[n]["visits"], noble[n]["in_play"]),
             "visited_win_rate": _ratio(noble[n]["wins"], noble[n]["visits"])}
            for n in NOBLES
        ],
        "seat_order": [
            {"seat": s + 1, "games": seat_games[s], "wins": seat_wins[s],
             "win_rate": _ratio(seat_wins[s], seat_games[s])}
            for s in sorted(seat_games)
        ],
        "rounds": [{"rounds": r, "games": rounds[r]} for r in sorted(rounds)],
        "points": [{"points": p, "players": points[p]} for p in sorted(points)],
        "endings": sorted(
            ({"ended_by": e, "games": n, "share": n / len(games)} for e, n in endings.items()),
            key=lambda row: (-row["games"], row["ended_by"]),
        ),
        "actions": sorted(
            ({"action": a, "count": n, "share": n / total_actions} for a, n in actions.items()),
            key=lambda row: (-row["count"], row["action"]),
        ),
        "players_by_kind": [
            {"kind": k, "games": kinds[k], "wins": kind_wins[k],
             "win_rate": _ratio(kind_wins[k], kinds[k])}
            for k in sorted(kinds)
        ],
        "versus": [
            {"kind": k, "opponent": o, "encounters": versus[k, o], "finished_ahead": ahead[k, o],
             "ahead_rate": _ratio(ahead[k, o], versus[k, o])}
            for k, o in sorted(versus)
        ],
    }  # fmt: skip
