"""The expansion of an installed cluster (quotes.services.expansion): HGX H200 nodes with eight ConnectX-7 each on a
rail-optimized QM9700 fabric, grown as the SuperPOD RA grows it (Table 4: 32 nodes a scalable unit)."""

from __future__ import annotations

import pytest
from django.test import override_settings

from configurator.services import design_validate
from design.model import DesignInputError
from engines.racks.distances import link_distances
from quotes.services.expansion import (
    Growth,
    expansion_compare,
    expansion_plan,
    grown_document,
    growth_parse,
    installed_document,
)

pytestmark = pytest.mark.usefixtures("seeded_catalog")


def h200(count: int) -> dict:
    return {
        "schema": "design/v1",
        "name": f"{count} x HGX H200",
        "node_groups": [
            {
                "name": "gpu",
                "count": count,
                "server": "SYS-821GE-TNHR",
                "components": [
                    {"part": "HGX-H200-8GPU", "quantity": 1},
                    {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
                ],
            }
        ],
        "fabric": {"switch": "MQM9700-NS2F"},
    }


def grow(installed: int, expanded: int) -> dict:
    return expansion_plan(
        installed=h200(installed), growth=Growth(node_group="gpu", add=expanded - installed)
    ).to_json()


def quantity(lines: list[dict], part: str) -> int:
    return sum(line["quantity"] for line in lines if line["part"] == part)


def cables(answer: dict, action: str, link_class: str, network: str = "compute") -> list[dict]:
    return [
        r
        for r in answer["recabling"]
        if r["action"] == action and r["link_class"] == link_class and r["network"] == network
    ]


@pytest.fixture(scope="module")
def grown_96_128(django_db_setup, django_db_blocker):
    from catalog.models import Part
    from catalog.services import catalog_load_seed

    with django_db_blocker.unblock():
        if not Part.objects.exists():
            catalog_load_seed()
        return grow(96, 128)


def test_96_to_128_buys_32_servers_and_8_leaves_and_no_negative_line(grown_96_128):
    answer = grown_96_128
    assert {"delta_bom", "unused", "recabling", "moved_devices", "findings"} <= answer.keys()
    assert answer["valid"] is True
    assert quantity(answer["delta_bom"], "SYS-821GE-TNHR") == 32
    assert quantity(answer["delta_bom"], "HGX-H200-8GPU") == 32
    assert quantity(answer["delta_bom"], "MQM9700-NS2F") == 8  # 8 leaves, 0 spines (RA Table 4: 4 SU, 32 leaves)
    assert all(line["quantity"] > 0 for line in answer["delta_bom"] + answer["unused"])
    assert answer["unused"] == []  # the kept cables stay the installed parts, whatever length 128 nodes would pick


def test_96_to_128_keeps_every_installed_fabric_cable_and_moves_no_device(grown_96_128):
    answer = grown_96_128
    for link_class in ("node-leaf", "leaf-spine"):
        assert len(cables(answer, "keep", link_class)) == 768
        assert len(cables(answer, "add", link_class)) == 256
        assert cables(answer, "move", link_class) == cables(answer, "remove", link_class) == []
    kept = cables(answer, "keep", "leaf-spine")[0]
    assert kept["old"]["a"] == kept["new"]["a"] and kept["old"]["z"] == kept["new"]["z"]
    assert kept["new"]["a"]["rack"] and kept["new"]["a"]["u"]
    assert answer["moved_devices"] == []
    assert "EXPANSION_UNIT_BOUNDARY" in {f["code"] for f in answer["findings"]}


def test_the_labour_line_counts_every_moved_and_added_cable(grown_96_128):
    answer = grown_96_128
    moved_or_added = sum(1 for r in answer["recabling"] if r["action"] in ("move", "add"))
    (labour,) = [line for line in answer["delta_bom"] if line["part"] == "SVC-RECABLE"]
    assert labour["quantity"] == moved_or_added == answer["expansion"]["labour_cables"]
    assert labour["section"] == "services"
    assert labour["unit_price_eur"] == "40.00"  # the setting's placeholder


@override_settings(QUOTE_SERVICE_RECABLE_EUR_PER_CABLE="")
def test_the_labour_line_is_on_request_without_a_price():
    answer = expansion_plan(installed=h200(4), growth=Growth(add=4)).to_json()
    (labour,) = [line for line in answer["delta_bom"] if line["part"] == "SVC-RECABLE"]
    assert labour["unit_price_eur"] is None


def test_64_to_96_moves_at_most_half_the_leaf_spine_cables_and_kept_cables_keep_both_ends():
    answer = grow(64, 96)
    uplinks = len(cables(answer, "keep", "leaf-spine")) + len(cables(answer, "move", "leaf-spine"))
    assert uplinks == 512
    assert len(cables(answer, "move", "leaf-spine")) <= 256
    for row in answer["recabling"]:
        if row["action"] == "keep":
            assert row["old"]["a"] == row["new"]["a"] and row["old"]["z"] == row["new"]["z"]
    assert answer["moved_devices"] == []


def test_256_to_512_names_the_new_core_switches():
    answer = grow(256, 512)
    (tier,) = [f for f in answer["findings"] if f["code"] == "EXPANSION_NEW_TIER"]
    assert tier["severity"] == "warning"
    assert "MQM9700-NS2F" in tier["message"] and "core" in tier["message"]
    assert answer["findings"][0]["code"] == "EXPANSION_NEW_TIER"  # what the growth crosses comes first


def test_a_new_node_group_is_added_beside_the_installed_one():
    group = dict(h200(8)["node_groups"][0], name="gpu2")
    answer = expansion_plan(installed=h200(8), growth=growth_parse({"node_groups": [group]})).to_json()
    assert quantity(answer["delta_bom"], "SYS-821GE-TNHR") == 8


def test_a_frozen_quote_is_read_as_its_design():
    assert installed_document({"schema": "quote/v1", "design": h200(4)}) == h200(4)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"node_group": "gpu"}, "add"),
        ({"node_group": "gpu", "add": 0}, "add"),
        ({"node_group": "gpu", "add": "32"}, "add"),
        ({"node_group": 7, "add": 32}, "node_group"),
        ({"node_groups": []}, "node_groups"),
        ({"node_groups": [{}], "add": 3}, "node_groups"),
        ([], "body"),
    ],
)
def test_a_bad_growth_names_its_field(body, field):
    with pytest.raises(DesignInputError) as refused:
        growth_parse(body)
    assert field in refused.value.errors


