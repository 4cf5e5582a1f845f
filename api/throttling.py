"""Per-client rate limits, with DRF's throttles (a sliding window per client and scope in Django's cache).

Every request of a client counts against its ``client`` rate; requests that write also count against
``client_write``. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (read on each request, so tests
can override them) or, for ``client``, from the client's own ``rate`` field. Requests with a bad token (unknown,
wrong secret, revoked) count against ``bad_token`` per client address (api.auth), so guessing tokens is slow.
The cache is Django's default: with the local-memory cache each process counts on its own, so configure a shared
cache (CACHE_URL=redis://…) in production for exact limits. A request that fails on our side (5xx, e.g. the
database is down) is not counted: api.exceptions gives its charge back (``refund_throttles``).

Round trips: a request's client throttles read their counts together with the client's row (api.auth reads
``planned_keys`` in the same ``get_many``) and write them together once the last throttle has decided
(``ThrottleCache``, opened and sent by the views' ``check_throttles``): two cache round trips for the client and
every throttle, where each read and each write was one. What is counted, and when a request is refused, is
unchanged: each throttle still reads its count, drops what left its window and writes the count back.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from django.core.cache import cache as default_cache
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from project.clientip import client_ip
from project.outage import CACHE_OUTAGE

from .permissions import client_of

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

    from .models import ApiClient

logger = logging.getLogger(__name__)
_THROTTLE_CACHE = "_throttle_cache"


class ThrottleCache:
    """Django's cache as one request's client throttles see it: the values this request read ahead or wrote are
    answered from memory, and while a batch is open (``begin`` .. ``send``) writes wait to be sent together."""

    def __init__(self) -> None:
        self._known: dict[str, Any] = {}  # key -> value (None: not in the cache)
        self._pending: dict[int | None, dict[str, Any]] | None = None  # timeout -> {key: value}, while batching

    def read_ahead(self, values: dict[str, Any]) -> None:
        self._known.update(values)

    def get(self, key: str, default: Any = None) -> Any:
        if key in self._known:
            value = self._known[key]
        else:
            value = default_cache.get(key)
        return default if value is None else value

    def set(self, key: str, value: Any, timeout: int | None) -> None:
        self._known[key] = value
        if self._pending is None:
            default_cache.set(key, value, timeout)
        else:
            self._pending.setdefault(timeout, {})[key] = value

    def begin(self) -> None:
        if self._pending is None:
            self._pending = {}

    def send(self) -> None:
        """Write what the throttles wrote since ``begin``: one set, or one set_many per timeout."""
        pending, self._pending = self._pending or {}, None
        for timeout, values in pending.items():
            if len(values) == 1:
                default_cache.set(*next(iter(values.items())), timeout)
            else:
                default_cache.set_many(values, timeout)


def throttle_cache(request: Request) -> ThrottleCache:
    """The ThrottleCache of ``request`` (made on first use)."""
    found = getattr(request, _THROTTLE_CACHE, None)
    if found is None:
        found = ThrottleCache()
        setattr(request, _THROTTLE_CACHE, found)
    return found


class _SettingsRateThrottle(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        rate = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope) if self.scope else None
        return None if rate is None else str(rate)


class ClientRateThrottle(_SettingsRateThrottle):
    scope = "client"

    def rate_for(self, client: ApiClient) -> str | None:
        return client.rate or self.get_rate()

    def applies(self, request: Request, view: APIView) -> bool:
        return True

    def allow_request(self, request: Request, view: APIView) -> bool:
        client = client_of(request)
        if client is None or not self.applies(request, view):
            return True
        try:  # the client's own rate; a malformed one (the admin validates it) falls back to the default
            self.num_requests, self.duration = self.parse_rate(self.rate_for(client))
        except (ValueError, KeyError, IndexError, TypeError):
            self.num_requests, self.duration = self.parse_rate(self.get_rate())
        self.rate = f"{self.num_requests}/{self.duration}"
        self.cache = throttle_cache(request)  # type: ignore[assignment]  # a batching cache with the calls a throttle makes
        allowed = super().allow_request(request, view)
        if allowed and getattr(self, "key", None):  # counted: remember it, to give back after a failure of ours
            charges = getattr(request, "throttle_charges", None)
            if charges is None:
                charges = request.throttle_charges = []  # type: ignore[attr-defined]  # the product's own attribute
            charges.append((self.key, self.now, self.duration))
        return allowed

    def get_cache_key(self, request: Request, view: APIView) -> str:
        client = client_of(request)
        assert client is not None  # allow_request asks for a key only for a client
        return self.key_for(client.pk)

    def key_for(self, client_pk: int) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_pk}


class ClientWriteRateThrottle(ClientRateThrottle):
    scope = "client_write"

    def rate_for(self, client: ApiClient) -> str | None:
        return self.get_rate()

    def applies(self, request: Request, view: APIView) -> bool:
        return request.method not in ("GET", "HEAD", "OPTIONS") and not getattr(view, "stateless", False)


def planned_keys(request: Request, view: APIView, client_pk: int) -> list[str]:
    """The cache keys the client throttles of ``view`` will read for the client ``client_pk`` on ``request``."""
    return [
        throttle.key_for(client_pk)
        for throttle in view.get_throttles()
        if isinstance(throttle, ClientRateThrottle) and throttle.applies(request, view)
    ]


def refund_throttles(request: Request) -> None:
    """Give back what ``request`` was counted against its client's rates (``client`` and ``client_write``): it
    failed on our side (a 5xx, a database outage), so the client may send it again without paying twice. With the
    cache itself down nothing can be given back, and nothing was counted either."""
    charges, request.throttle_charges = getattr(request, "throttle_charges", None) or (), []  # type: ignore[attr-defined]
    try:
        for key, stamp, duration in charges:
            history = SimpleRateThrottle.cache.get(key, [])
            if stamp in history:
                history.remove(stamp)
                SimpleRateThrottle.cache.set(key, history, duration)
    except CACHE_OUTAGE:
        logger.warning("Cache unavailable: the throttles' charges of a failed request were not given back")


class BadTokenThrottle(_SettingsRateThrottle):
    """Requests whose token fails, per client address (project.clientip, as the wizard's limits)."""

    scope = "bad_token"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}
