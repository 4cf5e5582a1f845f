"""The read-only catalogue: pagination, filters, typed specs with sources, slots, servers that accept a GPU."""

from __future__ import annotations

PARTS = "/api/v1/catalog/parts/"


def _numbers(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [p["part_number"] for p in response.json()["results"]]


def test_list_is_paginated(api, seeded_catalog):
    total = seeded_catalog.count()
    first = api.get(PARTS, {"page_size": 5})
    body = first.json()
    assert body["count"] == total
    assert len(body["results"]) == 5
    assert body["previous"] is None and "page=2" in body["next"]
    second = api.get(body["next"])
    assert second.status_code == 200
    assert not set(_numbers(first)) & set(_numbers(second))


def test_page_past_the_end_is_404(api):
    response = api.get(PARTS, {"page": 999})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_filter_by_category(api):
    response = api.get(PARTS, {"category": "switch", "page_size": 100})
    numbers = _numbers(response)
    assert "MQM9700-NS2F" in numbers
    assert all(p["category"] == "switch" for p in response.json()["results"])


def test_filter_by_several_categories(api):
    response = api.get(f"{PARTS}?category=switch&category=gpu&page_size=100")
    assert {p["category"] for p in response.json()["results"]} == {"switch", "gpu"}


def test_filter_by_manufacturer_and_lifecycle(api):
    response = api.get(PARTS, {"manufacturer": "supermicro", "page_size": 100})
    assert response.json()["count"] > 0
    assert {p["manufacturer"] for p in response.json()["results"]} == {"Supermicro"}
    eol = api.get(PARTS, {"lifecycle": "eol", "page_size": 100})
    assert all(p["lifecycle"] == "eol" for p in eol.json()["results"])


def test_text_search(api):
    assert "SYS-821GE-TNHR" in _numbers(api.get(PARTS, {"q": "821ge"}))
    assert _numbers(api.get(PARTS, {"q": "no-such-part-anywhere"})) == []


def test_unknown_filter_value_is_400_with_the_field(api):
    response = api.get(PARTS, {"category": "spaceship"})
    assert response.status_code == 400
    assert response.json()["error"]["fields"][0]["path"] == "category"


def test_detail_has_typed_specs_sources_and_unknowns_as_null(api):
    response = api.get(f"{PARTS}SYS-821GE-TNHR/")
    assert response.status_code == 200
    part = response.json()
    assert part["category"] == "server"
    assert part["specs"]["height_u"] == 8
    assert part["specs"]["cpu_tdp_w"] is None  # not in the seed: unknown, not guessed
    assert part["sources"]["height_u"]["key"] == "STH-821"
    assert part["sources"]["height_u"]["title"]
    assert [s["name"] for s in part["slots"]][:2] == ["LP1", "LP2"]
    assert (part["slots"][0]["pcie_gen"], part["slots"][0]["lanes"]) == (5, 16)  # the BMC's slot table
    riser = next(s for s in part["slots"] if s["name"] == "RISER0-1")
    assert riser["form"] is None and riser["pcie_switch"] is None and riser["cpu_socket"] is None  # unknown
    assert "HGX-H200-8GPU" in part["accepts"]


def test_gpu_detail_lists_the_servers_that_accept_it(api):
    part = api.get(f"{PARTS}HGX-H200-8GPU/").json()
    assert part["specs"]["gpu_count"] == 8
    assert "SYS-821GE-TNHR" in part["accepted_by"]
    assert part["slots"] == []


def test_unknown_part_is_404(api):
    response = api.get(f"{PARTS}NO-SUCH-PART/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_servers_sub_resource_and_filters_agree(api):
    sub = api.get(f"{PARTS}HGX-H200-8GPU/servers/")
    assert sub.status_code == 200
    servers = [p["part_number"] for p in sub.json()]
    assert "SYS-821GE-TNHR" in servers
    assert sorted(_numbers(api.get(PARTS, {"accepts": "HGX-H200-8GPU", "page_size": 100}))) == sorted(servers)
    accepted = _numbers(api.get(PARTS, {"accepted_by_server": "SYS-821GE-TNHR", "page_size": 100}))
    assert "HGX-H200-8GPU" in accepted and "SYS-821GE-TNHR" not in accepted


def test_catalogue_is_read_only(api):
    assert api.post(PARTS, {"part_number": "X"}, format="json").status_code == 405
    assert api.delete(f"{PARTS}SYS-821GE-TNHR/").status_code == 405


def test_a_part_detail_reads_only_its_own_spec_table(api, seeded_catalog):
    """A part's detail joins no spec table of another kind (one query joining all twelve cost PostgreSQL more to
    plan than to run): its row, its spec row, and for a server what it lists, each a simple query."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for number, own in (("HGX-H200-8GPU", "catalog_gpu"), ("MQM9700-NS2F", "catalog_switch"), ("SYS-821GE-TNHR", "")):
        with CaptureQueriesContext(connection) as read:
            part = api.get(f"{PARTS}{number}/").json()
        assert part["specs"] and part["sources"]
        queries = [q["sql"] for q in read.captured_queries]
        assert any(f'FROM "{own}"' in sql for sql in queries) or not own
        assert "catalog_media" not in " ".join(queries)
        assert max(sql.count(" JOIN ") for sql in queries) <= 2
