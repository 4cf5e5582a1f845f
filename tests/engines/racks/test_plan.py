"""The rack plan: racks, rows, power, cooling and PDUs for 1 to 2,048 nodes.

Arithmetic in the comments; inputs from ``parts.py`` (SYS-821GE-TNHR: 8U, air, 6 inlets, 10.2 kW per node as a
test input; management switch 1U 200 W, leaf 1U 1 kW). A 42U rack with a 1U management switch leaves 41U.
"""

import json

import pytest

from engines.findings import REGISTRY, Finding, RackCode, Severity
from engines.racks import (
    Cooling,
    Facility,
    Feeds,
    LeafPlacement,
    NodeGroup,
    PduOption,
    RackInputError,
    plan_racks,
)
from engines.racks.model import DeviceRole, RackKind

from .parts import HGX_W, LEAF_W, MGMT_W, PDU_7K, PDU_22K, air_nodes, cores, leaves, liquid_nodes, mgmt, spines


def plan(nodes, switches=(), **kw):
    kw.setdefault("pdu_options", [PDU_22K])
    return plan_racks(node_groups=[nodes], switches=[mgmt(), *switches], **kw)


def codes(p) -> dict[str, str]:
    return {str(f.code): str(f.severity) for f in p.findings}


def finding(p, code):
    return next(f for f in p.findings if f.code == code)


def layout(p) -> list[list[str]]:
    """Each row as its racks' kinds: "C" compute, "N" network."""
    kinds = {r.name: "C" if r.kind == RackKind.COMPUTE else "N" for r in p.racks}
    return [[kinds[name] for name in row.racks] for row in p.rows]


def roles(rack) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for d in rack.devices:
        out.setdefault(str(d.role), []).append(d.position_u)
    return out


# -- 1, 4, 32, 128 and 2,048 nodes ---------------------------------------------------------------------------


def test_one_node_shares_its_rack_with_its_leaf_and_management_switch():
    p = plan(air_nodes(1), [leaves(1)])
    assert [r.name for r in p.racks] == ["R01-01"]
    rack = p.racks[0]
    # node at the bottom (U1-U8), management switch at the top (U42), the leaf just below it (U41)
    assert roles(rack) == {"node": [1], "management": [42], "leaf": [41]}
    assert rack.u_used == 10
    assert rack.power_w == HGX_W + MGMT_W + LEAF_W == 11_400
    assert p.leaf_placement == "in-rack"
    assert p.totals()["racks"] == 1
    assert p.totals()["facility_power_w"] == 11_400


def test_four_nodes_at_the_default_air_limit_need_two_racks_and_a_leaf_rack_between_them():
    # no rack power given, air: 30 kW; (30,000 - 200) // 10,200 = 2 nodes per rack
    p = plan(air_nodes(4), [leaves(1)])
    assert p.rack_power_limit_w == 30_000 and p.rack_power_basis == "default-air"
    assert layout(p) == [["C", "N", "C"]]
    assert [r.nodes for r in p.racks] == [2, 0, 2]
    assert [r.first_node for r in p.racks if r.nodes] == [0, 2]
    assert [r.power_w for r in p.racks] == [2 * HGX_W + MGMT_W, LEAF_W + MGMT_W, 2 * HGX_W + MGMT_W]
    assert p.facility_power_w == 2 * 20_600 + 1_200
    assert finding(p, RackCode.POWER_DEFAULT).params.as_dict() == {
        "cooling": "air",
        "limit_w": 30_000,
        "basis": "default-air",
    }
    # one management switch per rack: three, where the design listed one
    assert finding(p, RackCode.MANAGEMENT_SWITCH_COUNT).params.needed == 3


def test_four_nodes_fit_one_rack_when_the_facility_allows_60_kw_but_air_cannot_carry_it():
    p = plan(air_nodes(4), [leaves(1)], facility=Facility(rack_power_kw=60))
    assert layout(p) == [["C"]]
    assert p.racks[0].power_w == 4 * HGX_W + LEAF_W + MGMT_W == 42_000
    f = finding(p, RackCode.AIR_DENSITY)
    assert f.severity == Severity.WARNING
    assert f.params.as_dict() == {"racks": 1, "first_rack": "R01-01", "max_power_w": 42_000, "air_limit_w": 30_000}