def test_an_unknown_node_group_is_refused_by_name():
    with pytest.raises(DesignInputError) as refused:
        expansion_plan(installed=h200(4), growth=Growth(node_group="cpu", add=4))
    assert "cpu" in refused.value.errors["node_group"]


def test_a_new_node_group_named_as_an_installed_one_is_refused_naming_the_field():
    # Its name is its handle in the racks, the bill and the next expansion: a second "gpu" would be ambiguous.
    again = {**h200(4)["node_groups"][0]}
    with pytest.raises(DesignInputError) as refused:
        expansion_plan(installed=h200(8), growth=Growth(node_groups=(again,)))
    assert "'gpu'" in refused.value.errors["node_groups[0].name"]
    unnamed = {k: v for k, v in again.items() if k != "name"}  # "group 2": no installed group is named so
    assert expansion_plan(installed=h200(8), growth=Growth(node_groups=(unnamed,))).cabling.moved == ()


def test_two_node_groups_of_one_name_are_refused_naming_the_second():
    group = h200(4)["node_groups"][0]
    with pytest.raises(DesignInputError) as refused:
        design_validate(document={**h200(4), "node_groups": [group, group]}, language="en")
    assert "node_groups[0] too" in refused.value.errors["node_groups[1].name"]


def test_nodes_added_to_an_installed_rack_are_a_power_finding_naming_it():
    answer = grow(3, 4)  # two nodes a rack: the fourth joins the third in rack R01-02
    (power,) = [f for f in answer["findings"] if f["code"] == "EXPANSION_RACK_POWER"]
    assert "R01-02" in power["message"] and "R01-01" not in power["message"]


@pytest.mark.parametrize(("installed", "expanded"), [(4, 6), (20, 30), (40, 100), (64, 80)])
def test_growth_below_a_whole_scalable_unit_moves_no_installed_device(installed, expanded):
    answer = grow(installed, expanded)
    assert answer["moved_devices"] == []
    assert "EXPANSION_DEVICES_MOVED" not in {f["code"] for f in answer["findings"]}


