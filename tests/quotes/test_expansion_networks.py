"""Growing a cluster with the networks beside its compute fabric: the storage systems do not grow with the nodes,
and the installed storage cables and out-of-band uplinks stay where they are (HGX H200 nodes with a BlueField-3
for storage on a QM9700 storage fabric, and a ConnectX-7 for in-band management)."""

from __future__ import annotations

import csv
import os

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from configurator.services import design_validate
from engines.cluster.expansion import recabling_tables
from engines.cluster.rackplan import growing_from
from engines.fabric.growth import Action
from engines.networks.plan import default_system_ports
from outputs.formats.cabling_csv import render as cabling_csv
from outputs.links import cabling_table, installed_ends
from quotes.services.expansion import Growth, expansion_plan, grown_document
from tests.factories import INBAND_ADAPTER, STORAGE_ADAPTER

from .test_expansion import h200

pytestmark = pytest.mark.usefixtures("seeded_catalog")


def with_storage(count: int, system_ports: int | None = None, *, inband: bool = False) -> dict:
    doc = h200(count)
    doc["node_groups"][0]["components"] += [STORAGE_ADAPTER, *([INBAND_ADAPTER] if inband else [])]
    if system_ports is not None:
        doc["networks"] = {"storage": {"system_ports": system_ports}}
    return doc


def storage_rows(result) -> list[dict]:
    return [r for r in csv.DictReader(cabling_csv(result, "en")) if r["network"] == "storage"]


def storage_node_leaf(answer: dict, action: str) -> list[dict]:
    return [
        r
        for r in answer["recabling"]
        if r["network"] == "storage" and r["link_class"] == "node-leaf" and r["action"] == action
    ]


def ports(ends: dict) -> tuple:
    return tuple((ends[e]["device"], ends[e]["port"]) for e in ("a", "z"))


def test_the_storage_systems_take_the_first_storage_leaves_and_the_nodes_follow():
    result = design_validate(document=with_storage(64, system_ports=40), language="en")
    rows = storage_rows(result)
    systems = [r for r in rows if r["a_end"].startswith("storage-port-")]
    nodes = [r for r in rows if r["a_end"].startswith("node-")]
    assert [r["a_end"] for r in systems] == [f"storage-port-{i:04d}" for i in range(1, 41)]
    system_leaves = {r["z_end"] for r in systems}
    node_leaves = {r["z_end"] for r in nodes}
    assert not system_leaves & node_leaves  # leaves of their own, at 1:1
    assert "storage-leaf-001" in system_leaves
    assert max(system_leaves) < min(node_leaves)  # first the storage systems' leaves, then the nodes'


def test_growing_by_nodes_keeps_every_installed_storage_cable_and_the_storage_systems_reserved():
    installed = design_validate(document=with_storage(64), language="en")
    reserved = installed.network_plans["storage"].plan.system_ports
    assert reserved > 0  # the RA's proportion, by default

    grown = grown_document(with_storage(64), Growth(node_group="gpu", add=32), installed)
    assert grown["networks"]["storage"]["system_ports"] == reserved
    answer = expansion_plan(installed=with_storage(64), growth=Growth(node_group="gpu", add=32)).to_json()

    kept = storage_node_leaf(answer, "keep")
    assert len(kept) == 64 * 2 + reserved  # every node's two storage ports and every storage system's port
    assert not storage_node_leaf(answer, "move") and not storage_node_leaf(answer, "remove")
    assert all(r["old"] == r["new"] for r in kept)  # the same ports, racks and units at both ends
    assert len(storage_node_leaf(answer, "add")) == 32 * 2  # the added nodes' ports, and no storage system's
    (said,) = [f for f in answer["findings"] if f["code"] == "EXPANSION_STORAGE_SYSTEMS_KEPT"]
    greenfield = default_system_ports(96 * 2)  # what a new cluster of 96 nodes would reserve
    assert greenfield > reserved
    assert f"{reserved} storage-system ports are kept" in said["message"]
    assert f"would reserve {greenfield}." in said["message"]
    assert answer["network_plans"]["storage"]["system_ports"] == reserved


def test_storage_systems_the_design_states_are_kept_without_a_finding():
    installed = design_validate(document=with_storage(64, system_ports=16), language="en")
    grown = grown_document(with_storage(64, system_ports=16), Growth(node_group="gpu", add=32), installed)
    # The storage network as the design states it; the out-of-band switches where the installed plan put them.
    assert grown["networks"] == {"storage": {"system_ports": 16}, "oob": {"placement": "central"}}
    answer = expansion_plan(
        installed=with_storage(64, system_ports=16), growth=Growth(node_group="gpu", add=32)
    ).to_json()
    assert "EXPANSION_STORAGE_SYSTEMS_KEPT" not in {f["code"] for f in answer["findings"]}
    assert not storage_node_leaf(answer, "move")
    assert len(storage_node_leaf(answer, "keep")) == 64 * 2 + 16


