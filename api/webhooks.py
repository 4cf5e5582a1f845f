"""Webhooks on the wire: URL safety, signing and the body bytes. Turning events into deliveries is api/events.py.

Signature (what a receiver checks): ``X-Webhook-Signature: sha256=<hex>`` where ``<hex>`` is
HMAC-SHA256(secret, ``"<X-Webhook-Timestamp>.<raw body>"``). Receivers should compare in constant time and
refuse timestamps older than a few minutes (replays). ``X-Webhook-Id`` is the same on every retry of one event.

URL safety, in every setting (DEBUG changes nothing): only http(s) on an allowed port (WEBHOOK_ALLOWED_PORTS,
default 80 and 443); the host must resolve, and every address it resolves to must be a public unicast address (no
loopback, private, link-local, multicast, reserved or unspecified ranges, nor an IPv6 form that embeds such an
IPv4 address: mapped, 6to4, Teredo, NAT64, IPv4-compatible, ISATAP), unless an operator listed its network in
WEBHOOK_ALLOWED_NETWORKS. Checked when the webhook is saved and again before every attempt (DNS may change). An
attempt resolves the name once and connects only to an address it just checked.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from design.jsontext import JsonObject

SIGNATURE_HEADER = "X-Webhook-Signature"
TIMESTAMP_HEADER = "X-Webhook-Timestamp"
EVENT_HEADER = "X-Webhook-Event"
ID_HEADER = "X-Webhook-Id"


def sign(secret: str, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "sha256=" + mac.hexdigest()


_NAT64 = (ipaddress.IPv6Network("64:ff9b::/96"), ipaddress.IPv6Network("64:ff9b:1::/48"))  # RFC 6052, RFC 8215
_IPV4_COMPATIBLE = ipaddress.IPv6Network("::/96")  # deprecated ::a.b.c.d (RFC 4291 2.5.5.1)
_ISATAP_MARKERS = (0x00005EFE, 0x02005EFE)  # interface id ...:0:5efe:a.b.c.d / 200:5efe:a.b.c.d (RFC 5214)


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries: mapped, 6to4 (2002::/16), Teredo (2001::/32, server and
    client), NAT64 (64:ff9b::/96, 64:ff9b:1::/48), IPv4-compatible and ISATAP forms."""
    embedded = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
    low32 = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if any(ip in net for net in _NAT64) or (ip in _IPV4_COMPATIBLE and int(ip) > 1):
        embedded.append(low32)
    if (int(ip) >> 32) & 0xFFFFFFFF in _ISATAP_MARKERS:
        embedded.append(low32)
    return [a for a in embedded if a is not None]


def _public(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return ip.is_global and not (
        ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_reserved or ip.is_unspecified
    )


def _explicitly_allowed(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Addresses an operator allowed on purpose (WEBHOOK_ALLOWED_NETWORKS, e.g. a receiver on the same host)."""
    return any(ip in ipaddress.ip_network(net) for net in getattr(settings, "WEBHOOK_ALLOWED_NETWORKS", ()))


def _address_allowed(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if _explicitly_allowed(ip):
        return True
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(ip)
        if embedded:
            # A transition form is as good as the IPv4 address it reaches, and only that (a NAT64 gateway
            # would forward 64:ff9b::a9fe:a9fe to the metadata service).
            return all(_public(a) for a in embedded)
    return _public(ip)


def allowed_ports() -> list[int]:
    return [int(p) for p in getattr(settings, "WEBHOOK_ALLOWED_PORTS", (80, 443))]


def check_webhook_url(url: str) -> list[str]:
    """Raise ValidationError when ``url`` is not a URL we may call (see the module docstring).

    Returns the addresses the host resolved to, every one of them checked, in the resolver's order: callers
    connect to one of these and never resolve the name again (a second lookup could answer differently: DNS
    rebinding). The check runs in every setting (DEBUG or not); messages never repeat what the resolver said.
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
    if port is None:  # no port in the URL; an explicit ":0" is port 0, never the default
        port = 443 if parts.scheme == "https" else 80
    if port not in allowed_ports():
        raise ValidationError(
            _("Port %(port)s is not allowed; use one of %(ports)s.")
            % {"port": port, "ports": ", ".join(str(p) for p in allowed_ports())}
        )
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError) as exc:
        raise ValidationError(_("The host %(host)s cannot be resolved.") % {"host": host}) from exc
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise ValidationError(_("The host %(host)s cannot be resolved.") % {"host": host})
    if not all(_address_allowed(address) for address in addresses):
        raise ValidationError(_("The host %(host)s does not resolve to public addresses only.") % {"host": host})
    return addresses


def body_bytes(payload: JsonObject) -> bytes:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
