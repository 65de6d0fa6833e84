"""Schemathesis against the served schema, with every check it has (`--checks all`): no 5xx,
every response matches the schema, schema-valid data is accepted (ST202, as
tests/api/schemathesis_checks.py judges it), forged credentials are refused, created games can
be found (ST302, schemathesis's own: a running game's export is a 409, not a 404). CI also
runs the schemathesis CLI against gunicorn (.ci/run, "API fuzzing").

Requests go in-process through the WSGI app with a real token. Path parameters and the If-Match
header are drawn mostly from real games and versions, so generated requests reach past the 404
and precondition checks into the services: they join, add bots, act, resign. Positive cases
(data the schema allows) and negative ones (data it forbids, which must be refused with a 4xx)
are both generated; the test counts what it sent and needs at least MIN_REQUESTS.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS
from schemathesis.specs.openapi.checks import positive_data_acceptance

from accounts import services as account_services
from games.commands import lobby, play
from games.models import Game
from tests.api import schemathesis_checks

MIN_REQUESTS = 1000
EXAMPLES_PER_OPERATION = {GenerationMode.POSITIVE: 60, GenerationMode.NEGATIVE: 30}
_ST202 = schemathesis_checks.positive_data_acceptance_beyond_game_state
_REPLACED = (positive_data_acceptance, _ST202)
ALL_CHECKS = [*(check for check in CHECKS.get_all() if check not in _REPLACED), _ST202]
"""Every check schemathesis has (as `--checks all`), ST202 as tests/api/schemathesis_checks
says."""


@dataclass
class World:
    """Games and tokens for the caller (alice), made afresh for each operation."""

    token: str
    token_ids: list[int]
    game_ids: list[int]


def build_world(make_user: Callable[..., User], suffix: str) -> World:
    alice, bob, carol = (make_user(f"{name}-{suffix}") for name in ("alice", "bob", "carol"))
    caller_token, raw_token = account_services.token_create(alice, "fuzzing")
    spare_token, _raw = account_services.token_create(alice, "spare")
    revoked_token, _raw = account_services.token_create(alice, "revoked")
    account_services.token_revoke(revoked_token.pk, alice)
    seat = lobby.UserSeat
    # Fixed seeds: with hypothesis derandomised, the same boards make every run send the same
    # requests with the same outcomes (random boards made "some action was legal" a coin toss).
    running = [
        lobby.game_create(
            variant="splendor", seats=[seat(alice), seat(bob)], created_by=alice, seed=seed
        )
        for seed in (11, 12, 13)
    ]
    waiting = lobby.game_create(
        variant="splendor",
        seats=[seat(alice), lobby.OpenSeat(), lobby.OpenSeat()],
        created_by=alice,
    )
    lobby_of_others = lobby.game_create(
        variant="splendor", seats=[seat(bob), lobby.OpenSeat()], created_by=bob
    )
    finished = lobby.game_create(variant="splendor", seats=[seat(bob), seat(alice)], created_by=bob)
    play.game_resign(game_id=finished.pk, user=bob)
    private_of_others = lobby.game_create(
        variant="splendor", seats=[seat(bob), seat(carol)], created_by=bob, is_public=False
    )
    games = [*running, waiting, lobby_of_others, finished, private_of_others]
    return World(
        token=raw_token,
        # The caller's own token is left out: revoking it would end the run's authentication.
        token_ids=[spare_token.pk, revoked_token.pk, caller_token.pk + 1000],
        game_ids=[game.pk for game in games],
    )


def realistic(case: schemathesis.Case, world: World, choice: int, real_version: bool) -> None:
    """Point the case at real games and tokens, and usually at the game's current version."""
    path = case.path_parameters or {}
    # Only a well-typed id is replaced: a negative case that broke the path must stay broken.
    if _is_int(path.get("game_id")) and choice < len(world.game_ids):
        path["game_id"] = world.game_ids[choice]
    if _is_int(path.get("token_id")) and choice < len(world.token_ids):
        path["token_id"] = world.token_ids[choice]
    if real_version and case.headers is not None and "If-Match" in case.headers:
        game_id = path.get("game_id")
        if isinstance(game_id, int) and game_id in world.game_ids:
            version = Game.objects.values_list("version", flat=True).get(pk=game_id)
            case.headers["If-Match"] = f'"{version}"'


