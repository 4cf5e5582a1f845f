"""GET /api/v1/configurations/: a page costs the same few queries however many configurations and quotes there are,
reads no quote but its id, and shows each configuration as its own GET does."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import ConfigurationFactory

CONFIGS = "/api/v1/configurations/"
WITH_WARNING = {"fabric": {"switch": "MQM9790-NS2F"}}  # unmanaged switch: the quote waits for review, no document


@pytest.fixture
def crm(make_client):
    client, _token, http = make_client("crm-list")
    return client, http


def _configurations(client, count: int, **fields):
    from api.models import ClientConfiguration

    made = [ConfigurationFactory(**fields) for _ in range(count)]
    ClientConfiguration.objects.bulk_create([ClientConfiguration(client=client, configuration=c) for c in made])
    return made


def _quote(http, configuration, customer) -> int:
    response = http.post("/api/v1/quotes/", {"configuration": configuration.pk, "customer": customer}, format="json")
    assert response.status_code == 202, response.content
    return response.json()["id"]


def _quoted(crm, design, customer, count: int):
    client, http = crm
    quoted = _configurations(client, count, document={**design, **WITH_WARNING})
    return {c.pk: _quote(http, c, customer) for c in quoted}


def _queries(http, path=CONFIGS) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        response = http.get(path)
    assert response.status_code == 200, response.content
    return [q["sql"] for q in captured.captured_queries]


def test_the_list_query_count_does_not_grow_with_configurations_or_quotes(
    crm, design, customer, django_assert_num_queries
):
    client, http = crm
    _configurations(client, 2)
    _quoted(crm, design, customer, 1)
    few = len(_queries(http))
    _configurations(client, 60)
    _quoted(crm, design, customer, 4)
    with django_assert_num_queries(few):
        page = http.get(CONFIGS).json()
    assert page["count"] == 67 and len(page["results"]) == 50


def test_the_list_reads_only_the_ids_of_the_quotes(crm, design, customer):
    client, http = crm
    _quoted(crm, design, customer, 3)
    quote_sql = [sql for sql in _queries(http) if '"quotes_quote"' in sql]
    assert quote_sql, "the list shows the quotes' ids"
    for sql in quote_sql:
        columns = sql.split(" FROM ")[0]
        assert '"frozen"' not in columns and '"customer_name"' not in columns, sql


def test_each_listed_configuration_is_shown_as_its_own_get_shows_it(crm, design, customer):
    client, http = crm
    quoted = _quoted(crm, design, customer, 2)
    _configurations(client, 2, valid=None, crm_reference="OPP-7")
    listed = http.get(CONFIGS).json()["results"]
    assert len(listed) == 4
    for entry in listed:
        assert entry == http.get(entry["url"]).json()
        assert entry["quotes"] == ([quoted[entry["id"]]] if entry["id"] in quoted else [])


def test_the_fast_rendering_matches_drfs_field_by_field_rendering(crm, design, customer):
    from rest_framework import serializers
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from api.serializers.configurations import ConfigurationSerializer
    from configurator.models import Configuration

    _quoted(crm, design, customer, 1)
    _configurations(crm[0], 1, valid=False, error_count=2, warning_count=1, status="quote_requested")
    request = Request(APIRequestFactory().get(CONFIGS))
    for configuration in Configuration.objects.all():
        serializer = ConfigurationSerializer(configuration, context={"request": request})
        generic = serializers.ModelSerializer.to_representation(serializer, configuration)
        assert serializer.data == generic
        assert list(serializer.data) == ConfigurationSerializer.Meta.fields
