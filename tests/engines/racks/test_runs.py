"""Identical racks are planned and kept once, as a run with a count: every answer about the plan is the one the
same racks written out one by one give (rack_plan JSON, distances, elevation, locations, totals, findings)."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.racks import (
    Cooling,
    Facility,
    Feeds,
    LeafPlacement,
    NodeGroup,
    PduOption,
    RackPlan,
    RackRun,
    SwitchGroup,
    SwitchRole,
    link_distances,
    node_location,
    plan_racks,
    render_elevation_svg,
    switch_locations,
)
from engines.racks.model import DeviceRole, rack_entries
from engines.racks.ranges import PLACE_KEYS, expand_names

from .parts import EN, PDU_22K, air_nodes, cores, leaves, liquid_nodes, mgmt, spines


def one_by_one(plan: RackPlan) -> RackPlan:
    """The same plan with every rack a run of its own."""
    return replace(plan, runs=tuple(RackRun(r, 1, (r.name,)) for r in plan.racks))


def node_group(name: str) -> st.SearchStrategy[NodeGroup]:
    return st.builds(
        NodeGroup,
        name=st.just(name),
        part=st.sampled_from(["SRV-A", "SRV-B"]),
        count=st.integers(0, 300),
        height_u=st.sampled_from([1, 2, 4, 8, 10]),
        power_w=st.one_of(st.none(), st.integers(300, 16_000)),
        cooling=st.one_of(st.none(), st.sampled_from([Cooling.AIR, Cooling.LIQUID])),
        inlets=st.one_of(st.none(), st.integers(0, 8)),
        su_nodes=st.one_of(st.none(), st.sampled_from([8, 16, 32])),
    )


def switch(role: SwitchRole) -> st.SearchStrategy[SwitchGroup]:
    return st.builds(
        SwitchGroup,
        role=st.just(role),
        part=st.sampled_from(["SW-A", "SW-B"]),
        count=st.integers(0, 90),
        height_u=st.one_of(st.none(), st.sampled_from([1, 2])),
        power_w=st.one_of(st.none(), st.sampled_from([0, 750, 1_700, 40_000])),
    )


plans = st.builds(
    plan_racks,
    node_groups=st.lists(
        st.one_of(node_group("g0"), node_group("g1")), min_size=1, max_size=3, unique_by=lambda g: g.name
    ),
    switches=st.lists(st.one_of([switch(role) for role in SwitchRole]), max_size=5),
    facility=st.builds(
        Facility,
        rack_units=st.sampled_from([12, 42, 48]),
        rack_power_kw=st.one_of(st.none(), st.sampled_from([15, 30, 60, 80])),
        cooling=st.one_of(st.none(), st.sampled_from([Cooling.AIR, Cooling.LIQUID])),
        pdu_feeds=st.sampled_from([Feeds.A, Feeds.AB]),
    ),
    pdu_options=st.lists(
        st.builds(
            PduOption,
            part=st.just("PDU"),
            rating_w=st.sampled_from([7_400, 22_000]),
            outlets=st.one_of(st.none(), st.just(24)),
            cord=st.just("plug"),
            outlet_type=st.just("C19"),
            height_u=st.sampled_from([0, 1]),
        ),
        max_size=1,
    ),
    leaf_placement=st.sampled_from(list(LeafPlacement)),
)


@settings(max_examples=120, deadline=None)
@given(plan=plans)
def test_a_plan_of_runs_answers_as_its_racks_one_by_one(plan):
    single = one_by_one(plan)
    assert plan.rack_count == len(plan.racks) == sum(len(row.racks) for row in plan.rows)
    assert [r.name for r in plan.racks] == [name for row in plan.rows for name in row.racks]
    written = plan.to_dict()
    assert written == single.to_dict()
    # each entry is a distinct rack content with its count; its ranges, in plan order, cover the rows' racks in order
    entries = written["racks"]
    assert sum(e["count"] for e in entries) == plan.rack_count
    assert all(e["count"] == sum(r["count"] for r in e["ranges"]) for e in entries)
    contents = [
        {k: v for k, v in e.items() if k not in ("name", "count", "last_name", "ranges", *PLACE_KEYS)} for e in entries
    ]
    assert all(a != b for i, a in enumerate(contents) for b in contents[i + 1 :])
    in_order = [name for row in plan.rows for name in row.racks]
    assert [name for row in written["rows"] for name in expand_names(row["racks"])] == in_order
    ranges = sorted((r for e in entries for r in e["ranges"]), key=lambda r: (r["row"], r["slot"]))
    at = 0
    for r in ranges:
        assert (r["first"], r["last"]) == (in_order[at], in_order[at + r["count"] - 1])
        at += r["count"]
    assert at == plan.rack_count
    assert [r.to_dict() for r in RackPlan.from_dict(written).racks] == [r.to_dict() for r in plan.racks]
    # a result stored with every rack an entry of its own, or as runs in plan order with rows naming every rack (both
    # before distinct racks), reads back as the same plan
    old_rows = [{"index": w.index, "name": w.name, "racks": list(w.racks)} for w in plan.rows]
    stored_before = {**written, "racks": [r.to_dict() for r in plan.racks], "rows": old_rows}
    assert RackPlan.from_dict(stored_before).to_dict() == written
    stored_as_runs = {**written, "racks": rack_entries(plan.runs), "rows": old_rows}
    assert RackPlan.from_dict(stored_as_runs).to_dict() == written
    assert link_distances(plan) == link_distances(single)
    assert render_elevation_svg(plan, EN) == render_elevation_svg(single, EN)
    for role in DeviceRole:
        assert switch_locations(plan, role) == switch_locations(single, role)
    for name in ("g0", "g1"):
        assert [node_location(plan, name, i) for i in range(0, 301, 7)] == [
            node_location(single, name, i) for i in range(0, 301, 7)
        ]
    # PDU and cord totals count every rack of a run
    pdus: dict[str, int] = {}
    for r in plan.racks:
        for line in r.pdus:
            pdus[line.part] = pdus.get(line.part, 0) + line.quantity
    assert {line.part: line.quantity for line in plan.pdus} == pdus
    assert sum(c.quantity for c in plan.cords) == sum(c.quantity for r in plan.racks for c in r.cords)
    # the stored JSON reads back into runs that write the same JSON
    again = RackPlan.from_dict(written)
    assert again.to_dict() == written
    assert len(again.runs) <= len(plan.runs)


def test_a_2048_node_cluster_is_a_few_runs_per_row():
    """SUs of 32 air-cooled nodes, two to a 30 kW rack: each row's compute racks are two runs either side of the
    leaf rack, so the plan keeps a few hundred runs for over a thousand racks; the JSON writes each distinct rack
    once, with the runs holding it as ranges of names."""
    plan = plan_racks(
        node_groups=[air_nodes(2048, su=32)],
        switches=[mgmt(), leaves(512), spines(512), cores(256)],
        facility=Facility(rack_power_kw=30),
        pdu_options=[PDU_22K],
    )
    written = plan.to_dict()
    entries = written["racks"]
    # one entry per distinct rack: its ranges are the runs, where the compute racks right of a row's leaf rack and
    # left of the next row's are one range of 16
    assert sum(e["count"] for e in entries) == plan.rack_count > 1024
    assert len(entries) < 10 < len(plan.runs) < plan.rack_count / 4
    [compute] = [e for e in entries if e["kind"] == "compute"]
    assert (compute["name"], compute["count"], compute["last_name"]) == ("R01-01", 1024, "R64-17")
    # the first row ends in the spine racks, the third in the core racks; elsewhere a row's right half and the next
    # row's left half are one range
    assert [(r["first"], r["count"], r["last"], r["first_node"]) for r in compute["ranges"][:6]] == [
        ("R01-01", 8, "R01-08", 0),
        ("R01-10", 8, "R01-17", 16),
        ("R02-01", 8, "R02-08", 32),
        ("R02-10", 16, "R03-08", 48),
        ("R03-10", 8, "R03-17", 80),
        ("R04-01", 8, "R04-08", 96),
    ]
    leaf = entries[1]
    assert (leaf["name"], leaf["ranges"][0]["count"], leaf["ranges"][1]["first"]) == ("R01-09", 1, "R02-09")
    assert written["rows"][0] == {"index": 0, "name": "R01", "count": 17 + 18, "racks": ["R01-01..R01-35"]}
    assert written["rows"][1] == {"index": 1, "name": "R02", "count": 17, "racks": ["R02-01..R02-17"]}
    assert written["rows"][2] == {"index": 2, "name": "R03", "count": 17 + 9, "racks": ["R03-01..R03-26"]}
    racks = [r.to_dict() for r in RackPlan.from_dict(plan.to_dict()).racks]
    assert len(racks) == plan.rack_count
    assert len(plan.runs) <= 4 * len(plan.rows) < plan.rack_count / 4
    left = racks[:8]  # the first row: 8 compute racks, the leaf rack, 8 compute racks
    assert [(r["name"], r["slot"], r["first_node"]) for r in left] == [(f"R01-{s + 1:02d}", s, 2 * s) for s in range(8)]
    assert racks[8]["kind"] == "network" and racks[8]["name"] == "R01-09"
    assert (racks[9]["name"], racks[9]["first_node"]) == ("R01-10", 16)
    # the spines and cores stand at the ends of the first two rows, so the last SU is row 64; its last rack holds the
    # last two nodes
    last, before = node_location(plan, "gpu", 2047), node_location(plan, "gpu", 2046)
    assert last[0] == before[0] == racks[-1]["name"] == "R64-17"
    assert last[1] == before[1] + 8


def test_network_racks_fill_switch_by_switch():
    """Leaf racks of unknown and of known power, one switch over the limit: the same racks as placing each switch
    into the current rack while it fits and into a new one otherwise."""
    heavy = SwitchGroup(role=SwitchRole.SPINE, part="SW-HOT", count=3, height_u=2, power_w=40_000)
    cool = SwitchGroup(role=SwitchRole.CORE, part="SW-COOL", count=50, height_u=1, power_w=None)
    plan = plan_racks(
        node_groups=[liquid_nodes(64, su=32)],
        switches=[mgmt(), leaves(16), heavy, cool],
        facility=Facility(rack_power_kw=30, rack_units=42),
        pdu_options=[PDU_22K],
    )
    network = [r for r in plan.racks if r.kind == "network" and r.slot > 8]  # after the first row's leaf rack
    placed = [d.part for r in network for d in r.devices if d.role in (DeviceRole.SPINE, DeviceRole.CORE)]
    assert placed == ["SW-HOT"] * 3 + ["SW-COOL"] * 50
    # each 40 kW switch stands alone (over the 30 kW limit); the unknown-power ones fill racks to the top
    per_rack = [sum(1 for d in r.devices if d.part in ("SW-HOT", "SW-COOL")) for r in network]
    assert per_rack[:3] == [1, 1, 1]
    assert sum(per_rack[3:]) == 50 and len(per_rack) > 4
    assert all(r.u_used == 42 for r in network[3:-1]) and network[-1].u_used <= 42
