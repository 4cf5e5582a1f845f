"""The Django project: settings, URLs, the WSGI, ASGI and Celery applications, and the request and operations
plumbing around the apps (health checks, outage answers, the client's address, rate limits, the cache, session
and broker back ends, the security headers). The Celery app is loaded when Django starts (ProjectConfig.ready) or
when asked for (``project.celery_app``, ``celery -A project``), never on import."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from celery import Celery


def __getattr__(name: str) -> Celery:
    if name == "celery_app":
        from .celery import app

        return app
    raise AttributeError(f"module 'project' has no attribute {name!r}")
