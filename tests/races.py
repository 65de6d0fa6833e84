"""Requests released together from real threads, for the race tests on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def all_at_once(request: Callable[[int], Any], clients: int) -> list[Any]:
    """Run ``request(i)`` for each client in its own thread, all released together by a
    barrier; each thread has its own connection and closes it. Returns results or errors."""
    barrier = threading.Barrier(clients)
    outcomes: list[Any] = [None] * clients

    def client(index: int) -> None:
        try:
            connection.ensure_connection()  # connect first, so the requests truly race
            barrier.wait(timeout=30)
            outcomes[index] = request(index)
        except Exception as error:  # the test clients re-raise a view's crash
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(index,)) for index in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes
