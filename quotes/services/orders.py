"""The order confirmation (orderbevestiging) of an accepted quote: built by the worker from the quote's frozen
snapshot and the recorded acceptance alone (quotes.documents.render_order_confirmation), in the quote's language,
then e-mailed to the customer (attached) and the sales team.

The build is claimed with a conditional update (pending, or building for longer than settings.QUOTE_STUCK_AFTER:
its worker died), so a duplicate delivery finds nothing to do and a rebuild writes the same file name. The Celery
task is defined here beside the service, under ``quotes.tasks.quote_build_order_confirmation``."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone

from .. import documents
from ..documents import AcceptanceRecord
from ..models import Quote, QuoteDecision
from .storage import store

if TYPE_CHECKING:
    from celery import Task

logger = logging.getLogger("quotes.services")


def confirmation_name(quote: Quote) -> str:
    return f"quotes/{quote.token}/{quote.number}-order-confirmation.pdf"


def acceptance_record(decision: QuoteDecision) -> AcceptanceRecord:
    """What the order confirmation prints about the acceptance (no cost, no margin: a customer document)."""
    return {
        "name": decision.name,
        "position": decision.position,
        "email": decision.email,
        "po_number": decision.po_number,
        "note": decision.note,
        "channel": decision.channel,
        "accepted_at": decision.decided_at.isoformat(),
    }


def enqueue_confirmation(quote_id: int) -> bool:
    """Send the build task; a broker outage is logged (the periodic requeue sends it again)."""
    try:
        quote_build_order_confirmation.delay(quote_id)
    except Exception:  # kombu raises several types for an unreachable broker
        logger.warning("Could not enqueue the order confirmation of quote %s", quote_id, exc_info=True)
        return False
    return True


def _claimable(now: datetime) -> Q:
    stale = now - settings.QUOTE_STUCK_AFTER
    return Q(confirmation_status=Quote.DocStatus.PENDING) | Q(
        confirmation_status=Quote.DocStatus.BUILDING, confirmation_claimed_at__lt=stale
    )


def order_confirmation_claim(*, quote_id: int) -> datetime | None:
    """Claim the build of a quote's order confirmation; None when another worker holds it or it is done."""
    now = timezone.now()
    claimed = (
        QuoteDecision.objects.filter(quote_id=quote_id, outcome=QuoteDecision.Outcome.ACCEPTED)
        .filter(_claimable(now))
        .update(
            confirmation_status=Quote.DocStatus.BUILDING,
            confirmation_claimed_at=now,
            confirmation_attempts=F("confirmation_attempts") + 1,
            confirmation_failure="",
        )
    )
    return now if claimed else None


def order_confirmation_build(*, quote_id: int, claim: datetime) -> bool:
    """Render and store the order confirmation; mark it ready and e-mail it after commit. Only the holder of
    ``claim`` writes the result."""
    quote = Quote.objects.select_related("decision").get(pk=quote_id)
    pdf = documents.render_order_confirmation(quote.frozen, acceptance_record(quote.decision))
    name = store(confirmation_name(quote), pdf)
    with transaction.atomic():
        done = QuoteDecision.objects.filter(
            quote_id=quote_id, confirmation_status=Quote.DocStatus.BUILDING, confirmation_claimed_at=claim
        ).update(confirmation_status=Quote.DocStatus.READY, confirmation_pdf=name, confirmation_failure="")
        if done:
            transaction.on_commit(lambda: _after_ready(quote_id))
    return bool(done)


def _after_ready(quote_id: int) -> None:
    from .mail import quote_notify_accepted

    try:
        quote_notify_accepted(quote=Quote.objects.select_related("decision", "created_by").get(pk=quote_id))
    except Exception:
        logger.exception("Could not send the order confirmation of quote %s", quote_id)


def order_confirmation_fail(*, quote_id: int, message: str) -> None:
    QuoteDecision.objects.filter(quote_id=quote_id).exclude(confirmation_status=Quote.DocStatus.READY).update(
        confirmation_status=Quote.DocStatus.FAILED, confirmation_failure=message[:2000]
    )


def order_confirmation_rebuild(*, quote: Quote) -> None:
    """Build the order confirmation again (after a failure, or a template change)."""
    with transaction.atomic():
        QuoteDecision.objects.filter(quote_id=quote.pk, outcome=QuoteDecision.Outcome.ACCEPTED).exclude(
            confirmation_status=Quote.DocStatus.BUILDING
        ).update(confirmation_status=Quote.DocStatus.PENDING, confirmation_failure="")
        transaction.on_commit(lambda: enqueue_confirmation(quote.pk))


def confirmations_requeue_stuck() -> list[int]:
    """Enqueue again the order confirmations still pending (the broker was down) or stuck in building."""
    now = timezone.now()
    stale = now - settings.QUOTE_STUCK_AFTER
    ids = list(
        QuoteDecision.objects.filter(outcome=QuoteDecision.Outcome.ACCEPTED)
        .filter(
            Q(confirmation_status=Quote.DocStatus.PENDING, decided_at__lte=stale)
            | Q(confirmation_status=Quote.DocStatus.BUILDING, confirmation_claimed_at__lt=stale)
        )
        .values_list("quote_id", flat=True)
    )
    return [pk for pk in ids if enqueue_confirmation(pk)]


TRANSIENT = (OperationalError, InterfaceError, OSError)


@shared_task(
    name="quotes.tasks.quote_build_order_confirmation",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,
)
def quote_build_order_confirmation(self: Task, quote_id: int) -> str:
    """Build an accepted quote's order confirmation from its frozen snapshot. Idempotent (a conditional claim);
    transient errors retried with backoff up to settings.QUOTE_BUILD_MAX_RETRIES, anything else marks it failed."""
    claim = order_confirmation_claim(quote_id=quote_id)
    if claim is None:
        return "skipped"
    try:
        order_confirmation_build(quote_id=quote_id, claim=claim)
    except TRANSIENT as exc:
        QuoteDecision.objects.filter(quote_id=quote_id, confirmation_claimed_at=claim).update(
            confirmation_status=Quote.DocStatus.PENDING
        )
        if self.request.retries >= settings.QUOTE_BUILD_MAX_RETRIES:
            order_confirmation_fail(quote_id=quote_id, message=f"{type(exc).__name__}: {exc}")
            return "failed"
        raise self.retry(exc=exc, countdown=min(5 * 2**self.request.retries, 300)) from exc
    except Exception as exc:
        logger.exception("Building the order confirmation of quote %s failed", quote_id)
        order_confirmation_fail(quote_id=quote_id, message=f"{type(exc).__name__}: {exc}")
        return "failed"
    return "ready"
