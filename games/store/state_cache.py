"""Decoded engine states kept per process, so one snapshot is decoded once, not per request.

Every API action reads the game's snapshot at least twice: the seat to act reads its legal
actions (``GET``), then submits one (``POST``, whose locked read decodes the same snapshot
again). Decoding (``engine.state_from_json``, consistency checks included) was the largest
single cost of an action. The writer hands the state it has just folded to this cache as well,
so the next read of that version need not decode it at all.

An entry is found by (game id, version) and is used only when its snapshot equals, value for
value, the snapshot the caller read from the database; the state returned is therefore always
the one ``state_from_json`` would have made of that snapshot. A game's newer version, a rolled
back write or a reused id cannot be answered from an older entry: their snapshots differ.
The comparison costs about 1% of a decode.

States are immutable (named tuples of tuples), so sharing one between requests and threads is
safe. These are private states, with decks and blind reserves: like ``loading.game_state``,
for commands and reads only, never for a viewer. The cache is bounded (least recently
used entries go first) and is process-local: gunicorn's workers each keep their own.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from games import engine

MAX_ENTRIES = 256
"""Enough for the current and previous versions of a worker's busiest games; an entry (the
snapshot and its state) is a few kB: 256 of them added about 1 MB to a benchmark worker."""

_entries: OrderedDict[tuple[int, int], tuple[Any, engine.State]] = OrderedDict()
_lock = threading.Lock()


def decoded_state(game_id: int, version: int, snapshot: Any) -> engine.State:
    """The engine state of ``snapshot``, the snapshot of game ``game_id`` at ``version``:
    from the cache when an entry holds an equal snapshot, else decoded (and remembered)."""
    key = (game_id, version)
    with _lock:
        entry = _entries.get(key)
        if entry is not None:
            _entries.move_to_end(key)
    if entry is not None and entry[0] == snapshot:
        return entry[1]
    state = engine.state_from_json(snapshot)
    remember(game_id, version, snapshot, state)
    return state


def remember(game_id: int, version: int, snapshot: Any, state: engine.State) -> None:
    """Keep ``state``, whose JSON is ``snapshot``, as game ``game_id``'s at ``version``.

    ``snapshot`` must not be changed afterwards: it is what later reads are compared with.
    """
    key = (game_id, version)
    with _lock:
        _entries[key] = (snapshot, state)
        _entries.move_to_end(key)
        while len(_entries) > MAX_ENTRIES:
            _entries.popitem(last=False)


def clear() -> None:
    """Forget every entry (tests)."""
    with _lock:
        _entries.clear()


def size() -> int:
    with _lock:
        return len(_entries)
