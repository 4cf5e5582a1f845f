"""Quote numbers: Q-YYYY-NNNNN, one counter row per year, revisions Q-YYYY-NNNNN-R2, -R3, …

The counter row is locked with SELECT … FOR UPDATE for the rest of the caller's transaction, so concurrent
requests queue on it and never get the same number (PostgreSQL). SQLite has no row locks but serialises all
writers on the database, which gives the same guarantee. The row is created with INSERT … ON CONFLICT DO
NOTHING, so two transactions racing to open a new year do not fail.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from .models import QuoteCounter


def next_base_number(*, year: int | None = None) -> str:
    """Take the next number of the year. Call inside the transaction that creates the quote."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("next_base_number must run inside the quote's transaction")
    year = year or timezone.localdate().year
    QuoteCounter.objects.bulk_create([QuoteCounter(year=year, last=0)], ignore_conflicts=True)
    counter = QuoteCounter.objects.select_for_update().get(year=year)
    counter.last += 1
    counter.save(update_fields=["last"])
    return f"Q-{year}-{counter.last:05d}"


def revision_number(base_number: str, revision: int) -> str:
    return base_number if revision <= 1 else f"{base_number}-R{revision}"
