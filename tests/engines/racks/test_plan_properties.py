"""Invariants of every rack plan (hypothesis): units, power, PDUs, every node and switch placed exactly once."""

import re
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.findings import RackCode
from engines.racks import (
    Cooling,
    Facility,
    Feeds,
    NodeGroup,
    PduOption,
    link_distances,
    plan_racks,
    render_elevation_svg,
)
from engines.racks.model import DeviceRole

from .parts import EN, cores, leaves, mgmt, spines

SVG = "{http://www.w3.org/2000/svg}"

groups = st.builds(
    NodeGroup,
    name=st.just("gpu"),
    part=st.just("SRV"),
    count=st.integers(1, 600),
    height_u=st.sampled_from([1, 2, 4, 5, 8, 10]),
    power_w=st.one_of(st.none(), st.integers(300, 16_000)),
    cooling=st.sampled_from([Cooling.AIR, Cooling.LIQUID]),
    inlets=st.one_of(st.none(), st.integers(1, 8)),
    su_nodes=st.one_of(st.none(), st.sampled_from([16, 32, 64])),
)
facilities = st.builds(
    Facility,
    rack_units=st.integers(20, 52),
    rack_power_kw=st.one_of(st.none(), st.integers(10, 140)),
    cooling=st.one_of(st.none(), st.sampled_from([Cooling.AIR, Cooling.LIQUID])),
    pdu_feeds=st.sampled_from([Feeds.A, Feeds.AB]),
)
pdus = st.builds(
    PduOption,
    part=st.just("PDU"),
    rating_w=st.integers(3_000, 40_000),
    outlets=st.one_of(st.none(), st.integers(6, 48)),
    cord=st.just("plug"),
    height_u=st.sampled_from([0, 0, 1, 2]),
)


@settings(max_examples=150, deadline=None)
@given(group=groups, facility=facilities, pdu=pdus, n_leaf=st.integers(0, 40), n_spine=st.integers(0, 40))
def test_every_plan_keeps_its_racks_within_units_and_power(group, facility, pdu, n_leaf, n_spine):
    p = plan_racks(
        node_groups=[group],
        switches=[mgmt(), leaves(n_leaf), spines(n_spine), cores(n_spine // 2)],
        facility=facility,
        pdu_options=[pdu],
    )
    found = {str(f.code) for f in p.findings}
    if RackCode.NODE_TOO_TALL in found:
        assert not any(r.nodes for r in p.racks)
        return
    assert sum(r.nodes for r in p.racks) == group.count
    placed = dict.fromkeys(DeviceRole, 0)
    feeds = 2 if p.feeds == Feeds.AB else 1
    for rack in p.racks:
        used = [False] * (rack.u_total + 1)
        for d in rack.devices:
            placed[d.role] += 1
            for u in range(d.position_u, d.position_u + d.height_u):
                assert 1 <= u <= rack.u_total and not used[u]
                used[u] = True
        assert rack.u_used == sum(used)
        over_power = RackCode.NODE_OVER_POWER in found and rack.nodes == 1
        assert rack.power_known_w <= p.rack_power_limit_w or over_power
        if not rack.pdus:  # no PDU fits the zero-U positions and carries the rack: a busbar, said so
            assert RackCode.PDU_BUSBAR in found and pdu.height_u == 0
        else:
            (line,) = rack.pdus
            assert line.quantity % feeds == 0
            # each feed carries the whole rack, at 80 % of the rating unless a warning says otherwise
            share = 1.0 if RackCode.PDU_OVER_CONTINUOUS in found else 0.8
            assert line.quantity // feeds * int(pdu.rating_w * share) >= rack.power_known_w
            assert pdu.height_u > 0 or line.quantity <= facility.zero_u_positions
        assert [d.role for d in rack.devices].count(DeviceRole.MANAGEMENT) == 1
    assert placed[DeviceRole.LEAF] == n_leaf
    assert placed[DeviceRole.SPINE] == n_spine and placed[DeviceRole.CORE] == n_spine // 2


@settings(max_examples=60, deadline=None)
@given(group=groups, facility=facilities, pdu=pdus, n_leaf=st.integers(0, 40), n_spine=st.integers(0, 40))
def test_every_plan_has_sane_distances_and_a_well_formed_elevation(group, facility, pdu, n_leaf, n_spine):
    p = plan_racks(
        node_groups=[group],
        switches=[mgmt(), leaves(n_leaf), spines(n_spine), cores(n_spine // 2)],
        facility=facility,
        pdu_options=[pdu],
    )
    d = link_distances(p)
    if p.racks:
        assert 0 < d["management_m"].length_m <= d["in_rack_m"].length_m
    if n_leaf and any(r.nodes for r in p.racks):
        assert d["node_to_leaf_m"].length_m > 0
        assert d["node_to_leaf_m"].route == ("in-rack" if p.leaf_placement == "in-rack" else "row")
    if n_leaf and n_spine and any(r.nodes for r in p.racks):
        assert d["leaf_to_spine_m"].length_m > 0
    root = ET.fromstring(render_elevation_svg(p, EN))
    headers = [t.text for t in root.iter(f"{SVG}text") if t.text and re.match(r"R\d\d-\d\d", t.text)]
    assert sum(int(h.split("×")[1]) if "×" in h else 1 for h in headers) == len(p.racks)
