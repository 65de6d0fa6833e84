"""Forms of the history pages: list filters, the game upload, and the seats of a fork."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import AbstractBaseUser

from games import engine
from games.commands.lobby import BotSeat, OpenSeat, SeatRequest, UserSeat
from games.notation import game_files
from games.notation.document import ImportRefused
from games.reads.game_lists import OPPONENTS, HistoryFilters
from games.vocabulary import BotLevel, Status
from games.web.forms import bot_choices

UPLOAD_TYPES = ("application/json", "text/json", "text/plain", "application/octet-stream", "")
"""What browsers label a .json file with; anything else (an image, a zip) is refused."""


class HistoryFilterForm(forms.Form):
    status = forms.ChoiceField(
        required=False, choices=[("", "Any status"), *Status.choices], label="Status"
    )
    variant = forms.ChoiceField(
        required=False,
        choices=[("", "Any game"), *((name, name.title()) for name in engine.VARIANTS)],
    )
    players = forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", "Any number"), ("2", "2 players"), ("3", "3 players"), ("4", "4 players")],
    )
    opponent = forms.ChoiceField(
        required=False,
        choices=[
            ("", "Anyone"),
            *(
                (name, "A human" if name == "human" else f"{BotLevel(name).label} bot")
                for name in OPPONENTS
            ),
        ],
    )
    since = forms.DateField(required=False, label="From", widget=forms.DateInput({"type": "date"}))
    until = forms.DateField(required=False, label="To", widget=forms.DateInput({"type": "date"}))

    def filters(self) -> HistoryFilters:
        data = self.cleaned_data
        return HistoryFilters(
            status=data["status"],
            variant=data["variant"],
            players=data["players"],
            opponent=data["opponent"],
            since=data["since"],
            until=data["until"],
        )

    def error_text(self) -> str:
        return " ".join(f"{name}: {' '.join(errors)}" for name, errors in self.errors.items())


class ImportForm(forms.Form):
    file = forms.FileField(
        label="Game file (JSON, at most 5 MB)",
        help_text="A game exported from this site, or written in the notation of docs/notation.md.",
    )
    is_public = forms.BooleanField(required=False, initial=True, label="Public game")

    def clean_file(self) -> Any:
        """The file's JSON document, read by the one game-file reader (``notation.game_files``)."""
        upload = self.cleaned_data["file"]
        if (upload.content_type or "").split(";")[0].strip() not in UPLOAD_TYPES:
            raise forms.ValidationError(
                f"A game file is JSON text, not {upload.content_type}: upload the .json export."
            )
        try:
            return game_files.read_game_file(upload.read(game_files.MAX_FILE_BYTES + 1))
        except ImportRefused as error:
            raise forms.ValidationError(str(error)) from None


class ForkForm(forms.Form):
    """You take the first seat; each other seat goes to a bot or stays open for a friend."""

    is_public = forms.BooleanField(required=False, initial=True, label="Public game")

    def __init__(self, *args: Any, seat_count: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat_count = seat_count
        for number in range(1, seat_count):
            self.fields[f"seat_{number}"] = forms.ChoiceField(
                choices=[*bot_choices(), ("open", "Open seat for a friend (invite link)")],
                initial="bot:greedy",
                label=f"Seat {number + 1}",
            )

    def seats(self, user: AbstractBaseUser) -> list[SeatRequest]:
        seats: list[SeatRequest] = [UserSeat(user)]
        for number in range(1, self.seat_count):
            choice = self.cleaned_data[f"seat_{number}"]
            seats.append(OpenSeat() if choice == "open" else BotSeat(choice.removeprefix("bot:")))
        return seats
