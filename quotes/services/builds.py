"""The quote documents (PDF and XLSX), built from the frozen snapshot alone: enqueueing, claiming a build (one
worker at a time, with a lease renewed while it builds), storing, failing, rebuilding and requeueing stuck builds.

The Celery tasks that run them are defined here, beside the services they call, under their registered names
``quotes.tasks.*`` (beat's schedule and queued messages use those names); quotes.tasks imports them for the
worker's autodiscovery, so nothing here imports quotes.tasks."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import documents, signals
from ..models import Quote
from .inputs import QuoteError
from .mail import quote_notify_ready
from .storage import store as _store

if TYPE_CHECKING:
    from celery import Task

logger = logging.getLogger("quotes.services")
task_logger = logging.getLogger("quotes.tasks")  # the tasks log as they always did


def enqueue_build(quote_id: int) -> bool:
    """Send the build task. A broker outage is logged, not raised: the request stays recorded (pending, marked as
    never sent) and the periodic requeue (quotes_requeue_stuck, every 15 s) sends it once the broker is back."""
    try:
        quote_build_documents.delay(quote_id)
    except Exception:  # kombu raises several types for an unreachable broker
        logger.warning(
            "Could not enqueue documents of quote %s; the periodic requeue will retry", quote_id, exc_info=True
        )
        try:  # not sent: the next requeue takes it at once instead of after QUOTE_STUCK_AFTER
            Quote.objects.filter(pk=quote_id, doc_status=Quote.DocStatus.PENDING).update(enqueued_at=None)
        except DatabaseError:
            logger.warning("Database unavailable too: quote %s is requeued after QUOTE_STUCK_AFTER", quote_id)
        return False
    Quote.objects.filter(pk=quote_id).update(enqueued_at=timezone.now())
    return True


def quote_documents_claim(*, quote_id: int) -> datetime | None:
    """Claim the build of a quote's documents; None when another worker holds it or it is done.

    One conditional UPDATE decides: a pending quote, or one in building whose lease ran out (its worker died or
    lost the database: a live builder renews it, see ``quote_documents_lease``). The claim time identifies the holder
    afterwards. A claim made before leases existed (no lease_until) runs out after settings.QUOTE_STUCK_AFTER.
    """
    now = timezone.now()
    claimed = (
        Quote.objects.filter(pk=quote_id, issued_at__isnull=False)
        .filter(Q(doc_status=Quote.DocStatus.PENDING) | _lease_over(now, now - settings.QUOTE_STUCK_AFTER))
        .update(
            doc_status=Quote.DocStatus.BUILDING,
            claimed_at=now,
            lease_until=now + settings.QUOTE_BUILD_LEASE,
            progress=5,
            failure_message="",
            build_attempts=F("build_attempts") + 1,
            updated_at=now,
        )
    )
    return now if claimed else None


def _lease_over(now: datetime, legacy_cutoff: datetime) -> Q:
    """Builds whose holder let go: the lease ran out, or (claims without a lease) claimed before the cutoff."""
    return Q(doc_status=Quote.DocStatus.BUILDING, lease_until__lt=now) | Q(
        doc_status=Quote.DocStatus.BUILDING, lease_until__isnull=True, claimed_at__lt=legacy_cutoff
    )


@contextmanager
def quote_documents_lease(*, quote_id: int, claim: datetime) -> Iterator[None]:
    """Keep the claim ``claim`` on a quote's build while the block runs: a thread renews the lease every third of
    settings.QUOTE_BUILD_LEASE. When the worker dies the renewals stop and the lease runs out within one lease;
    a renewal that finds the claim gone (another worker took it) or the database down just tries again later."""
    lease = settings.QUOTE_BUILD_LEASE
    stop = threading.Event()

    def renew() -> None:
        try:
            while not stop.wait(lease.total_seconds() / 3):
                try:
                    Quote.objects.filter(pk=quote_id, doc_status=Quote.DocStatus.BUILDING, claimed_at=claim).update(
                        lease_until=timezone.now() + lease
                    )
                except DatabaseError:
                    logger.warning("Could not renew the build lease of quote %s", quote_id, exc_info=True)
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=renew, name=f"quote-{quote_id}-lease", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(10)


def document_names(quote: Quote) -> dict[str, str]:
    folder = f"quotes/{quote.token}"
    return {"pdf": f"{folder}/{quote.number}.pdf", "xlsx": f"{folder}/{quote.number}-bom.xlsx"}


def quote_documents_build(*, quote_id: int, claim: datetime) -> bool:
    """Render the PDF and the XLSX from the frozen snapshot and store them; mark the quote ready.

    Only the holder of ``claim`` writes progress and the result, so a worker that lost its lease cannot undo
    a newer build. Transient errors (database, storage) propagate for the task to retry. Returns whether this
    call finished the build.
    """
    mine = Quote.objects.filter(pk=quote_id, doc_status=Quote.DocStatus.BUILDING, claimed_at=claim)
    quote = Quote.objects.get(pk=quote_id)
    delay = float(getattr(settings, "QUOTE_BUILD_DELAY_SECONDS", 0) or 0)
    if delay:
        mine.update(progress=10)
        time.sleep(delay)  # test-only: lets the fault tests kill a worker mid-build
    pdf = documents.render_pdf(quote.frozen)
    mine.update(progress=60)
    xlsx = documents.render_xlsx(quote.frozen)
    mine.update(progress=80)
    names = document_names(quote)
    _store(names["pdf"], pdf)
    _store(names["xlsx"], xlsx)
    with transaction.atomic():
        done = mine.update(
            doc_status=Quote.DocStatus.READY,
            progress=100,
            pdf=names["pdf"],
            xlsx=names["xlsx"],
            failure_message="",
            updated_at=timezone.now(),
        )
        if done:
            transaction.on_commit(lambda: _after_ready(quote_id))
    return bool(done)


def quote_internal_pdf(*, quote: Quote) -> bytes:
    """The sales engineer's copy of an issued quote's offer: the customer's PDF with an internal appendix (rule
    codes, design paths, every finding, the reasons warnings were accepted). Built from the frozen snapshot when
    asked; never stored, e-mailed or linked for the customer. QuoteError before the quote is issued."""
    if quote.issued_at is None or not quote.frozen:
        raise QuoteError({"quote": _("Quote %(number)s is not issued yet.") % {"number": quote.number}})
    return documents.render_pdf(quote.frozen, audience="staff")


def _after_ready(quote_id: int) -> None:
    quote = Quote.objects.select_related("created_by", "configuration__assigned_to").get(pk=quote_id)
    signals.send_quote_event(quote, signals.READY)
    try:
        quote_notify_ready(quote=quote)
    except Exception:
        logger.exception("Could not send the ready e-mail of quote %s", quote.number)


def quote_documents_release(*, quote_id: int, claim: datetime, message: str = "") -> None:
    """Give a claim back after a transient error so that the retry can claim it again."""
    Quote.objects.filter(pk=quote_id, doc_status=Quote.DocStatus.BUILDING, claimed_at=claim).update(
        doc_status=Quote.DocStatus.PENDING, progress=0, failure_message=message[:2000], updated_at=timezone.now()
    )


def quote_documents_fail(*, quote_id: int, claim: datetime | None, message: str) -> None:
    """Mark a build failed for good, with a message staff can read, and send ``quote.failed``."""
    rows = Quote.objects.filter(pk=quote_id).exclude(doc_status=Quote.DocStatus.READY)
    if claim is not None:
        rows = rows.filter(claimed_at=claim)
    with transaction.atomic():
        if rows.update(
            doc_status=Quote.DocStatus.FAILED, progress=0, failure_message=message[:2000], updated_at=timezone.now()
        ):
            transaction.on_commit(lambda: signals.send_quote_event(Quote.objects.get(pk=quote_id), signals.FAILED))


def quote_documents_rebuild(*, quote: Quote) -> Quote:
    """Build the documents again from the snapshot (after a failure, or a template change)."""
    if quote.issued_at is None:
        raise QuoteError({"status": _("%(number)s is not issued yet; it has no documents.") % {"number": quote.number}})
    with transaction.atomic():
        Quote.objects.filter(pk=quote.pk).exclude(doc_status=Quote.DocStatus.BUILDING).update(
            doc_status=Quote.DocStatus.PENDING, progress=0, failure_message="", updated_at=timezone.now()
        )
        transaction.on_commit(lambda: enqueue_build(quote.pk))
    quote.refresh_from_db()
    return quote


def quotes_requeue_stuck(*, older_than: timedelta | None = None) -> list[int]:
    """Enqueue again the builds stuck in pending (never delivered: the broker was down) for longer than
    settings.QUOTE_STUCK_AFTER, and those in building whose lease ran out (the worker died mid-build). Safe to run
    any time: the claim is conditional."""
    now = timezone.now()
    cutoff = now - (settings.QUOTE_STUCK_AFTER if older_than is None else older_than)
    ids = list(
        Quote.objects.filter(issued_at__isnull=False)
        .filter(
            Q(doc_status=Quote.DocStatus.PENDING, enqueued_at__lte=cutoff)
            | Q(doc_status=Quote.DocStatus.PENDING, enqueued_at__isnull=True)
            | _lease_over(now, cutoff)
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return [pk for pk in ids if enqueue_build(pk)]


# --- the Celery tasks: thin, they take primary keys and call the services above ----------------------------

# Worth a retry: the database or the file storage (disk, S3) is briefly unavailable.
TRANSIENT = (OperationalError, InterfaceError, OSError)


@shared_task(
    name="quotes.tasks.quote_build_documents", bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None
)
def quote_build_documents(self: Task, quote_id: int) -> str:
    """Build a quote's PDF and XLSX from its frozen snapshot.

    Idempotent: the build is claimed with a conditional update, so a duplicate delivery (acks_late after a
    worker died, or the periodic requeue) finds nothing to do, and a rebuild writes the same file names.
    Transient errors are retried with exponential backoff (5 s, 10 s, … at most 5 min) up to
    settings.QUOTE_BUILD_MAX_RETRIES times; anything else, or running out of retries, marks the quote failed.
    """
    claim = quote_documents_claim(quote_id=quote_id)
    if claim is None:
        return "skipped"
    try:
        with quote_documents_lease(quote_id=quote_id, claim=claim):
            quote_documents_build(quote_id=quote_id, claim=claim)
    except TRANSIENT as exc:
        message = f"{type(exc).__name__}: {exc}"
        try:
            quote_documents_release(quote_id=quote_id, claim=claim, message=message)
            if self.request.retries >= settings.QUOTE_BUILD_MAX_RETRIES:
                quote_documents_fail(quote_id=quote_id, claim=None, message=message)
                return "failed"
        except DatabaseError:
            task_logger.warning(
                "Database unavailable while releasing quote %s; the periodic requeue will retry", quote_id
            )
        raise self.retry(exc=exc, countdown=min(5 * 2**self.request.retries, 300)) from exc
    except Exception as exc:
        task_logger.exception("Building the documents of quote %s failed", quote_id)
        quote_documents_fail(quote_id=quote_id, claim=claim, message=f"{type(exc).__name__}: {exc}")
        return "failed"
    return "ready"


@shared_task(name="quotes.tasks.quotes_requeue_stuck")
def quotes_requeue_stuck_task() -> int:
    """Periodic (celery beat, settings.CELERY_BEAT_SCHEDULE): enqueue again the document builds stuck in pending
    for longer than settings.QUOTE_STUCK_AFTER, or in building after their worker's lease ran out."""
    from .orders import confirmations_requeue_stuck

    requeued = quotes_requeue_stuck() + confirmations_requeue_stuck()
    if requeued:
        task_logger.info("Requeued the documents of %d quote(s): %s", len(requeued), requeued)
    return len(requeued)