def test_a_one_rack_cluster_grows_around_its_rack_and_the_new_node_cables_to_the_installed_switch():
    answer = grow(2, 3)  # the one switch stands in the nodes' rack, and stays there for the third node
    assert answer["moved_devices"] == []
    assert "EXPANSION_DEVICES_MOVED" not in {f["code"] for f in answer["findings"]}
    (first, *_others) = [r for r in answer["rack_plan"]["racks"] if r["name"] == "R01-01"]
    assert [(d["part"], d["position_u"]) for d in first["devices"] if d["part"] == "MQM9700-NS2F"] == [
        ("MQM9700-NS2F", 41)
    ]
    added = [c["new"] for c in answer["recabling"] if c["network"] == "compute" and c["action"] == "add"]
    assert len(added) == 8  # one cable a rail
    assert {(c["a"]["device"], c["a"]["rack"], c["z"]["device"], c["z"]["rack"]) for c in added} == {
        ("node-0003", "R01-02", "switch-01", "R01-01")
    }
    assert quantity(answer["delta_bom"], "MQM9700-NS2F") == 0


def test_plans_that_do_move_an_installed_device_say_which_and_why():
    # Two greenfield plans compared: the three-node one has its switch in a leaf rack, not in the nodes' rack.
    expansion = expansion_compare(
        before=design_validate(document=h200(2), language="en"),
        after=design_validate(document=h200(3), language="en"),
        language="en",
    )
    assert [m["device"] for m in expansion.cabling.moved_json()] == ["switch-01"]
    (moved,) = [f.to_json() for f in expansion.findings if f.code == "EXPANSION_DEVICES_MOVED"]
    assert moved["severity"] == "warning"
    assert "R01-01 at U41" in moved["message"] and "one rack" in moved["fix"]


@pytest.mark.parametrize(("installed", "expanded"), [(3, 4), (20, 40), (3, 40)])
def test_a_control_plane_step_racks_its_servers_in_the_places_kept_free_and_moves_no_switch(installed, expanded):
    # None to five BasePOD servers, five to ten SuperPOD servers and two UFM appliances: the out-of-band
    # switches racked below the control plane stay at their units.
    answer = grow(installed, expanded)
    assert answer["moved_devices"] == []
    assert "EXPANSION_DEVICES_MOVED" not in {f["code"] for f in answer["findings"]}
    assert any(line["part"] == "HEAD-NODE-BCM" for line in answer["delta_bom"]) == (installed < 4)


def test_installed_plus_delta_less_unused_is_the_greenfield_bill_but_for_the_kept_cables():
    expansion = expansion_plan(installed=h200(64), growth=Growth(add=32))
    kept = expansion.cabling.kept_parts()  # a kept cable stays the installed part where 96 nodes would pick another
    totals: dict[str, int] = {}
    for sign, lines in ((1, expansion.installed.bom), (1, expansion.bill.delta), (-1, expansion.bill.unused)):
        for line in lines:
            totals[line.part_number] = totals.get(line.part_number, 0) + sign * line.quantity
    greenfield: dict[str, int] = {}
    for line in expansion.result.bom:
        greenfield[line.part_number] = greenfield.get(line.part_number, 0) + line.quantity
    for part, n in kept.items():
        greenfield[part] = greenfield.get(part, 0) + n
    assert {p: n for p, n in totals.items() if n} == {p: n for p, n in greenfield.items() if n}


@pytest.mark.parametrize(
    ("installed", "added", "networks"), [(16, 4, False), (18, 73, False), (29, 98, True), (30, 2, False)]
)
def test_growing_nodes_without_a_compute_fabric_keeps_the_management_rack_where_it_stands(installed, added, networks):
    # No scalable unit cuts the rows: the management rack stands after the installed compute racks, where a grown
    # plan of more rows would not put it. It keeps its place; the compute racks added come after it.
    document = {**h200(installed), "fabric": None}
    if networks:  # a storage and an in-band adapter a node: their switches stand in the management rack too
        (group,) = document["node_groups"]
        adapters = [
            {"part": "900-9D3B6-00CN-AB0", "quantity": 1, "role": "storage"},
            {"part": "MCX755106AS-HEAT", "quantity": 1, "role": "management"},
        ]
        document["node_groups"] = [{**group, "components": [*group["components"], *adapters]}]
    answer = expansion_plan(installed=document, growth=Growth(node_group="gpu", add=added))
    assert answer.cabling.moved == ()
    assert "EXPANSION_DEVICES_MOVED" not in {f.code for f in answer.findings}


