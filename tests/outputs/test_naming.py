"""Issue #34, the naming template: the design's ``site`` (prefix, digits, first) names the nodes and compute
switches alike in the cabling CSV, topology.conf, topology.yaml, fabric.topo and the cut-sheet; absent (or empty),
the names are the planners' own, byte for byte."""

from __future__ import annotations

import csv

import hostlist
import pytest
import yaml

from configurator.services import design_validate
from tests.outputs.handover_parsers import links_of, read_ibdm, read_topology_conf
from tests.outputs.test_handover import compute_rows, cut_sheet, hgx, text

pytestmark = pytest.mark.django_db

EXPORTS = ("cabling.csv", "topology.conf", "topology.yaml", "fabric.topo")


def _end(name: str, port: str, node: bool) -> tuple[str, str]:
    if node:
        number, _, link = port.removeprefix("nic").partition(".")
        return f"{name}/mlx5_{int(number) - 1}", f"P{link or 1}"
    return name, "P" + port.removeprefix("p").replace(".", "/")


def test_an_empty_site_keeps_every_name(seeded_catalog):
    plain, empty = design_validate(document=hgx(8)), design_validate(document={**hgx(8), "site": {}})
    for name in EXPORTS:
        assert text(plain, name) == text(empty, name)
    assert cut_sheet(plain) == cut_sheet(empty)


def test_nodes_and_switches_follow_the_template_in_every_export(seeded_catalog):
    result = design_validate(document={**hgx(8), "site": {"prefix": "gpu", "digits": 3, "first": 0}})
    assert result.valid
    rows = compute_rows(result)
    nodes = {r["a_end"] for r in rows if r["link_class"] == "node-leaf"}
    assert nodes == {f"gpu{n:03d}" for n in range(8)}
    switches = {r["z_end"] for r in rows} | {r["a_end"] for r in rows if r["link_class"] != "node-leaf"}
    assert switches and all(s.startswith("gpu-") and s.removeprefix("gpu-")[0].isalpha() for s in switches)
    every = list(csv.DictReader(text(result, "cabling.csv").splitlines()))
    assert not [r for r in every if r["a_end"].startswith("node-") or r["z_end"].startswith("node-")]
    assert {r["a_end"] for r in every if r["network"] == "inband" and r["link_class"] == "node-leaf"} <= nodes
    conf = text(result, "topology.conf")
    assert "gpu[000-007]" in conf
    listed = [n for e in read_topology_conf(conf).values() if "Switches" not in e for n in e.get("Nodes", [])]
    assert sorted(listed) == sorted(nodes)
    doc = yaml.safe_load(text(result, "topology.yaml"))
    tree = [n for s in doc[0]["tree"]["switches"] if "nodes" in s for n in hostlist.expand_hostlist(s["nodes"])]
    assert sorted(tree) == sorted(nodes)
    links = {
        frozenset(
            (
                _end(r["a_end"], r["a_port"], r["link_class"] == "node-leaf"),
                _end(r["z_end"], r["z_port"], False),
            )
        )
        for r in rows
    }
    assert links_of(read_ibdm(text(result, "fabric.topo"))) == links
    sheet, listed_nodes = cut_sheet(result)
    assert sorted(row[0] for row in sheet) == sorted(r["a_end"] for r in rows)
    assert {row[4] for row in sheet} == {r["z_end"] for r in rows}
    assert nodes <= set(listed_nodes) and not any(n.startswith("node-") for n in listed_nodes)


def test_a_prefix_ending_in_a_dash_is_not_doubled(seeded_catalog):
    result = design_validate(document={**hgx(4), "site": {"prefix": "ams1-"}})
    rows = compute_rows(result)
    assert rows[0]["a_end"] == "ams1-0001" and rows[0]["z_end"].startswith("ams1-") and "--" not in rows[0]["z_end"]


def test_the_slurm_leaves_of_a_rail_optimized_fabric_take_the_prefix(seeded_catalog):
    plain = read_topology_conf(text(design_validate(document=hgx(64)), "topology.conf"))
    named = read_topology_conf(text(design_validate(document={**hgx(64), "site": {"prefix": "gpu"}}), "topology.conf"))
    leaves = sorted(name for name, e in plain.items() if "Switches" not in e)
    assert sorted(name for name, e in named.items() if "Switches" not in e) == [f"gpu-{leaf}" for leaf in leaves]
