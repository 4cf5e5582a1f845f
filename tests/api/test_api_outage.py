"""A database outage answers the API 503 with Retry-After in the one error body, and a CRM is not charged its
write throttle (nor its overall rate) for requests that failed on our side."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

from tests.project.test_database_outage import database_down

PARTS = "/api/v1/catalog/parts/"
pytestmark = pytest.mark.django_db


def _rates(**rates):
    return override_settings(
        REST_FRAMEWORK={
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
        }
    )


def _unavailable(response) -> None:
    assert response.status_code == 503, response.content[:300]
    assert response["Retry-After"] == "30"
    assert response.json() == {
        "error": {
            "code": "service_unavailable",
            "message": "The service is briefly unavailable (its database cannot be reached); try again in 30 seconds.",
            "fields": [],
        }
    }


def test_writes_that_fail_on_a_database_outage_are_503_and_not_charged_to_the_write_throttle(api, design):
    with _rates(client_write="2/min", client="5/min"):
        with database_down(r'^INSERT INTO "configurator_configuration"'):
            for _ in range(3):
                _unavailable(api.post("/api/v1/configurations/", {"document": design}, format="json"))
        # the database is back: the client still has both writes of its minute, and its 5 requests
        codes = [api.post("/api/v1/configurations/", {"document": design}, format="json").status_code for _ in range(3)]
        assert codes == [201, 201, 429]
        assert [api.get(PARTS).status_code for _ in range(3)] == [200, 200, 429]


def test_an_outage_while_the_token_is_checked_is_503_not_500(make_client):
    _client, _token, http = make_client("crm")
    http.raise_request_exception = False
    with database_down():
        _unavailable(http.get(PARTS))
