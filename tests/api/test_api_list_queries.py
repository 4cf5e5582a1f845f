"""Every list of the API costs the same queries for N rows as for 2N: no query per listed row (an N+1). The
configurations' list has its own test (test_api_configuration_list.py), the web dashboard its own
(tests/web/test_dashboard.py)."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from api.models import Webhook, WebhookAttempt, WebhookDelivery
from quotes.models import Quote

CONFIGS = "/api/v1/configurations/"
QUOTES = "/api/v1/quotes/"
PARTS = "/api/v1/catalog/parts/"
HOOKS = "/api/v1/webhooks/"


def _count(http, path: str, rows: int, **params) -> int:
    """The queries of a GET of ``path``, which must list ``rows`` rows; after one GET that warms the caches (the
    client's token, the catalogue's version), as the second request of a client finds them."""
    http.get(path, params)
    with CaptureQueriesContext(connection) as captured:
        response = http.get(path, params)
    assert response.status_code == 200, response.content
    assert len(response.json()["results"]) == rows
    return len(captured.captured_queries)


def _copies(quote: Quote, count: int, tag: str) -> None:
    """``count`` more rows of ``quote`` under other numbers (the same design, customer and configuration)."""
    rows = []
    for i in range(count):
        row = Quote.objects.get(pk=quote.pk)
        row.pk, row.id = None, None
        row.number, row.base_number = f"{quote.number}-{tag}{i}", f"{quote.base_number}-{tag}{i}"
        row.token, row.download_id = f"{quote.token[:40]}-{tag}{i}", f"{quote.download_id[:20]}-{tag}{i}"
        rows.append(row)
    Quote.objects.bulk_create(rows)


def test_the_quotes_list_costs_the_same_queries_for_twice_the_quotes(api, design, customer):
    design.pop("workload", None)
    quotes = []
    for reference in ("OPP-1", "OPP-2"):  # two configurations, each with a requested quote
        configuration = api.post(CONFIGS, {"document": design}, format="json").json()["id"]
        body = {"configuration": configuration, "customer": customer, "crm_reference": reference}
        response = api.post(QUOTES, body, format="json")
        assert response.status_code == 202, response.content
        quotes.append(Quote.objects.get(pk=response.json()["id"]))
    n = 8
    for quote in quotes:
        _copies(quote, n // 2 - 1, "A")
    few = _count(api, QUOTES, n, page_size=50)
    for quote in quotes:
        _copies(quote, n // 2, "B")
    assert _count(api, QUOTES, 2 * n, page_size=50) == few


def test_the_parts_list_costs_the_same_queries_for_twice_the_parts(api):
    from catalog.models import Part

    n = 20
    assert Part.objects.count() >= 2 * n, "the seeded catalogue lists enough parts"
    few = _count(api, PARTS, n, page_size=n)
    assert _count(api, PARTS, 2 * n, page_size=2 * n) == few
    # and of one category, whose rows each have a spec row
    gpus = Part.objects.filter(category="gpu").count()
    assert gpus >= 2
    half = gpus // 2
    assert _count(api, PARTS, half, category="gpu", page_size=half) == _count(
        api, PARTS, 2 * half, category="gpu", page_size=2 * half
    )


def _webhooks(client, count: int, deliveries: int = 0) -> list[Webhook]:
    hooks = Webhook.objects.bulk_create(
        Webhook(client=client, url=f"https://crm.example.com/hooks/{i}") for i in range(count)
    )
    for hook in hooks:
        made = WebhookDelivery.objects.bulk_create(
            WebhookDelivery(webhook=hook, event="quote.ready", payload={"n": i}) for i in range(deliveries)
        )
        WebhookAttempt.objects.bulk_create(WebhookAttempt(delivery=d, number=1, status_code=500) for d in made)
    return hooks


def test_the_webhooks_list_costs_the_same_queries_for_twice_the_webhooks(make_client):
    client, _token, http = make_client("crm-hooks")
    n = 5
    _webhooks(client, n)
    few = _count(http, HOOKS, n)
    _webhooks(client, n)
    assert _count(http, HOOKS, 2 * n) == few


def test_a_webhooks_deliveries_cost_the_same_queries_for_twice_the_deliveries(make_client):
    client, _token, http = make_client("crm-deliveries")
    (hook,) = _webhooks(client, 1, deliveries=6)
    path = f"{HOOKS}{hook.pk}/deliveries/"
    few = _count(http, path, 6)
    made = WebhookDelivery.objects.bulk_create(
        WebhookDelivery(webhook=hook, event="quote.failed", payload={"n": i}) for i in range(6)
    )
    WebhookAttempt.objects.bulk_create(WebhookAttempt(delivery=d, number=1, status_code=502) for d in made)
    assert _count(http, path, 12) == few
