"""Per-client rate limits, with DRF's throttles (a sliding window per client and scope in Django's cache).

Every request of a client counts against its ``client`` rate; requests that write also count against
``client_write``. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (read on each request, so tests
can override them) or, for ``client``, from the client's own ``rate`` field. Requests with a bad token (unknown,
wrong secret, revoked) count against ``bad_token`` per client address (api.auth), so guessing tokens is slow.
The cache is Django's default: with the local-memory cache each process counts on its own, so configure a shared
cache (CACHE_URL=redis://…) in production for exact limits. A request that fails on our side (5xx, e.g. the
database is down) is not counted: api.exceptions gives its charge back (``refund_throttles``).
"""

from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from configurator.clientip import client_ip

from .permissions import client_of


class _SettingsRateThrottle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)


class ClientRateThrottle(_SettingsRateThrottle):
    scope = "client"

    def rate_for(self, client) -> str | None:
        return client.rate or self.get_rate()

    def applies(self, request, view) -> bool:
        return True

    def allow_request(self, request, view) -> bool:
        client = client_of(request)
        if client is None or not self.applies(request, view):
            return True
        try:  # the client's own rate; a malformed one (the admin validates it) falls back to the default
            self.num_requests, self.duration = self.parse_rate(self.rate_for(client))
        except (ValueError, KeyError, IndexError, TypeError):
            self.num_requests, self.duration = self.parse_rate(self.get_rate())
        self.rate = f"{self.num_requests}/{self.duration}"
        allowed = super().allow_request(request, view)
        if allowed and getattr(self, "key", None):  # counted: remember it, to give back after a failure of ours
            charges = getattr(request, "throttle_charges", None)
            if charges is None:
                charges = request.throttle_charges = []
            charges.append((self.key, self.now, self.duration))
        return allowed

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_of(request).pk}


class ClientWriteRateThrottle(ClientRateThrottle):
    scope = "client_write"

    def rate_for(self, client) -> str | None:
        return self.get_rate()

    def applies(self, request, view) -> bool:
        return request.method not in ("GET", "HEAD", "OPTIONS") and not getattr(view, "stateless", False)


def refund_throttles(request) -> None:
    """Give back what ``request`` was counted against its client's rates (``client`` and ``client_write``): it
    failed on our side (a 5xx, a database outage), so the client may send it again without paying twice."""
    for key, stamp, duration in getattr(request, "throttle_charges", None) or ():
        history = SimpleRateThrottle.cache.get(key, [])
        if stamp in history:
            history.remove(stamp)
            SimpleRateThrottle.cache.set(key, history, duration)
    request.throttle_charges = []


class BadTokenThrottle(_SettingsRateThrottle):
    """Requests whose token fails, per client address (configurator.clientip, as the wizard's limits)."""

    scope = "bad_token"

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}
