"""Tokens, scopes, throttling: who gets in, what they may do, and the 401/403/429 answers."""

from __future__ import annotations

import hashlib
import io

import pytest
from django.core.management import call_command
from django.test import override_settings
from rest_framework.test import APIClient

from api.models import ApiClient

PARTS = "/api/v1/catalog/parts/"


def _error(response):
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "fields"}
    return body["error"]


@pytest.mark.django_db
def test_missing_token_is_401_with_bearer_challenge(seeded_catalog):
    response = APIClient().get(PARTS)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert _error(response)["code"] == "not_authenticated"


@pytest.mark.parametrize("header", ["Bearer nonsense", "Bearer abc.def", "Bearer", "Bearer a b", "Token x.y"])
def test_bad_token_is_401(seeded_catalog, make_client, header):
    make_client("crm")
    http = APIClient()
    http.credentials(HTTP_AUTHORIZATION=header)
    response = http.get(PARTS)
    assert response.status_code == 401
    assert _error(response)["code"] in {"authentication_failed", "not_authenticated"}


def test_token_is_stored_hashed_and_works(make_client):
    client, token, http = make_client("crm")
    prefix, secret = token.split(".", 1)
    client.refresh_from_db()
    assert client.token_prefix == prefix
    assert client.token_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in client.token_hash
    assert http.get(PARTS).status_code == 200


def test_a_request_records_when_the_client_was_last_used(make_client, monkeypatch):
    from api import auth

    monkeypatch.setattr(auth, "_noted", {})
    client, _token, http = make_client()
    assert client.last_used_at is None
    assert http.get(PARTS).status_code == 200
    client.refresh_from_db()
    first = client.last_used_at
    assert first is not None
    assert http.get(PARTS).status_code == 200  # within the minute: the row is not written again
    client.refresh_from_db()
    assert client.last_used_at == first


def test_wrong_secret_with_right_prefix_is_401(make_client):
    _client, token, _http = make_client("crm")
    http = APIClient()
    http.credentials(HTTP_AUTHORIZATION=f"Bearer {token.split('.')[0]}.wrong-secret")
    assert http.get(PARTS).status_code == 401


def test_revoked_token_is_401(make_client):
    from api.services import api_client_revoke

    client, _token, http = make_client("crm")
    api_client_revoke(client=client)
    response = http.get(PARTS)
    assert response.status_code == 401
    assert "revoked" in _error(response)["message"]


def test_revocation_takes_effect_at_once_for_a_request_in_flight(make_client, django_capture_on_commit_callbacks):
    """Two requests race: one reads the client row just before an admin's revoke commits and finishes after it.
    That request may finish (it started first), but it must not put the active row back in the cache: the very
    next request is refused, not for the next 10 s."""
    from unittest import mock

    from django.core.cache import cache

    from api.models import ApiClient
    from api.services import api_client_revoke

    client, _token, http = make_client("crm")
    cache.clear()
    real_filter = ApiClient.objects.filter
    raced = []

    def read_then_revoke(*args, **kwargs):
        row = real_filter(*args, **kwargs).first()
        if raced:
            return real_filter(*args, **kwargs)
        raced.append(row)
        with django_capture_on_commit_callbacks(execute=True):  # the admin's revoke commits meanwhile
            api_client_revoke(client=ApiClient.objects.get(pk=client.pk))
        return mock.Mock(first=lambda: row)

    with mock.patch.object(ApiClient.objects, "filter", side_effect=read_then_revoke):
        assert http.get(PARTS).status_code == 200  # in flight before the revoke
    assert raced and raced[0].is_active
    response = http.get(PARTS)
    assert response.status_code == 401
    assert "revoked" in _error(response)["message"]


def test_rotated_token_replaces_the_old_one(make_client):
    from api.services import api_client_rotate

    client, _token, old = make_client("crm")
    new_token = api_client_rotate(client=client)
    assert old.get(PARTS).status_code == 401
    new = APIClient()
    new.credentials(HTTP_AUTHORIZATION=f"Bearer {new_token}")
    assert new.get(PARTS).status_code == 200


