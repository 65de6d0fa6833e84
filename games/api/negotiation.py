"""Content negotiation: DRF's, with the API's everyday case answered without parsing.

The API renders JSON alone. DRF parses the Accept header and orders its media types on every
request to find that out; a request that accepts ``application/json`` or anything at all (or
sends no Accept header) gets exactly what DRF would give it, at once. Any other Accept header,
and a ``?format=`` override, go through DRF's negotiation, 406 included.
"""

from __future__ import annotations

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

ANSWERED_AT_ONCE = frozenset({None, "*/*", "application/json"})
"""Accept headers (None: none sent) for which DRF picks the one renderer with its own type."""


class JsonFirstContentNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: list[BaseRenderer], format_suffix: Any = None
    ) -> tuple[BaseRenderer, str]:
        if (
            len(renderers) == 1
            and renderers[0].media_type == "application/json"
            and format_suffix is None
            and request.META.get("HTTP_ACCEPT") in ANSWERED_AT_ONCE
            and self.settings.URL_FORMAT_OVERRIDE not in request.query_params
        ):
            return renderers[0], renderers[0].media_type
        chosen: tuple[BaseRenderer, str] = super().select_renderer(
            request, renderers, format_suffix
        )
        return chosen
