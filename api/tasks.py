"""Celery tasks of the API: webhook delivery with retries, and the idempotency-key sweep.

``webhook_deliver`` is idempotent: a delivery that already succeeded (or failed for good) is left alone, and
every attempt is recorded with its number, status code, error and duration. Non-2xx answers and network errors
are retried with exponential backoff (30 s, 1, 2, 4, 8 … minutes, capped at an hour) up to ``MAX_ATTEMPTS``;
then the delivery is marked failed, visible in the admin.
"""

from __future__ import annotations

import http.client
import logging
import socket
import ssl
import time
from urllib.parse import urlsplit

from celery import shared_task
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import F
from django.utils import timezone

from . import webhooks
from .models import IDEMPOTENCY_TTL, IdempotencyRecord, WebhookAttempt, WebhookDelivery

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
TIMEOUT_SECONDS = 10
USER_AGENT = "gpu-configurator-webhooks/1"


def backoff_seconds(attempt: int) -> int:
    """Wait after failed attempt ``attempt`` (1-based): 30 s doubling, at most an hour."""
    return min(30 * 2 ** (attempt - 1), 3600)


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the address we checked, not to whatever the name resolves to a moment later."""

    def __init__(self, host, port, *, address, **kwargs):
        super().__init__(host, port, **kwargs)
        self._address = address

    def connect(self):
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host, port, *, address, **kwargs):
        super().__init__(host, port, context=ssl.create_default_context(), **kwargs)
        self._address = address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def _resolve(host: str, port: int) -> str:
    infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    return infos[0][4][0]


def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST ``body`` to ``url`` without following redirects; return the status code. Raises OSError on failure."""
    webhooks.check_webhook_url(url)
    parts = urlsplit(url)
    https = parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    address = _resolve(parts.hostname, port)
    cls = _PinnedHTTPSConnection if https else _PinnedHTTPConnection
    conn = cls(parts.hostname, port, address=address, timeout=TIMEOUT_SECONDS)
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


@shared_task(bind=True, max_retries=MAX_ATTEMPTS - 1, acks_late=True)
def webhook_deliver(self, delivery_id: int) -> str:
    """Send one webhook event, signed; retry transient failures with backoff; record every attempt."""
    delivery = WebhookDelivery.objects.select_related("webhook").filter(pk=delivery_id).first()
    if delivery is None or delivery.status != WebhookDelivery.Status.PENDING:
        return "skipped"
    webhook = delivery.webhook
    if not webhook.is_active:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.FAILED, finished_at=timezone.now()
        )
        return "inactive"
    WebhookDelivery.objects.filter(pk=delivery.pk).update(attempts=F("attempts") + 1)
    delivery.refresh_from_db(fields=["attempts"])
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
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.SUCCEEDED, finished_at=timezone.now()
        )
        return "delivered"
    if not error:
        error = f"HTTP {status_code}"
    if permanent or number >= MAX_ATTEMPTS:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.FAILED, finished_at=timezone.now()
        )
        logger.warning("Webhook delivery %s failed for good after %s attempts: %s", delivery.pk, number, error)
        return "failed"
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        # In-process mode has no worker to wait for a countdown; the next attempt comes with the next event's
        # sweep or a manual retry from the admin rather than blocking the request for minutes.
        return "retry-pending"
    raise self.retry(countdown=backoff_seconds(number))


@shared_task
def webhook_retry_pending() -> int:
    """Re-send deliveries still pending (e.g. after a worker restart or in-process mode). Safe to run often."""
    ids = list(WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING).values_list("pk", flat=True))
    for pk in ids:
        webhook_deliver.delay(pk)
    return len(ids)


@shared_task
def idempotency_purge() -> int:
    """Delete idempotency records older than 24 hours."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=timezone.now() - IDEMPOTENCY_TTL).delete()
    return deleted
