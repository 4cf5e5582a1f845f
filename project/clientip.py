"""The client's address, as the quote rate limit and the login lockout (django-axes) key on it.

Behind reverse proxies REMOTE_ADDR is the nearest proxy's address, the same for every client. Each proxy appends
the address it received the request from to X-Forwarded-For, so with N trusted proxies in front of the app
(settings.TRUSTED_PROXY_COUNT) the client is the Nth address from the right; everything left of it was sent by the
client and may be forged. With TRUSTED_PROXY_COUNT = 0 (the default: the app is reached directly) the header is
ignored, so a client cannot escape a limit by sending one.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str:
    """The client's address: from X-Forwarded-For when TRUSTED_PROXY_COUNT > 0, else REMOTE_ADDR.

    When the header has fewer addresses than there are trusted proxies (a request that bypassed a proxy), the
    leftmost one is used: it is still one a trusted proxy saw, never one further left that the client chose.
    """
    remote = request.META.get("REMOTE_ADDR", "") or ""
    count = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    if count <= 0:
        return remote
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    if not forwarded:
        return remote
    return forwarded[-min(count, len(forwarded))]