def test_nvl72_racks_added_to_an_hgx_cluster_leave_its_racks_as_they_stand():
    # GB200 NVL72 racks raise the design's default facility (liquid, 80 kW a rack) and make its racks dense: packed
    # afresh, the installed air-cooled racks would take five H200 nodes each and an out-of-band switch each. The
    # grown plan racks the installed group no denser than installed, and keeps the out-of-band switches central.
    nvl72 = {"name": "nvl", "count": 2, "server": "SRS-GB200-NVL72", "components": []}
    answer = expansion_plan(installed=h200(16), growth=Growth(node_groups=(nvl72,)))
    assert answer.cabling.moved == ()
    racks = {r.name: r for r in answer.result.rack_plan.plan.racks}
    assert all(r.nodes == 2 for r in racks.values() if r.node_group == "gpu")
    assert answer.result.network_plans["oob"].plan.placement == "central"


def test_a_group_in_one_rack_grows_at_the_density_a_rack_takes():
    # One installed node says nothing of how many a rack holds: the grown nodes are racked two a rack, as a new
    # cluster's are, not one a rack as the installed one stands.
    answer = expansion_plan(installed=h200(1), growth=Growth(node_group="gpu", add=7))
    assert [r.nodes for r in answer.result.rack_plan.plan.racks if r.nodes] == [2, 2, 2, 2]


def test_racks_without_a_compute_fabric_still_list_the_cables_of_their_other_networks():
    # GB300 NVL72 racks joined by NVLink alone: no compute fabric to cable, but the out-of-band and north-south
    # networks are cabled, and growing the cluster adds (and pays for) their cables.
    racks = {
        "schema": "design/v1",
        "name": "nvl72",
        "node_groups": [{"name": "nvl", "count": 2, "server": "SRS-GB300-NVL72", "components": []}],
    }
    answer = expansion_plan(installed=racks, growth=Growth(node_group="nvl", add=2)).to_json()
    assert answer["fabric_plan"] is None
    networks = {r["network"] for r in answer["recabling"]}
    assert "oob" in networks and "compute" not in networks
    added = [r for r in answer["recabling"] if r["action"] == "add"]
    assert added and all(r["old"] is None for r in added)
    # every added cable starts in a rack, but a storage system's port (the customer's storage, in no rack)
    assert all(r["new"]["a"]["rack"] or r["new"]["a"]["device"].startswith("storage-port-") for r in added)
    (labour,) = [line for line in answer["delta_bom"] if line["part"] == "SVC-RECABLE"]
    assert labour["quantity"] == sum(1 for r in answer["recabling"] if r["action"] in ("move", "add"))


def test_growing_by_a_whole_unit_keeps_the_out_of_band_cable_of_every_installed_node():
    # The central out-of-band switches give the compute racks their ports first, in the order of their nodes, so
    # the racks the growth adds take new ports and no installed BMC or rack PDU is re-terminated (64 -> 96: the
    # spines grow, and their racks' devices come after every compute rack's).
    answer = grow(64, 96)
    kept = cables(answer, "keep", "device-leaf", "oob")
    assert len({r["old"]["a"]["device"] for r in kept if r["old"]["a"]["device"].startswith("node-")}) == 64
    moved = [r["old"]["a"]["device"] for r in cables(answer, "move", "device-leaf", "oob")]
    assert [d for d in moved if d.startswith("node-")] == []


def nvl72(racks: int) -> dict:
    return {
        "schema": "design/v1",
        "name": f"{racks} x GB200 NVL72",
        "node_groups": [{"name": "gpu", "count": racks, "server": "SRS-GB200-NVL72", "components": []}],
        "fabric": {"switch": "MQM9700-NS2F"},
    }


