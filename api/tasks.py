"""Celery tasks of the API: webhook delivery with retries, and the idempotency-key sweep.

``webhook_deliver`` is idempotent: a delivery that already succeeded (or failed for good) is left alone, and
every attempt is recorded with its number, status code, error and duration. Non-2xx answers and network errors
are retried with exponential backoff (30 s, 1, 2, 4, 8 … minutes, capped at an hour) up to ``MAX_ATTEMPTS``;
then the delivery is marked failed, visible in the admin. A failed attempt sets the delivery's
``next_attempt_at``; the periodic sweep only picks up deliveries that are overdue and unclaimed, and every
attempt first claims its delivery with a conditional UPDATE, so no delivery is sent twice at once.
"""

from __future__ import annotations

import http.client
import logging
import socket
import ssl
import time
from collections.abc import Iterable
from datetime import timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from celery import shared_task
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import F, Q
from django.utils import timezone

from . import webhooks

if TYPE_CHECKING:
    from celery import Task
from .models import IDEMPOTENCY_TTL, IdempotencyRecord, WebhookAttempt, WebhookDelivery

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
TIMEOUT_SECONDS = 10
USER_AGENT = "gpu-configurator-webhooks/1"
# A claim older than this belongs to a worker that died mid-attempt (an attempt takes at most a few timeouts).
CLAIM_LEASE = timedelta(minutes=5)
# The sweep leaves a due delivery this long to the task already queued for it (fresh events, scheduled retries).
SWEEP_GRACE = timedelta(minutes=1)


def backoff_seconds(attempt: int) -> int:
    """Wait after failed attempt ``attempt`` (1-based): 30 s doubling, at most an hour."""
    return min(30 * 2 ** (attempt - 1), 3600)


def _connect_first(addresses: list[str], port: int, timeout: float | None) -> socket.socket:
    """A socket to the first of ``addresses`` that answers; only addresses that were checked are passed in."""
    last_error: OSError | None = None
    for address in addresses:
        try:
            return socket.create_connection((address, port), timeout)
        except OSError as exc:
            last_error = exc
    raise last_error or OSError("no address to connect to")


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the addresses we checked, not to whatever the name resolves to a moment later.

    ``host`` stays the URL's host name, so the Host header (and for HTTPS the SNI and certificate check) are
    those of the name, while the TCP connection goes to a checked address.
    """

    def __init__(self, host: str, port: int, *, addresses: Iterable[str], **kwargs: Any) -> None:
        super().__init__(host, port, **kwargs)
        self._addresses = list(addresses)

    def connect(self) -> None:
        self.sock = _connect_first(self._addresses, self.port, self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, *, addresses: Iterable[str], **kwargs: Any) -> None:
        self._ssl_context = ssl.create_default_context()
        super().__init__(host, port, context=self._ssl_context, **kwargs)
        self._addresses = list(addresses)

    def connect(self) -> None:
        sock = _connect_first(self._addresses, self.port, self.timeout)
        self.sock = self._ssl_context.wrap_socket(sock, server_hostname=self.host)


def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST ``body`` to ``url`` without following redirects; return the status code. Raises OSError on failure.

    The host is resolved once, by the URL check, and the connection goes to one of the addresses that check
    accepted: a second lookup could answer with a private address (DNS rebinding).
    """
    addresses = webhooks.check_webhook_url(url)
    parts = urlsplit(url)
    https = parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    if not addresses:  # check_webhook_url raises rather than return none; never connect unchecked
        raise OSError(f"{parts.hostname} did not resolve")
    cls = _PinnedHTTPSConnection if https else _PinnedHTTPConnection
    conn = cls(parts.hostname or "", port, addresses=addresses, timeout=TIMEOUT_SECONDS)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        response.read(65536)
        return response.status
    finally:
        conn.close()


def claim_delivery(delivery_id: int, *, after_attempt: int | None = None) -> bool:
    """Take the right to make the next attempt at a delivery; False when someone else has it or it is not due.

    One conditional UPDATE, so of two workers claiming the same delivery exactly one wins: the delivery must be
    pending and not claimed (or its claim older than ``CLAIM_LEASE``, its worker presumably dead). A claim
    without ``after_attempt`` (a fresh event, the sweep, the admin) also needs ``next_attempt_at`` to have
    passed; the retry a failed attempt scheduled for itself passes ``after_attempt`` instead and needs the
    attempt count to be unchanged, so it cannot repeat an attempt someone else made meanwhile. The claim counts
    the attempt.
    """
    now = timezone.now()
    rows = WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING).filter(
        Q(claimed_at__isnull=True) | Q(claimed_at__lt=now - CLAIM_LEASE)
    )
    if after_attempt is None:
        rows = rows.filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
    else:
        rows = rows.filter(attempts=after_attempt)
    return rows.update(claimed_at=now, attempts=F("attempts") + 1) == 1