def test_read_scope_may_read_and_validate_but_not_write(read_api, design):
    assert read_api.get(PARTS).status_code == 200
    assert read_api.post("/api/v1/designs/validate/", design, format="json").status_code == 200
    response = read_api.post("/api/v1/configurations/", {"document": design}, format="json")
    assert response.status_code == 403
    assert _error(response)["code"] == "permission_denied"
    assert "quote" in _error(response)["message"]


def test_create_api_client_command_prints_the_token_once(seeded_catalog):
    out, err = io.StringIO(), io.StringIO()
    call_command("create_api_client", "Salesforce", "--scope", "quote", stdout=out, stderr=err)
    token = out.getvalue().strip()
    client = ApiClient.objects.get(name="Salesforce")
    assert client.scope == "quote"
    assert token.startswith(client.token_prefix + ".")
    assert token not in err.getvalue()
    http = APIClient()
    http.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert http.get(PARTS).status_code == 200


def test_create_api_client_refuses_a_duplicate_name(seeded_catalog):
    from django.core.management.base import CommandError

    call_command("create_api_client", "crm", stdout=io.StringIO(), stderr=io.StringIO())
    with pytest.raises(CommandError):
        call_command("create_api_client", "crm", stdout=io.StringIO(), stderr=io.StringIO())


def test_admin_shows_a_new_token_once(admin_client, seeded_catalog):
    response = admin_client.post(
        "/admin/api/apiclient/add/", {"name": "HubSpot", "scope": "read", "rate": "", "is_active": "on"}, follow=True
    )
    assert response.status_code == 200
    client = ApiClient.objects.get(name="HubSpot")
    shown = [str(m) for m in response.context["messages"]]
    token = next(m.rsplit(" ", 1)[1] for m in shown if client.token_prefix in m)
    assert hashlib.sha256(token.split(".", 1)[1].encode()).hexdigest() == client.token_hash
    again = admin_client.get(f"/admin/api/apiclient/{client.pk}/change/")
    assert token not in again.content.decode()


def _rates(**rates):
    from django.conf import settings

    return override_settings(
        REST_FRAMEWORK={
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
        }
    )


def test_throttle_answers_429_per_client(make_client):
    _a, _ta, first = make_client("crm-a")
    _b, _tb, second = make_client("crm-b")
    with _rates(client="3/min"):
        assert [first.get(PARTS).status_code for _ in range(3)] == [200, 200, 200]
        response = first.get(PARTS)
        assert response.status_code == 429
        assert int(response["Retry-After"]) > 0
        assert _error(response)["code"] == "throttled"
        assert second.get(PARTS).status_code == 200  # another client has its own bucket


def test_requests_with_a_bad_token_are_throttled_per_address(make_client):
    _client, token, good = make_client("crm")
    guesser = APIClient()
    prefix = token.split(".")[0]
    with _rates(bad_token="3/min"):
        codes = []
        for i in range(4):
            guesser.credentials(HTTP_AUTHORIZATION=f"Bearer {prefix}.guess-{i}")
            codes.append(guesser.get(PARTS).status_code)
        assert codes == [401, 401, 401, 429]
        guesser.credentials(HTTP_AUTHORIZATION="Bearer deadbeef.another-guess")
        refused = guesser.get(PARTS)
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
        assert _error(refused)["code"] == "throttled"
        other = APIClient(REMOTE_ADDR="198.51.100.9")
        other.credentials(HTTP_AUTHORIZATION=f"Bearer {prefix}.guess")
        assert other.get(PARTS).status_code == 401  # another address has its own count
        assert good.get(PARTS).status_code == 200  # a good token is not counted


def test_client_rate_override(make_client):
    client, _token, http = make_client("crm")
    client.rate = "1/hour"
    client.save()
    assert http.get(PARTS).status_code == 200
    assert http.get(PARTS).status_code == 429


def test_write_throttle_counts_only_writes(api, design):
    with _rates(client_write="1/min"):
        assert api.post("/api/v1/configurations/", {"document": design}, format="json").status_code == 201
        assert api.post("/api/v1/configurations/", {"document": design}, format="json").status_code == 429
        assert api.get(PARTS).status_code == 200
        assert api.post("/api/v1/designs/validate/", design, format="json").status_code == 200