@pytest.mark.parametrize(
    ("installed", "expanded"),
    [(1, 2), (2, 4), (4, 8), (3, 7), (8, 12), (8, 16), (5, 16), (12, 20), (16, 32), (16, 17)],
)
def test_growing_a_row_of_nvl72_racks_moves_no_installed_device(installed, expanded):
    # A row of rack-scale systems is filled like an SU row (the GB200 SuperPOD RA's 8 racks): its leaf rack stands
    # where the full row has it, the racks it lacks kept free, so added racks take those places. Its leaf rack holds
    # the leaves of the fabric units that start in the row (a row's 144 trays are 4.5 units of 32), not an even
    # share of all leaves: a full row keeps its leaves and a new row brings its own (8 -> 16 moved two of them).
    # 17 racks' fabric has 11 units of 28 trays, not 10 of 32: the rows still hold the units of 32 that start in them.
    answer = expansion_plan(installed=nvl72(installed), growth=Growth(node_group="gpu", add=expanded - installed))
    assert answer.cabling.moved == ()
    assert "EXPANSION_DEVICES_MOVED" not in {f.code for f in answer.findings}
    racks = {r.name for r in answer.installed.rack_plan.plan.racks}
    assert racks <= {r.name for r in answer.result.rack_plan.plan.racks}


def two_groups(a: int, b: int) -> dict:
    first, second = h200(a)["node_groups"][0], h200(b)["node_groups"][0]
    return {**h200(a), "node_groups": [first, {**second, "name": "b"}]}


@pytest.mark.parametrize(("a", "b", "add", "topology"), [(16, 8, 8, "rail-optimized"), (40, 20, 24, "fat-tree")])
def test_growing_a_node_group_with_another_racked_after_it_adds_its_nodes_as_a_group_of_their_own(a, b, add, topology):
    # The first group's racks come before the second's: its added nodes form a group of their own after both, with
    # the same server and parts, so the second group's servers keep their racks, units and names.
    installed = two_groups(a, b)
    installed["fabric"]["topology"] = topology
    growth = Growth(node_group="gpu", add=add)
    grown = [(g["name"], g["count"], g["server"]) for g in grown_document(installed, growth)["node_groups"]]
    assert grown == [("gpu", a, "SYS-821GE-TNHR"), ("b", b, "SYS-821GE-TNHR"), ("gpu-2", add, "SYS-821GE-TNHR")]
    answer = expansion_plan(installed=installed, growth=growth)
    assert answer.cabling.moved == ()
    assert "EXPANSION_DEVICES_MOVED" not in {f.code for f in answer.findings}
    assert quantity(answer.to_json()["delta_bom"], "SYS-821GE-TNHR") == add


@pytest.mark.parametrize(
    ("language", "said"), [("en", "grow the last node group"), ("nl", "laat de laatste nodegroep groeien")]
)
def test_plans_where_a_grown_group_pushes_the_next_along_say_what_moves(language, said):
    # Two greenfield plans compared: the first group grown in place pushes the second group's servers along. The
    # rack plans hold as many servers of that part at those places, so only the re-cabling sees them move; the
    # comparison says so, as a warning a sales engineer accepts before a quote is issued.
    answer = expansion_compare(
        before=design_validate(document=two_groups(16, 8), language=language),
        after=design_validate(document=two_groups(24, 8), language=language),
        language=language,
    )
    assert answer.cabling.moved
    (moved,) = [f.to_json() for f in answer.findings if f.code == "EXPANSION_DEVICES_MOVED"]
    assert moved["severity"] == "warning" and said in moved["fix"]
    assert f"{len(answer.cabling.moved)}" in moved["message"] and "SYS-821GE-TNHR" in moved["message"]


def test_growing_the_last_node_group_moves_nothing():
    answer = expansion_plan(installed=two_groups(32, 32), growth=Growth(node_group="b", add=32))
    assert answer.cabling.moved == ()
    assert "EXPANSION_DEVICES_MOVED" not in {f.code for f in answer.findings}


