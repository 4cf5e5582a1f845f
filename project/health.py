"""/healthz: can the database, the broker and the shared cache be reached? A readiness check (compose's and
Kubernetes' probes, load balancers, the benchmarks); liveness is /livez, which touches none of them, so a short
outage of PostgreSQL or Redis takes a process out of rotation without restarting it.

/healthz answers within about two seconds whatever Redis does: each Redis server (the broker's and the cache's,
asked once when they are the same server) gets a PING on a connection kept per process, with connect and read
timeouts (REDIS_TIMEOUT_SECONDS), so a stopped Redis answers at once and a frozen one after the timeout.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

if TYPE_CHECKING:
    from redis import Redis

REDIS_TIMEOUT_SECONDS = 0.8  # two servers frozen at once: 1.6 s, within the 2 s a probe waits
_clients: dict[str, Redis] = {}  # Redis URL -> redis.Redis, one connection pool per process and URL
_clients_lock = threading.Lock()


def _database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True, connection.vendor
    except Exception as exc:  # any driver error means "down"
        return False, type(exc).__name__


def _redis_client(url: str) -> Redis:
    client = _clients.get(url)
    if client is None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        timeout = REDIS_TIMEOUT_SECONDS
        with _clients_lock:
            client = _clients.setdefault(
                url,
                redis.Redis.from_url(
                    url,
                    socket_connect_timeout=timeout,
                    socket_timeout=timeout,
                    retry=Retry(NoBackoff(), 0),  # one try: the probe asks again soon
                    max_connections=4,
                ),
            )
    return client


def _server(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname}:{parts.port or 6379}"


def _ping(url: str) -> tuple[bool, str]:
    try:
        _redis_client(url).ping()
        return True, "connected"
    except Exception as exc:  # any client error means "down"
        return False, type(exc).__name__


def _broker_kombu(url: str) -> tuple[bool, str]:
    """A broker other than Redis: kombu's own connection, with its timeouts."""
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=1) as conn:
            conn.ensure_connection(max_retries=1, timeout=1)
        return True, "connected"
    except Exception as exc:  # any transport error means "down"
        return False, type(exc).__name__


def _redis_checks() -> dict[str, tuple[bool, str]]:
    """The broker's and the cache's state; one PING per Redis server."""
    broker = settings.CELERY_BROKER_URL
    cache = settings.CACHES["default"]
    cache_url = cache.get("LOCATION", "") if "redis" in cache.get("BACKEND", "").lower() else ""
    answers: dict[str, tuple[bool, str]] = {}
    results: dict[str, tuple[bool, str]] = {}
    if not broker:
        results["broker"] = (True, "in-process (no broker configured)")
    elif broker.startswith(("redis://", "rediss://")):
        results["broker"] = answers.setdefault(_server(broker), _ping(broker))
    else:
        results["broker"] = _broker_kombu(broker)
    if cache_url:
        server = _server(cache_url)
        results["cache"] = answers[server] if server in answers else answers.setdefault(server, _ping(cache_url))
    else:
        results["cache"] = (True, "per-process (no shared cache configured)")
    return results


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    db_ok, db_detail = _database()
    checks = _redis_checks()
    ok = db_ok and all(up for up, _detail in checks.values())
    body = {
        "status": "ok" if ok else "unavailable",
        "database": {"ok": db_ok, "detail": db_detail},
        **{name: {"ok": up, "detail": detail} for name, (up, detail) in checks.items()},
    }
    return JsonResponse(body, status=200 if ok else 503)


@never_cache
def livez(request: HttpRequest) -> HttpResponse:
    """Liveness: this process answers HTTP. Touches no database, cache or broker (see the module docstring)."""
    return HttpResponse(b"ok", content_type="text/plain")
