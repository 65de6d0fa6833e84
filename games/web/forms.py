"""Forms of the game pages: they parse what a browser posts into what the services take.

A form checks only the shape of a request (known colours, whole numbers, a user that exists).
Whether a move is legal is the engine's call, made in ``games.commands.services``; a form never
second-guesses it, so a page and the API refuse the same moves with the same words.
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
from games.engine.splendor import gems
from games.vocabulary import BotLevel

# The base game's colour names, in the engine's order: the engine is their one home.
GEM_COLOURS = tuple(gems.COLOUR_NAMES[colour] for colour in gems.GEM_COLOURS)
TOKEN_COLOURS = gems.COLOUR_NAMES

ACTION_TYPES = (
    "take_gems",
    "reserve_card",
    "reserve_from_deck",
    "buy_card",
    "return_tokens",
    "choose_noble",
    "pass",
)

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
        self.fields["variant"].choices = [(web.variant, web.title) for web in variants.offered()]
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
        web = variants.web_for(cleaned.get("variant") or variants.offered()[0].variant)
        cleaned["variant"] = web.variant
        if len(seats) not in web.seat_counts:
            counts = " or ".join(str(count) for count in web.seat_counts)
            raise forms.ValidationError(
                f"{web.title} is played by {counts} players: clear the other seats."
            )
        cleaned["seats"] = seats
        return cleaned


class ActionForm(forms.Form):
    """One move from the game page, in the form fields the page's controls post.

    ``action`` is the move in the JSON of docs/notation.md once the form is valid.
    """

    kind = forms.ChoiceField(choices=[(name, name) for name in ACTION_TYPES])
    expected_version = forms.IntegerField(min_value=0)
    idempotency_key = forms.CharField(min_length=8, max_length=64)
    gems = forms.MultipleChoiceField(
        choices=[(colour, colour) for colour in GEM_COLOURS], required=False
    )
    take_two = forms.ChoiceField(
        choices=[(colour, colour) for colour in GEM_COLOURS], required=False
    )
    card = forms.IntegerField(required=False, min_value=0, max_value=10_000)
    level = forms.IntegerField(required=False, min_value=0, max_value=100)
    payment = forms.CharField(required=False, max_length=200)
    noble = forms.IntegerField(required=False, min_value=0, max_value=10_000)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for colour in TOKEN_COLOURS:
            self.fields[f"return_{colour}"] = forms.IntegerField(
                required=False, min_value=0, max_value=100
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        kind = cleaned.get("kind")
        if kind and not self.errors:
            cleaned["action"] = self._action(kind, cleaned)
        return cleaned

    def _action(self, kind: str, cleaned: dict[str, Any]) -> dict[str, Any]:
        if kind == "take_gems":
            gems = [cleaned["take_two"]] * 2 if cleaned.get("take_two") else cleaned["gems"]
            if not gems:
                raise forms.ValidationError("Choose the gems to take.")
            return {"type": kind, "gems": list(gems)}
        if kind in ("reserve_card", "buy_card"):
            if cleaned.get("card") is None:
                raise forms.ValidationError("Say which card.")
            action: dict[str, Any] = {"type": kind, "card": cleaned["card"]}
            if kind == "buy_card" and cleaned.get("payment"):
                action["payment"] = parse_tokens(cleaned["payment"])
            return action
        if kind == "reserve_from_deck":
            if cleaned.get("level") is None:
                raise forms.ValidationError("Say which deck.")
            return {"type": kind, "level": cleaned["level"]}
        if kind == "return_tokens":
            tokens = {
                colour: cleaned[f"return_{colour}"]
                for colour in TOKEN_COLOURS
                if cleaned.get(f"return_{colour}")
            }
            if not tokens:
                raise forms.ValidationError("Choose the tokens to give back.")
            return {"type": kind, "tokens": tokens}
        if kind == "choose_noble":
            if cleaned.get("noble") is None:
                raise forms.ValidationError("Say which noble.")
            return {"type": kind, "noble": cleaned["noble"]}
        return {"type": "pass"}

    def error_text(self) -> str:
        """Every problem in one sentence a player can read."""
        problems = [message for errors in self.errors.values() for message in errors]
        return "That move could not be read: " + " ".join(problems)


def tokens_to_field(tokens: dict[str, int]) -> str:
    """Token counts as one form value, e.g. ``white=1,gold=2`` (read back by parse_tokens)."""
    return ",".join(f"{colour}={count}" for colour, count in tokens.items() if count)


def parse_tokens(value: str) -> dict[str, int]:
    """The inverse of :func:`tokens_to_field`; refuses unknown colours and bad counts."""
    tokens: dict[str, int] = {}
    for part in value.split(","):
        colour, _, count = part.strip().partition("=")
        if colour not in TOKEN_COLOURS or not count.isdigit() or colour in tokens:
            raise forms.ValidationError(f"{part.strip()!r} is not a colour and a count.")
        tokens[colour] = int(count)
    return tokens


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
