"""Property-based contract test: schemathesis generates requests from the live schema, in-process (WSGI).

Several hundred generated cases, valid and invalid, all with a valid Bearer token of a "quote" client. Every
response must conform to the schema: no 5xx, a documented status code and content type, a body and headers that
match the schema; input the schema forbids is refused (4xx) and input it allows is not refused as malformed.
The app runs in this process, on this test database, so the seeded catalogue and the token are visible.
The schema is loaded from /api/schema/ when the module is collected (the schema view needs no database);
``schemathesis.pytest.from_fixture`` would defer that, but its lazy loader does not run on pytest 9.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.conftest import SCHEMATHESIS_RUN

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]

EXAMPLES_PER_OPERATION = 25  # x 26 operations: several hundred cases, about a minute on 2 cores

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
schema.config.generation.update(
    max_examples=EXAMPLES_PER_OPERATION,
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
    allow_extra_parameters=True,  # unknown query parameters are ignored, as HTTP APIs commonly do
    # Every case carries the client's valid token (the fixture below), so a generated "missing or broken
    # Authorization" case would be sent with a good token and wrongly count as accepted negative data.
    # Authentication failures are tested case by case in test_api_auth.py.
    with_security_parameters=False,
)


OPERATIONS = sum(1 for _ in schema.get_all_operations())
_statuses: list[int] = []
_operations: set[str] = set()


@pytest.fixture(scope="module", autouse=True)
def _enough_cases(request):
    """After the module: the run really covered several hundred cases, and none was a server error. Split over
    xdist workers, each worker's share is checked for server errors here and the whole is checked in
    tests/conftest.py, which adds up what every worker leaves in ``config.stash[SCHEMATHESIS_RUN]``."""
    yield
    request.config.stash[SCHEMATHESIS_RUN] = (len(_statuses), sorted(_operations), OPERATIONS)
    if len(_operations) < OPERATIONS:  # only some operations ran here (-k, or split over xdist workers)
        assert max(_statuses, default=0) < 500
        return
    assert len(_statuses) >= 300, len(_statuses)
    assert max(_statuses) < 500
    from collections import Counter

    codes = dict(sorted(Counter(_statuses).items()))
    print(f"\nschemathesis: {len(_statuses)} cases over {len(_operations)} operations, status codes {codes}")


@pytest.fixture
def bearer(seeded_catalog, make_client, settings, design):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"client": "1000000/min", "client_write": "1000000/min"},
    }
    _client, token, http = make_client("schemathesis")
    # Something to find: a stored configuration, so generated ids sometimes hit a real row.
    http.post("/api/v1/configurations/", {"document": design}, format="json")
    # The real WSGI handler closes "old" connections around each request, which would end the test's
    # transaction on PostgreSQL. Django's test client disconnects the same receivers (and reconnects them after
    # each of its own requests, hence this comes after the set-up request above).
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield {"Authorization": f"Bearer {token}"}
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(suppress_health_check=list(HealthCheck), deadline=None, max_examples=EXAMPLES_PER_OPERATION)
def test_the_server_does_what_the_schema_says(case, bearer):
    response = case.call_and_validate(headers=bearer, checks=CHECKS)
    _statuses.append(response.status_code)
    _operations.add(case.operation.label)
