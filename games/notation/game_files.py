"""The one reader of a game file, with one set of limits, for every way an import comes in.

The upload form, the API's import endpoint and ``manage.py import_game`` each hand the file's
bytes to ``read_game_file`` and refuse what it refuses, in its words, before anything is
written: a file over ``MAX_FILE_BYTES``, not UTF-8, not JSON, or nesting arrays and objects
deeper than ``MAX_DEPTH`` (refused before anything walks it recursively; Python's parser itself
gives up, with a RecursionError, near a thousand levels). ``notation.replay`` then bounds the
number of moves (``notation.MAX_MOVES``) and checks every one of them.
"""

from __future__ import annotations

import json
from typing import Any

from games.notation.document import MAX_MOVES, ImportRefused
from games.notation.json_depth import json_depth_exceeds

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 32
"""Arrays and objects inside one another, counting the outermost: a game file needs five (the
document, its moves, a move, its action, the action's list of gems)."""

LIMITS_IN_WORDS = (
    f"at most 5 MB, arrays and objects at most {MAX_DEPTH} deep, at most {MAX_MOVES} moves"
)


class GameFileTooLarge(ImportRefused):
    """A file over ``MAX_FILE_BYTES``: the API answers it 413, as any body over its limit."""


def read_game_file(raw: bytes) -> Any:
    """The JSON document in ``raw``, or ``ImportRefused`` saying which limit it breaks.

    ``raw`` may be read with one byte to spare (``MAX_FILE_BYTES + 1``): that is enough to
    tell a file that is too large.
    """
    if len(raw) > MAX_FILE_BYTES:
        raise GameFileTooLarge(f"The file is larger than 5 MB (a game file is {LIMITS_IN_WORDS}).")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ImportRefused("The file is not UTF-8 text.") from None
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise _too_deep() from None
    except ValueError as error:
        raise ImportRefused(f"The file is not valid JSON ({error}).") from None
    if json_depth_exceeds(document, MAX_DEPTH):
        raise _too_deep()
    return document


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _too_deep() -> ImportRefused:
    return ImportRefused(
        f"The file nests arrays and objects more than {MAX_DEPTH} deep "
        f"(a game file is {LIMITS_IN_WORDS})."
    )
