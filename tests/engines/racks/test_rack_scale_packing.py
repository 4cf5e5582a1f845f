"""The rack planner with a rack-scale system (pure engine, no Django): one system is one rack of its own height,
power and cooling, with no PDUs, cords or top-of-rack management switch (it has its own)."""

from engines.racks import Facility, NodeGroup, PduOption, SwitchGroup, SwitchRole, plan_racks

NVL72 = NodeGroup(
    name="nvl", part="SRS-GB300-NVL72", count=3, height_u=48, power_w=142000, cooling="liquid", rack_scale=True
)
PDU = PduOption(part="PDU", rating_w=22000, outlets=24, cord="IEC 60309 32A", outlet_type="C19")
MGMT = SwitchGroup(role=SwitchRole.MANAGEMENT, part="SN2201", count=0, height_u=1, power_w=100)  # none listed


def test_each_system_is_a_rack_of_its_own():
    plan = plan_racks(node_groups=[NVL72], switches=[MGMT], pdu_options=[PDU])
    assert plan.rack_count == 3
    rack = plan.runs[0].rack
    assert (rack.u_total, rack.u_used, rack.power_w, rack.nodes, rack.system) == (48, 48, 142000, 1, True)
    assert rack.pdus == () and rack.cords == () and [d.part for d in rack.devices] == ["SRS-GB300-NVL72"]
    codes = {str(f.code) for f in plan.findings}
    # taller than the 42U default and above the 80 kW liquid default, yet no error: it is its own rack
    assert not codes & {"RACK_NODE_TOO_TALL", "RACK_NODE_OVER_POWER", "RACK_NODE_INLET_UNKNOWN"}
    assert "RACK_MANAGEMENT_SWITCH_COUNT" not in codes  # its racks need no SN2201 of the plan's


def test_a_site_limit_below_the_rack_and_an_air_hall_are_errors():
    plan = plan_racks(node_groups=[NVL72], facility=Facility(rack_power_kw=100, cooling="air"), pdu_options=[PDU])
    errors = {str(f.code) for f in plan.findings if str(f.severity) == "error"}
    assert {"RACK_NODE_OVER_POWER", "RACK_LIQUID_NODE_IN_AIR"} <= errors
    air = next(f for f in plan.findings if str(f.code) == "RACK_LIQUID_NODE_IN_AIR")
    assert air.params.rack_scale is True


def test_a_plan_written_and_read_back_keeps_its_systems():
    from engines.racks.model import RackPlan

    plan = plan_racks(node_groups=[NVL72], pdu_options=[PDU])
    again = RackPlan.from_dict(plan.to_dict())
    assert [run.rack.system for run in again.runs] == [True] and again.rack_count == 3
