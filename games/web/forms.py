"""Forms of the game pages every game shares: they parse what a browser posts into what the
services take (a new game, a seat, an added bot, an invite). Each game's move form is its own
package's (``games.variants.<game>.forms``).

A form checks only the shape of a request (whole numbers, a user that exists, a known game).
Whether a request can be met is the services' call, made in ``games.commands.lobby``; a
form never second-guesses it.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing

from games import bots, variants
from games.commands.lobby import BotSeat, OpenSeat, SeatRequest, UserSeat
from games.vocabulary import BotLevel

OTHER_SEATS = 3
"""Seats besides the creator's: a game has two to four."""

INVITE_SALT = "games.invite"

MOVE_TIME_CHOICES = [
    ("", "No time limit"),
    ("3600", "1 hour per move"),
    ("86400", "1 day per move"),
    ("259200", "3 days per move"),
]


def bot_choices() -> list[tuple[str, str]]:
    """The levels a seat can be given, labelled as ``games.bots`` names them."""
    return [(f"bot:{level}", f"{bots.bot_label(level)} bot") for level in BotLevel.values]


def bot_descriptions() -> list[str]:
    """What each level does, in ``games.bots``' own words, to show beside the choice."""
    return [bots.bot_description(level) for level in BotLevel.values]


def seat_choices() -> list[tuple[str, str]]:
    return [
        ("", "No seat"),
        ("open", "Open seat"),
        ("user", "Invite a player by username"),
        *bot_choices(),
    ]


class GameCreateForm(forms.Form):
    """The creator takes the first seat; each other row adds a seat of the chosen kind."""

    variant = forms.ChoiceField(
        choices=(),
        required=False,
        widget=forms.RadioSelect,
        label="Game",
        help_text="Splendor Duel is for exactly two players: fill one other seat.",
    )
    is_public = forms.BooleanField(
        required=False,
        initial=True,
        label="Public game",
        help_text="Listed in the lobby and open to spectators. "
        "A private game can be joined only with its invite link.",
    )

    move_seconds = forms.TypedChoiceField(
        choices=MOVE_TIME_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        label="Time per move",
        help_text="With a time per move, a player who does not move in time has the Greedy bot "
        "play that turn; after two in a row the bot keeps the seat until they take it back.",
    )

    def __init__(self, *args: Any, creator: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.creator = creator
        self.fields["variant"].choices = [(game.variant, game.title) for game in variants.offered()]
        self.fields["variant"].initial = variants.offered()[0].variant
        for number in range(1, OTHER_SEATS + 1):
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                choices=seat_choices(),
                required=False,
                initial="bot:greedy" if number == 1 else "",
                label=f"Seat {number + 1}",
            )
            self.fields[f"username_{number}"] = forms.CharField(
                required=False, max_length=150, label=f"Username for seat {number + 1}"
            )

    def seat_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """The (kind, username) field pairs, one per other seat, for the template."""
        return [
            (self[f"seat_{number}"], self[f"username_{number}"])
            for number in range(1, OTHER_SEATS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        seats: list[SeatRequest] = [UserSeat(self.creator)]
        User = get_user_model()
        for number in range(1, OTHER_SEATS + 1):
            kind = cleaned.get(f"seat_{number}") or ""
            username = (cleaned.get(f"username_{number}") or "").strip()
            if not kind:
                continue
            if kind == "open":
                seats.append(OpenSeat())
            elif kind == "user":
                if not username:
                    self.add_error(f"username_{number}", "Give the username of the player.")
                    continue
                user = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
                if user is None:
                    self.add_error(f"username_{number}", f"There is no player {username!r}.")
                    continue
                seats.append(UserSeat(user))
            else:
                seats.append(BotSeat(kind.removeprefix("bot:")))
        if len(seats) < 2:
            raise forms.ValidationError("Add at least one more seat: a game has 2 to 4 players.")
        # Left out (an older form), the game is the first offered: the base game.
        chosen = variants.game_for(cleaned.get("variant") or variants.offered()[0].variant)
        cleaned["variant"] = chosen.variant
        if len(seats) not in chosen.seat_counts:
            counts = " or ".join(str(count) for count in chosen.seat_counts)
            raise forms.ValidationError(
                f"{chosen.title} is played by {counts} players: clear the other seats."
            )
        cleaned["seats"] = seats
        return cleaned


class JoinForm(forms.Form):
    """Take a seat: the first open one, or the one named."""

    seat = forms.IntegerField(required=False, min_value=0, max_value=100)


class AddBotForm(forms.Form):
    level = forms.ChoiceField(choices=[(level, level) for level in BotLevel.values])
    seat = forms.IntegerField(required=False, min_value=0, max_value=100)

    def error_text(self) -> str:
        return "Choose one of the bot levels offered."


def invite_token(game_id: int) -> str:
    """The signed part of a game's invite link: only someone given the link can make it."""
    return signing.dumps(game_id, salt=INVITE_SALT, compress=True)


def game_id_from_invite(token: str) -> int | None:
    """The game an invite token was made for, or None if it is forged or too old."""
    try:
        game_id = signing.loads(token, salt=INVITE_SALT, max_age=settings.GAME_INVITE_MAX_AGE)
    except signing.BadSignature:
        return None
    return game_id if isinstance(game_id, int) else None
