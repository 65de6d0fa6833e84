"""Settings defaults, checked by importing the settings in a fresh interpreter.

A subprocess with a clean environment is the only honest way: the test run's own settings were
loaded once, from the environment the run started with.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

READ_SETTINGS = """
import json, sys
from django.conf import settings
print(json.dumps({name: getattr(settings, name) for name in sys.argv[1:]}, default=str))
"""


def run_settings(env: dict[str, str], *names: str) -> subprocess.CompletedProcess[str]:
    clean_env = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "splendor_site.settings"}
    return subprocess.run(
        [sys.executable, "-c", READ_SETTINGS, *names],
        env=clean_env | env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def read_settings(env: dict[str, str], *names: str) -> dict[str, Any]:
    result = run_settings(env, *names)
    assert result.returncode == 0, result.stderr
    values: dict[str, Any] = json.loads(result.stdout)
    return values


def test_database_defaults_to_sqlite_file_in_the_project() -> None:
    database = read_settings({}, "DATABASES")["DATABASES"]["default"]

    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(ROOT / "db.sqlite3")


def test_database_url_selects_postgresql_with_persistent_connections() -> None:
    env = {"DATABASE_URL": "postgres://player:secret@db.example:5433/splendor"}

    database = read_settings(env, "DATABASES")["DATABASES"]["default"]

    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert database["HOST"] == "db.example"
    assert database["PORT"] == 5433
    assert database["NAME"] == "splendor"
    assert database["CONN_MAX_AGE"] == 600
    assert database["OPTIONS"]["prepare_threshold"] == 5


def test_prepared_reads_can_be_turned_off_for_a_pooler() -> None:
    env = {
        "DATABASE_URL": "postgres://player:secret@db.example:5433/splendor",
        "DATABASE_PREPARED_READS": "false",
    }

    database = read_settings(env, "DATABASES")["DATABASES"]["default"]

    assert database.get("OPTIONS", {}).get("prepare_threshold") is None


def test_the_owner_role_comes_from_database_owner_url_and_defaults_to_none() -> None:
    app = "postgres://splendor_app:app@db.example:5433/splendor"
    owner = "postgres://splendor_owner:own@db.example:5433/splendor"

    assert read_settings({"DATABASE_URL": app}, "DATABASE_OWNER")["DATABASE_OWNER"] is None
    configured = read_settings({"DATABASE_URL": app, "DATABASE_OWNER_URL": owner}, "DATABASE_OWNER")
    assert configured["DATABASE_OWNER"] == {"USER": "splendor_owner", "PASSWORD": "own"}


def test_database_owner_url_must_name_the_same_database() -> None:
    env = {
        "DATABASE_URL": "postgres://splendor_app@db.example:5433/splendor",
        "DATABASE_OWNER_URL": "postgres://splendor_owner@db.example:5433/elsewhere",
    }
    result = run_settings(env, "DATABASE_OWNER")

    assert result.returncode != 0
    assert "DATABASE_OWNER_URL must name the database of DATABASE_URL" in result.stderr


def test_secret_key_is_required_when_debug_is_off() -> None:
    result = run_settings({"DEBUG": "false"}, "SECRET_KEY")

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY must be set" in result.stderr


def test_given_secret_key_is_used_when_debug_is_off() -> None:
    values = read_settings({"DEBUG": "false", "SECRET_KEY": "s3cret-value"}, "DEBUG", "SECRET_KEY")

    assert values == {"DEBUG": False, "SECRET_KEY": "s3cret-value"}


def test_debug_rejects_a_value_that_is_not_a_boolean() -> None:
    result = run_settings({"DEBUG": "maybe"}, "DEBUG")

    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


def test_without_redis_tasks_run_in_process() -> None:
    values = read_settings({}, "CELERY_TASK_ALWAYS_EAGER", "CELERY_TASK_EAGER_PROPAGATES")

    assert values == {"CELERY_TASK_ALWAYS_EAGER": True, "CELERY_TASK_EAGER_PROPAGATES": True}


def test_redis_url_makes_redis_the_broker_and_result_backend() -> None:
    url = "redis://cache.example:6379/2"
    names = (
        "CELERY_TASK_ALWAYS_EAGER",
        "CELERY_BROKER_URL",
        "CELERY_RESULT_BACKEND",
        "CELERY_BROKER_TRANSPORT_OPTIONS",
    )

    values = read_settings({"REDIS_URL": url}, *names)

    assert values == {
        "CELERY_TASK_ALWAYS_EAGER": False,
        "CELERY_BROKER_URL": url,
        "CELERY_RESULT_BACKEND": url,
        "CELERY_BROKER_TRANSPORT_OPTIONS": {
            "visibility_timeout": 3600,
            "socket_connect_timeout": 2,
            "socket_timeout": 2,
        },
    }


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "django.core.mail.backends.console.EmailBackend"),
        (
            {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend"},
            "django.core.mail.backends.smtp.EmailBackend",
        ),
    ],
)
def test_email_goes_to_the_console_unless_configured(env: dict[str, str], expected: str) -> None:
    assert read_settings(env, "EMAIL_BACKEND")["EMAIL_BACKEND"] == expected


def test_site_url_defaults_to_the_development_server() -> None:
    assert read_settings({}, "SITE_URL")["SITE_URL"] == "http://127.0.0.1:8000"


def test_env_example_lists_every_variable_the_settings_read() -> None:
    site = ROOT / "splendor_site"
    settings_source = (site / "settings.py").read_text()
    # The settings module and the parts it takes whole (`from splendor_site.<part> import *`).
    parts = re.findall(r"^from splendor_site\.(\w+) import \*", settings_source, re.MULTILINE)
    source = "\n".join([settings_source, *((site / f"{part}.py").read_text() for part in parts)])
    example = (ROOT / ".env.example").read_text()

    read = set(re.findall(r'(?:env_\w+|os\.environ\.get)\("([A-Z_]+)"', source))
    listed = set(re.findall(r"^([A-Z_]+)=", example, flags=re.MULTILINE))

    assert read
    assert read == listed


def test_env_example_sourced_in_a_shell_gives_the_defaults() -> None:
    names = ("DEBUG", "DATABASES", "CELERY_BROKER_URL", "DEFAULT_FROM_EMAIL", "ALLOWED_HOSTS")
    script = f'set -a && . ./.env.example && set +a && exec "$0" -c "$1" {" ".join(names)}'

    sourced = subprocess.run(
        ["bash", "-c", script, sys.executable, READ_SETTINGS],
        env={"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "splendor_site.settings"},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert sourced.returncode == 0, sourced.stderr
    assert json.loads(sourced.stdout) == read_settings({}, *names)


def test_a_rotated_secret_key_still_accepts_what_the_old_one_signed() -> None:
    sign_then_check = """
import django; django.setup()
from django.core import signing
from django.test.utils import override_settings
with override_settings(SECRET_KEY="the-old-key", SECRET_KEY_FALLBACKS=[]):
    link = signing.dumps("invite to game 7")
print(signing.loads(link))
"""
    env = {"SECRET_KEY": "the-new-key", "SECRET_KEY_FALLBACKS": "older-key, the-old-key"}
    done = subprocess.run(
        [sys.executable, "-c", sign_then_check],
        env={"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "splendor_site.settings"}
        | env,
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("invite to game 7")