def test_thirty_two_liquid_nodes_form_one_row_with_the_leaf_rack_in_its_middle():
    # liquid facility, default 80 kW: (80,000 - 200) // 10,000 = 7 per rack (power); 41 // 4 = 10 (units)
    p = plan(liquid_nodes(32, su=32), [leaves(8)], facility=Facility(cooling=Cooling.LIQUID))
    assert p.rack_power_basis == "default-liquid"
    assert [r.nodes for r in p.racks if r.kind == RackKind.COMPUTE] == [7, 7, 7, 7, 4]
    assert layout(p) == [["C", "C", "N", "C", "C", "C"]]
    leaf_rack = p.racks[2]
    assert sorted(roles(leaf_rack)["leaf"]) == list(range(34, 42))  # eight 1U leaves, U34-U41, below U42
    assert RackCode.LIQUID_NODE_IN_AIR not in codes(p)


def test_128_nodes_make_a_row_per_scalable_unit_and_the_spines_stand_at_the_first_rows_end():
    # 60 kW: min(41 // 8, 59,800 // 10,200) = 5 nodes per rack; an SU of 32 nodes = 7 racks + its leaf rack
    p = plan(air_nodes(128, su=32), [leaves(32), spines(16)], facility=Facility(rack_power_kw=60))
    assert len(p.rows) == 4
    # the spines: 16 x 1U in one network rack at the end of the first row, where adding rows never moves them
    assert layout(p)[0] == ["C", "C", "C", "N", "C", "C", "C", "C", "N"]
    for i in (1, 2, 3):
        assert layout(p)[i] == ["C", "C", "C", "N", "C", "C", "C", "C"]
    spine_rack = p.racks[8]
    assert len(roles(spine_rack)["spine"]) == 16
    leaf_racks = [r for r in p.racks if r.kind == RackKind.NETWORK and r is not spine_rack]
    assert [len(roles(r)["leaf"]) for r in leaf_racks] == [8, 8, 8, 8]  # 8 rails per SU
    assert sum(r.nodes for r in p.racks) == 128
    assert p.totals()["racks"] == 33


def test_2048_nodes_place_every_node_once_in_order():
    # B200 RA table: 64 SUs, 512 leaves, 512 spines, 256 cores; at 41 per rack 13 spine and 7 core racks
    p = plan(
        air_nodes(2048, su=32),
        [leaves(512), spines(512), cores(256)],
        facility=Facility(rack_power_kw=60),
    )
    compute = [r for r in p.racks if r.kind == RackKind.COMPUTE]
    assert sum(r.nodes for r in compute) == 2048
    firsts = [r.first_node for r in compute]
    assert firsts == sorted(firsts) and firsts[0] == 0
    assert all(a.first_node + a.nodes == b.first_node for a, b in zip(compute, compute[1:], strict=False))
    assert len(p.rows) == 64 and len(p.racks) == 64 * 8 + 13 + 7
    assert p.facility_power_w == 2048 * HGX_W + 1280 * LEAF_W + len(p.racks) * MGMT_W


# -- power versus units -------------------------------------------------------------------------------------


def test_power_limits_a_rack_before_its_units_do():
    p = plan(liquid_nodes(20, power_w=10_000), facility=Facility(cooling=Cooling.LIQUID, rack_power_kw=50))
    # units: 41 // 4 = 10; power: 49,800 // 10,000 = 4
    assert {r.nodes for r in p.racks} == {4}


def test_units_limit_a_rack_before_its_power_does():
    p = plan(liquid_nodes(20, power_w=5_000), facility=Facility(cooling=Cooling.LIQUID))
    # units: 41 // 4 = 10; power: 79,800 // 5,000 = 15
    assert [r.nodes for r in p.racks] == [10, 10]
    assert all(r.u_used == 41 for r in p.racks)


