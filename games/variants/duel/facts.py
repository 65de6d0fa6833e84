"""Splendor Duel's analytics facts: a game folded through the engine's facade, Duel's own
numbers, its catalogue and its words on the stats pages.

Like the base game's fold, each state is compared with the one before: cards new in the pyramid
were seen, cards new in a hand were bought or reserved (one reserved unseen from a deck was seen
there), royal cards new to a player were taken
(they fill the shared "nobles" facts: all four are in play in every game). Duel's own counters,
kept per seat so the pages can tell what the winners did:

* ``duel.ability``: cards and royals gained per ability (extra turn, take a token, privilege,
  steal), as the rules apply it on gaining the card;
* ``duel.privilege``: privileges spent ("used") and gained, by how: at setup (the second player),
  when the opponent replenished the board, when the opponent took three of a colour or both
  pearls, or by an ability;
* ``duel.first_player``: the seat that moved first, so the first-player advantage does not
  depend on seat numbers (Duel draws who starts);
* ``duel.crowns``: crowns held at the end.

The win-condition mix is the shared "how games end" (``ended_by``: twenty_points, ten_crowns,
ten_points_in_a_colour, all_passed, resignation). Only this module knows Duel's state shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from games import engine
from games.variants.duel.cards import ABILITIES as ABILITY_WORDS
from games.variants.duel.cards import MARKS
from games.variants.play_facts import (
    ActionFold,
    GameAnalytics,
    NobleWords,
    PlayedAction,
    TurnOrderWords,
)

VARIANT = "duel"
CARD_COUNT = 67
COLOURS = ("white", "blue", "green", "red", "black", "joker", "none")
"""Bonus colours as the pages list them: "joker" for the 5-gem card before it is placed, "none"
for a card that gives no bonus."""
ABILITIES = ("extra_turn", "take_token", "privilege", "steal")
PRIVILEGE_SOURCES = ("at_setup", "opponent_replenished", "opponent_took_three", "ability")
_GAINED_FROM_OPPONENT = {"replenish": "opponent_replenished", "take_tokens": "opponent_took_three"}

Counters = dict[tuple[str, str], int]


def fold(setup_json: Mapping[str, Any], actions: Iterable[PlayedAction]) -> ActionFold:
    state = engine.initial_state(engine.setup_from_json(setup_json))
    result = ActionFold(
        first_seat=state.current,
        nobles_in_play=list(state.royals),  # type: ignore[union-attr]
        actions=[{}, {}],
        seat_tallies=[{}, {}],
    )
    for seat, player in enumerate(state.players):
        if player.privileges:
            _add(result.seat_tallies[seat], ("duel.privilege", "at_setup"), player.privileges)
    _add(result.seat_tallies[state.current], ("duel.first_player", "seat"), 1)
    seen = {card for row in state.pyramid for card in row if card is not None}  # type: ignore[union-attr]
    result.cards_seen.extend(sorted(seen))
    apply_legal = engine.apply_legal
    for seat, action, kind in actions:
        acting = state.current if seat is None else seat
        turn = state.turn // 2 + 1
        before, pyramid_before = state.players, state.pyramid  # type: ignore[union-attr]
        state = apply_legal(state, action)
        counts = result.actions[acting]
        counts[kind] = counts.get(kind, 0) + 1
        for index, (old, new) in enumerate(zip(before, state.players, strict=True)):
            if new is not old:
                _compare_hands(result, index, acting, kind, turn, old, new)
        if state.pyramid is not pyramid_before:  # type: ignore[union-attr]
            for row in state.pyramid:  # type: ignore[union-attr]
                for card in row:
                    if card is not None and card not in seen:
                        seen.add(card)
                        result.cards_seen.append(card)
    result.count_blind_reserves_as_seen()
    result.turns = state.turn
    final = engine.view(state, None, reveal=True)
    for seat, player in enumerate(final["players"]):
        colours: dict[str, int] = {}
        for card in player["cards"]:
            colour = player_colour(card["placed_as"])
            colours[colour] = colours.get(colour, 0) + 1
        result.colours.append(colours)
        _add(result.seat_tallies[seat], ("duel.crowns", str(player["crowns"])), 1)
    return result


def _compare_hands(
    result: ActionFold, seat: int, acting: int, kind: str, turn: int, old: Any, new: Any
) -> None:
    counters = result.seat_tallies[seat]
    if new.cards != old.cards:
        for card in new.cards[len(old.cards) :]:
            result.purchases.append((card, seat, turn))
            ability = _cards()[card]["ability"]
            if ability in ABILITIES:
                _add(counters, ("duel.ability", ability), 1)
    if new.reserved != old.reserved:
        for card in new.reserved:
            if card not in old.reserved:
                result.reserves.append((card, seat, turn))
    if new.royals != old.royals:
        for royal in new.royals[len(old.royals) :]:
            result.visits.append((royal, seat, turn))
            ability = _royals()[royal]["ability"]
            if ability in ABILITIES:
                _add(counters, ("duel.ability", ability), 1)
    change = new.privileges - old.privileges
    if change < 0 and kind == "use_privilege" and seat == acting:
        _add(counters, ("duel.privilege", "used"), -change)
    elif change > 0:
        source = "ability" if seat == acting else _GAINED_FROM_OPPONENT.get(kind, "ability")
        _add(counters, ("duel.privilege", source), change)


def _add(counters: Counters, key: tuple[str, str], amount: int) -> None:
    counters[key] = counters.get(key, 0) + amount


def player_colour(colour: str | None) -> str:
    """A card's colour as the pages spell it: a gem, "joker", or "none" for no bonus."""
    return colour or "none"


