"""Rack power an electrician signs: PDUs chosen per rack's load at no more than 80 % of their rating, no more
PDUs than a rack's zero-U positions take, a busbar named where none carries the rack, cords by current."""

import dataclasses

from engines.racks import Facility, Feeds, PduOption, plan_racks

from .parts import air_nodes, liquid_nodes

PDU_32A = PduOption(part="PDU-32A", rating_w=22_000, outlets=42, cord="3P 32A", outlet_type="C19", outlet_current_a=16)
PDU_63A = PduOption(part="PDU-63A", rating_w=43_000, outlets=42, cord="3P 63A", outlet_type="C19", outlet_current_a=16)


def _codes(p):
    return {str(f.code): f for f in p.findings}


def test_a_20_kw_rack_gets_two_22_kw_pdus_per_feed_not_one_at_93_percent():
    p = plan_racks(
        node_groups=[air_nodes(2, power_w=10_200)], facility=Facility(rack_power_kw=30), pdu_options=[PDU_32A]
    )
    rack = p.racks[0]
    assert rack.power_known_w == 20_400
    assert [(line.part, line.quantity) for line in rack.pdus] == [("PDU-32A", 4)]  # 2 per feed, A+B
    assert "RACK_PDU_OVER_CONTINUOUS" not in _codes(p)


def test_when_the_positions_allow_only_one_per_feed_the_80_percent_warning_names_the_pdu_and_the_rack():
    p = plan_racks(
        node_groups=[air_nodes(2, power_w=10_200)],
        facility=Facility(rack_power_kw=30, zero_u_positions=2),
        pdu_options=[PDU_32A],
    )
    assert [(line.part, line.quantity) for line in p.racks[0].pdus] == [("PDU-32A", 2)]
    f = _codes(p)["RACK_PDU_OVER_CONTINUOUS"]
    assert f.params.part == "PDU-32A" and f.params.first_rack == p.racks[0].name
    assert f.params.load_pct == 93 and f.params.per_pdu_w == 20_400


def test_a_rack_picks_the_63_a_pdu_when_the_32_a_ones_do_not_fit_its_positions():
    # 3 x 10 kW + nothing else = 30 kW: 32 A at 80 % needs 2 per feed (4 of 4 positions: fits), so 32 A is chosen;
    # at 45 kW it would need 4 per feed (8 > 4), the 63 A PDU carries 34.4 kW at 80 %: 2 per feed.
    p = plan_racks(
        node_groups=[liquid_nodes(4, power_w=11_000)],
        facility=Facility(rack_power_kw=60, cooling="liquid"),
        pdu_options=[PDU_32A, PDU_63A],
    )
    assert p.racks[0].power_known_w == 44_000
    assert [(line.part, line.quantity) for line in p.racks[0].pdus] == [("PDU-63A", 4)]
    assert sum(line.quantity for line in p.racks[0].pdus) <= 4


def test_a_71_5_kw_rack_gets_no_unmountable_pdus_but_a_busbar_finding():
    p = plan_racks(
        node_groups=[liquid_nodes(5, power_w=14_300)],
        facility=Facility(rack_power_kw=80, cooling="liquid"),
        pdu_options=[PDU_32A],
    )
    rack = p.racks[0]
    assert rack.power_known_w == 71_500
    assert rack.pdus == ()  # not 8 zero-U PDUs in a rack that takes 4
    f = _codes(p)["RACK_PDU_BUSBAR"]
    assert f.params.first_rack == rack.name and f.params.positions == 4 and f.params.power_w == 71_500


def test_a_single_feed_rack_takes_all_its_positions_for_one_feed():
    p = plan_racks(
        node_groups=[air_nodes(4, power_w=10_000)],
        facility=Facility(rack_power_kw=45, pdu_feeds=Feeds.A),
        pdu_options=[PDU_32A],
    )
    assert [(line.part, line.quantity) for line in p.racks[0].pdus] == [("PDU-32A", 3)]  # 40 kW / 17.6 kW


