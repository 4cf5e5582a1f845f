"""/healthz: can the database and the broker be reached? Used by compose healthchecks and the benchmarks."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def _database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True, connection.vendor
    except Exception as exc:  # any driver error means "down"
        return False, type(exc).__name__


def _broker() -> tuple[bool, str]:
    url = settings.CELERY_BROKER_URL
    if not url:
        return True, "in-process (no broker configured)"
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return True, "connected"
    except Exception as exc:  # any transport error means "down"
        return False, type(exc).__name__


@never_cache
@require_GET
def healthz(request):
    db_ok, db_detail = _database()
    broker_ok, broker_detail = _broker()
    ok = db_ok and broker_ok
    body = {
        "status": "ok" if ok else "unavailable",
        "database": {"ok": db_ok, "detail": db_detail},
        "broker": {"ok": broker_ok, "detail": broker_detail},
    }
    return JsonResponse(body, status=200 if ok else 503)