@pytest.fixture(autouse=True)
def no_account_caps(settings: Any) -> None:
    """The per-account caps (tested in tests/games/test_limits.py) off for the fuzzing account.

    Generated requests create games by the hundred; with the caps on, the same request would
    be answered 201 early in a run and 429 later, and a stateful run that replays a sequence
    would see the server change its mind under it.
    """
    settings.GAMES_MAX_ACTIVE_PER_ACCOUNT = 10**6
    settings.GAMES_MAX_BOT_ONLY_PER_ACCOUNT = 10**6
    settings.GAMES_MAX_CREATED_PER_HOUR = 10**6
    settings.MAX_DEADLINE_GAMES_PER_USER = 10**6


@pytest.fixture
def wsgi_app() -> Iterator[Any]:
    """Django's WSGI app, without closing the test's database connection after each request.

    A real request ends by closing connections that are not in autocommit mode, which the
    test's transaction never is; Django's own test client disconnects the same signal handlers.
    """
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@pytest.mark.slow
@pytest.mark.django_db
def test_generated_requests_never_fail_the_server_and_match_the_schema(
    make_user: Callable[..., User], wsgi_app: Any
) -> None:
    app = wsgi_app
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", app)
    answers: Counter[tuple[str, int]] = Counter()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 16

    for number, operation in enumerate(operations):
        for mode, examples in EXAMPLES_PER_OPERATION.items():
            world = build_world(make_user, f"{number}{mode.value}")
            run_operation(operation, mode, examples, world, app, ALL_CHECKS, answers)

    total = sum(answers.values())
    print(f"schemathesis sent {total} requests:", dict(sorted(answers.items())))
    assert total >= MIN_REQUESTS, f"only {total} requests were generated"
    accepted = {label for (label, status), _count in answers.items() if status < 300}
    assert "POST /api/v1/games/{game_id}/actions/" in accepted, "no generated action was legal"
    assert "POST /api/v1/games/{game_id}/join/" in accepted


def run_operation(
    operation: Any,
    mode: GenerationMode,
    examples: int,
    world: World,
    app: Any,
    checks: list[Any],
    answers: Counter[tuple[str, int]],
) -> None:
    @given(
        case=operation.as_strategy(generation_mode=mode),
        choice=st.integers(min_value=0, max_value=len(world.game_ids)),
        # Hypothesis starts from the simplest draw, the first element: a real version, so most
        # generated actions get past If-Match to the engine (a stale one is still drawn).
        real_version=st.sampled_from([True, True, True, False]),
    )
    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.generate],  # requests change the database: shrinking could not replay
        suppress_health_check=list(HealthCheck),
    )
    def send(case: schemathesis.Case, choice: int, real_version: bool) -> None:
        realistic(case, world, choice, real_version)
        # Given as the CLI's -H would be: schemathesis then knows the credentials are real, and
        # its ignored_auth check replays the request without them and with forged ones.
        headers = {"Authorization": f"Bearer {world.token}"}
        response = case.call(app=app, headers=headers)
        answers[operation.label, response.status_code] += 1
        case.validate_response(response, checks=checks, headers=headers)

    send()


@pytest.mark.slow
@pytest.mark.django_db
def test_generated_sequences_of_linked_requests_match_the_schema(
    make_user: Callable[..., User], wsgi_app: Any
) -> None:
    """Stateful: requests chained through links that schemathesis infers from the schema
    (create a game, then read, join, act on it; list games, then act on one of them)."""
    world = build_world(make_user, "stateful")
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", wsgi_app)
    # Valid data only: the sequences are about links between calls (bad input has its own run
    # above), and every step changes the database, so a replayed sequence cannot be expected to
    # draw the same values again: no shrinking either, a failure is reported as found.
    schema.config.generation.update(modes=[GenerationMode.POSITIVE])
    schema.config.update(headers={"Authorization": f"Bearer {world.token}"})
    sent: Counter[int] = Counter()

    class LinkedRequests(schema.as_state_machine()):  # type: ignore[misc]
        def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
            sent[response.status_code] += 1
            case.validate_response(response, checks=ALL_CHECKS, transport_kwargs=kwargs)

    LinkedRequests.run(
        settings=settings(
            max_examples=40,
            stateful_step_count=6,
            deadline=None,
            derandomize=True,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
    )

    print(f"stateful schemathesis sent {sum(sent.values())} requests:", dict(sorted(sent.items())))
    assert sent[200] + sent[201] > 0
