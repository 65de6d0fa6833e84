"""Submitting actions: If-Match, Idempotency-Key, throttling, and bad input that changes nothing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Game
from tests.api.helpers import error_code, footprint, game_url, post_action

TAKE_THREE = {"type": "take_gems", "gems": ["white", "blue", "green"]}
TAKE_OTHER_THREE = {"type": "take_gems", "gems": ["red", "black", "green"]}


def test_the_legal_actions_are_the_callers_with_the_version_to_send(
    started_game: Game, as_alice: APIClient, as_bob: APIClient
) -> None:
    mine = as_alice.get(game_url(started_game, "legal-actions/"))
    theirs = as_bob.get(game_url(started_game, "legal-actions/")).json()

    assert mine.status_code == 200
    assert mine["ETag"] == f'"{started_game.version}"'
    body = mine.json()
    assert body["version"] == started_game.version
    assert (body["viewer_seat"], body["acting_seat"]) == (0, 0)
    assert TAKE_THREE in body["actions"]
    assert theirs["actions"] == []
    assert theirs["viewer_seat"] == 1


def test_an_accepted_action_answers_its_events_and_the_new_etag(
    started_game: Game, as_alice: APIClient
) -> None:
    version = started_game.version

    response = post_action(as_alice, started_game, TAKE_THREE, version=version)

    assert response.status_code == 200
    assert response.json() == {
        "game_id": started_game.pk,
        "version": version + 1,
        "events": [version + 1],
        "acting_seat": 1,
        "actions": [],  # bob moves next, and his options are his
    }
    assert response["ETag"] == f'"{version + 1}"'
    assert footprint(started_game) == (version + 1, version + 1)


def test_an_action_that_leaves_you_to_act_answers_your_next_actions_to_submit_at_once(
    started_game: Game, as_alice: APIClient, as_bob: APIClient
) -> None:
    # Both take tokens until someone goes over ten: the answer must then list their returns,
    # and one of them must be accepted at the answer's version without a GET in between.
    clients = (as_alice, as_bob)
    for _ in range(20):
        game = Game.objects.get(pk=started_game.pk)
        client = clients[game.acting_seat]
        legal = client.get(game_url(game, "legal-actions/")).json()["actions"]
        takes = [action for action in legal if action["type"] == "take_gems"]
        # Take the most gems; with none left, reserve (its gold goes over ten).
        reserves = [action for action in legal if action["type"] == "reserve_card"]
        chosen = max(takes, key=lambda take: len(take["gems"])) if takes else reserves[0]
        answer = post_action(client, game, chosen, version=game.version)
        assert answer.status_code == 200
        if answer.json()["actions"]:
            break
    else:
        pytest.fail("nobody went over ten tokens")
    body = answer.json()
    seat = clients.index(client)
    assert body["acting_seat"] == seat
    assert {action["type"] for action in body["actions"]} == {"return_tokens"}
    assert answer["ETag"] == f'"{body["version"]}"'
    assert body["actions"] == client.get(game_url(game, "legal-actions/")).json()["actions"]

    returned = post_action(client, game, body["actions"][0], version=body["version"])

    assert returned.status_code == 200
    assert returned.json()["acting_seat"] == 1 - seat
    assert returned.json()["actions"] == []


def test_an_action_without_if_match_is_428_and_changes_nothing(
    started_game: Game, as_alice: APIClient
) -> None:
    before = footprint(started_game)

    response = post_action(as_alice, started_game, TAKE_THREE, version=None)

    assert response.status_code == 428
    assert error_code(response) == "precondition_required"
    assert footprint(started_game) == before


def test_a_stale_if_match_is_412_with_the_current_version(
    started_game: Game, as_alice: APIClient, as_bob: APIClient
) -> None:
    seen = started_game.version
    post_action(as_alice, started_game, TAKE_THREE, version=seen)
    before = footprint(started_game)

    response = post_action(as_bob, started_game, TAKE_OTHER_THREE, version=seen)

    assert response.status_code == 412
    assert error_code(response) == "stale_version"
    assert response.json()["error"]["details"] == {"current_version": seen + 1}
    assert response["ETag"] == f'"{seen + 1}"'
    assert footprint(started_game) == before


@pytest.mark.parametrize("if_match", ["12", '"twelve"', '"1", "2"', "*", 'W/"x"'])
def test_a_malformed_if_match_is_400(
    started_game: Game, as_alice: APIClient, if_match: str
) -> None:
    before = footprint(started_game)

    response = as_alice.post(
        game_url(started_game, "actions/"), TAKE_THREE, format="json",
        headers={"If-Match": if_match},
    )  # fmt: skip

    assert response.status_code == 400
    assert error_code(response) == "invalid_header"
    assert response.json()["error"]["details"] == {"header": "If-Match"}
    assert footprint(started_game) == before


def test_a_retry_with_the_same_idempotency_key_replays_the_first_answer(
    started_game: Game, as_alice: APIClient
) -> None:
    version = started_game.version
    first = post_action(as_alice, started_game, TAKE_THREE, version=version, idempotency_key="k-1")
    after_first = footprint(started_game)

    retry = post_action(as_alice, started_game, TAKE_THREE, version=version, idempotency_key="k-1")

    assert retry.status_code == first.status_code == 200
    assert retry.json() == first.json()
    assert retry["ETag"] == first["ETag"]
    assert footprint(started_game) == after_first


def test_the_same_idempotency_key_with_another_body_is_422(
    started_game: Game, as_alice: APIClient
) -> None:
    version = started_game.version
    post_action(as_alice, started_game, TAKE_THREE, version=version, idempotency_key="k-2")
    before = footprint(started_game)

    response = post_action(
        as_alice, started_game, TAKE_OTHER_THREE, version=version, idempotency_key="k-2"
    )

    assert response.status_code == 422
    assert error_code(response) == "idempotency_key_reused"
    assert footprint(started_game) == before


@pytest.mark.parametrize("key", ["", "with space", "x" * 256, "naïve"])
def test_a_malformed_idempotency_key_is_400(
    started_game: Game, as_alice: APIClient, key: str
) -> None:
    response = post_action(
        as_alice, started_game, TAKE_THREE, version=started_game.version, idempotency_key=key
    )

    assert response.status_code == 400
    assert error_code(response) == "invalid_header"


BAD_BODIES = [
    pytest.param({"type": "fly_away"}, "validation_error", id="unknown type"),
    pytest.param({"gems": ["red"]}, "validation_error", id="no type"),
    pytest.param(["take_gems"], "validation_error", id="not an object"),
    pytest.param({"type": "take_gems", "gems": "red"}, "validation_error", id="gems not a list"),
    pytest.param({"type": "take_gems", "gems": ["purple"]}, "validation_error", id="colour"),
    pytest.param({"type": "take_gems", "gems": ["gold"]}, "validation_error", id="gold"),
    pytest.param({"type": "buy_card", "card": "12"}, "validation_error", id="card as string"),
    pytest.param({"type": "buy_card", "card": 12.5}, "validation_error", id="card as float"),
    pytest.param({"type": "buy_card", "card": True}, "validation_error", id="card as boolean"),
    pytest.param({"type": "buy_card", "card": 90}, "validation_error", id="card out of range"),
    pytest.param({"type": "buy_card", "card": 1, "extra": 1}, "validation_error", id="extra"),
    pytest.param(
        {"type": "buy_card", "card": 1, "payment": {"pink": 1}}, "validation_error", id="payment"
    ),
    pytest.param({"type": "reserve_from_deck", "level": 4}, "validation_error", id="level 4"),
    pytest.param({"type": "reserve_from_deck"}, "validation_error", id="missing field"),
    pytest.param(
        {"type": "take_gems", "gems": ["red", "red", "red"]},
        "illegal_action",
        id="three of a colour",
    ),
    pytest.param({"type": "pass"}, "illegal_action", id="pass while other actions exist"),
    pytest.param({"type": "buy_card", "card": 89}, "illegal_action", id="card not on board"),
    pytest.param(
        {"type": "return_tokens", "tokens": {"red": 1}}, "illegal_action", id="wrong phase"
    ),
]


@pytest.mark.parametrize(("body", "code"), BAD_BODIES)
def test_a_bad_action_gets_a_clear_400_and_changes_nothing(
    started_game: Game, as_alice: APIClient, body: object, code: str
) -> None:
    before = footprint(started_game)

    response = post_action(as_alice, started_game, body, version=started_game.version)  # type: ignore[arg-type]

    assert response.status_code == 400, response.content
    assert error_code(response) == code
    assert response.json()["error"]["message"]
    assert footprint(started_game) == before


def test_malformed_json_is_400_and_changes_nothing(started_game: Game, as_alice: APIClient) -> None:
    before = footprint(started_game)

    response = as_alice.post(
        game_url(started_game, "actions/"), '{"type": "take_gems", "gems": [',
        content_type="application/json", headers={"If-Match": f'"{started_game.version}"'},
    )  # fmt: skip

    assert response.status_code == 400
    assert error_code(response) == "parse_error"
    assert footprint(started_game) == before


def test_a_form_body_is_415(started_game: Game, as_alice: APIClient) -> None:
    response = as_alice.post(
        game_url(started_game, "actions/"), {"type": "pass"}, format="multipart",
        headers={"If-Match": f'"{started_game.version}"'},
    )  # fmt: skip

    assert response.status_code == 415
    assert error_code(response) == "unsupported_media_type"


def test_an_action_out_of_turn_is_403_and_changes_nothing(
    started_game: Game, as_bob: APIClient
) -> None:
    before = footprint(started_game)

    response = post_action(as_bob, started_game, TAKE_THREE, version=started_game.version)

    assert response.status_code == 403
    assert error_code(response) == "forbidden"
    assert "not your turn" in response.json()["error"]["message"]
    assert footprint(started_game) == before


def test_a_spectator_cannot_act(started_game: Game, as_carol: APIClient) -> None:
    response = post_action(as_carol, started_game, TAKE_THREE, version=started_game.version)

    assert response.status_code == 403
    assert error_code(response) == "forbidden"


def test_an_action_in_a_game_not_running_is_409(started_game: Game, as_alice: APIClient) -> None:
    as_alice.post(game_url(started_game, "resign/"))
    game = Game.objects.get(pk=started_game.pk)
    before = footprint(game)

    response = post_action(as_alice, game, TAKE_THREE, version=game.version)

    assert response.status_code == 409
    assert error_code(response) == "invalid_request"
    assert footprint(game) == before


def test_action_submission_is_throttled_per_user(
    started_game: Game, as_alice: APIClient, as_bob: APIClient
) -> None:
    rates = {"DEFAULT_THROTTLE_RATES": {"actions": "2/min"}}
    with override_settings(REST_FRAMEWORK={**_rest_framework_settings(), **rates}):
        statuses = [
            post_action(as_bob, started_game, TAKE_THREE, version=1).status_code for _ in range(3)
        ]
        alice_still_may = post_action(as_alice, started_game, TAKE_THREE, version=1)

    assert statuses[:2] == [412, 412]
    assert statuses[2] == 429
    assert alice_still_may.status_code == 412
    limited = post_action(as_bob, started_game, TAKE_THREE, version=1)
    assert limited.status_code == 412  # the test's rate is gone with the override


def test_a_throttled_request_says_when_to_retry(started_game: Game, as_bob: APIClient) -> None:
    rates = {"DEFAULT_THROTTLE_RATES": {"actions": "1/hour"}}
    with override_settings(REST_FRAMEWORK={**_rest_framework_settings(), **rates}):
        post_action(as_bob, started_game, TAKE_THREE, version=1)
        response = post_action(as_bob, started_game, TAKE_THREE, version=1)

    assert response.status_code == 429
    assert error_code(response) == "throttled"
    assert int(response["Retry-After"]) > 0
    assert response.json()["error"]["details"]["retry_after_seconds"] > 0


def test_the_default_action_rate_is_generous_enough_for_bots() -> None:
    from rest_framework.settings import api_settings

    count, period = api_settings.DEFAULT_THROTTLE_RATES["actions"].split("/")
    assert int(count) >= 600
    assert period.startswith("m")


def _rest_framework_settings() -> dict[str, object]:
    from django.conf import settings

    return dict(settings.REST_FRAMEWORK)


def test_an_action_and_the_next_players_look_cost_at_most_seven_round_trips(
    started_game: Game, as_alice: APIClient, as_bob: APIClient
) -> None:
    # Tokens already remembered, as on a busy server: what is left is the work itself.
    as_alice.get(game_url(started_game, "legal-actions/"))
    as_bob.get(game_url(started_game, "legal-actions/"))

    with CaptureQueriesContext(connection) as posted:
        answer = post_action(as_alice, started_game, TAKE_THREE, version=started_game.version)
    with CaptureQueriesContext(connection) as looked:
        legal = as_bob.get(game_url(started_game, "legal-actions/"))

    assert answer.status_code == 200
    assert legal.json()["actions"], "bob learns his options"
    # Inside the test's own transaction, BEGIN and COMMIT are a savepoint and its release.
    opening = {"SAVEPOINT": "BEGIN", "RELEASE": "COMMIT"}
    post_statements = [
        opening.get(word, word)
        for word in (query["sql"].split()[0] for query in posted.captured_queries)
    ]
    assert post_statements == ["BEGIN", "SELECT", "INSERT", "UPDATE", "COMMIT"]
    assert len(looked.captured_queries) == 1  # the game row, with bob's seat
    assert len(posted.captured_queries) + len(looked.captured_queries) <= 7
