"""Bad input: every bad field is named by its path (issue "Bad input"; contract design/v1)."""

import copy

import pytest

from configurator.examples import h200_training_cluster
from design.model import DesignInputError
from engines.intake.parse import parse_design
from engines.intake.references import check_references
from tests.engines.node.parts import CATALOG, CX7_NDR, HGX_H200, SYS_821GE_TNHR, as_json, comp, design, group, hgx_node

CONTRACT_EXAMPLE = h200_training_cluster()  # verbatim from contracts/design-v1.md


def bad(raw) -> dict[str, str]:
    with pytest.raises(DesignInputError) as exc:
        parse_design(raw)
    return exc.value.errors


def edited(path: list, value, base=CONTRACT_EXAMPLE):
    """The contract example with one field replaced (or deleted when value is DELETE)."""
    doc = copy.deepcopy(base)
    target = doc
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


DELETE = object()


def test_parses_the_contract_example():
    d = parse_design(CONTRACT_EXAMPLE)
    assert d.node_count == 4
    assert d.node_groups[0].components[1].role == "compute"
    assert d.workload.kind == "training" and d.workload.model_parameters_billion == 70
    assert d.fabric.switch == "MQM9700-NS2F" and d.fabric.topology == "rail-optimized"
    check_references(d, CATALOG)  # every part of the example is in the catalogue


def test_fabric_null_or_absent_means_no_fabric():
    assert parse_design(edited(["fabric"], None)).fabric is None
    assert parse_design(edited(["fabric"], DELETE)).fabric is None


def test_fabric_defaults_and_optional_fields():
    f = parse_design(
        edited(
            ["fabric"], {"switch": "MQM9700-NS2F", "rails": 8, "rack": {"nodes_per_rack": 4, "node_to_leaf_m": 12.5}}
        )
    ).fabric
    assert (f.oversubscription, f.topology, f.rails) == ("1:1", "rail-optimized", 8)
    assert f.rack.nodes_per_rack == 4 and f.rack.node_to_leaf_m == 12.5


def test_unknown_extra_keys_are_ignored():
    doc = edited(["node_groups", 0, "colour"], "blue")
    doc["x-crm-id"] = 42
    assert parse_design(doc).node_groups[0].name == "gpu"


def test_explicit_slots_are_kept():
    doc = edited(["node_groups", 0, "components", 1, "slots"], [f"NIC{i}" for i in range(1, 9)])
    assert parse_design(doc).node_groups[0].components[1].slots == tuple(f"NIC{i}" for i in range(1, 9))


@pytest.mark.parametrize(
    "path, value, field, words",
    [
        # a missing or wrong schema (contract: "schema is always design/v1")
        (["schema"], DELETE, "schema", "required"),
        (["schema"], "design/v2", "schema", "design/v1"),
        # zero or negative counts and quantities (contract: count is 1 or more)
        (["node_groups", 0, "count"], 0, "node_groups[0].count", "at least 1"),
        (["node_groups", 0, "count"], -3, "node_groups[0].count", "at least 1"),
        (["node_groups", 0, "components", 1, "quantity"], 0, "node_groups[0].components[1].quantity", "at least 1"),
        (["node_groups", 0, "components", 1, "quantity"], -8, "node_groups[0].components[1].quantity", "at least 1"),
        # absurd sizes (issue: over 100,000 nodes)
        (["node_groups", 0, "count"], 100_001, "node_groups[0].count", "absurd"),
        (["node_groups", 0, "components", 1, "quantity"], 10**9, "node_groups[0].components[1].quantity", "absurd"),
        (["workload", "model_parameters_billion"], 1e7, "workload.model_parameters_billion", "absurd"),
        # wrong types: bool is not an int, strings are not numbers, floats are not counts
        (["node_groups", 0, "count"], True, "node_groups[0].count", "whole number"),
        (["node_groups", 0, "count"], "4", "node_groups[0].count", "whole number"),
        (["node_groups", 0, "count"], 4.5, "node_groups[0].count", "whole number"),
        (["node_groups", 0, "components", 1, "quantity"], "8", "node_groups[0].components[1].quantity", "whole number"),
        (["workload", "model_parameters_billion"], "70", "workload.model_parameters_billion", "number"),
        (["workload", "model_parameters_billion"], False, "workload.model_parameters_billion", "number"),
        (["workload", "model_parameters_billion"], 0, "workload.model_parameters_billion", "positive"),
        (["workload", "model_parameters_billion"], -70, "workload.model_parameters_billion", "positive"),
        (["workload", "model_parameters_billion"], float("nan"), "workload.model_parameters_billion", "positive"),
        (["workload", "kind"], "finetuning", "workload.kind", "training"),
        (["workload"], "training", "workload", "object"),
        (["node_groups"], DELETE, "node_groups", "required"),
        (["node_groups"], [], "node_groups", "at least one"),
        (["node_groups"], {"name": "gpu"}, "node_groups", "list"),
        (["node_groups", 0], "gpu", "node_groups[0]", "object"),
        (["node_groups", 0, "server"], DELETE, "node_groups[0].server", "required"),
        (["node_groups", 0, "server"], 821, "node_groups[0].server", "string"),
        (["node_groups", 0, "components"], "HGX-H200-8GPU", "node_groups[0].components", "list"),
        (["node_groups", 0, "components", 1, "part"], DELETE, "node_groups[0].components[1].part", "required"),
        (["node_groups", 0, "components", 1, "part"], None, "node_groups[0].components[1].part", "required"),
        (["node_groups", 0, "components", 1, "role"], "fabric", "node_groups[0].components[1].role", "compute"),
        (["node_groups", 0, "components", 1, "slots"], "NIC1", "node_groups[0].components[1].slots", "list"),
        (
            ["node_groups", 0, "components", 1, "slots"],
            ["NIC1", 2] + ["NIC3"] * 6,
            "node_groups[0].components[1].slots[1]",
            "slot name",
        ),
        (["node_groups", 0, "components", 1, "slots"], ["NIC1"], "node_groups[0].components[1].slots", "one slot"),
        (["fabric"], "MQM9700-NS2F", "fabric", "object"),
        (["fabric", "switch"], DELETE, "fabric.switch", "required"),
        (["fabric", "oversubscription"], "2to1", "fabric.oversubscription", "1:1"),
        (["fabric", "oversubscription"], "0:1", "fabric.oversubscription", "above 0"),
        (["fabric", "oversubscription"], 2, "fabric.oversubscription", "string"),
        (["fabric", "topology"], "torus", "fabric.topology", "rail-optimized"),
        (["fabric", "rails"], 0, "fabric.rails", "at least 1"),
        (["fabric", "rack"], {"nodes_per_rack": 0}, "fabric.rack.nodes_per_rack", "at least 1"),
        (["fabric", "rack"], {"leaf_to_spine_m": -5}, "fabric.rack.leaf_to_spine_m", "positive"),
        (["fabric", "rack"], {"leaf_to_spine_m": 20000}, "fabric.rack.leaf_to_spine_m", "absurd"),
    ],
)
def test_rejects_bad_field_by_path(path, value, field, words):
    errors = bad(edited(path, value))
    assert field in errors, errors
    assert words in errors[field]