def test_6_6_kw_supplies_are_not_given_16_a_cords_without_a_word():
    group = dataclasses.replace(liquid_nodes(2, power_w=13_000), part="SYS-422GS-NBRT-LCC", inlet_current_a=28.7)
    p = plan_racks(node_groups=[group], facility=Facility(cooling="liquid"), pdu_options=[PDU_32A])
    assert [c.current_a for c in p.cords] == [28.7]
    f = _codes(p)["RACK_CORD_OVER_RATING"]
    assert f.params.as_dict() == {
        "part": "SYS-422GS-NBRT-LCC",
        "current_a": 28.7,
        "outlet": "C19",
        "outlet_current_a": 16,
    }


def test_6_6_kw_supplies_go_on_a_pdu_whose_outlets_carry_them_where_one_is_offered():
    # A PDU whose outlets carry 32 A (an IEC 60309 outlet PDU; its part here is the test's own) takes the supplies;
    # the C19 PDU has more outlets, each of which the supplies would overload.
    hot = PduOption(
        part="PDU-32A-OUT", rating_w=22_000, outlets=6, cord="3P 32A", outlet_type="32A", outlet_current_a=32
    )
    group = dataclasses.replace(liquid_nodes(2, power_w=13_000), part="SYS-422GS-NBRT-LCC", inlet_current_a=28.7)
    p = plan_racks(node_groups=[group], facility=Facility(cooling="liquid"), pdu_options=[PDU_32A, hot])
    assert {line.part for line in p.racks[0].pdus} == {"PDU-32A-OUT"}
    assert [(c.pdu_outlet, c.current_a) for c in p.cords] == [("32A", 28.7)]
    assert "RACK_CORD_OVER_RATING" not in _codes(p)


def test_6_6_kw_supplies_without_an_outlet_for_them_get_no_outlet_and_a_warning():
    group = dataclasses.replace(liquid_nodes(2, power_w=13_000), part="SYS-422GS-NBRT-LCC", inlet_current_a=28.7)
    p = plan_racks(node_groups=[group], facility=Facility(cooling="liquid"), pdu_options=[PDU_32A])
    assert [c.pdu_outlet for c in p.cords] == [None]  # never a C19 cord the plan knows to be overloaded
    assert _codes(p)["RACK_CORD_OVER_RATING"].severity == "warning"


def test_3_kw_supplies_on_c19_outlets_raise_no_cord_finding():
    group = dataclasses.replace(air_nodes(2), inlet_current_a=13.0)
    p = plan_racks(node_groups=[group], facility=Facility(rack_power_kw=30), pdu_options=[PDU_32A])
    assert "RACK_CORD_OVER_RATING" not in _codes(p)


def test_the_bill_gives_no_16_a_cord_to_a_supply_drawing_29_a(seeded_catalog):
    from configurator.snapshot import catalog_snapshot
    from engines.cluster.bill import NO_PART, rack_plan_lines
    from engines.cluster.rackbill import RackBill
    from messages import bill as words

    view = catalog_snapshot()
    plan = {"racks": [{"power_known_w": 1}], "rack_units": 42, "pdus": [{"part": "AP8886", "quantity": 2}]}
    hot = {**plan, "cords": [{"pdu_outlet": "C19", "node_inlet": "C20", "quantity": 8, "current_a": 28.7}]}
    cool = {**plan, "cords": [{"pdu_outlet": "C19", "node_inlet": "C20", "quantity": 8, "current_a": 13.0}]}
    assert ("CORD-C19-C20-2M", 8, "") in rack_plan_lines(RackBill.from_json(cool), view, words)
    hot_lines = rack_plan_lines(RackBill.from_json(hot), view, words)
    assert "CORD-C19-C20-2M" not in {pn for pn, _q, _d in hot_lines}
    assert [q for pn, q, d in hot_lines if pn == NO_PART and "C19" in d] == [8]  # a cord on request, named
