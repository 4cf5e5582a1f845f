"""GET /api/v1/quotes/{id}/revisions/{a}/diff/{b}/: any two revisions of a client's quote compared."""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from tests.factories import design

pytestmark = pytest.mark.django_db


def test_the_api_compares_any_two_revisions(
    make_client, customer, django_capture_on_commit_callbacks, settings, tmp_path
):
    settings.MEDIA_ROOT = str(tmp_path)
    _client, _token, http = make_client("crm-diff")
    with django_capture_on_commit_callbacks(execute=True):
        created = http.post("/api/v1/quotes/", {"design": design(1), "customer": customer}, format="json").json()
        http.post(f"/api/v1/quotes/{created['id']}/revise/", {"discount_percent": "3"}, format="json")
    response = http.get(f"/api/v1/quotes/{created['id']}/revisions/1/diff/2/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["a"], body["b"]) == (1, 2)
    assert body["discounts"] == [{"field": "discount_percent", "before": "0", "after": "3.00"}] or (
        body["discounts"][0]["field"] == "discount_percent" and D(body["discounts"][0]["after"]) == 3
    )
    assert {c["field"] for c in body["totals"]} >= {"discount", "net", "total"}
    assert body["added"] == [] and body["removed"] == [] and len(body["changed"]) > 0
    assert "margin" not in response.content.decode()
    missing = http.get(f"/api/v1/quotes/{created['id']}/revisions/1/diff/7/")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    _other, _t, stranger = make_client("crm-other")
    assert stranger.get(f"/api/v1/quotes/{created['id']}/revisions/1/diff/2/").status_code == 404
