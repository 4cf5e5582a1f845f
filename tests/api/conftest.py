"""Fixtures of the API tests: API clients with tokens, and DRF test clients that send them."""

from __future__ import annotations

import pytest

from configurator.examples import h200_training_cluster

CUSTOMER = {
    "name": "Ada Lovelace",
    "company": "Analytical Engines BV",
    "email": "ada@example.nl",
    "country": "NL",
    "vat_number": "",
}


@pytest.fixture
def design():
    return h200_training_cluster()


@pytest.fixture
def customer():
    return dict(CUSTOMER)


@pytest.fixture(autouse=True)
def _fresh_throttle_buckets():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def make_client(seeded_catalog):
    """make_client(name, scope="quote", user=None) -> (ApiClient, token, APIClient sending the token)."""
    from rest_framework.test import APIClient

    from api.models import ApiClient

    def make(name: str = "crm", scope: str = "quote", user=None):
        client = ApiClient(name=name, scope=scope, user=user)
        token = client.set_new_token()
        client.save()
        http = APIClient()
        http.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return client, token, http

    return make


@pytest.fixture
def api(make_client):
    """An HTTP client for a CRM client with scope "quote"."""
    return make_client("crm-a")[2]


@pytest.fixture
def other_api(make_client):
    """A second, unrelated CRM client."""
    return make_client("crm-b")[2]


@pytest.fixture
def read_api(make_client):
    return make_client("crm-read", scope="read")[2]


@pytest.fixture
def approver(db):
    from tests.factories import StaffFactory

    return StaffFactory(username="manager", permissions=("approve_quote",))


@pytest.fixture
def validations():
    """A mock wrapping configurator.services.design_validate, counting full validations wherever the API or the
    services it calls make them."""
    from unittest import mock

    import configurator.services

    counter = mock.MagicMock(wraps=configurator.services.design_validate)
    with (
        mock.patch("configurator.services.design_validate", counter),
        mock.patch("api.views.configurations.design_validate", counter),
    ):
        yield counter
