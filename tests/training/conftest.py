"""Training runs in a test: games played in-process (the quick start's way), candidate networks
written under the test's own folder, and a tiny run through the command."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

TINY_RUN = ("--games", "4", "--epochs", "1", "--gate-games", "2", "--iterations", "2")
"""A few games of the base game at two search iterations a move: a second or so."""


@pytest.fixture(autouse=True)
def training_in_process(settings: Any, tmp_path: Path) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.TRAINING_DIR = tmp_path / "training"


@pytest.fixture
def installed_path(tmp_path: Path) -> Path:
    """Where the tests install networks: never the game's package file."""
    return tmp_path / "installed" / "expert.npz"


@pytest.fixture
def train(installed_path: Path) -> Callable[..., str]:
    """Run ``train_expert`` on the base game with a tiny budget; its output."""

    def run(*arguments: str) -> str:
        out = io.StringIO()
        call_command(
            "train_expert",
            "--variant", "splendor", *TINY_RUN, "--network-path", str(installed_path),
            *arguments,
            stdout=out,
        )  # fmt: skip
        return out.getvalue()

    return run
