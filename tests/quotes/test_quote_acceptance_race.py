"""Two acceptances of one quote at the same moment (a double click, a CRM's retry without its key): the quote row's
lock lets one through; the other is refused as already accepted. PostgreSQL only (SQLite has no row locks)."""

from __future__ import annotations

import os
import threading

import pytest
from django.db import connection

from quotes.models import QuoteDecision
from quotes.services import QuoteStateError, quote_accept, quote_request

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql")),
        reason="needs DATABASE_URL to point at PostgreSQL (row locks)",
    ),
]


def test_two_simultaneous_acceptances_make_one_order(configuration, customer, media):
    quote = quote_request(configuration=configuration, customer=customer, channel="staff")
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def accept(name: str) -> None:
        try:
            start.wait()
            quote_accept(quote=quote, channel="api", name=name, email=f"{name}@example.nl", accept_terms=True)
            outcomes.append("accepted")
        except QuoteStateError as exc:
            outcomes.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(name,)) for name in ("ada", "grace")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["accepted", "quote_already_accepted"]
    assert QuoteDecision.objects.filter(quote=quote).count() == 1
