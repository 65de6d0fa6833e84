"""``manage.py create_api_token USERNAME [--name NAME]``: print a new API token for a user.

For scripts, bots and local development; players create tokens on their profile page.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts import services
from accounts.errors import AccountError


class Command(BaseCommand):
    help = "Create a personal API token for a user and print it (it is shown only this once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="command line", help="What the token is for.")

    def handle(self, *args: Any, username: str, name: str, **options: Any) -> None:
        user_model = get_user_model()
        try:
            user = user_model.objects.get(**{user_model.USERNAME_FIELD: username})
        except user_model.DoesNotExist:
            raise CommandError(f"There is no user {username!r}.") from None
        try:
            _token, raw_token = services.token_create(user, name)
        except AccountError as error:
            raise CommandError(error.message) from None
        self.stdout.write(raw_token)