def test_a_node_taller_than_the_rack_is_an_error_and_is_not_placed():
    p = plan(air_nodes(2), facility=Facility(rack_units=8))
    f = finding(p, RackCode.NODE_TOO_TALL)
    assert (f.severity, f.subject, f.params.height_u, f.params.usable_u) == ("error", "node_groups[0]", 8, 7)
    assert p.racks == ()


def test_a_node_drawing_more_than_a_rack_may_is_an_error_and_gets_a_rack_of_its_own():
    p = plan(air_nodes(2), facility=Facility(rack_power_kw=8))
    f = finding(p, RackCode.NODE_OVER_POWER)
    assert f.severity == Severity.ERROR and f.params.power_w == HGX_W and f.params.limit_w == 8_000
    assert [r.nodes for r in p.racks] == [1, 1]


def test_unknown_node_power_stays_unknown():
    p = plan(air_nodes(4, power_w=None), [leaves(1)])
    assert codes(p)[RackCode.NODE_POWER_UNKNOWN] == "info"
    assert [r.nodes for r in p.racks] == [4]  # units only: 41 // 8 = 5
    assert p.racks[0].power_w is None and p.racks[0].power_known_w == LEAF_W + MGMT_W
    assert p.facility_power_w is None and p.totals()["facility_power_w"] is None
    assert codes(p)[RackCode.PDU_KNOWN_LOAD_ONLY] == "info"


def test_leaves_whose_power_overfills_the_rack_get_their_own_even_when_node_power_is_unknown():
    # 30 leaves x 1 kW + 200 W management switch = 30.2 kW > the 30 kW air default
    p = plan(air_nodes(1, power_w=None), [leaves(30)])
    assert p.leaf_placement == "middle"
    assert all(r.power_known_w <= 30_000 for r in p.racks)


def test_two_scalable_units_in_one_rack_s_worth_of_units_still_get_a_leaf_rack():
    # 17 x 1U nodes fit a 20U rack, but SUs of 16 make two rows; the one leaf must be placed once
    small = NodeGroup(name="gpu", part="SRV", count=17, height_u=1, power_w=None, cooling=Cooling.AIR, su_nodes=16)
    p = plan(small, [leaves(1)], facility=Facility(rack_units=20))
    assert p.leaf_placement == "middle"
    assert sum(1 for r in p.racks for d in r.devices if d.role == DeviceRole.LEAF) == 1


def test_unknown_switch_power_and_height_are_said_not_guessed():
    p = plan(air_nodes(1), [leaves(1, power_w=None, height_u=None)])
    assert finding(p, RackCode.SWITCH_HEIGHT_UNKNOWN).params.as_dict() == {"part": "MQM9700-NS2F", "assumed_u": 1}
    assert finding(p, RackCode.SWITCH_POWER_UNKNOWN).params.as_dict() == {"part": "MQM9700-NS2F"}
    assert p.racks[0].power_w is None
    assert p.facility_power_w is None and p.facility_power_known_w == HGX_W + MGMT_W


# -- air versus liquid --------------------------------------------------------------------------------------


def test_a_liquid_cooled_server_in_an_air_cooled_facility_is_an_error():
    p = plan(liquid_nodes(4), facility=Facility(cooling=Cooling.AIR))
    f = finding(p, RackCode.LIQUID_NODE_IN_AIR)
    assert (f.severity, f.subject, f.params.as_dict()) == ("error", "node_groups[0]", {"part": "SYS-421GE-TNHR2-LCC"})


def test_cooling_follows_the_servers_when_the_facility_names_none():
    p = plan(liquid_nodes(4))
    assert (p.cooling, p.cooling_basis, p.rack_power_limit_w) == (Cooling.LIQUID, "nodes", 80_000)
    assert codes(p)[RackCode.COOLING_DEFAULT] == "info"
    assert RackCode.LIQUID_NODE_IN_AIR not in codes(p)
    assert all(r.cooling == Cooling.LIQUID for r in p.racks)


def test_air_racks_within_the_air_ceiling_raise_no_density_finding():
    p = plan(air_nodes(8))
    assert RackCode.AIR_DENSITY not in codes(p)
    assert max(r.power_w for r in p.racks) <= 30_000


