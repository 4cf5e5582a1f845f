"""The stateless fabric-plan request: every bad field is named (contract design/v1, "Fabric plan")."""

import pytest

from design.model import DesignInputError
from engines.fabric.request import parse_fabric_request, resolve

from .parts import CATALOG, CX7_NDR, QM9700

GOOD = {"nodes": 128, "rails": 8, "switch": "MQM9700-NS2F"}


def errors_of(raw) -> dict[str, str]:
    with pytest.raises(DesignInputError) as info:
        parse_fabric_request(raw)
    return info.value.errors


def test_parses_the_contract_example_with_defaults():
    req = parse_fabric_request({**GOOD, "hca": "MCX75310AAS-NEAT"})
    assert (req.nodes, req.rails, req.switch, req.hca) == (128, 8, "MQM9700-NS2F", "MCX75310AAS-NEAT")
    assert req.oversubscription == (1, 1)
    assert req.topology == "rail-optimized"


def test_parses_oversubscription_topology_and_rack_overrides():
    req = parse_fabric_request(
        {
            **GOOD,
            "oversubscription": "2:1",
            "topology": "fat-tree",
            "rack": {"nodes_per_rack": 2, "leaf_to_spine_m": 12},
        }
    )
    assert req.oversubscription == (2, 1)
    assert req.topology == "fat-tree"
    assert req.rack.nodes_per_rack == 2 and req.rack.leaf_to_spine_m == 12.0


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("nodes", 0),
        ("nodes", -4),
        ("nodes", 2.5),
        ("nodes", "128"),
        ("nodes", True),  # bool is not an int here
        ("rails", 0),
        ("rails", -1),
        ("rails", 1.0),
        ("rails", False),
    ],
)
def test_rejects_non_positive_or_non_integer_counts(field, value):
    assert field in errors_of({**GOOD, field: value})


@pytest.mark.parametrize("value", ["0:1", "1:0", "abc", "2", "1:1:1", "", "-1:1", 2, "1:2"])
def test_rejects_malformed_oversubscription(value):
    assert "oversubscription" in errors_of({**GOOD, "oversubscription": value})


@pytest.mark.parametrize("value", ["dragonfly", "Rail-Optimized", "torus", 3])
def test_rejects_unknown_topology(value):
    assert "topology" in errors_of({**GOOD, "topology": value})


@pytest.mark.parametrize("missing", ["nodes", "rails", "switch"])
def test_names_each_missing_required_field(missing):
    raw = dict(GOOD)
    del raw[missing]
    assert errors_of(raw)[missing] == "is required"


def test_rejects_more_than_a_million_endpoints_naming_nodes():
    errors = errors_of({**GOOD, "nodes": 125_001})  # 125,001 x 8 = 1,000,008 endpoints
    assert "1,000,008 endpoints" in errors["nodes"]


def test_accepts_exactly_a_million_endpoints():
    assert parse_fabric_request({**GOOD, "nodes": 125_000}).nodes == 125_000


def test_reports_all_bad_fields_at_once():
    errors = errors_of({"nodes": 0, "rails": "x", "oversubscription": "0:1", "topology": "ring"})
    assert set(errors) == {"nodes", "rails", "switch", "oversubscription", "topology"}


def test_rejects_bad_rack_override_and_unknown_fields():
    errors = errors_of({**GOOD, "rack": {"nodes_per_rack": 0, "leaf_to_spine_m": -3, "colour": "red"}, "extra": 1})
    assert {"rack.nodes_per_rack", "rack.leaf_to_spine_m", "rack.colour", "extra"} <= set(errors)


def test_rejects_a_body_that_is_not_an_object():
    assert errors_of([1, 2, 3]) == {"(body)": "must be a JSON object"}


def test_resolves_switch_and_hca():
    req = parse_fabric_request({**GOOD, "hca": "MCX75310AAS-NEAT"})
    assert resolve(req, CATALOG) == (QM9700, CX7_NDR)


def test_resolve_names_a_server_given_as_switch():
    req = parse_fabric_request({**GOOD, "switch": "SYS-821GE-TNHR"})
    with pytest.raises(DesignInputError) as info:
        resolve(req, CATALOG)
    assert info.value.errors == {"switch": "'SYS-821GE-TNHR' is a server, not a switch"}


def test_resolve_names_unknown_switch_and_non_adapter_hca():
    req = parse_fabric_request({**GOOD, "switch": "NOPE-1", "hca": "MQM9700-NS2F"})
    with pytest.raises(DesignInputError) as info:
        resolve(req, CATALOG)
    assert info.value.errors == {
        "switch": "unknown part 'NOPE-1'",
        "hca": "'MQM9700-NS2F' is a switch, not an adapter",
    }
