"""Selectors of quotes (read side)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import date

from django.db.models import Q, QuerySet

from .models import Quote


def quote_for_token(token: str) -> Quote | None:
    """The quote a customer link points at (any revision; superseded ones stay readable)."""
    if not token or len(token) > 64:
        return None
    return Quote.objects.select_related("configuration").filter(token=token).first()


def quotes_for_configuration(configuration) -> QuerySet[Quote]:
    """Every quote of a configuration, newest first (revisions included)."""
    return Quote.objects.filter(configuration=configuration).order_by("-created_at", "-id")


def quote_revisions(quote: Quote) -> QuerySet[Quote]:
    """All revisions of a quote's number, oldest first."""
    return Quote.objects.filter(base_number=quote.base_number).order_by("revision")


def quote_list(
    *,
    status: str | None = None,
    customer: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
) -> QuerySet[Quote]:
    """Quotes for staff lists. ``customer`` matches name, company or e-mail (contains, any case); the dates
    bound the creation day (inclusive, local time)."""
    qs = Quote.objects.select_related("configuration", "created_by").order_by("-created_at", "-id")
    if status:
        qs = qs.filter(status=status)
    if customer:
        qs = qs.filter(
            Q(customer_name__icontains=customer)
            | Q(customer_company__icontains=customer)
            | Q(customer_email__icontains=customer)
        )
    if date_from:
        qs = qs.filter(created_at__date__gte=date_from)
    if date_to:
        qs = qs.filter(created_at__date__lte=date_to)
    return qs


def quotes_for(configuration, *, tokens: Collection[str] | None = None) -> list[Quote]:
    """The configuration's quotes, newest first, for its quote page. With ``tokens`` (a customer's browser): only
    the quotes with those tokens and the other revisions of their numbers (a sales engineer's revision of the
    customer's quote)."""
    # The frozen snapshot is large and only the newest issued quote's design is ever read (the "changed" banner).
    quotes = list(quotes_for_configuration(configuration).defer("frozen"))
    if tokens is None:
        return quotes
    wanted = set(tokens)
    numbers = {q.base_number for q in quotes if q.token in wanted}
    return [q for q in quotes if q.base_number in numbers]


def quote_requests(
    *,
    status: str | None = None,
    customer: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    limit: int = 100,
) -> list[Quote]:
    """The newest quote requests for the sales dashboard, filtered like quote_list."""
    qs = quote_list(status=status or None, customer=customer or None, date_from=date_from, date_to=date_to)
    return list(qs.select_related("configuration")[:limit])
