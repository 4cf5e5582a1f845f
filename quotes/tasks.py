"""Celery tasks of quotes, for the worker's autodiscovery (configurator.celery). They are defined beside the
services they run (quotes.services.builds), under the names ``quotes.tasks.*`` that beat's schedule and queued
messages use."""

from __future__ import annotations

from .services.builds import quote_build_documents, quotes_requeue_stuck_task

__all__ = ["quote_build_documents", "quotes_requeue_stuck_task"]
