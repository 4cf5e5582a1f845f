"""A database or cache outage is answered 503 with Retry-After, not 500: the request may simply be sent again.

PostgreSQL restarting, a failover or a full connection pool raise django.db's OperationalError or InterfaceError
anywhere a query runs; Redis stopped, unreachable or frozen raises redis-py's ConnectionError or TimeoutError
wherever the cache is read (an API token's client row, the throttles, the rate limits). The cache's sockets time
out (settings.CACHES, ``socket_timeout``), so a frozen Redis costs a request a second, not a worker for good.
The middleware answers those raised in a view; ``server_error`` (the project's handler500)
those raised elsewhere (a session saved after the view, another middleware). Under /api/ the answer is the API's
one JSON error body (code ``service_unavailable``), elsewhere a plain page that touches nothing that could need the
database. /healthz keeps its own answer (503 with what is down). The API's throttles give back what such a request
was charged (api.exceptions): it failed on our side, not the client's.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import format_html
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views import defaults
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

DATABASE_OUTAGE = (OperationalError, InterfaceError)
CACHE_OUTAGE = (RedisConnectionError, RedisTimeoutError)
OUTAGE = DATABASE_OUTAGE + CACHE_OUTAGE


def retry_after() -> int:
    """Seconds a client should wait before sending the request again (settings.DATABASE_RETRY_AFTER_SECONDS)."""
    return max(1, int(getattr(settings, "DATABASE_RETRY_AFTER_SECONDS", 30)))


def outage_message(exception: BaseException | None = None) -> str:
    """What is down, and when to try again: the cache when ``exception`` is the cache's, else the database."""
    seconds = retry_after()
    if isinstance(exception, CACHE_OUTAGE):
        return ngettext(
            "The service is briefly unavailable (its cache cannot be reached); try again in %(seconds)s second.",
            "The service is briefly unavailable (its cache cannot be reached); try again in %(seconds)s seconds.",
            seconds,
        ) % {"seconds": seconds}
    return ngettext(
        "The service is briefly unavailable (its database cannot be reached); try again in %(seconds)s second.",
        "The service is briefly unavailable (its database cannot be reached); try again in %(seconds)s seconds.",
        seconds,
    ) % {"seconds": seconds}


def unavailable_response(request: HttpRequest, exception: BaseException | None = None) -> HttpResponse:
    """503 with Retry-After: the API's JSON error body under /api/, a plain page elsewhere."""
    if request.path.startswith("/api/"):
        body = {"error": {"code": "service_unavailable", "message": outage_message(exception), "fields": []}}
        response: HttpResponse = JsonResponse(body, status=503)
    else:
        page = format_html(
            '<!doctype html><html lang="{}"><head><meta charset="utf-8"><title>{}</title></head>'
            "<body><h1>{}</h1><p>{}</p></body></html>",
            get_language() or settings.LANGUAGE_CODE,
            _("Briefly unavailable"),
            _("Briefly unavailable"),
            outage_message(exception),
        )
        response = HttpResponse(page, status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(retry_after())
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    """Answers a view's database or cache outage with 503 and Retry-After (see the module docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OUTAGE):
            return None
        what = "Cache" if isinstance(exception, CACHE_OUTAGE) else "Database"
        logger.warning("%s unavailable: %s %s answered 503", what, request.method, request.path, exc_info=exception)
        return unavailable_response(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: an outage raised outside a view is a 503 as well; anything else Django's own 500."""
    exception = sys.exc_info()[1]
    if isinstance(exception, OUTAGE):
        return unavailable_response(request, exception)
    return defaults.server_error(request)