def test_the_finding_is_said_in_dutch():
    answer = expansion_plan(
        installed=with_storage(64), growth=Growth(node_group="gpu", add=32), language="nl"
    ).to_json()
    (said,) = [f for f in answer["findings"] if f["code"] == "EXPANSION_STORAGE_SYSTEMS_KEPT"]
    assert "opslagsystemen" in said["message"] and "opslag" in said["fix"]


def test_growing_by_nodes_keeps_every_out_of_band_uplink_on_its_in_band_port():
    # The in-band pair's node ports are taken from p1 up and the out-of-band uplinks from the top down, so the
    # added nodes' ports do not push the installed uplinks onto other ports.
    answer = expansion_plan(installed=with_storage(64, inband=True), growth=Growth(node_group="gpu", add=32)).to_json()
    uplinks = [r for r in answer["recabling"] if r["network"] == "oob" and r["link_class"] == "leaf-uplink"]
    kept = [r for r in uplinks if r["action"] == "keep"]
    assert kept and all(r["new"]["z"]["device"].startswith("inband-") for r in kept)
    assert not [r for r in uplinks if r["action"] in ("move", "remove")]
    inband = [r for r in answer["recabling"] if r["network"] == "inband" and r["link_class"] == "node-leaf"]
    assert {r["action"] for r in inband} == {"keep", "add"}


def test_a_one_rack_clusters_management_rack_keeps_its_place_and_the_added_nodes_stand_after_it():
    # Two nodes with their switch in their rack, the management rack (storage, in-band and out-of-band switches)
    # beside it as R01-02: grown to three, the rack is still R01-02 with the same devices at the same units, and
    # the third node takes the next place of the row, R01-03 (a new cluster of three has its second compute rack
    # at R01-02 and its management rack in the second row).
    expansion = expansion_plan(installed=with_storage(2, inband=True), growth=Growth(node_group="gpu", add=1))
    before = {r.name: r for r in expansion.installed.rack_plan.plan.racks}
    after = {r.name: r for r in expansion.result.rack_plan.plan.racks}
    assert str(before["R01-02"].kind) == str(after["R01-02"].kind) == "management"
    assert after["R01-02"].devices == before["R01-02"].devices
    assert (str(after["R01-03"].kind), after["R01-03"].first_node, after["R01-03"].nodes) == ("compute", 2, 1)
    assert not {"EXPANSION_DEVICES_MOVED", "EXPANSION_RACK_POWER"} & {f.code for f in expansion.findings}
    greenfield = {
        r.name: str(r.kind) for r in design_validate(document=with_storage(3, inband=True)).rack_plan.plan.racks
    }
    management = [name for name, kind in greenfield.items() if kind == "management"]
    assert greenfield["R01-02"] == "compute" and management and all(n.startswith("R02-") for n in management)


def oob_device_cables(answer: dict, action: str) -> list[dict]:
    return [
        r
        for r in answer["recabling"]
        if r["network"] == "oob" and r["link_class"] == "device-leaf" and r["action"] == action
    ]


@pytest.mark.parametrize(("installed", "expanded", "added_core"), [(64, 96, "spine-09"), (96, 128, "storage-spine-05")])
def test_growing_keeps_every_installed_device_on_its_out_of_band_port(installed, expanded, added_core):
    # The central out-of-band switches stand in the management racks; the growth adds spines, storage leaves and
    # a scalable unit's racks beside them. Every installed BMC, switch management port and PDU stays on the switch
    # port it was cabled to: the added devices take the ports left free and the added switches.
    before = design_validate(document=with_storage(installed, inband=True), language="en")
    oob_devices = [r for r in csv.DictReader(cabling_csv(before, "en")) if r["network"] == "oob"]
    answer = expansion_plan(
        installed=with_storage(installed, inband=True), growth=Growth(node_group="gpu", add=expanded - installed)
    ).to_json()
    assert oob_device_cables(answer, "move") == []
    assert oob_device_cables(answer, "remove") == []
    kept = oob_device_cables(answer, "keep")
    assert len(kept) == sum(r["link_class"] == "device-leaf" for r in oob_devices)
    # device, port, rack and unit at both ends (the cord stays the installed one, whatever length the grown plan's
    # longer runs to the management racks choose for the added ports: Recabling.kept_parts)
    assert all((r["old"]["a"], r["old"]["z"]) == (r["new"]["a"], r["new"]["z"]) for r in kept)
    assert {r["old"]["a"]["device"] for r in kept} >= {"spine-01", "storage-leaf-001", "head-node-bcm-01"}
    added = oob_device_cables(answer, "add")
    assert added_core in {r["new"]["a"]["device"] for r in added}  # the management racks' devices grow too
    assert len({(r["new"]["z"]["device"], r["new"]["z"]["port"]) for r in kept + added}) == len(kept + added)


