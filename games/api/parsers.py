"""The API's one JSON reader, bounded in size and in depth.

Every JSON body of the API comes through here (``DEFAULT_PARSER_CLASSES``). A body longer than
``REQUEST_BODY_MAX_BYTES`` (or the view's own ``max_body_bytes``, e.g. a game file to import)
is refused before it is parsed (413), whatever its Content-Length claimed; JSON nested deeper
than ``MAX_JSON_DEPTH`` is refused as a parse error (400) before any serializer, service or
``json.dumps`` walks it recursively. No request body of the API is more than a few levels deep,
so the limit leaves ample room. A game file to import is read by ``GameFileParser``, with the
limits of every other way a game file comes in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser, JSONParser
from rest_framework.utils.json import strict_constant

from games.errors import ImportRejected
from games.notation import game_files
from games.notation.document import ImportRefused
from games.notation.json_depth import json_depth_exceeds

MAX_JSON_DEPTH = 32
"""Arrays and objects inside one another, counting the outermost."""


class RequestTooLarge(APIException):
    """A body above ``REQUEST_BODY_MAX_BYTES``: refused unread (``details.max_bytes``)."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"

    def __init__(self, max_bytes: int) -> None:
        super().__init__(f"The request body is too large: at most {max_bytes} bytes are read.")
        self.max_bytes = max_bytes


class BoundedJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        view = (parser_context or {}).get("view")
        max_bytes: int = getattr(view, "max_body_bytes", settings.REQUEST_BODY_MAX_BYTES)
        raw = stream.read(max_bytes + 1) if stream is not None else b""
        if len(raw) > max_bytes:
            raise RequestTooLarge(max_bytes)
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(raw.decode(encoding), parse_constant=strict_constant)
        except RecursionError:
            raise ParseError(_too_deep()) from None
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError included
            raise ParseError(f"JSON parse error - {exc}") from None
        if json_depth_exceeds(data, MAX_JSON_DEPTH):
            raise ParseError(_too_deep())
        return data


def _too_deep() -> str:
    return f"JSON parse error - arrays and objects nested more than {MAX_JSON_DEPTH} deep."


class GameFileParser(BaseParser):
    """The import's reader: the body is a game file, read by the one game-file reader
    (``games.notation.game_files``) with the same limits as the upload form and ``import_game``."""

    media_type = "application/json"

    def parse(
        self,
        stream: IO[bytes] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        raw = stream.read(game_files.MAX_FILE_BYTES + 1) if stream is not None else b""
        try:
            return game_files.read_game_file(raw)
        except game_files.GameFileTooLarge:
            raise RequestTooLarge(game_files.MAX_FILE_BYTES) from None
        except ImportRefused as error:
            raise ImportRejected(str(error)) from None
