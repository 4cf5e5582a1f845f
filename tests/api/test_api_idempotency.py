"""Idempotency-Key: a retried create returns the original response and creates nothing new."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from api.models import IdempotencyRecord
from configurator.models import Configuration

CONFIGS = "/api/v1/configurations/"


def test_same_key_same_body_replays_the_original_response(api, design):
    first = api.post(CONFIGS, {"document": design}, format="json", HTTP_IDEMPOTENCY_KEY="key-1")
    again = api.post(CONFIGS, {"document": design}, format="json", HTTP_IDEMPOTENCY_KEY="key-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert again["Location"] == first["Location"]
    assert Configuration.objects.count() == 1


def test_same_key_different_body_is_422(api, design):
    api.post(CONFIGS, {"document": design}, format="json", HTTP_IDEMPOTENCY_KEY="key-2")
    response = api.post(CONFIGS, {"document": design, "name": "other"}, format="json", HTTP_IDEMPOTENCY_KEY="key-2")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "idempotency_key_reused"
    assert Configuration.objects.count() == 1


def test_key_order_and_whitespace_of_the_body_do_not_matter(api, design):
    import json

    api.post(CONFIGS, {"name": "x", "document": design}, format="json", HTTP_IDEMPOTENCY_KEY="key-3")
    body = json.dumps({"document": design, "name": "x"}, indent=4)
    again = api.generic("POST", CONFIGS, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="key-3")
    assert again.status_code == 201
    assert Configuration.objects.count() == 1


def test_keys_are_per_client(api, other_api, design):
    mine = api.post(CONFIGS, {"document": design}, format="json", HTTP_IDEMPOTENCY_KEY="shared")
    theirs = other_api.post(CONFIGS, {"document": design}, format="json", HTTP_IDEMPOTENCY_KEY="shared")
    assert mine.status_code == theirs.status_code == 201
    assert mine.json()["id"] != theirs.json()["id"]


def test_keys_expire_after_24_hours(api, design):
    first = api.post(CONFIGS, {"document": design}, format="json", HTTP_IDEMPOTENCY_KEY="old")
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(hours=24, minutes=1))
    again = api.post(CONFIGS, {"document": design}, format="json", HTTP_IDEMPOTENCY_KEY="old")
    assert again.status_code == 201
    assert again.json()["id"] != first.json()["id"]
    assert "Idempotent-Replayed" not in again


def test_rejected_requests_are_not_remembered(api, design):
    bad = dict(design, node_groups=[])
    assert api.post(CONFIGS, {"document": bad}, format="json", HTTP_IDEMPOTENCY_KEY="k").status_code == 400
    good = api.post(CONFIGS, {"document": design}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert good.status_code == 201


def test_invalid_key_is_400(api, design):
    response = api.post(CONFIGS, {"document": design}, format="json", HTTP_IDEMPOTENCY_KEY="x" * 300)
    assert response.status_code == 400
    assert response.json()["error"]["fields"][0]["path"] == "Idempotency-Key"


def test_without_a_key_every_post_creates(api, design):
    api.post(CONFIGS, {"document": design}, format="json")
    api.post(CONFIGS, {"document": design}, format="json")
    assert Configuration.objects.count() == 2


def test_concurrent_retries_of_a_quote_request_all_get_the_replay(api, design, customer):
    """Two retries with one key race: both look for the key before either finishes, the first one issues the quote
    and the second, queued on the configuration's lock, then finds it "just issued". The second must get the
    first one's answer replayed, never a 422."""
    from unittest import mock

    from api import idempotency
    from quotes.models import Quote

    configuration = api.post("/api/v1/configurations/", {"document": design}, format="json").json()["id"]
    body = {"configuration": configuration, "customer": customer, "crm_reference": "OPP-9"}
    real_lookup = idempotency._live_record
    first = {}

    def lookup_then_let_the_other_retry_finish(client, key):
        record = real_lookup(client, key)
        if not first:  # this retry looked before the other one finished; now the other one runs to the end
            first["started"] = True
            first["response"] = api.post("/api/v1/quotes/", body, format="json", HTTP_IDEMPOTENCY_KEY="opp-9")
        return record

    with mock.patch.object(idempotency, "_live_record", side_effect=lookup_then_let_the_other_retry_finish):
        second = api.post("/api/v1/quotes/", body, format="json", HTTP_IDEMPOTENCY_KEY="opp-9")
    first = [first["response"]]
    assert first[0].status_code == 202, first[0].content
    assert second.status_code == 202, second.content
    assert second.json() == first[0].json() and second["Idempotent-Replayed"] == "true"
    assert Quote.objects.filter(configuration_id=configuration).count() == 1
