"""How the in-process fuzzing test (tests/api/test_schema_fuzzing.py) runs schemathesis's ST202.

The CLI run in CI (.ci/run, "API fuzzing") runs every built-in check as it is, with the
exceptions narrowed to one operation and status each in `schemathesis.toml`. This test, which
drives real games through the services, goes one step narrower: the same refusals are let
through by their error code, not by their status alone.
"""

from __future__ import annotations

from typing import Any

import schemathesis
from schemathesis.specs.openapi.checks import positive_data_acceptance

STATE_REFUSALS = {
    (400, "illegal_action"),
    (412, "stale_version"),
    (422, "idempotency_key_reused"),
    (400, "import_rejected"),
}
"""Refusals of schema-valid requests that depend on the game, not on the request's shape: a
move the rules forbid now, a version the game has left, a key already used for another move,
a game file whose moves do not replay. No schema can say which moves are legal at which
version (docs/decisions/0097-schemathesis-exceptions.md)."""


@schemathesis.check
def positive_data_acceptance_beyond_game_state(ctx: Any, response: Any, case: Any) -> Any:
    """Schemathesis's positive_data_acceptance (ST202), except for the game's own refusals.

    Every other refusal of schema-valid data (validation_error, invalid_header, parse_error...)
    still fails: those would mean that the schema and the code disagree.
    """
    if (response.status_code, _error_code(response)) in STATE_REFUSALS:
        return None
    if _is_cross_field_refusal(response):
        return None
    return positive_data_acceptance(ctx, response, case)


def _error_code(response: Any) -> str | None:
    try:
        return str(response.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return None


CROSS_FIELD_RULES = {("since", "since must not be after until.")}
"""Rules between two fields that OpenAPI 3.0 cannot state (a date range the wrong way round):
the refusal of such a request is right, and only this exact refusal is let through."""


def _is_cross_field_refusal(response: Any) -> bool:
    if response.status_code != 400 or _error_code(response) != "validation_error":
        return False
    try:
        fields = response.json()["error"]["details"]["fields"]
    except (ValueError, KeyError, TypeError):
        return False
    refusals = {(name, message) for name, messages in fields.items() for message in messages}
    return bool(refusals) and refusals <= CROSS_FIELD_RULES
