"""The catalogue API for node contents: filter by the new categories, typed specs, a server's node set."""

from __future__ import annotations

PARTS = "/api/v1/catalog/parts/"


def _results(response) -> list[dict]:
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_filter_by_each_node_category(api):
    expected = {
        "cpu": "XEON-8468",
        "memory": "MTC40F2046S1RC48BA1",
        "drive": "HDS-M2N4-960G0-E1-TXD-NON-080",
        "rack": "RACK-42U",
        "power_cord": "CORD-C19-C20-2M",
    }
    for category, part_number in expected.items():
        results = _results(api.get(PARTS, {"category": category, "page_size": 100}))
        assert {p["category"] for p in results} == {category}
        assert part_number in {p["part_number"] for p in results}


def test_filter_by_several_node_categories(api):
    results = _results(api.get(f"{PARTS}?category=cpu&category=memory&page_size=100"))
    assert {p["category"] for p in results} == {"cpu", "memory"}


def test_unknown_category_is_a_400_naming_the_field(api):
    response = api.get(PARTS, {"category": "dimm"})
    assert response.status_code == 400
    assert "category" in response.content.decode()


def test_cpu_detail_has_typed_specs_with_sources_and_unknowns_as_null(api):
    body = api.get(f"{PARTS}XEON-8570/").json()
    assert body["specs"]["socket"] == "LGA4677" and body["specs"]["cores"] == 56
    assert body["specs"]["tdp_w"] is None
    assert body["sources"]["cores"]["key"] == "NV-DGXB200-UG"
    assert body["drive_bays"] == [] and body["default_parts"] == []


def test_server_detail_lists_bays_psu_options_and_default_node_set(api):
    body = api.get(f"{PARTS}SYS-821GE-TNHR/").json()
    assert body["specs"]["cpu_socket"] == "LGA4677" and body["specs"]["memory_channels_per_socket"] == 8
    assert {
        "count": 16,
        "form_factor": "U.2",
        "interface": "nvme",
        "shares_slot_lanes": None,
        "source": "STH-821",
    } in body["drive_bays"]
    assert [(p["count"], p["watts"], p["redundancy"]) for p in body["psu_options"]] == [
        (6, 3000, "4+2"),
        (8, 3000, "4+4"),
    ]
    defaults = {d["role"]: (d["part"], d["quantity"]) for d in body["default_parts"]}
    assert defaults == {
        "cpu": ("XEON-8468", 2),
        "memory": ("MTC40F2046S1RC48BA1", 32),
        "boot": ("HDS-M2N4-960G0-E1-TXD-NON-080", 2),  # a mirrored pair, as NVIDIA's systems ship [NV-DGXB200-UG]
    }
    amd = api.get(f"{PARTS}AS-8125GS-TNHR/").json()
    assert amd["psu_options"][0]["redundancy"] is None  # not published: unknown, never guessed


def test_openapi_describes_the_node_specs():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    for name in ("CpuSpecs", "MemorySpecs", "DriveSpecs", "RackSpecs", "PduSpecs", "PowerCordSpecs"):
        assert name in components, name
    refs = json_refs(components["PartSpecs"])
    assert "#/components/schemas/CpuSpecs" in refs and "#/components/schemas/ServerSpecs" in refs
    detail = components["PartDetail"]["properties"]
    assert {"drive_bays", "psu_options", "default_parts"} <= set(detail)


def json_refs(node) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"]} if "$ref" in node else set()
        for value in node.values():
            found |= json_refs(value)
        return found
    if isinstance(node, list):
        return set().union(*(json_refs(v) for v in node)) if node else set()
    return set()
