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


def test_a_page_is_counted_in_its_own_query_and_every_page_has_the_right_rows(crm):
    """The count comes with the page's rows (no count query) when the page has rows; the pages still cover every
    configuration once, newest first, and a page past the end is still a 404."""
    client, http = crm
    made = _configurations(client, 7)
    newest_first = [c.pk for c in sorted(made, key=lambda c: (c.updated_at, c.pk), reverse=True)]
    seen = []
    for page in (1, 2, 3):
        sql = _queries(http, f"{CONFIGS}?page_size=3&page={page}")
        assert not [q for q in sql if "COUNT(*) AS" in q], sql  # Django's count query
        body = http.get(f"{CONFIGS}?page_size=3&page={page}").json()
        assert body["count"] == 7
        assert (body["next"] is None) == (page == 3) and (body["previous"] is None) == (page == 1)
        seen += [entry["id"] for entry in body["results"]]
    assert seen == newest_first
    assert http.get(f"{CONFIGS}?page_size=3&page=4").status_code == 404


def test_filters_still_filter_and_an_empty_page_counts_nothing(crm, design):
    client, http = crm
    _configurations(client, 2, crm_reference="OPP-1", valid=True)
    _configurations(client, 3, crm_reference="OPP-2", valid=False)
    assert http.get(CONFIGS, {"crm_reference": "OPP-2"}).json()["count"] == 3
    assert http.get(CONFIGS, {"valid": "true"}).json()["count"] == 2
    assert http.get(CONFIGS, {"valid": "true", "crm_reference": "OPP-2"}).json() == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }
    assert http.get(CONFIGS, {"status": ""}).status_code == 400  # a filter given empty is still refused


@pytest.mark.parametrize("number", ["1000000", str(2**63 // 50), str(2**63), "9" * 30])
def test_a_page_far_past_the_end_is_a_404_not_a_server_error(crm, number):
    """A page number whose offset no database integer holds is past the end, like any other: 404, never a 500
    (the page's rows and count are read in one query, so the offset reaches the database before the count)."""
    client, http = crm
    _configurations(client, 3)
    response = http.get(f"{CONFIGS}?page={number}")
    assert response.status_code == 404, response.content
    assert http.get(f"/api/v1/quotes/?page={number}").status_code == 404


def test_a_listed_document_is_the_stored_document_whatever_it_holds(crm):
    """The list writes each design document as its column's JSON text (api.renderers.RawJSON): the same value as
    the detail shows, for text a JSON encoder must escape, numbers of every spelling and text that looks like the
    renderer's own place markers (a NUL no stored document holds: PostgreSQL's JSON refuses it, as the API does)."""
    client, http = crm
    odd = {
        "schema": "design/v1",
        "name": 'Cluster "Noord" \\ ß € \u2028 line \u2029 para \U0001f600',
        "node_groups": [],
        "notes": ["ffffffffffffffff:0", '"\\u0000x:0\\u0000"', "</script>"],
        "numbers": [0.0001, 1e-05, 12345678901234567890, -0.5, 3, True, None],
        "nested": {"deep": [[{"a": []}]], "": "empty key"},
    }
    (configuration,) = _configurations(client, 1, document=odd)
    response = http.get(CONFIGS)
    assert response.status_code == 200
    (entry,) = response.json()["results"]
    assert entry["document"] == odd == http.get(entry["url"]).json()["document"]
    # written as JSON may be read by a browser's script: U+2028 and U+2029 escaped, as in every other answer
    assert "\u2028".encode() not in response.content and b"\\u2028" in response.content


def test_the_renderer_writes_raw_json_in_place_and_everything_else_as_drf_does():
    import json

    from rest_framework.renderers import JSONRenderer as DrfRenderer

    from api.renderers import JSONRenderer, RawJSON

    plain = {"a": [1, 2.5, "€ \u2028"], "b": None, "c": {"d": "\u0000x:0\u0000"}}
    assert JSONRenderer().render(plain) == DrfRenderer().render(plain)
    raw = {
        "rows": [{"id": 1, "document": RawJSON('{"x": [1, 2], "y": "\u2028"}')}, {"id": 2, "document": RawJSON("[]")}]
    }
    written = JSONRenderer().render(raw)
    assert json.loads(written) == {
        "rows": [{"id": 1, "document": {"x": [1, 2], "y": "\u2028"}}, {"id": 2, "document": []}]
    }
    assert "\u2028".encode() not in written


def test_the_renderer_writes_what_drf_writes_for_values_its_own_encoder_knows():
    """Answers are written by orjson; values orjson does not know (lazy translations, times, decimals, sets),
    integers beyond 64 bits, keys that are not strings and indented answers are written exactly as DRF writes
    them."""
    import datetime
    import decimal
    import uuid

    from django.utils.translation import gettext_lazy
    from rest_framework.renderers import JSONRenderer as DrfRenderer

    from api.renderers import JSONRenderer

    moment = datetime.datetime(2026, 12, 1, 21, 40, 47, 123456, tzinfo=datetime.UTC)
    values = {
        "lazy": gettext_lazy("Invalid token."),
        "when": moment,
        "day": moment.date(),
        "time": datetime.time(9, 30, 15, 250000),
        "span": datetime.timedelta(hours=2),
        "price": decimal.Decimal("4500.10"),
        "ids": {7},
        "uuid": uuid.UUID(int=1),
        "text": "Kabel 2 m \u2028 \u2029 € <b>",
    }
    for data in (values, {"big": 2**70}, {1: "integer key"}, [values]):
        assert JSONRenderer().render(data) == DrfRenderer().render(data), data
    indented = "application/json; indent=2"
    assert JSONRenderer().render(values, indented) == DrfRenderer().render(values, indented)
    assert b"\n  " in JSONRenderer().render(values, indented)
    assert JSONRenderer().render(None) == b""


def test_an_unfiltered_page_is_the_filtered_lists_page_for_every_client_and_page(make_client, design, customer):
    """The unfiltered list runs its SQL compiled once per process (api.prepared) with the client and the page as
    parameters: every page of every client is the page the ORM's own list gives (a filter that keeps every row),
    the same rows in the same order with the same count, and never another client's row."""
    first, _t, first_http = make_client("crm-prepared-1")
    second, _t, second_http = make_client("crm-prepared-2")
    mine = _configurations(first, 7, crm_reference="")
    theirs = _configurations(second, 4, crm_reference="")
    _quote(first_http, mine[2], customer)
    for http, made in ((first_http, mine), (second_http, theirs), (first_http, mine)):
        pages = [(3, page) for page in range(1, -(-len(made) // 3) + 1)] + [(50, 1)]
        for size, page in pages:
            plain = http.get(f"{CONFIGS}?page_size={size}&page={page}")
            filtered = http.get(f"{CONFIGS}?page_size={size}&page={page}&crm_reference=")
            assert plain.status_code == filtered.status_code == 200, plain.content
            links = {"next": plain.json()["next"], "previous": plain.json()["previous"]}  # their query strings differ
            assert plain.json() == filtered.json() | links
            assert plain.json()["count"] == len(made)
            assert {row["id"] for row in plain.json()["results"]} <= {c.pk for c in made}
        assert http.get(f"{CONFIGS}?page_size=3&page={len(pages)}").status_code == 404
