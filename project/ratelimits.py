"""Rate limits of the wizard's anonymous doors, counted by django-ratelimit in Django's default cache.

Each limit is a fixed window per key (the client's address from project.clientip, or the browser session);
production configures a shared cache (CACHE_URL=redis://…) so that every process counts together. Sales engineers
(active staff) are not limited by the wizard's limits and have their own, per user, for quote requests. Rates are
"<count>/<period>" strings from the settings (WIZARD_START_RATE, CABLING_CSV_LARGE_RATE) or (count, seconds) pairs
(the quote-request limits).

``hit`` counts every request (drafts, downloads). Quote requests count only once accepted: ``reserve`` takes a
place before the request is worked on, with one atomic increment of the count, so two requests racing for the last
place cannot both have it; a request that is then refused (a form with errors, the limit already used up) gives
its place back with ``release``, so a customer who corrects a rejected form is not locked out.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from django_ratelimit.core import get_usage, is_ratelimited

from project.clientip import client_ip

Rate = str | tuple[int, int]  # "<count>/<period>", or (count, seconds)
RateKey = Callable[[str, HttpRequest], str]  # (group, request) -> the key counted


def by_address(group: str, request: HttpRequest) -> str:
    return client_ip(request)


def by_session(group: str, request: HttpRequest) -> str:
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key or ""  # saved above: it has one


def by_user(group: str, request: HttpRequest) -> str:
    return str(request.user.pk)


def hit(request: HttpRequest, *, group: str, rate: Rate, key: RateKey = by_address) -> bool:
    """Count this request against ``group``'s limit for its key; True when the limit is now exceeded."""
    return is_ratelimited(request, group=group, key=key, rate=rate, increment=True)


def reserve(request: HttpRequest, *, group: str, rate: Rate, key: RateKey = by_address) -> bool:
    """Count this request against ``group``'s limit for its key now; True when it is within the limit."""
    usage = get_usage(request, group=group, key=key, rate=rate, increment=True)
    return usage is None or usage["count"] <= usage["limit"]


def release(request: HttpRequest, *, group: str, rate: Rate, key: RateKey = by_address) -> None:
    """Give back the place ``reserve`` took for this request (it was not accepted)."""
    from django_ratelimit.core import ALL, _get_window, _make_cache_key, _split_rate

    period = _split_rate(rate)[1]
    value = key(group, request)
    cache_key = _make_cache_key(group, _get_window(value, period), rate, value, ALL)
    with contextlib.suppress(ValueError):  # the window turned meanwhile: the new one never counted this request
        caches[getattr(settings, "RATELIMIT_USE_CACHE", "default")].decr(cache_key)


def retry_after(rate: Rate) -> str:
    """Seconds a refused client is told to wait (the window's length: an upper bound)."""
    from django_ratelimit.core import _split_rate

    return str(_split_rate(rate)[1])
