"""A Duel's replay shows, at every step, only what its viewer may see there: a card reserved
unseen from a deck is its owner's alone while the game runs, in the replay as on the table."""

from __future__ import annotations

import re

from django.contrib.auth.models import User

from games import engine
from games.commands import lobby
from games.commands.lobby import UserSeat
from games.commands.play import game_take_action
from games.models import Game
from games.reads import loading, timeline
from tests.duel.test_duel_pages import assert_page_hides_secrets, client_for

PANEL = re.compile(r'<article class="duel-player[^"]*" data-seat="(\d)">(.*?)</article>', re.S)


def panels(page: str) -> dict[int, str]:
    return {int(seat): body for seat, body in PANEL.findall(page)}


def duel_with_a_blind_reserve(alice: User, bob: User) -> tuple[Game, int, int]:
    """A running Duel in which a player has just taken a gold and reserved the top card of the
    level 3 deck: (the game, that player's seat, the card)."""
    game = lobby.game_create(variant="duel", seats=[UserSeat(alice), UserSeat(bob)],
                             created_by=alice, seed=44)  # fmt: skip
    state = loading.game_state(game)
    assert state is not None
    gold = next(a for a in engine.legal_actions(state) if a.__class__.__name__ == "TakeGold")
    mover = alice if state.current == 0 else bob
    for action in (engine.action_to_json(gold), {"type": "reserve_from_deck", "level": 3}):
        game = Game.objects.get(pk=game.pk)
        game_take_action(game_id=game.pk, action=action,
                         expected_version=game.version, user=mover)  # fmt: skip
    game = Game.objects.get(pk=game.pk)
    seat = 0 if mover == alice else 1
    state = loading.game_state(game)
    assert state is not None
    (card,) = state.players[seat].blind
    return game, seat, card


def test_a_blind_reserve_shows_in_the_replay_to_its_owner_alone_while_the_duel_runs(
    alice: User, bob: User, carol: User
) -> None:
    game, owner_seat, card = duel_with_a_blind_reserve(alice, bob)
    owner, opponent = (alice, bob) if owner_seat == 0 else (bob, alice)
    last = timeline.game_timeline_for_viewer(game, None).last_step
    assert last == 2

    for viewer, seat in ((opponent, 1 - owner_seat), (carol, None)):
        client = client_for(viewer)
        for step in range(last + 1):
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                page = client.get(f"/games/{game.pk}/replay/?step={step}", **headers).text
                assert_page_hides_secrets(page, game, seat)
        reserved = panels(page)[owner_seat]
        assert reserved.count("card card-back") == 1, "the owner's panel shows the card's back"
        assert f'data-card="{card}"' not in page

    page = client_for(owner).get(f"/games/{game.pk}/replay/?step={last}").text
    assert f'data-card="{card}"' in panels(page)[owner_seat]
    at_the_deal = client_for(owner).get(f"/games/{game.pk}/replay/?step=0").text
    assert "duel-pick" not in at_the_deal, "a replay offers no move, even on the mover's turn"
    assert "card-back" not in panels(page)[owner_seat]
    before = client_for(owner).get(f"/games/{game.pk}/replay/?step=1").text
    assert f'data-card="{card}"' not in before, "at the step before, the card was in the deck"