@cache
def _cards() -> tuple[dict[str, Any], ...]:
    spelled = (engine.card_json(card, VARIANT) for card in range(CARD_COUNT))
    return tuple({**card, "colour": player_colour(card["colour"])} for card in spelled)


@cache
def _royals() -> tuple[dict[str, Any], ...]:
    """The royal cards as a view spells them (id, points, ability), read off a new game's view:
    all four lie face up at the start of every game."""
    state = engine.initial_state(engine.new_game(VARIANT, 2, seed=0))
    royals = sorted(engine.view(state, None)["royals"], key=lambda royal: royal["id"])
    return tuple({**royal, "requires": {}} for royal in royals)


def cards() -> list[dict[str, Any]]:
    return list(_cards())


_BAR_MARKS = {**MARKS, "joker": "J", "none": "–"}


def card_label(card: Mapping[str, Any]) -> str:
    """What the table draws on a Duel card, in a line: level, bonus letter and points, "×2" for
    a double bonus, crowns, the ability by the rulebook's name, then the cost, e.g.
    "L2 K2 ♛1 2B 2G 2R 1P" or "L1 W0 Gem 2R 2K"; no two of the 67 cards share one."""
    parts = [f"L{card['level']}", f"{_BAR_MARKS[card['colour']]}{card['points']}"]
    if card["bonus"] > 1:
        parts[-1] += f"×{card['bonus']}"
    if card["crowns"]:
        parts.append(f"♛{card['crowns']}")
    if card["ability"] in ABILITY_WORDS:
        parts.append(ABILITY_WORDS[card["ability"]]["name"])
    parts += [f"{count}{_BAR_MARKS[colour]}" for colour, count in card["cost"].items()]
    return " ".join(parts)


def nobles() -> list[dict[str, Any]]:
    """Duel's royal cards, in the place the base game's nobles take on the pages."""
    return list(_royals())


def summary(sums: Mapping[tuple[str, str], int]) -> dict[str, Any]:
    """Duel's own numbers from its tallies (``analytics.selectors`` sums them per filter)."""

    def ratio(numerator: int, denominator: int) -> float | None:
        return numerator / denominator if denominator else None

    games = sums.get(("games", ""), 0)
    endings = {item: value for (metric, item), value in sums.items() if metric == "ended_by"}
    first_games = sums.get(("duel.first_player", "seat"), 0)
    first_wins = sums.get(("duel.first_player.won", "seat"), 0)
    crowns = sorted(
        (int(item), value) for (metric, item), value in sums.items() if metric == "duel.crowns"
    )
    return {
        "games": games,
        "win_conditions": [
            {"ended_by": name, "games": endings[name], "share": ratio(endings[name], games)}
            for name in sorted(endings, key=lambda name: (-endings[name], name))
        ],
        "first_player": {
            "games": first_games,
            "wins": first_wins,
            "win_rate": ratio(first_wins, first_games),
        },
        "abilities": [
            {
                "ability": ability,
                "uses": sums.get(("duel.ability", ability), 0),
                "per_game": ratio(sums.get(("duel.ability", ability), 0), games),
                "by_winner_share": ratio(
                    sums.get(("duel.ability.won", ability), 0),
                    sums.get(("duel.ability", ability), 0),
                ),
            }
            for ability in ABILITIES
        ],
        "privileges": [
            {
                "privilege": name,
                "count": sums.get(("duel.privilege", name), 0),
                "per_game": ratio(sums.get(("duel.privilege", name), 0), games),
                "by_winner_share": ratio(
                    sums.get(("duel.privilege.won", name), 0),
                    sums.get(("duel.privilege", name), 0),
                ),
            }
            for name in ("used", *PRIVILEGE_SOURCES)
        ],
        "crowns": [{"crowns": count, "players": players} for count, players in crowns],
    }


ANALYTICS = GameAnalytics(
    name=VARIANT,
    fold=fold,
    cards=cards,
    nobles=nobles,
    colours=COLOURS,
    card_label=card_label,
    card_key="each bar names its card by level, bonus colour (W white, B blue, G green, R red, "
    "K black, J joker, – no bonus) with points and ×2 for a double bonus, its crowns (♛), its "
    "ability by the rulebook's name (Refresh: another turn; Gem: a matching token; Privilege; "
    "Take: a token from the opponent), and cost (P pearl)",
    turn_order=TurnOrderWords(
        short="Who moved first",
        heading="Win rate by who moved first",
        places=("first player (drawn)", "second player"),
        note="Duel draws who moves first, whatever the seat: players are counted by the order "
        "they moved in, not by seat.",
    ),
    endings_note="twenty_points, ten_crowns, ten_points_in_a_colour: a player reached 20 "
    "points, 10 crowns or 10 points in cards of one colour, which ends the game at once; "
    "all_passed: nobody could move twice in a row; resignation: a player resigned (a "
    "time-out ends no game: a bot moves for the player who is away).",
    summary=summary,
    noble_words=NobleWords(
        heading="Royal cards",
        one="Royal",
        detail="Ability",
        taken="Taken",
        take_rate="Take rate",
        takers="takers",
    ),
)
