"""Selectors of quotes (read side)."""

from __future__ import annotations

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