def test_reports_every_bad_field_at_once():
    doc = edited(["schema"], DELETE)
    doc["node_groups"][0]["count"] = 0
    doc["node_groups"][0]["components"][1]["quantity"] = "8"
    doc["fabric"]["topology"] = "ring"
    assert set(bad(doc)) == {
        "schema",
        "node_groups[0].count",
        "node_groups[0].components[1].quantity",
        "fabric.topology",
    }


def test_total_nodes_over_the_limit_is_absurd():
    doc = copy.deepcopy(CONTRACT_EXAMPLE)
    doc["node_groups"] = [dict(doc["node_groups"][0], name=f"g{i}", count=60_000) for i in range(2)]
    errors = bad(doc)
    assert "absurd" in errors["node_groups"] and "120,000" in errors["node_groups"]


@pytest.mark.parametrize("raw", [None, [], "design/v1", 42, True])
def test_rejects_a_document_that_is_not_an_object(raw):
    assert "object" in bad(raw)["design"]


# --- references -----------------------------------------------------------------------------------------------


def refs_errors(d) -> dict[str, str]:
    with pytest.raises(DesignInputError) as exc:
        check_references(d, CATALOG)
    return exc.value.errors


@pytest.mark.parametrize(
    "d, field, message",
    [
        (design(group("SYS-999-NOPE", comp(HGX_H200))), "node_groups[0].server", "unknown part number 'SYS-999-NOPE'"),
        (
            design(group("MQM9700-NS2F", comp(HGX_H200))),
            "node_groups[0].server",
            "'MQM9700-NS2F' is a switch, not a server",
        ),
        (design(group("MCX75310AAS-NEAT")), "node_groups[0].server", "'MCX75310AAS-NEAT' is an adapter, not a server"),
        (
            design(group(SYS_821GE_TNHR, comp(HGX_H200), comp(CX7_NDR, 8), comp("XYZ-1", 1))),
            "node_groups[0].components[2].part",
            "unknown part number 'XYZ-1'",
        ),
        # the issue's own example: a server given where an adapter belongs
        (
            design(group(SYS_821GE_TNHR, comp(HGX_H200), comp("SYS-822GS-NBRT", 8))),
            "node_groups[0].components[1].part",
            "'SYS-822GS-NBRT' is a server, not a node component; a server belongs in node_groups[0].server",
        ),
        (
            design(hgx_node(), group(SYS_821GE_TNHR, comp(HGX_H200), comp("SYS-822GS-NBRT", 1), name="b")),
            "node_groups[1].components[1].part",
            "a server belongs in node_groups[1].server",
        ),
        (
            design(group(SYS_821GE_TNHR, comp(HGX_H200), comp("MQM9700-NS2F", 1))),
            "node_groups[0].components[1].part",
            "'MQM9700-NS2F' is a switch, not a node component; a switch belongs in fabric.switch",
        ),
        (
            design(group(SYS_821GE_TNHR, comp(HGX_H200), comp("MCP4Y10-N001", 8))),
            "node_groups[0].components[1].part",
            "'MCP4Y10-N001' is a cable, not a node component",
        ),
        (design(hgx_node(), fabric="SYS-821GE-TNHR"), "fabric.switch", "'SYS-821GE-TNHR' is a server, not a switch"),
        (design(hgx_node(), fabric="QM-NOPE"), "fabric.switch", "unknown part number 'QM-NOPE'"),
    ],
)
def test_check_references_names_the_field_and_what_was_expected(d, field, message):
    errors = refs_errors(d)
    assert field in errors, errors
    assert message in errors[field]


def test_hca_must_be_an_adapter():
    d = parse_design(edited(["fabric", "hca"], "HGX-H200-8GPU"))
    assert "'HGX-H200-8GPU' is a gpu, not an adapter (HCA)" in refs_errors(d)["fabric.hca"]
    d = parse_design(edited(["fabric", "hca"], "MCX75310AAS-NEAT"))
    check_references(d, CATALOG)


def test_round_trip_of_a_built_design():
    d = design(hgx_node(count=4), workload=("training", 70), fabric=True)
    assert parse_design(as_json(d)) == d
