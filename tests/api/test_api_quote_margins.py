"""A quote's margin through the API: only for a client that acts as an active staff user; never in another
client's answers nor in any webhook."""

from __future__ import annotations

from decimal import Decimal as D
from unittest import mock

import pytest
from django.db.models import F

from api.models import Webhook, WebhookDelivery
from catalog.models import Part
from tests.factories import StaffFactory, UserFactory

QUOTES = "/api/v1/quotes/"


@pytest.fixture(autouse=True)
def costs(seeded_catalog, settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    Part.objects.filter(list_price_eur__isnull=False).update(cost_price_eur=F("list_price_eur") * D("0.75"))


def _quote(http, design, customer, capture):
    with capture(execute=True):
        created = http.post(QUOTES, {"design": design, "customer": customer}, format="json").json()
    return http.get(created["url"]).json()


def test_a_client_acting_as_staff_sees_the_margin(make_client, design, customer, django_capture_on_commit_callbacks):
    _client, _token, http = make_client("crm-sales", user=StaffFactory(username="sales-bot"))
    quote = _quote(http, design, customer, django_capture_on_commit_callbacks)
    assert D(quote["margin_percent"]) == D("25.00")
    assert D(quote["margin_eur"]) > 0
    listed = http.get(QUOTES).json()["results"][0]
    assert listed["margin_eur"] == quote["margin_eur"]


@pytest.mark.parametrize("user", [None, "customer", "inactive staff"])
def test_other_clients_never_see_a_cost_or_a_margin(
    make_client, design, customer, django_capture_on_commit_callbacks, user
):
    acting = {
        None: None,
        "customer": lambda: UserFactory(username="portal"),
        "inactive staff": lambda: StaffFactory(username="gone", is_active=False),
    }[user]
    client, _token, http = make_client("crm-plain", user=acting() if acting else None)
    Webhook.objects.create(client=client, url="https://crm.example.com/hook", events=["quote.ready", "quote.accepted"])
    with mock.patch("api.tasks.webhook_deliver.delay"):
        quote = _quote(http, design, customer, django_capture_on_commit_callbacks)
        with django_capture_on_commit_callbacks(execute=True):
            accepted = http.post(
                f"{QUOTES}{quote['id']}/accept/",
                {"name": "G", "email": "g@example.nl", "accept_terms": True},
                format="json",
            ).json()
    for body in (quote, accepted, http.get(QUOTES).json()["results"][0]):
        assert "margin_eur" not in body and "margin_percent" not in body
        assert "cost" not in str(body).lower()
    payloads = [d.payload for d in WebhookDelivery.objects.all()]
    assert {p["event"] for p in payloads} == {"quote.ready", "quote.accepted"}
    assert not any("margin" in str(p) or "cost" in str(p) for p in payloads)


def test_a_staff_clients_webhooks_carry_no_margin_either(
    make_client, design, customer, django_capture_on_commit_callbacks
):
    client, _token, http = make_client("crm-sales", user=StaffFactory(username="sales-bot"))
    Webhook.objects.create(client=client, url="https://crm.example.com/hook", events=["quote.ready"])
    with mock.patch("api.tasks.webhook_deliver.delay"):
        _quote(http, design, customer, django_capture_on_commit_callbacks)
    (delivery,) = WebhookDelivery.objects.all()
    assert "margin" not in str(delivery.payload) and "cost" not in str(delivery.payload)
