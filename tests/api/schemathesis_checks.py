"""How this project runs schemathesis's ST202 check, for the fuzzing tests and the CLI run in CI.

Imported by tests/api/test_schema_fuzzing.py and, as a hooks module, by the schemathesis CLI
(`schemathesis.toml`), so both judge "schema-valid data must be accepted" the same way.
"""

from __future__ import annotations

from typing import Any

import schemathesis
from schemathesis.specs.openapi.checks import positive_data_acceptance

STATE_REFUSALS = {
    (400, "illegal_action"),
    (412, "stale_version"),
    (422, "idempotency_key_reused"),
}
"""Refusals of schema-valid requests that depend on the game, not on the request's shape: a
move the rules forbid now, a version the game has left, a key already used for another move.
No schema can say which moves are legal at which version (docs/decisions.md)."""


@schemathesis.check
def positive_data_acceptance_beyond_game_state(ctx: Any, response: Any, case: Any) -> Any:
    """Schemathesis's positive_data_acceptance (ST202), except for the game's own refusals.

    Every other refusal of schema-valid data (validation_error, invalid_header, parse_error...)
    still fails: those would mean that the schema and the code disagree.
    """
    if (response.status_code, _error_code(response)) in STATE_REFUSALS:
        return None
    return positive_data_acceptance(ctx, response, case)


def _error_code(response: Any) -> str | None:
    try:
        return str(response.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return None
