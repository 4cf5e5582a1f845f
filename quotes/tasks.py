"""Celery tasks of quotes: thin wrappers around quotes.services (they take primary keys and call a service)."""

from __future__ import annotations

import gc
import logging

from celery import shared_task
from celery.signals import worker_process_init, worker_ready
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError

from . import services

logger = logging.getLogger(__name__)

# Worth a retry: the database or the file storage (disk, S3) is briefly unavailable.
TRANSIENT = (OperationalError, InterfaceError, OSError)


@worker_ready.connect  # solo and thread pools: the tasks run in the worker's own process
@worker_process_init.connect  # prefork: in each child
def warm_worker(**_) -> None:
    """Load WeasyPrint before the first quote and take everything loaded so far (Django, WeasyPrint, fonts, the
    translations) out of the garbage collector's scans: a PDF build allocates hundreds of thousands of objects,
    and each collection would walk the whole start-up heap again."""
    import weasyprint  # noqa: F401

    from . import svgtext

    svgtext.install()
    gc.collect()
    gc.freeze()


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def quote_build_documents(self, quote_id: int) -> str:
    """Build a quote's PDF and XLSX from its frozen snapshot.

    Idempotent: the build is claimed with a conditional update, so a duplicate delivery (acks_late after a
    worker died, or the periodic requeue) finds nothing to do, and a rebuild writes the same file names.
    Transient errors are retried with exponential backoff (5 s, 10 s, … at most 5 min) up to
    settings.QUOTE_BUILD_MAX_RETRIES times; anything else, or running out of retries, marks the quote failed.
    """
    claim = services.quote_documents_claim(quote_id=quote_id)
    if claim is None:
        return "skipped"
    try:
        services.quote_documents_build(quote_id=quote_id, claim=claim)
    except TRANSIENT as exc:
        message = f"{type(exc).__name__}: {exc}"
        try:
            services.quote_documents_release(quote_id=quote_id, claim=claim, message=message)
            if self.request.retries >= settings.QUOTE_BUILD_MAX_RETRIES:
                services.quote_documents_fail(quote_id=quote_id, claim=None, message=message)
                return "failed"
        except DatabaseError:
            logger.warning("Database unavailable while releasing quote %s; the periodic requeue will retry", quote_id)
        raise self.retry(exc=exc, countdown=min(5 * 2**self.request.retries, 300)) from exc
    except Exception as exc:
        logger.exception("Building the documents of quote %s failed", quote_id)
        services.quote_documents_fail(quote_id=quote_id, claim=claim, message=f"{type(exc).__name__}: {exc}")
        return "failed"
    return "ready"


@shared_task
def quotes_requeue_stuck() -> int:
    """Periodic (celery beat, settings.CELERY_BEAT_SCHEDULE): enqueue again the document builds stuck in pending
    or building for longer than settings.QUOTE_STUCK_AFTER."""
    requeued = services.quotes_requeue_stuck()
    if requeued:
        logger.info("Requeued the documents of %d quote(s): %s", len(requeued), requeued)
    return len(requeued)
