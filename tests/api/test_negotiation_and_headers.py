"""The shortcuts on every API request answer exactly as the libraries they stand in for:
content negotiation (DRF's) and the Content-Security-Policy header (django-csp's)."""

from __future__ import annotations

import pytest
from csp.utils import build_policy
from django.test import override_settings
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIClient, APIRequestFactory

from games.api.negotiation import JsonFirstContentNegotiation
from games.models import Game
from tests.api.helpers import game_url


@pytest.mark.parametrize("accept", [None, "*/*", "application/json"])
def test_the_quick_answer_is_drfs_answer(accept: str | None) -> None:
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(APIRequestFactory().get("/api/v1/games/", **headers))
    renderers = [JSONRenderer()]

    quick = JsonFirstContentNegotiation().select_renderer(request, renderers)
    drf = DefaultContentNegotiation().select_renderer(request, renderers)

    assert (type(quick[0]), quick[1]) == (type(drf[0]), drf[1])


@pytest.mark.parametrize(
    "accept", ["application/json; indent=4", "text/html, application/json;q=0.5"]
)
def test_other_accept_headers_are_negotiated_by_drf(
    started_game: Game, as_alice: APIClient, accept: str
) -> None:
    response = as_alice.get(game_url(started_game), headers={"Accept": accept})

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")


def test_an_api_answer_carries_django_csps_policy(started_game: Game, as_alice: APIClient) -> None:
    for _ in range(2):  # built on the first, reused on the second
        response = as_alice.get(game_url(started_game))
        assert response["Content-Security-Policy"] == build_policy()


def test_a_changed_policy_setting_is_followed(started_game: Game, as_alice: APIClient) -> None:
    as_alice.get(game_url(started_game))
    policy = {"DIRECTIVES": {"default-src": ["'none'"]}}

    with override_settings(CONTENT_SECURITY_POLICY=policy):
        response = as_alice.get(game_url(started_game))

    assert response["Content-Security-Policy"] == "default-src 'none'"
