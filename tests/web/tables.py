"""Games at chosen positions for the page and browser tests, made only through the services.

A position is found by playing a line of moves on the pure engine from a seed (greedy bots, or
a simple script), then the same seed and moves are played through ``games.commands.play`` so the
event log is exactly what real play would write. Nothing here writes an event by hand.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from games import engine, variants
from games.commands import after_commit, lobby, play
from games.commands.lobby import SeatRequest
from games.models import Game, Seat
from games.reads import loading
from games.variants.splendor.table import payment_options

SEED = 20240611

Policy = Callable[[dict[str, Any], list[dict[str, Any]], int], dict[str, Any]]
"""Chooses a move from the acting seat's view, its legal actions and the move's index."""
Goal = Callable[[dict[str, Any], list[dict[str, Any]]], bool]
"""True when the position (seat 0's view, legal actions of the seat to act) is the one wanted."""


def create_game(
    *seats: SeatRequest, creator: AbstractBaseUser, seed: int = SEED, is_public: bool = True
) -> Game:
    return lobby.game_create(
        variant="splendor", seats=seats, created_by=creator, seed=seed, is_public=is_public
    )


@contextmanager
def bots_paused() -> Iterator[None]:
    """Keep bot seats still while a line is replayed for them (their moves come from the line)."""
    saved = list(after_commit._hooks)
    after_commit._hooks.clear()
    try:
        yield
    finally:
        after_commit._hooks.extend(saved)


def play_line(game: Game, line: Sequence[dict[str, Any]]) -> Game:
    """Play ``line`` through the services, each move by whoever sits in the acting seat."""
    with bots_paused():
        for action in line:
            game = Game.objects.get(pk=game.pk)
            seat = Seat.objects.select_related("user").get(game=game, index=game.acting_seat)
            play.game_take_action(
                game_id=game.pk,
                action=action,
                expected_version=game.version,
                user=seat.user,
                as_bot=seat.user is None,
            )
    return Game.objects.get(pk=game.pk)


def act(game: Game, action: dict[str, Any]) -> Game:
    """One move for the seat to act, at the game's current version."""
    return play_line(game, [action])


def hidden_card_ids(game: Game, viewer_seat: int | None) -> set[int]:
    """Cards ``viewer_seat`` must never see: the decks, and other players' blind reserves."""
    state = loading.game_state(Game.objects.get(pk=game.pk))
    assert state is not None
    private = engine.state_to_json(state)
    hidden = {card for deck in private["decks"] for card in deck}
    for seat, player in enumerate(private["players"]):
        if seat != viewer_seat:
            hidden |= set(player["blind"])
    return hidden


# Finding a line on the engine -----------------------------------------------------------------


def greedy(view: dict[str, Any], legal: list[dict[str, Any]], index: int) -> dict[str, Any]:
    return engine.action_to_json(variants.choose_bot_action("greedy", view, seed=index))


def hoard_then_greedy(
    view: dict[str, Any], legal: list[dict[str, Any]], index: int
) -> dict[str, Any]:
    """Seat 0 takes three colours every turn; seat 1 reserves cards, keeping the gems free."""
    if view["phase"] == "main":
        wanted = "take_gems" if view["current"] == 0 else "reserve_card"
        for action in legal:
            if action["type"] == wanted and (
                wanted != "take_gems" or len(set(action["gems"])) == 3
            ):
                return action
    return greedy(view, legal, index)


def find_line(
    goal: Goal, policy: Policy, *, seeds: Sequence[int], players: int = 2
) -> tuple[int, list[dict[str, Any]]]:
    """The first seed (and its moves) whose playout reaches ``goal``."""
    for seed in seeds:
        state = engine.initial_state(engine.new_game("splendor", players, seed))
        line: list[dict[str, Any]] = []
        for index in range(400):
            if engine.outcome(state) is not None:
                break
            legal = [engine.action_to_json(action) for action in engine.legal_actions(state)]
            if goal(engine.view(state, 0), legal):
                return seed, line
            action = policy(engine.view(state, state.current), legal, index)
            line.append(action)
            state = engine.apply_action(state, engine.action_from_json(action, "splendor"))
    raise LookupError("no seed reaches the position: the engine or the bots changed")


def about_to_hold_too_many(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Seat 0 to play, holding nine or more tokens, with three colours to take."""
    takes = [action for action in legal if action["type"] == "take_gems"]
    return (
        view["current"] == 0
        and view["phase"] == "main"
        and view["players"][0]["token_count"] >= 9
        and any(len(set(action["gems"])) == 3 for action in takes)
    )


def choosing_a_noble(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    return view["current"] == 0 and view["phase"] == "choose_noble"


def one_buy_from_winning(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Seat 0 to play and able to buy a card that takes it to 15 points."""
    if view["current"] != 0 or view["phase"] != "main":
        return False
    return bool(winning_buys(view, legal))


def able_to_buy(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    return view["current"] == 0 and view["phase"] == "main" and bool(buys(legal))


def able_to_pay_with_gold_instead(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Seat 0 to play, able to buy a card in more than one way (gold for coloured tokens)."""
    if view["current"] != 0 or view["phase"] != "main":
        return False
    cards = face_up_for_seat_zero(view)
    me = view["players"][0]
    return any(len(payment_options(me, cards[card])) > 1 for card in buys(legal))


def facing_a_blind_reserve(view: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """Seat 0 to play while seat 1 holds a card it reserved unseen."""
    hidden = [card for card in view["players"][1]["reserved"] if card.get("hidden")]
    return view["current"] == 0 and view["phase"] == "main" and bool(hidden)


def buys(legal: list[dict[str, Any]]) -> list[int]:
    return [action["card"] for action in legal if action["type"] == "buy_card"]


def face_up_for_seat_zero(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The cards seat 0 could buy, by id: the board and its own reserve."""
    cards = {card["id"]: card for row in view["board"] for card in row if card}
    cards |= {card["id"]: card for card in view["players"][0]["reserved"] if "id" in card}
    return cards


def winning_buys(view: dict[str, Any], legal: list[dict[str, Any]]) -> list[int]:
    points = view["players"][0]["points"]
    cards = face_up_for_seat_zero(view)
    return [card for card in buys(legal) if points + cards[card]["points"] >= 15]


@functools.cache
def line_to(goal_name: str) -> tuple[int, tuple[dict[str, Any], ...]]:
    """The seed and moves of a two-player game reaching the named position (cached per run)."""
    goal, policy, first_seeds = {
        "return_tokens": (about_to_hold_too_many, hoard_then_greedy, [SEED]),
        "choose_noble": (choosing_a_noble, greedy, [34]),
        "near_end": (one_buy_from_winning, greedy, [1, 2, 3]),
        "can_buy": (able_to_buy, greedy, [1]),
        "gold_choice": (able_to_pay_with_gold_instead, greedy, [1]),
        "blind_reserve": (facing_a_blind_reserve, greedy, [2]),
    }[goal_name]
    seed, line = find_line(goal, policy, seeds=[*first_seeds, *range(1, 300)])
    return seed, tuple(line)


def game_at(goal_name: str, *seats: SeatRequest, creator: AbstractBaseUser) -> Game:
    """A game between ``seats`` that has reached the named position."""
    seed, line = line_to(goal_name)
    with bots_paused():
        game = create_game(*seats, creator=creator, seed=seed)
    return play_line(game, line)
