"""Lists and reads of quotes show columns, never the frozen snapshot (the whole validation result, megabytes for a
large design): a page of quotes costs the same queries and columns whatever their designs' size."""

from __future__ import annotations

import copy
import importlib
import re
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from quotes import selectors
from quotes.models import Quote

QUOTES = "/api/v1/quotes/"
CONFIGS = "/api/v1/configurations/"
SNAPSHOT = '"quotes_quote"."frozen"'


def _quotes(api, design, customer, nodes: int, copies: int) -> Quote:
    """One quote of ``nodes`` nodes requested through the API, and ``copies`` more rows of it (other numbers)."""
    design["node_groups"][0]["count"] = nodes
    design.pop("workload", None)  # sized for any count
    if nodes == 1:
        design.pop("fabric", None)
    configuration = api.post(CONFIGS, {"document": design}, format="json").json()["id"]
    body = {"configuration": configuration, "customer": customer, "crm_reference": f"OPP-{nodes}"}
    response = api.post(QUOTES, body, format="json")
    assert response.status_code == 202, response.content
    quote = Quote.objects.get(pk=response.json()["id"])
    copied = []
    for i in range(copies):
        row = Quote.objects.get(pk=quote.pk)
        row.pk, row.id = None, None
        row.number, row.base_number = f"{quote.number}-C{i}", f"{quote.base_number}-C{i}"
        row.token, row.download_id = f"{quote.token[:40]}-{i}", f"{quote.download_id[:20]}-{i}"
        copied.append(row)
    Quote.objects.bulk_create(copied)
    return quote


def _page(api, **params):
    with CaptureQueriesContext(connection) as read:
        response = api.get(QUOTES, {"page_size": 50, **params})
    assert response.status_code == 200, response.content
    return response.json(), [q["sql"] for q in read.captured_queries]


def test_a_page_of_50_quotes_never_loads_a_snapshot_and_costs_the_same_whatever_the_size(
    api, design, customer, django_assert_max_num_queries
):
    small = _quotes(api, copy.deepcopy(design), customer, 1, 49)
    large = _quotes(api, copy.deepcopy(design), customer, 2048, 49)
    assert len(large.frozen["validation"]["rack_plan"]["racks"]) > 1 and small.frozen
    pages = {}
    for quote in (small, large):
        with django_assert_max_num_queries(6):
            pages[quote.crm_reference], queries = _page(api, crm_reference=quote.crm_reference)
        assert not any(SNAPSHOT in sql for sql in queries)
        pages[quote.crm_reference + " queries"] = len(queries)
    assert pages["OPP-1 queries"] == pages["OPP-2048 queries"]
    for quote in (small, large):
        page = pages[quote.crm_reference]
        assert page["count"] == 50 and len(page["results"]) == 50
        # what the snapshot says, the page says from the quote's columns
        assert {q["totals"]["at_least"] for q in page["results"]} == {quote.frozen["totals"]["at_least"]}


def test_a_quote_read_never_loads_its_snapshot(api, design, customer, django_assert_max_num_queries):
    quote = _quotes(api, design, customer, 2048, 0)
    with CaptureQueriesContext(connection) as read, django_assert_max_num_queries(5):
        response = api.get(f"{QUOTES}{quote.pk}/")
    assert response.status_code == 200
    assert response.json()["totals"]["at_least"] is quote.frozen["totals"]["at_least"] is quote.at_least
    assert not any(SNAPSHOT in q["sql"] for q in read.captured_queries)


def test_the_pages_and_selectors_that_show_quotes_defer_the_snapshot(api, design, customer):
    quote = _quotes(api, design, customer, 4, 2)
    configuration = quote.configuration
    shown = [
        selectors.quote_for_token(quote.token),
        *selectors.quote_revisions(quote),
        *selectors.quotes_for(configuration),
        *selectors.quote_requests(),
    ]
    assert len(shown) == 8 and all("frozen" in q.get_deferred_fields() for q in shown)
    # the "changed" banner compares hashes, not the frozen design
    quotes = selectors.quotes_for(configuration)
    assert selectors.quote_outdated(quotes, configuration.document) is None
    changed = {**configuration.document, "name": "changed"}
    assert selectors.quote_outdated(quotes, changed) == quotes[0]
    assert all("frozen" in q.get_deferred_fields() for q in quotes)


def test_existing_quotes_get_their_columns_from_their_snapshot(api, design, customer):
    """The data migration: the columns lists show, copied from each quote's snapshot (three values read, not the
    snapshots), for quotes stored before the columns existed."""
    quote = _quotes(api, design, customer, 4, 1)
    Quote.objects.filter(pk=quote.pk).update(indicative=False)
    Quote.objects.filter(pk=quote.pk).update(frozen={**quote.frozen, "indicative": True})
    Quote.objects.update(at_least=False, design_hash="")
    fill = importlib.import_module("quotes.migrations.0012_fill_quote_columns").fill
    from django.apps import apps

    with CaptureQueriesContext(connection) as read:
        fill(apps, SimpleNamespace(connection=connection))
    select = next(q["sql"] for q in read.captured_queries if q["sql"].startswith("SELECT"))
    assert not re.search(r'"quotes_quote"\."frozen"(, "| FROM)', select)  # only JSON key lookups of it
    for q in Quote.objects.all():
        assert q.at_least is q.frozen["totals"]["at_least"] and q.design_hash == q.frozen["receipt"]["design_hash"]
        assert q.indicative is bool(q.frozen["indicative"])
    assert Quote.objects.get(pk=quote.pk).indicative is True
    assert len(Quote.objects.get(pk=quote.pk).design_hash) == 64


@pytest.mark.parametrize("at_least", [True, False])
def test_the_status_page_says_at_least_from_the_column(client, api, design, customer, at_least):
    quote = _quotes(api, design, customer, 4, 0)
    Quote.objects.filter(pk=quote.pk).update(at_least=at_least)
    with CaptureQueriesContext(connection) as read:
        page = client.get(f"/quotes/{quote.token}/")
    assert page.status_code == 200
    assert ("at least" in page.content.decode()) is at_least
    # the snapshot never leaves the database whole: at most one key of it is read (what the offer leaves out)
    assert not any(re.search(r'"quotes_quote"\."frozen"(, "| FROM)', q["sql"]) for q in read.captured_queries)
