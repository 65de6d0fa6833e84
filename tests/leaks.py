"""Finding card ids in anything a viewer receives: the shared tool of the leak tests."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any


def walk(value: Any) -> Iterator[tuple[str | None, Any]]:
    """Every (key, value) pair in a JSON-like structure, depth first; list items have key None."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield key, item
            yield from walk(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield None, item
            yield from walk(item)


def card_ids_shown(value: Any) -> set[int]:
    """Every card id the structure reveals: cards spelled out in full, and action payloads."""
    shown: set[int] = set()
    for key, item in walk(value):
        if isinstance(item, Mapping) and {"id", "level", "cost"} <= set(item):
            shown.add(item["id"])
        if key == "card" and isinstance(item, int):
            shown.add(item)
    return shown


# Mail: every body, part and header --------------------------------------------------------------

CARD_IN_MAIL = re.compile(r'data-card="(\d+)"')
GAME_IN_MAIL = re.compile(r"[Gg]ame #(\d+)")


def _mail_parts(mail: Any) -> tuple[list[str], list[str]]:
    """(recipients, [subject, text, html, headers]) of a Django message or a received mail
    (anything with ``to`` and an ``email.message.EmailMessage`` as ``message``)."""
    if not callable(getattr(mail, "message", None)):
        message = mail.message
        parts = [part.get_content() for part in message.walk() if not part.is_multipart()]
        headers = "\n".join(f"{name}: {value}" for name, value in message.items())
        return list(mail.to), [str(message["Subject"]), *map(str, parts), headers]
    html = "".join(content for content, kind in getattr(mail, "alternatives", []))
    headers = "\n".join(f"{name}: {value}" for name, value in mail.message().items())
    return list(mail.to), [mail.subject, mail.body, html, headers]


def assert_no_hidden_card_in_mails(mails: list[Any]) -> None:
    """No mail shows a card its reader may not see in the games it names.

    Checked against the games as they are now: a card hidden now (in a deck, or in another
    player's blind reserve) was hidden when the mail was written too, since both only ever
    come from the decks.
    """
    from games import engine
    from games.models import Game, Seat
    from games.variants import GAMES
    from tests.web.tables import hidden_card_ids

    for mail in mails:
        recipients, parts = _mail_parts(mail)
        text = "\n".join(parts)
        for game_id in {int(found) for found in GAME_IN_MAIL.findall(text)}:
            game = Game.objects.filter(pk=game_id).first()
            if game is None or not game.is_running or game.started_at is None:
                continue
            seat = (
                Seat.objects.filter(game=game, user__email__in=recipients)
                .values_list("index", flat=True)
                .first()
            )
            hidden = hidden_card_ids(game, viewer_seat=seat)
            shown = {int(card) for card in CARD_IN_MAIL.findall(text)}
            assert shown.isdisjoint(hidden), f"a mail shows hidden cards {shown & hidden}"
            words = GAMES[game.variant].card_words  # each game spells its cards its own way
            for card in hidden:
                card_text = words(engine.card_json(card, game.variant))["text"]
                assert not _spelled_out(card_text, text), f"a mail spells out hidden {card_text}"


def _spelled_out(card_text: str, text: str) -> bool:
    """Whether ``text`` spells out a card with exactly these words: a cost that goes on
    (", 3 black") is another card's, as "costs 5 red" is part of "costs 5 red, 3 black"."""
    return re.search(re.escape(card_text) + r"(?!, \d)", text) is not None
