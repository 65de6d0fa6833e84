"""Right after a server process starts, its pages reconnect all at once: every one of their
streams waits for the process's Redis subscription, none is told to poll because another
stream happened to start the subscription first."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from games.web import live

pytestmark = pytest.mark.redis


def test_streams_opened_together_on_a_fresh_process_all_hear_pushes() -> None:
    async def open_together() -> list[bool]:
        fresh_process_hub = live.Hub()

        async def open_one() -> bool:
            subscriber = await fresh_process_hub.subscribe(999_997, 0)
            try:
                return fresh_process_hub.is_available  # what the stream tells its page
            finally:
                fresh_process_hub.unsubscribe(subscriber)

        try:
            return await asyncio.gather(*(open_one() for _ in range(20)))
        finally:
            assert fresh_process_hub._listener is not None
            fresh_process_hub._listener.cancel()

    with ThreadPoolExecutor(max_workers=1) as pool:
        told_to_listen = pool.submit(asyncio.run, open_together()).result(timeout=30)

    assert told_to_listen == [True] * 20