def test_a_liquid_facility_carries_dense_racks_without_an_air_finding():
    p = plan(liquid_nodes(16), facility=Facility(cooling=Cooling.LIQUID))
    assert max(r.power_w for r in p.racks) > 30_000
    assert RackCode.AIR_DENSITY not in codes(p)


# -- PDUs ---------------------------------------------------------------------------------------------------


def test_a_plus_b_feeds_double_the_pdus_because_each_feed_carries_the_whole_rack():
    # 4 nodes + leaf + switch = 42,000 W; 22 kW PDUs at 80 %: ceil(42,000 / 17,600) = 3 per feed
    a = plan(air_nodes(4), [leaves(1)], facility=Facility(rack_power_kw=60, pdu_feeds=Feeds.A))
    assert [(line.part, line.quantity) for line in a.racks[0].pdus] == [("PDU-3P-32A", 3)]
    ab = plan(air_nodes(4), [leaves(1)], facility=Facility(rack_power_kw=60, pdu_feeds=Feeds.AB, zero_u_positions=6))
    assert [(line.part, line.quantity) for line in ab.racks[0].pdus] == [("PDU-3P-32A", 6)]
    assert ab.pdus[0].cord == "IEC 60309 32A 3P+N+E"


def test_pdus_are_added_for_outlets_when_power_alone_would_need_fewer():
    few_outlets = PduOption(part="PDU-6", rating_w=22_000, outlets=6, cord="IEC 60309 32A 3P+N+E", outlet_type="C19")
    # feed A: 4 nodes x 6 inlets = 24 inlets / 6 outlets = 4 PDUs (power alone: 2)
    p = plan(air_nodes(4), facility=Facility(rack_power_kw=60, pdu_feeds=Feeds.A), pdu_options=[few_outlets])
    assert p.racks[0].pdus[0].quantity == 4
    # A+B puts half of each node's inlets on each feed: 12 / 6 = 2 per feed, 4 in all
    p = plan(air_nodes(4), facility=Facility(rack_power_kw=60), pdu_options=[few_outlets])
    assert p.racks[0].pdus[0].quantity == 4


def test_the_pdu_that_carries_the_rack_with_fewest_units_is_chosen():
    # 60 kW: ceil(60,000 / 7,000) = 9 per feed against ceil(60,000 / 22,000) = 3
    p = plan(air_nodes(4), facility=Facility(rack_power_kw=60), pdu_options=[PDU_7K, PDU_22K])
    assert {line.part for line in p.pdus} == {"PDU-3P-32A"}


def test_node_power_cords_follow_the_inlets_and_outlet_types():
    p = plan(air_nodes(4), facility=Facility(rack_power_kw=60))
    assert [c.to_dict() for c in p.cords] == [
        {"pdu_outlet": "C19", "node_inlet": "C20", "quantity": 24, "current_a": None}
    ]


def test_no_pdu_option_is_an_error_and_no_pdu_is_invented():
    p = plan(air_nodes(2), pdu_options=[])
    assert codes(p)[RackCode.NO_PDU] == "info"
    assert p.pdus == () and all(r.pdus == () for r in p.racks)


def test_horizontal_pdus_take_units_at_the_bottom():
    pdu_2u = PduOption(part="PDU-2U", rating_w=22_000, outlets=24, cord="IEC 60309 32A 3P+N+E", height_u=2)
    # 30 kW: 2 per feed x 2 feeds x 2U = 8U at U1-U8; the first node starts at U9
    p = plan(air_nodes(2), pdu_options=[pdu_2u])
    assert roles(p.racks[0])["pdu"] == [1, 3, 5, 7]
    assert roles(p.racks[0])["node"] == [9, 17]


# -- leaf placement, management switches, output shape --------------------------------------------------------


def test_leaves_at_the_end_of_the_row_when_asked():
    p = plan(air_nodes(4), [leaves(1)], leaf_placement=LeafPlacement.END_OF_ROW)
    assert layout(p) == [["C", "C", "N"]] and p.leaf_placement == "end"


