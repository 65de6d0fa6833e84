"""The documented example bot (docs/examples/api_bot.py) plays a whole game against the server's
bot through the REST API: it reads the game every turn, so its owner is present and gets no turn
mail while it plays (the issue that led here counted 33 mails for one such game)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core import mail as django_mail

from accounts import services as account_services
from games.models import Game
from tests.api.test_example_bot import load_example

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_the_example_bot_gets_no_turn_mail_while_it_plays_a_game_against_a_bot(
    live_server: object, make_user: Callable[..., User]
) -> None:
    owner = make_user("ada")  # with an address, and mail on every turn (the default)
    token = account_services.token_create(owner, "example bot")[1]

    final = load_example().play(live_server.url, [token], seed=5, timeout=240)  # type: ignore[attr-defined]

    assert final["status"] == "finished"
    game = Game.objects.get(pk=final["id"])
    assert game.seats.filter(user=owner).exists()
    assert game.seats.filter(bot_level="random").exists()
    assert game.version > 40  # a whole game: many turns waited for the API bot
    assert [mail.subject for mail in django_mail.outbox if mail.to == [owner.email]] == []
