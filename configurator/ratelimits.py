"""Rate limits of the wizard's anonymous doors, counted by django-ratelimit in Django's default cache.

Each limit is a fixed window per key (the client's address from configurator.clientip, or the browser session);
production configures a shared cache (CACHE_URL=redis://…) so that every process counts together. Sales engineers
(active staff) are not limited by the wizard's limits and have their own, per user, for quote requests. Rates are
"<count>/<period>" strings from the settings (WIZARD_START_RATE, CABLING_CSV_LARGE_RATE) or (count, seconds) pairs
(the quote-request limits).

``hit`` counts every request (drafts, downloads). Quote requests count only once accepted: ``exhausted`` asks
whether a limit is used up without counting, and ``count`` counts the request after it succeeded, so a customer who
corrects a rejected form is not locked out. Two requests racing through the check may both be accepted: the limit
can be overrun by the requests one client sends at the same instant, never more.
"""

from __future__ import annotations

from django.http import HttpRequest
from django_ratelimit.core import get_usage, is_ratelimited

from configurator.clientip import client_ip


def by_address(group: str, request: HttpRequest) -> str:
    return client_ip(request)


def by_session(group: str, request: HttpRequest) -> str:
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key


def by_user(group: str, request: HttpRequest) -> str:
    return str(request.user.pk)


def hit(request: HttpRequest, *, group: str, rate, key=by_address) -> bool:
    """Count this request against ``group``'s limit for its key; True when the limit is now exceeded."""
    return is_ratelimited(request, group=group, key=key, rate=rate, increment=True)


def exhausted(request: HttpRequest, *, group: str, rate, key=by_address) -> bool:
    """Whether ``group``'s limit for this key is used up by the requests counted so far (this one not counted)."""
    usage = get_usage(request, group=group, key=key, rate=rate, increment=False)
    return usage is not None and (usage["should_limit"] or usage["count"] >= usage["limit"])


def count(request: HttpRequest, *, group: str, rate, key=by_address) -> None:
    """Count this request against ``group``'s limit for its key (after it was accepted)."""
    get_usage(request, group=group, key=key, rate=rate, increment=True)


def retry_after(rate) -> str:
    """Seconds a refused client is told to wait (the window's length: an upper bound)."""
    from django_ratelimit.core import _split_rate

    return str(_split_rate(rate)[1])
