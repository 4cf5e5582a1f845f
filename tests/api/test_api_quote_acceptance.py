"""A CRM records the customer's answer: accept (idempotent, the order confirmation, quote.accepted) and decline
(quote.declined); every refusal (expired, superseded, accepted, not issued) is a 409 naming why."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.core import mail
from django.utils import timezone

from api.models import Webhook, WebhookDelivery
from quotes.models import Quote

QUOTES = "/api/v1/quotes/"
ACCEPTANCE = {
    "name": "Grace Hopper",
    "email": "grace@example.nl",
    "position": "Head of procurement",
    "po_number": "PO-2026-0042",
    "accept_terms": True,
}


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


@pytest.fixture
def crm(make_client):
    client, _token, http = make_client("crm-orders")
    return client, http


@pytest.fixture
def issued(crm, design, customer, media, django_capture_on_commit_callbacks):
    _client, http = crm
    with django_capture_on_commit_callbacks(execute=True):
        body = http.post(
            QUOTES, {"design": design, "customer": customer, "crm_reference": "OPP-9"}, format="json"
        ).json()
    assert body["status"] == "issued"
    return body


def _accept(http, quote_id, body=None, **headers):
    return http.post(f"{QUOTES}{quote_id}/accept/", body or ACCEPTANCE, format="json", **headers)


def test_accepting_makes_the_quote_accepted_builds_the_confirmation_and_mails_it(
    crm, issued, django_capture_on_commit_callbacks
):
    _client, http = crm
    with django_capture_on_commit_callbacks(execute=True):
        response = _accept(http, issued["id"])
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "accepted"
    decision = body["decision"]
    assert (decision["outcome"], decision["channel"], decision["po_number"]) == ("accepted", "api", "PO-2026-0042")
    assert decision["order_confirmation_url"].endswith(f"/api/v1/quotes/{issued['id']}/order-confirmation.pdf")

    pdf = http.get(decision["order_confirmation_url"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF")
    assert http.get(body["url"]).json()["decision"]["order_confirmation_status"] == "ready"

    (message,) = [m for m in mail.outbox if "order" in m.subject.lower()]
    assert "grace@example.nl" in message.to and "ada@example.nl" in message.to
    assert message.attachments[0][0].endswith("-order-confirmation.pdf")


def test_accept_is_idempotent_with_the_same_key(crm, issued, django_capture_on_commit_callbacks):
    _client, http = crm
    with django_capture_on_commit_callbacks(execute=True):
        first = _accept(http, issued["id"], HTTP_IDEMPOTENCY_KEY="accept-1")
        again = _accept(http, issued["id"], HTTP_IDEMPOTENCY_KEY="accept-1")
    assert first.status_code == again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["decision"]["decided_at"] == first.json()["decision"]["decided_at"]
    # without the key, a second acceptance is refused: the quote is already accepted
    refused = _accept(http, issued["id"])
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "quote_already_accepted"


def test_accept_without_the_terms_or_a_name_names_the_fields(crm, issued):
    _client, http = crm
    response = _accept(http, issued["id"], {**ACCEPTANCE, "accept_terms": False, "name": ""})
    assert response.status_code == 400
    paths = {f["path"] for f in response.json()["error"]["fields"]}
    assert {"accept_terms", "name"} <= paths
    assert Quote.objects.get(pk=issued["id"]).status == "issued"


def test_an_expired_quote_cannot_be_accepted(crm, issued):
    _client, http = crm
    Quote.objects.filter(pk=issued["id"]).update(valid_until=timezone.localdate() - timedelta(days=1))
    response = _accept(http, issued["id"])
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "quote_expired"
    assert Quote.objects.get(pk=issued["id"]).status == "issued"


def test_a_superseded_quote_cannot_be_accepted_and_an_accepted_one_is_never_revised(
    crm, issued, django_capture_on_commit_callbacks
):
    _client, http = crm
    with django_capture_on_commit_callbacks(execute=True):
        revised = http.post(f"{QUOTES}{issued['id']}/revise/", {"discount_percent": "5"}, format="json").json()
    old = _accept(http, issued["id"])
    assert (old.status_code, old.json()["error"]["code"]) == (409, "quote_superseded")

    with django_capture_on_commit_callbacks(execute=True):
        assert _accept(http, revised["id"]).status_code == 200
    again = http.post(f"{QUOTES}{revised['id']}/revise/", {"discount_percent": "6"}, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "quote_already_accepted"
    assert Quote.objects.filter(base_number=Quote.objects.get(pk=revised["id"]).base_number).count() == 2


def test_a_quote_awaiting_approval_cannot_be_accepted(crm, design, customer, media):
    _client, http = crm
    body = http.post(QUOTES, {"design": design, "customer": customer, "discount_percent": "40"}, format="json").json()
    assert body["status"] == "awaiting_approval"
    response = _accept(http, body["id"])
    assert (response.status_code, response.json()["error"]["code"]) == (409, "quote_not_issued")


def test_order_confirmation_of_an_unaccepted_quote_is_a_409(crm, issued):
    _client, http = crm
    response = http.get(f"{QUOTES}{issued['id']}/order-confirmation.pdf")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "quote_not_accepted"


def test_other_clients_cannot_accept_my_quote(issued, other_api):
    assert _accept(other_api, issued["id"]).status_code == 404


def test_read_scope_cannot_accept(issued, make_client):
    _client, _token, http = make_client("crm-read-only", scope="read")
    assert _accept(http, issued["id"]).status_code in (403, 404)


def test_decline_with_a_reason_fires_quote_declined_and_tells_sales(crm, issued, django_capture_on_commit_callbacks):
    client, http = crm
    Webhook.objects.create(client=client, url="https://crm.example.com/hook", events=["quote.declined"])
    with mock.patch("api.tasks.webhook_deliver.delay"), django_capture_on_commit_callbacks(execute=True):
        missing = http.post(f"{QUOTES}{issued['id']}/decline/", {}, format="json")
        response = http.post(f"{QUOTES}{issued['id']}/decline/", {"reason": "Budget moved to 2027"}, format="json")
    assert missing.status_code == 400 and missing.json()["error"]["fields"][0]["path"] == "reason"
    assert response.status_code == 200
    assert response.json()["status"] == "declined"
    assert response.json()["decision"]["reason"] == "Budget moved to 2027"
    delivery = WebhookDelivery.objects.get(event="quote.declined")
    assert delivery.payload["data"]["decision"]["reason"] == "Budget moved to 2027"
    assert any("Budget moved to 2027" in m.body for m in mail.outbox)
    assert _accept(http, issued["id"]).json()["error"]["code"] == "quote_declined"


def test_accept_fires_quote_accepted_with_the_purchase_order(crm, issued, django_capture_on_commit_callbacks):
    client, http = crm
    Webhook.objects.create(client=client, url="https://crm.example.com/hook", events=["quote.accepted"])
    with mock.patch("api.tasks.webhook_deliver.delay") as send, django_capture_on_commit_callbacks(execute=True):
        _accept(http, issued["id"])
    delivery = WebhookDelivery.objects.get(event="quote.accepted")
    send.assert_called_with(delivery.pk)
    data = delivery.payload["data"]
    assert data["quote"]["status"] == "accepted"
    assert data["decision"]["po_number"] == "PO-2026-0042"
    assert data["decision"]["order_confirmation_url"].endswith("/order-confirmation.pdf")
