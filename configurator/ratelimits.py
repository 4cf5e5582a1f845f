"""Rate limits of the wizard's anonymous doors, counted by django-ratelimit in Django's default cache.

Each limit is a fixed window per key (the client's address from configurator.clientip, or the browser session);
production configures a shared cache (CACHE_URL=redis://…) so that every process counts together. Sales engineers
(active staff) are not limited. Rates are "<count>/<period>" strings from the settings (WIZARD_START_RATE,
CABLING_CSV_LARGE_RATE) or (count, seconds) pairs (the quote-request limits).
"""

from __future__ import annotations

from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited

from configurator.clientip import client_ip


def by_address(group: str, request: HttpRequest) -> str:
    return client_ip(request)


def by_session(group: str, request: HttpRequest) -> str:
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key


def hit(request: HttpRequest, *, group: str, rate, key=by_address) -> bool:
    """Count this request against ``group``'s limit for its key; True when the limit is now exceeded."""
    return is_ratelimited(request, group=group, key=key, rate=rate, increment=True)


def retry_after(rate) -> str:
    """Seconds a refused client is told to wait (the window's length: an upper bound)."""
    from django_ratelimit.core import _split_rate

    return str(_split_rate(rate)[1])
