"""Site-wide guards that run before any view reads the request."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import render

from games.api.errors import request_too_large_body
from splendor_site.request_limits import max_body_bytes_for


class RequestBodyLimitMiddleware:
    """Refuse a body longer than ``REQUEST_BODY_MAX_BYTES`` with 413, before it is read.

    Goes by Content-Length, which every body Django reads has (without one, Django reads an
    empty body); the API's parser bounds what it reads as well. The API answers in its error
    shape, pages with the site's error page.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = _declared_length(request)
        if length > settings.REQUEST_BODY_MAX_BYTES:
            max_bytes = max_body_bytes_for(request.path_info)
            if length > max_bytes:
                return _too_large(request, max_bytes)
        return self.get_response(request)


JSON_API_PATH_PREFIX = "/api/v1/"
"""Where the JSON API's views live; its documentation pages (``/api/docs/``) are pages."""


class PageMessageMiddleware(MessageMiddleware):
    """Django's flash messages, left out of JSON API requests.

    No API view adds or shows a flash message, so on an API request the middleware would only
    build the message storage (a cookie signer, the session's list) to write nothing: the storage
    changes a response only after a message was added or read. Building it cost about 2.5%
    of an API action's CPU. A message waiting from a page stays for the next page.
    """

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path_info.startswith(JSON_API_PATH_PREFIX):
            return self.get_response(request)  # type: ignore[no-any-return]
        return super().__call__(request)  # type: ignore[no-any-return]


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0  # Django reads such a body as empty


def _too_large(request: HttpRequest, max_bytes: int) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(request_too_large_body(max_bytes), status=413)
    message = f"What you sent is too large: the site reads at most {max_bytes // 1024} KiB."
    return render(request, "error.html", {"message": message, "status": 413}, status=413)


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with each header built once instead of on every response.

    django-csp builds the policy anew for every response (copying the directives, then joining
    them), because a view may change it (``csp_update`` and its kin) and a template may ask
    for a nonce. Where neither happened, the header follows from the settings alone: it is
    built once for the settings in force and reused. A response where either happened is
    left to django-csp itself. On the API's hot path this was a tenth of a request's CPU.
    """

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            getattr(response, name, None) is not None for name in _PER_RESPONSE_POLICY
        ):
            return super().process_response(request, response)
        if settings.DEBUG and response.status_code in _SHOWN_BY_THE_DEBUG_PAGE:
            return response  # as django-csp: the debug pages need their inline scripts
        for header, setting, exempt in _POLICY_HEADERS:
            policy = _policy_for(setting)
            excluded = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES")
            if (
                policy
                and header not in response
                and getattr(response, exempt, False) is False
                and not request.path_info.startswith(tuple(excluded or ()))
            ):
                response[header] = policy
        # As django-csp: a nonce asked for after the header was written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response


_PER_RESPONSE_POLICY = tuple(
    f"_csp_{change}{suffix}" for change in ("config", "update", "replace") for suffix in ("", "_ro")
)
_SHOWN_BY_THE_DEBUG_PAGE = (HTTPStatus.INTERNAL_SERVER_ERROR, HTTPStatus.NOT_FOUND)
_POLICY_HEADERS = (
    (HEADER, "CONTENT_SECURITY_POLICY", "_csp_exempt"),
    (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", "_csp_exempt_ro"),
)
_built: dict[str, tuple[object, str]] = {}
"""Per setting: the setting's value the policy was built from, and the policy."""


def _policy_for(setting: str) -> str:
    """The header django-csp builds from ``setting``, built again only when the setting is
    replaced (as tests do)."""
    configured = getattr(settings, setting, None)
    built = _built.get(setting)
    if built is None or built[0] is not configured:
        report_only = setting.endswith("_REPORT_ONLY")
        built = _built[setting] = (configured, build_policy(report_only=report_only))
    return built[1]
