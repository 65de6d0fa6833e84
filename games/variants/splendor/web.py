"""The base game on the web: the presenter, words and forms the site had before Duel."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

from games.errors import InvalidInput
from games.variants import GameWeb
from games.variants.splendor import turn_memory
from games.variants.splendor.api_actions import ACTION_SCHEMA, parse_action
from games.web.forms import ActionForm


def action_from_form(posted: QueryDict) -> tuple[dict[str, Any], int, str]:
    form = ActionForm(posted)
    if not form.is_valid():
        raise InvalidInput(form.error_text())
    data = form.cleaned_data
    return data["action"], data["expected_version"], data["idempotency_key"]


WEB = GameWeb(
    variant="splendor",
    title="Splendor",
    blurb="The base game, for 2 to 4 players: gems, cards and nobles.",
    table_template="games/partials/table.html",
    partials="games/partials/",
    action_from_form=action_from_form,
    parse_api_action=parse_action,
    action_schema=ACTION_SCHEMA,
    remember_turn=lambda memory, data: turn_memory.remember_turn(
        turn_memory.Memory.from_json(memory), data
    ),
)
