"""An analysis's progress on the game's push stream: the stream a replay page holds says when
it listens, then carries an ``analysis`` event for each progress the worker writes and one when
it is done, by either transport (in-process, or through Redis as a worker's publish comes)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import AsyncClient

from analysis import runner, services
from analysis.budget import ANALYSIS_VERSION
from analysis.models import Analysis
from games.commands import game_news
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

WORKER_PACE_SECONDS = 0.05
"""How long the test's worker waits after each announcement: the test's budget judges a game in
a blink, and news not yet sent gives way to newer (as a page needs), which would leave the
stream only the last."""


@pytest.fixture(params=["embedded", pytest.param("redis", marks=pytest.mark.redis)])
def transport(request: pytest.FixtureRequest, settings: Any) -> str:
    if request.param == "embedded":
        settings.REDIS_URL = ""
    return str(request.param)


@pytest.fixture
def paced_worker() -> Any:
    def pace(**_news: object) -> None:
        time.sleep(WORKER_PACE_SECONDS)

    game_news.game_news.connect(pace)  # after the stream's own receiver: it has published
    yield
    game_news.game_news.disconnect(pace)


def analysis_events(game: Game, *, meanwhile: Callable[[], Any]) -> tuple[bytes, list[str]]:
    """The stream's opening chunk, and the data of its ``analysis`` events until one says done;
    ``meanwhile`` runs in a thread of its own (the worker) once the stream is open."""

    async def listen() -> tuple[bytes, list[str]]:
        response = await AsyncClient().get(f"/games/{game.pk}/events?version={game.version}")
        assert response.status_code == 200, response.content
        chunks = aiter(response.streaming_content)
        opening = await anext(chunks)
        worker = asyncio.get_running_loop().run_in_executor(None, meanwhile)
        heard: list[str] = []
        while not heard or not heard[-1].startswith("done"):
            chunk = await asyncio.wait_for(anext(chunks), timeout=30)
            if chunk.startswith(b"event: analysis\n"):
                heard.append(chunk.decode().split("data: ")[1].strip())
        await chunks.aclose()
        await worker
        return opening, heard

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, listen()).result(timeout=120)


def test_a_replays_stream_hears_each_progress_of_the_analysis_then_its_end(
    transport: str,
    paced_worker: None,
    alice: User,
    bob: User,
    finished_game_of: Callable[..., Game],
) -> None:
    game = finished_game_of(alice, bob)
    budget, key = services.current_settings(game)
    analysis = Analysis.objects.create(
        game=game, version=ANALYSIS_VERSION, settings_key=key, budget=budget, seed=27
    )

    def work() -> None:
        try:
            runner.run_analysis(analysis.pk)
        finally:
            connection.close()

    opening, heard = analysis_events(game, meanwhile=work)

    assert opening.endswith(b"event: listening\ndata: push\n\n")
    total = Analysis.objects.get().steps_total
    progress = [0, *range(runner.PROGRESS_EVERY, total + 1, runner.PROGRESS_EVERY)]
    assert heard == [f"running {done}/{total}" for done in progress] + [f"done {total}/{total}"]
