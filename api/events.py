"""Webhook events: a quote event or a ping becomes one recorded delivery per subscribed webhook, sent on commit by
the ``webhook_deliver`` task (api/tasks.py), which uses the wire format of api/webhooks.py."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from design.jsontext import JsonObject

from .models import ClientConfiguration, WebhookDelivery
from .tasks import webhook_deliver

if TYPE_CHECKING:
    from celery import Task

    from quotes.models import Quote

    from .models import ApiClient, Webhook

logger = logging.getLogger(__name__)


def _absolute(path: str) -> str:
    return (getattr(settings, "QUOTE_SITE_URL", "") or getattr(settings, "SITE_URL", "")).rstrip("/") + path


def quote_payload(quote: Quote) -> JsonObject:
    """What a receiver needs to act on a quote event without another call (links for the documents)."""
    return {
        "id": quote.pk,
        "number": quote.number,
        "revision": quote.revision,
        "status": quote.status,
        "doc_status": quote.doc_status,
        "crm_reference": quote.crm_reference,
        "configuration": quote.configuration_id,
        "failure_message": quote.failure_message or None,
        "total": str(quote.total),
        "currency": quote.currency,
        "url": _absolute(reverse("api:quote-detail", args=[quote.pk])),
        "document_url": _absolute(reverse("api:quote-document-pdf", args=[quote.pk])),
        "bom_url": _absolute(reverse("api:quote-bom-xlsx", args=[quote.pk])),
    }


def decision_payload(quote: Quote) -> JsonObject | None:
    """The customer's answer (quote.accepted, quote.declined): who, when, the purchase order or the reason, and
    for an acceptance the order confirmation's URL (409 until it is built). Never cost or margin."""
    decision = getattr(quote, "decision", None)
    if decision is None:
        return None
    out: JsonObject = {
        "outcome": decision.outcome,
        "channel": decision.channel,
        "name": decision.name,
        "position": decision.position,
        "email": decision.email,
        "po_number": decision.po_number,
        "reason": decision.reason,
        "decided_at": decision.decided_at.isoformat(),
    }
    if decision.outcome == "accepted":
        out["order_confirmation_url"] = _absolute(reverse("api:quote-order-confirmation-pdf", args=[quote.pk]))
    return out


def deliveries_enqueue(
    *, client: ApiClient, event: str, data: JsonObject, webhooks: Iterable[Webhook] | None = None
) -> list[int]:
    """Record one delivery per active webhook of ``client`` subscribed to ``event`` and send them on commit."""
    ids = []
    for webhook in webhooks if webhooks is not None else client.webhooks.filter(is_active=True):
        if event != "ping" and event not in (webhook.events or []):
            continue
        delivery = WebhookDelivery.objects.create(webhook=webhook, event=event, payload={})
        delivery.payload = {
            "id": str(delivery.event_id),
            "event": event,
            "created_at": timezone.now().isoformat(),
            "data": data,
        }
        delivery.save(update_fields=["payload"])
        ids.append(delivery.pk)
        transaction.on_commit(partial(_send, webhook_deliver, delivery.pk))
    return ids


def _send(task: Task, delivery_id: int) -> None:
    """Enqueue one delivery. A broker outage is logged, not raised: the delivery is recorded (pending, due now),
    so the ``webhook_retry_pending`` sweep sends it once the broker is back, and the caller still gets its 202."""
    try:
        task.delay(delivery_id)
    except Exception:  # kombu raises several types for an unreachable broker
        logger.warning(
            "Could not enqueue webhook delivery %s; the retry sweep will send it", delivery_id, exc_info=True
        )


def on_quote_event(sender: object, *, quote: Quote, event: str, **kwargs: object) -> None:
    """quotes.signals.quote_event receiver: the owner of the quote's configuration gets the event."""
    owner = (
        ClientConfiguration.objects.select_related("client")
        .filter(configuration_id=quote.configuration_id, client__is_active=True)
        .first()
    )
    if owner is None:
        return
    data: JsonObject = {"quote": quote_payload(quote)}
    if event in ("quote.accepted", "quote.declined"):
        data["decision"] = decision_payload(quote)
    deliveries_enqueue(client=owner.client, event=event, data=data)
