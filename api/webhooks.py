"""Webhooks: URL safety, signing, and turning quote events into deliveries.

Signature (what a receiver checks): ``X-Webhook-Signature: sha256=<hex>`` where ``<hex>`` is
HMAC-SHA256(secret, ``"<X-Webhook-Timestamp>.<raw body>"``). Receivers should compare in constant time and
refuse timestamps older than a few minutes (replays). ``X-Webhook-Id`` is the same on every retry of one event.

URL safety: only http(s); outside DEBUG the host must resolve, and every address it resolves to must be a
public unicast address (no loopback, private, link-local, multicast, reserved or unspecified ranges), checked
when the webhook is saved and again before every attempt (DNS may change). An attempt resolves the name once
and connects only to an address it just checked.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import socket
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Webhook-Signature"
TIMESTAMP_HEADER = "X-Webhook-Timestamp"
EVENT_HEADER = "X-Webhook-Event"
ID_HEADER = "X-Webhook-Id"


def sign(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


def _address_allowed(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (
        ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_reserved or ip.is_unspecified
    )


def check_webhook_url(url: str) -> list[str]:
    """Raise ValidationError when ``url`` is not a URL we may call (see the module docstring).

    Returns the addresses the host resolved to, every one of them checked, in the resolver's order: callers
    connect to one of these and never resolve the name again (a second lookup could answer differently: DNS
    rebinding). In DEBUG nothing is resolved and the list is empty.
    """
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise ValidationError(_("Not a valid URL.")) from exc
    if parts.scheme not in ("http", "https"):
        raise ValidationError(_("Only http and https URLs are allowed."))
    host = parts.hostname
    if not host:
        raise ValidationError(_("The URL has no host."))
    if parts.username or parts.password:
        raise ValidationError(_("Credentials in the URL are not allowed; verify the signature instead."))
    if settings.DEBUG:
        return []
    try:
        infos = socket.getaddrinfo(host, port or (443 if parts.scheme == "https" else 80), proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as exc:
        raise ValidationError(_("The host %(host)s cannot be resolved.") % {"host": host}) from exc
    addresses = list(dict.fromkeys(info[4][0] for info in infos))
    if not addresses:
        raise ValidationError(_("The host %(host)s cannot be resolved.") % {"host": host})
    for address in sorted(addresses):
        if not _address_allowed(address):
            raise ValidationError(
                _("The host %(host)s resolves to %(address)s, which is not a public address.")
                % {"host": host, "address": address}
            )
    return addresses


def _absolute(path: str) -> str:
    return (getattr(settings, "QUOTE_SITE_URL", "") or getattr(settings, "SITE_URL", "")).rstrip("/") + path


def quote_payload(quote) -> dict[str, Any]:
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


def deliveries_enqueue(*, client, event: str, data: dict[str, Any], webhooks=None) -> list[int]:
    """Record one delivery per active webhook of ``client`` subscribed to ``event`` and send them on commit."""
    from .models import WebhookDelivery
    from .tasks import webhook_deliver

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
        transaction.on_commit(lambda pk=delivery.pk: webhook_deliver.delay(pk))
    return ids


def on_quote_event(sender, *, quote, event: str, **kwargs) -> None:
    """quotes.signals.quote_event receiver: the owner of the quote's configuration gets the event."""
    from .models import ClientConfiguration

    owner = (
        ClientConfiguration.objects.select_related("client")
        .filter(configuration_id=quote.configuration_id, client__is_active=True)
        .first()
    )
    if owner is None:
        return
    deliveries_enqueue(client=owner.client, event=event, data={"quote": quote_payload(quote)})


def body_bytes(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