def oob_port_changed(change) -> bool:
    """An out-of-band device cable whose device (the same name and port) is on another switch port than it was."""
    c = change.change
    if change.network != "oob" or c.link_class != "device-leaf" or c.old is None or c.new is None:
        return False
    same_device = (c.old.a_end, c.old.a_port) == (c.new.a_end, c.new.a_port)
    return same_device and (c.old.z_end, c.old.z_port, c.old.z_rack, c.old.z_u) != (
        c.new.z_end,
        c.new.z_port,
        c.new.z_rack,
        c.new.z_u,
    )


def test_an_in_band_pair_that_becomes_leaves_under_spines_is_a_warning_in_both_languages():
    # 128 nodes' in-band network is one SN5600 pair; 256 nodes need leaves under spines: the growth says so, and a
    # quote of it waits for that. The pair becomes the first scalable unit's leaves, its node cables on their ports.
    installed, growth = with_storage(128, inband=True), Growth(node_group="gpu", add=128)
    answer = expansion_plan(installed=installed, growth=growth).to_json()
    (said,) = [f for f in answer["findings"] if f["code"] == "EXPANSION_NETWORK_TIER"]
    assert (said["severity"], said["subject"]) == ("warning", "networks.inband")
    assert "in-band network needs 2 tiers where the installed one has 1" in said["message"]
    assert "2 spine SN5600" in said["message"]
    assert "whose node cables stay on their ports" in said["message"]
    inband = [r for r in answer["recabling"] if r["network"] == "inband"]
    assert not [r for r in inband if r["action"] == "move"]
    assert {r["link_class"] for r in inband if r["action"] == "remove"} == {"peer"}  # the spines take their place
    dutch = expansion_plan(installed=installed, growth=growth, language="nl").to_json()
    (gezegd,) = [f for f in dutch["findings"] if f["code"] == "EXPANSION_NETWORK_TIER"]
    assert "in-band-netwerk van het uitgebreide cluster heeft 2 lagen nodig" in gezegd["message"]
    assert "waarvan de nodekabels op hun poorten blijven" in gezegd["message"]
    assert "onderhoudsvenster" in gezegd["fix"]
    smaller = expansion_plan(installed=with_storage(64, inband=True), growth=Growth(node_group="gpu", add=64))
    assert "EXPANSION_NETWORK_TIER" not in {f.code for f in smaller.findings}  # 128 nodes: still a pair


def test_an_in_band_pair_that_becomes_leaves_keeps_its_names_and_every_out_of_band_uplink():
    # 128 -> 256 nodes: the in-band pair becomes the first scalable unit's leaves under spines, where it stands. Its
    # two switches keep their names, so their node and management cables stay; every installed out-of-band switch's
    # uplinks stay on the pair's ports they were cabled to, and the added out-of-band switches' land on the last
    # scalable unit's leaves.
    installed = with_storage(128, inband=True)
    before = design_validate(document=installed, language="en")
    uplinks = [r for r in csv.DictReader(cabling_csv(before, "en")) if r["link_class"] == "leaf-uplink"]
    assert {r["z_end"] for r in uplinks} == {"inband-switch-01", "inband-switch-02"}
    answer = expansion_plan(installed=installed, growth=Growth(node_group="gpu", add=128)).to_json()
    changes = [r for r in answer["recabling"] if r["network"] in ("inband", "oob")]
    assert not [r for r in changes if r["action"] == "move"]
    grown = [r for r in changes if r["link_class"] == "leaf-uplink"]
    kept = [r for r in grown if r["action"] == "keep"]
    assert len(kept) == len(uplinks) and all(r["old"] == r["new"] for r in kept)
    assert {r["new"]["z"]["device"] for r in grown if r["action"] == "add"} == {
        "inband-su02-leaf-r1",
        "inband-su02-leaf-r2",
    }
    nodes = [r for r in changes if r["link_class"] == "node-leaf" and r["action"] == "keep"]
    assert len(nodes) == 128 * 2 and {r["new"]["z"]["device"] for r in nodes} == {
        "inband-switch-01",
        "inband-switch-02",
    }
    managed = {r["old"]["a"]["device"] for r in changes if r["link_class"] == "device-leaf" and r["action"] == "keep"}
    assert {"inband-switch-01", "inband-switch-02"} <= managed