def _finish(delivery_id: int, status: str) -> None:
    WebhookDelivery.objects.filter(pk=delivery_id).update(
        status=status, finished_at=timezone.now(), claimed_at=None, next_attempt_at=None
    )


@shared_task(bind=True, max_retries=MAX_ATTEMPTS - 1, acks_late=True)
def webhook_deliver(self: Task, delivery_id: int, after_attempt: int | None = None) -> str:
    """Send one webhook event, signed; retry transient failures with backoff; record every attempt.

    Every attempt is made under a claim (``claim_delivery``), so a delivery is never sent by two workers at
    once nor again before its ``next_attempt_at``.
    """
    delivery = WebhookDelivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != WebhookDelivery.Status.PENDING:
        return "skipped"
    webhook = delivery.webhook
    if not webhook.is_active:
        WebhookDelivery.objects.filter(pk=delivery.pk, status=WebhookDelivery.Status.PENDING).update(
            status=WebhookDelivery.Status.FAILED, finished_at=timezone.now(), claimed_at=None, next_attempt_at=None
        )
        return "inactive"
    if not claim_delivery(delivery.pk, after_attempt=after_attempt):
        return "skipped"
    delivery.refresh_from_db(fields=["attempts", "status"])
    number = delivery.attempts
    body = webhooks.body_bytes(delivery.payload)
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        webhooks.SIGNATURE_HEADER: webhooks.sign(webhook.secret, timestamp, body),
        webhooks.TIMESTAMP_HEADER: timestamp,
        webhooks.EVENT_HEADER: delivery.event,
        webhooks.ID_HEADER: str(delivery.event_id),
    }
    started = time.monotonic()
    status_code, error, permanent = None, "", False
    try:
        status_code = post(webhook.url, body, headers)
    except ValidationError as exc:  # the URL is (no longer) allowed: retrying will not help
        error, permanent = "; ".join(exc.messages), True
    except (OSError, http.client.HTTPException, ValueError) as exc:
        error = f"{type(exc).__name__}: {exc}"[:1000]
    duration_ms = int((time.monotonic() - started) * 1000)
    WebhookAttempt.objects.create(
        delivery=delivery, number=number, status_code=status_code, error=error, duration_ms=duration_ms
    )
    if status_code is not None and 200 <= status_code < 300:
        _finish(delivery.pk, WebhookDelivery.Status.SUCCEEDED)
        return "delivered"
    if not error:
        error = f"HTTP {status_code}"
    if permanent or number >= MAX_ATTEMPTS:
        _finish(delivery.pk, WebhookDelivery.Status.FAILED)
        logger.warning("Webhook delivery %s failed for good after %s attempts: %s", delivery.pk, number, error)
        return "failed"
    wait = backoff_seconds(number)
    # Release the claim and say when the next attempt is due: the sweep leaves the delivery alone until then.
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        claimed_at=None, next_attempt_at=timezone.now() + timedelta(seconds=wait)
    )
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        # In-process mode has no worker to wait for a countdown; the sweep makes the next attempt once it is
        # due (or a manual retry from the admin) rather than blocking the request for minutes.
        return "retry-pending"
    raise self.retry(args=[delivery_id], kwargs={"after_attempt": number}, countdown=wait)


@shared_task
def webhook_retry_pending() -> int:
    """Send the pending deliveries whose next attempt is overdue and that nobody holds (e.g. after a worker
    restart, or in-process mode). Deliveries waiting for a scheduled retry are left alone. Safe to run often:
    the task claims each delivery before sending it.
    """
    now = timezone.now()
    ids = list(
        WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING)
        .filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now - SWEEP_GRACE))
        .filter(Q(claimed_at__isnull=True) | Q(claimed_at__lt=now - CLAIM_LEASE))
        .values_list("pk", flat=True)
    )
    for pk in ids:
        webhook_deliver.delay(pk)
    return len(ids)


@shared_task
def idempotency_purge() -> int:
    """Delete idempotency records older than 24 hours."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=timezone.now() - IDEMPOTENCY_TTL).delete()
    return deleted
