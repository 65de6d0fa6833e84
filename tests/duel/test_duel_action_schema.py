"""The OpenAPI schema of Duel's actions is the engine's reader, said in OpenAPI.

Every action the engine offers over played games fits ``DuelActionRequest``; bodies the schema
refuses, the reader and the API refuse too (400 before the version is compared), so a bot
written from the schema sends nothing the API would read otherwise.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from django.contrib.auth.models import User
from rest_framework import serializers
from rest_framework.test import APIClient

from games import engine
from games.engine.duel.actions import Pass
from games.engine.duel.tokens import tokens_to_json
from games.variants.duel.api_actions import DUEL_ACTION_SERIALIZERS, parse_action
from tests.api.helpers import error_code, footprint
from tests.duel.test_duel_api import act, create_duel

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"
SEEDS = range(6)
MAX_STEPS = 600


def validator_for(component: str) -> jsonschema.Draft7Validator:
    """A validator of one component of the committed schema (tests/api/test_schema.py holds
    the committed schema to the generated one)."""
    components = yaml.safe_load(SCHEMA_FILE.read_text())["components"]
    document = {"$ref": f"#/components/schemas/{component}", "components": components}
    return jsonschema.Draft7Validator(document)


DUEL_ACTION = validator_for("DuelActionRequest")
BASE_ACTION = validator_for("ActionRequest")


@functools.cache
def offered_bodies(seed: int) -> list[dict[str, Any]]:
    """Every action the engine lists as legal over one random Duel, with every exact payment
    of each purchase (the ``payment`` a bot may add), each once."""
    rng = random.Random(seed)
    state = engine.initial_state(engine.new_game("duel", 2, seed))
    bodies: dict[str, dict[str, Any]] = {}
    for _ in range(MAX_STEPS):
        actions = engine.legal_actions(state)
        if not actions:
            break
        for action in actions:
            body = engine.action_to_json(action)
            bodies[json.dumps(body, sort_keys=True)] = body
            if body["type"] == "buy_card":
                for payment in engine.payment_options(state, body["card"]):
                    paid = {**body, "payment": tokens_to_json(payment)}
                    bodies[json.dumps(paid, sort_keys=True)] = paid
        state = engine.apply_action(state, rng.choice(actions))
    return list(bodies.values())


@pytest.mark.parametrize("seed", SEEDS)
def test_every_action_the_engine_offers_fits_the_duel_schema(seed: int) -> None:
    for body in offered_bodies(seed):
        if not DUEL_ACTION.is_valid(body):
            pytest.fail(f"{body}: {[error.message for error in DUEL_ACTION.iter_errors(body)]}")
        assert parse_action(body) == engine.action_to_json(engine.action_from_json(body, "duel"))


def test_the_played_games_offer_every_kind_of_duel_action() -> None:
    # Else the test above would vouch for fewer action types than the schema documents. A pass
    # is legal only when not even a replenish is, which random games do not reach: its JSON
    # is checked on its own.
    offered = {body["type"] for seed in SEEDS for body in offered_bodies(seed)}
    a_pass = engine.action_to_json(Pass())

    assert offered | {a_pass["type"]} == set(DUEL_ACTION_SERIALIZERS)
    assert DUEL_ACTION.is_valid(a_pass)


MALFORMED = [
    {"type": "take_tokens", "spaces": []},
    {"type": "take_tokens", "spaces": [[0, 0], [0, 1], [0, 2], [0, 3]]},
    {"type": "take_tokens", "spaces": [[0, 5]]},
    {"type": "take_tokens", "spaces": [[0, 0, 0]]},
    {"type": "use_privilege", "space": [1]},
    {"type": "take_gold", "space": [True, 0]},
    {"type": "take_matching_token"},
    {"type": "choose_joker_colour", "colour": "pearl"},
    {"type": "steal_token", "colour": "gold"},
    {"type": "buy_card", "card": 12, "payment": None},
    {"type": "buy_card", "card": 12, "payment": {"pearl": 26}},
    {"type": "buy_card", "card": 67},
    {"type": "discard_tokens", "tokens": {"silver": 1}},
    {"type": "choose_royal", "royal": "1"},
    {"type": "replenish", "space": [0, 0]},
    {"type": "draw"},
]


@pytest.mark.parametrize("body", MALFORMED)
def test_a_body_the_duel_schema_refuses_the_reader_refuses(body: dict[str, Any]) -> None:
    assert not DUEL_ACTION.is_valid(body)
    with pytest.raises(serializers.ValidationError):
        parse_action(body)


@pytest.mark.parametrize("body", MALFORMED)
def test_a_malformed_duel_body_is_refused_by_the_api_at_any_version(
    alice: User, api_client_for: Callable[[User], APIClient], body: dict[str, Any]
) -> None:
    client = api_client_for(alice)
    game = create_duel(client, {"type": "bot", "level": "random"})
    before = footprint(game["id"])
    is_a_base_game_action = BASE_ACTION.is_valid(body)

    for version in (game["version"], game["version"] - 1):
        response = act(client, {**game, "version": version}, body)
        assert response.status_code == 400, (version, response.json())
        # A card above 66 is still a base-game action: read, then refused by the Duel engine.
        expected = "illegal_action" if is_a_base_game_action else "validation_error"
        assert error_code(response) == expected

    assert footprint(game["id"]) == before


@pytest.mark.parametrize(
    ("variant", "other_games_body"),
    [
        ("splendor", {"type": "take_tokens", "spaces": [[2, 2]]}),
        ("splendor", {"type": "buy_card", "card": 12, "payment": {"pearl": 1}}),
        ("splendor", {"type": "choose_royal", "royal": 0}),
        ("duel", {"type": "take_gems", "gems": ["red", "blue", "green"]}),
        ("duel", {"type": "buy_card", "card": 80}),
        ("duel", {"type": "choose_noble", "noble": 1}),
    ],
)
def test_an_action_of_the_other_game_is_refused_at_any_version(
    alice: User,
    api_client_for: Callable[[User], APIClient],
    variant: str,
    other_games_body: dict[str, Any],
) -> None:
    # The schema takes it (an action of some game), so the game refuses it as not its own:
    # 400 illegal_action, whatever the If-Match, and nothing changes.
    own, other = (BASE_ACTION, DUEL_ACTION) if variant == "splendor" else (DUEL_ACTION, BASE_ACTION)
    assert other.is_valid(other_games_body)
    assert not own.is_valid(other_games_body)
    client = api_client_for(alice)
    created = client.post(
        "/api/v1/games/",
        {"variant": variant, "seats": [{"type": "user"}, {"type": "bot", "level": "random"}]},
        format="json",
    )
    assert created.status_code == 201, created.json()
    game = created.json()
    before = footprint(game["id"])

    for version in (game["version"], game["version"] - 1):
        response = act(client, {**game, "version": version}, other_games_body)
        assert response.status_code == 400, (version, response.json())
        assert error_code(response) == "illegal_action"

    assert footprint(game["id"]) == before