def test_a_cluster_grown_twice_keeps_the_cables_its_first_growth_kept():
    # 64 -> 96 -> 128 -> 256 nodes, each growth planned from the one before (an expansion of an expansion quote):
    # each takes the installed ports from the installed cabling as it stands (the ports the growth before kept),
    # not from a fresh filling of the installed plan, so no out-of-band or in-band cable moves at any step.
    before = design_validate(document=with_storage(64, inband=True), language="en")
    for count in (96, 128, 256):
        with growing_from(before.rack_plan.plan, installed_ends(before)):
            after = design_validate(document=with_storage(count, inband=True), language="en")
        cables = recabling_tables(cabling_table(before), cabling_table(after))
        changed = [c for c in cables.changes if c.network in ("oob", "inband") and c.change.action == Action.MOVE]
        assert changed == [], count
        assert cables.count(Action.KEEP, "oob") > 0
        before = after


@settings(
    max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(installed=st.integers(2, 160), added=st.integers(1, 160), inband=st.booleans())
@example(installed=64, added=32, inband=True)  # a scalable unit more: storage leaves and in-band leaves are added
@example(installed=96, added=32, inband=True)  # the storage spines double
@example(installed=20, added=20, inband=True)  # the SuperPOD control plane from 32 nodes, in the BasePOD's places
@example(installed=2, added=1, inband=True)  # a one-rack cluster: its management rack stays beside its one rack
@example(installed=2, added=38, inband=True)  # ... and a second SU row and the control plane around it
def test_with_storage_and_in_band_networks_no_installed_device_moves(installed, added, inband):
    # The management racks hold the storage and in-band switches, the central out-of-band switches and the control
    # plane: the grown plan keeps them as they stand and racks what the growth adds around them; a one-rack
    # cluster's management rack keeps its place beside that rack, the grown cluster's compute racks after it.
    expansion = expansion_plan(
        installed=with_storage(installed, inband=inband), growth=Growth(node_group="gpu", add=added)
    )
    codes = {f.code for f in expansion.findings}
    assert expansion.cabling.moved == ()
    assert "EXPANSION_DEVICES_MOVED" not in codes
    for change in expansion.cabling.changes:
        c = change.change
        if c.action == Action.KEEP:
            assert c.old is not None and c.new is not None
            old_ends = (c.old.a_rack, c.old.a_u, c.old.z_rack, c.old.z_u)
            assert old_ends == (c.new.a_rack, c.new.a_u, c.new.z_rack, c.new.z_u)
    # An installed device keeps its out-of-band switch port (one an installed device no longer there left free may
    # be given to an added device).
    assert [c.change.old for c in expansion.cabling.changes if oob_port_changed(c)] == []


def test_doubling_the_storage_spines_of_nvl72_racks_keeps_half_of_the_storage_uplinks_where_they_are():
    # 8 GB200 NVL72 racks: 12 storage SN5600 leaves at 10 links to each of 6 spines; 16 racks: 24 leaves at 5 to
    # each of 12. A spine's 128 ports are no multiple of 10, yet the links that stay keep both ports: half move.
    gb200 = {
        "schema": "design/v1",
        "name": "GB200 NVL72 racks",
        "node_groups": [{"name": "gpu", "count": 8, "server": "SRS-GB200-NVL72", "components": []}],
        "fabric": {"switch": "MQM9700-NS2F"},
    }
    answer = expansion_plan(installed=gb200, growth=Growth(node_group="gpu", add=8)).to_json()
    storage = [r for r in answer["recabling"] if r["network"] == "storage" and r["link_class"] == "leaf-spine"]
    installed = [r for r in storage if r["action"] in ("keep", "move", "remove")]
    kept = [r for r in storage if r["action"] == "keep"]
    assert len(installed) == 12 * 60
    assert len(kept) == len(installed) // 2
    assert all(r["old"] == r["new"] for r in kept)
    new_ends = [(r["new"]["z"]["device"], r["new"]["z"]["port"]) for r in storage if r["new"] is not None]
    assert len(new_ends) == len(set(new_ends))  # no spine port twice