@pytest.mark.parametrize(
    ("topology", "a", "b", "add", "new"),
    [
        ("rail-optimized", 16, 8, 0, 8),
        ("rail-optimized", 16, 16, 40, 0),
        ("rail-optimized", 16, 8, 8, 0),
        ("fat-tree", 16, 8, 8, 0),
        ("fat-tree", 40, 20, 4, 0),
        ("fat-tree", 16, 8, 0, 8),
    ],
)
def test_growing_the_last_node_group_or_adding_one_moves_no_installed_device(topology, a, b, add, new):
    # Several groups share one fabric, its nodes one after the other: a fabric unit's leaves stand in the row that
    # holds its first node at its full size, whichever group that row is of, not an even share of all leaves over
    # the rows. Growing the last group or adding a group after it only adds racks and leaves behind the installed
    # ones (16 + 8 rail-optimized nodes had their 8 leaves 4 and 4 over two rows, 3 of each row's over three rows
    # once a third group came).
    installed = two_groups(a, b)
    installed["fabric"] = {**installed["fabric"], "topology": topology}
    group = {**installed["node_groups"][1], "name": "c", "count": new}
    growth = Growth(node_groups=(group,)) if new else Growth(node_group="b", add=add)
    answer = expansion_plan(installed=installed, growth=growth)
    assert answer.cabling.moved == ()
    assert "EXPANSION_DEVICES_MOVED" not in {f.code for f in answer.findings}
    racks = {r.name for r in answer.installed.rack_plan.plan.racks}
    assert racks <= {r.name for r in answer.result.rack_plan.plan.racks}


def test_a_second_groups_nodes_are_cabled_to_their_units_leaves_in_the_row_before():
    # 16 + 8 rail-optimized nodes are one fabric unit: its 8 leaves stand in one leaf rack in the first group's
    # row, so the second group's nodes reach it a row back, and the node-to-leaf run is measured between the rows.
    plan = expansion_plan(installed=two_groups(16, 8), growth=Growth(node_group="b", add=8)).installed.rack_plan.plan
    leaf_racks = [r.name for r in plan.racks if any(d.role == "leaf" for d in r.devices)]
    assert leaf_racks == ["R01-09"] and plan.leaf_reach_back_rows == 1
    assert link_distances(plan)["node_to_leaf_m"].route == "between-rows"


def test_spines_that_stand_where_they_stood_keep_their_names_when_the_fabric_grows_a_third_tier():
    answer = grow(256, 384)  # two tiers to three: the planners would call the installed spines pod01-spine-NN
    moved = [r for r in answer["recabling"] if r["action"] == "move"]
    assert not [r for r in moved if r["network"] == "oob"]  # the 32 spines' management cables stay as they are
    spines = {f"spine-{i:02d}" for i in range(1, 33)}
    assert {r["new"]["z"]["device"] for r in moved} & spines == spines  # named as installed, on other ports
    kept = [r for r in answer["recabling"] if r["new"] and r["new"]["z"]["device"].startswith("pod01-spine-")]
    assert kept == []  # the installed spines are spine-01 ... spine-32 in the grown list too
    assert len(cables(answer, "move", "leaf-spine")) == 1536  # only the spine ports 33-64 turned to the cores


def test_the_one_switch_that_becomes_a_rail_leaf_takes_its_new_name_as_its_node_cables_move():
    answer = grow(8, 24)  # switch-01 had every rail of the 8 nodes; su01-leaf-r1 has rail 1 of 32
    moved = cables(answer, "move", "node-leaf")
    assert len(moved) == 64 and {r["old"]["z"]["device"] for r in moved} == {"switch-01"}
    assert {r["new"]["z"]["device"] for r in moved} == {f"su01-leaf-r{r}" for r in range(1, 9)}


def test_no_compute_switch_is_renamed_without_installed_ends_or_where_two_would_share_a_name():
    import dataclasses

    from engines.cluster.fabric_names import compute_switches, kept_names
    from engines.cluster.installed_ends import InstalledEnds

    result = design_validate(document=h200(64), language="en")
    section, fabric = result.rack_plan, result.fabric_plan.plan
    counts = {g["group"]: g["count"] for g in result.totals.groups}
    assert section.installed_ends is None and kept_names(section, fabric, counts) == {}
    (a, spot_a), (b, spot_b), *_ = [s for s in compute_switches(section, fabric) if s[1][0] == "spine"]
    swap = dataclasses.replace(section, installed_ends=InstalledEnds(names={spot_a: b, spot_b: a}))
    assert kept_names(swap, fabric, counts) == {a: b, b: a}
    clash = dataclasses.replace(section, installed_ends=InstalledEnds(names={spot_a: b}))
    assert kept_names(clash, fabric, counts) == {}  # spine a as b beside spine b: keep none
