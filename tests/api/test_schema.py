"""The OpenAPI schema: valid, warning-free, committed as docs/openapi.yaml, served with docs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

ROOT = Path(__file__).resolve().parents[2]
COMMITTED_SCHEMA = ROOT / "docs" / "openapi.yaml"


def test_the_committed_schema_is_the_generated_one(tmp_path: Path) -> None:
    generated = tmp_path / "openapi.yaml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(generated))

    assert generated.read_text() == COMMITTED_SCHEMA.read_text(), (
        "docs/openapi.yaml is out of date: run "
        "`.venv/bin/python manage.py spectacular --file docs/openapi.yaml`"
    )


def test_the_schema_is_served(anonymous: APIClient, db: None) -> None:
    response = anonymous.get("/api/schema/")

    assert response.status_code == 200
    assert response.content.decode().startswith("openapi: 3.")


def test_the_docs_page_is_served_from_the_package_not_a_cdn(anonymous: APIClient, db: None) -> None:
    response = anonymous.get("/api/docs/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in page
    assert not re.search(r"""(src|href)=["']https?://""", page)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/games/",
        "/api/v1/games/{game_id}/",
        "/api/v1/games/{game_id}/join/",
        "/api/v1/games/{game_id}/leave/",
        "/api/v1/games/{game_id}/bots/",
        "/api/v1/games/{game_id}/start/",
        "/api/v1/games/{game_id}/resign/",
        "/api/v1/games/{game_id}/legal-actions/",
        "/api/v1/games/{game_id}/actions/",
        "/api/v1/games/{game_id}/events/",
        "/api/v1/games/{game_id}/export/",
        "/api/v1/profile/",
        "/api/v1/tokens/",
        "/api/v1/tokens/{token_id}/",
    ],
)
def test_every_endpoint_is_documented_with_its_errors(path: str) -> None:
    schema = yaml.safe_load(COMMITTED_SCHEMA.read_text())

    for method, operation in schema["paths"][path].items():
        assert operation.get("summary"), f"{method} {path} has no summary"
        responses = operation["responses"]
        assert any(code.startswith("2") for code in responses), f"{method} {path}"
        for code in ("401", "404", "500"):
            assert responses[code]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/Error"
            }