def test_every_rack_has_a_management_switch_at_the_top():
    p = plan(air_nodes(128, su=32), [leaves(32), spines(16)], facility=Facility(rack_power_kw=60))
    for rack in p.racks:
        assert 42 in roles(rack)["management"]


def test_without_a_management_switch_the_plan_says_so():
    p = plan_racks(node_groups=[air_nodes(2)], pdu_options=[PDU_22K])
    assert codes(p)[RackCode.NO_MANAGEMENT_SWITCH] == "info"
    assert all(DeviceRole.MANAGEMENT not in {d.role for d in r.devices} for r in p.racks)


def test_findings_carry_codes_and_plain_params_but_no_text():
    p = plan(liquid_nodes(4), facility=Facility(cooling=Cooling.AIR, rack_power_kw=60))
    dumped = json.loads(json.dumps([f.to_dict() for f in p.findings]))
    assert dumped and all(set(f) == {"code", "severity", "subject", "params"} for f in dumped)


def test_the_planner_says_its_findings_as_every_engine_does_with_the_registrys_severity():
    # unknown node power, no management switch and no PDU: three codes whose severity the planner once set itself
    p = plan_racks(node_groups=[air_nodes(2, power_w=None)], pdu_options=[])
    assert {RackCode.NODE_POWER_UNKNOWN, RackCode.NO_MANAGEMENT_SWITCH, RackCode.NO_PDU} <= set(codes(p))
    assert all(type(f) is Finding and f.severity == REGISTRY[f.code].severity for f in p.findings)


def test_rack_plan_dict_has_the_contract_fields():
    d = plan(air_nodes(4), [leaves(1)]).to_dict()
    assert {"racks", "rows", "pdus"} <= set(d)
    rack = d["racks"][0]
    assert {"name", "u_total", "u_used", "power_w", "cooling", "devices"} <= set(rack)
    assert {"part", "name", "position_u", "height_u"} <= set(rack["devices"][0])
    assert {"part", "quantity"} <= set(d["pdus"][0])
    json.dumps(d)


@pytest.mark.parametrize("nodes", [1, 4, 32, 128, 2048])
@pytest.mark.parametrize("cooling", [Cooling.AIR, Cooling.LIQUID])
def test_no_rack_overflows_its_units_or_power(nodes, cooling):
    group = air_nodes(nodes, su=32) if cooling == Cooling.AIR else liquid_nodes(nodes, su=32)
    n_leaves = 8 * -(-nodes // 32)
    p = plan(group, [leaves(n_leaves), spines(n_leaves // 2 or 1)], facility=Facility(cooling=cooling))
    for rack in p.racks:
        used = [False] * (rack.u_total + 1)
        for d in rack.devices:
            for u in range(d.position_u, d.position_u + d.height_u):
                assert 1 <= u <= rack.u_total and not used[u], (rack.name, d)
                used[u] = True
        assert rack.power_w <= p.rack_power_limit_w
    assert sum(r.nodes for r in p.racks) == nodes


# -- bad input ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: Facility(rack_units=0), "rack_units"),
        (lambda: Facility(rack_units=1000), "rack_units"),
        (lambda: Facility(rack_power_kw=-5), "rack_power_kw"),
        (lambda: Facility(rack_power_kw=float("inf")), "rack_power_kw"),
        (lambda: Facility(cooling="water"), "cooling"),
        (lambda: Facility(pdu_feeds="C"), "pdu_feeds"),
        (lambda: air_nodes(-1), "count"),
        (lambda: leaves(1, height_u=0), "height_u"),
        (lambda: PduOption(part="P", rating_w=0, outlets=10, cord="x"), "rating_w"),
    ],
)
def test_bad_input_names_its_field(build, field):
    with pytest.raises(RackInputError) as err:
        build()
    assert err.value.field == field


def test_plain_strings_from_the_design_become_enums():
    facility = Facility(cooling="liquid", pdu_feeds="A")
    assert (facility.cooling, facility.pdu_feeds) == (Cooling.LIQUID, Feeds.A)
