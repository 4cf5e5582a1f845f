"""Per-client rate limits, as fixed-window counters in Django's cache.

Every request of a client counts against its ``client`` rate; requests that write also count against
``client_write``. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (read on each request, so tests
can override them) or, for ``client``, from the client's own ``rate`` field.

A fixed window (one counter per client, scope and window, configurator.counters) costs the same whatever the rate,
unlike DRF's sliding log, which stores and re-pickles a timestamp per request. Its price is that a burst of up to
twice the rate can straddle a window boundary; the limit protects capacity, it is not a billing meter.
Counters live in Django's default cache: with the local-memory cache each process counts on its own, so
configure a shared cache (Redis) in production for exact limits.
"""

from __future__ import annotations

import time

from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from configurator.counters import count_hit

from .permissions import client_of

_parse_rate = SimpleRateThrottle.parse_rate


class ClientRateThrottle(BaseThrottle):
    scope = "client"

    def rate_for(self, client) -> str | None:
        return client.rate or api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def applies(self, request, view) -> bool:
        return True

    def allow_request(self, request, view) -> bool:
        self.retry_after = None
        client = client_of(request)
        if client is None or not self.applies(request, view):
            return True
        rate = self.rate_for(client)
        try:
            limit, duration = _parse_rate(None, rate)
        except (ValueError, KeyError, IndexError, TypeError):
            limit, duration = _parse_rate(None, api_settings.DEFAULT_THROTTLE_RATES.get(self.scope))
        if limit is None:
            return True
        now = time.time()
        window = int(now // duration)
        key = f"throttle:{self.scope}:{client.pk}:{duration}:{window}"
        count = count_hit(key, duration + 1)
        if count <= limit:
            return True
        self.retry_after = max(1, int((window + 1) * duration - now) + 1)
        return False

    def wait(self):
        return self.retry_after


class ClientWriteRateThrottle(ClientRateThrottle):
    scope = "client_write"

    def rate_for(self, client) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def applies(self, request, view) -> bool:
        return request.method not in ("GET", "HEAD", "OPTIONS") and not getattr(view, "stateless", False)
