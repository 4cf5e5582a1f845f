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


def test_a_systems_trays_shelves_and_switches_each_at_its_own_unit():
    from engines.racks import RackSystem
    from engines.racks.model import DeviceRole

    system = RackSystem(
        compute_trays=18, switch_trays=9, power_shelves=8, management_switches=2, management_switch="SN2201"
    )
    group = NodeGroup(
        name="nvl",
        part="SRS-GB300-NVL72",
        count=3,
        height_u=48,
        power_w=142000,
        cooling="liquid",
        rack_scale=True,
        system=system,
    )
    plan = plan_racks(node_groups=[group], switches=[MGMT], pdu_options=[PDU])
    run = plan.runs[0]
    rack = run.rack
    units = [u for d in rack.devices for u in range(d.position_u, d.position_u + d.height_u)]
    assert len(units) == len(set(units)) == 37 and max(units) == 48 and rack.u_used == 37
    by_role = {role: [d.position_u for d in rack.devices if d.role == role] for role in DeviceRole}
    assert by_role[DeviceRole.SYSTEM_MANAGEMENT] == [47, 48]
    trays, switches = by_role[DeviceRole.NODE], by_role[DeviceRole.NVLINK_SWITCH]
    # The NVLink switch trays in the middle: 8 compute trays below them, 10 above (an assumption, systems.py).
    assert len(trays) == 18 and len(switches) == 9
    assert sum(u < min(switches) for u in trays) == 8 and sum(u > max(switches) for u in trays) == 10
    assert len(by_role[DeviceRole.POWER_SHELF]) == 8 and rack.power_w == 142000
    # Its management switches are the system's: not the planner's top-of-rack switch, not billed again.
    assert not by_role[DeviceRole.MANAGEMENT]
    # Every rack of the run keeps being a system, and the plan's racks are 48U.
    assert all(r.system for r in run.racks()) and plan.rack_units == 48


def test_without_a_rack_power_the_system_is_planned_at_its_own_and_the_hall_is_told():
    plan = plan_racks(node_groups=[NVL72], pdu_options=[PDU])
    [hall] = [f for f in plan.findings if str(f.code) == "RACK_SYSTEM_HALL_POWER"]
    assert str(hall.severity) == "info" and hall.subject == "node_groups[0]"
    assert (hall.params.part, hall.params.power_w, hall.params.default_w) == ("SRS-GB300-NVL72", 142000, 80000)
    assert plan.runs[0].rack.power_w == 142000
    assert not [f for f in plan.findings if str(f.severity) == "error"]


def test_an_explicit_budget_below_the_system_stays_an_error():
    plan = plan_racks(node_groups=[NVL72], facility=Facility(rack_power_kw=80), pdu_options=[PDU])
    codes = {str(f.code): str(f.severity) for f in plan.findings}
    assert codes["RACK_NODE_OVER_POWER"] == "error" and "RACK_SYSTEM_HALL_POWER" not in codes
    # A hall that gives the rack what it draws: neither.
    plan = plan_racks(node_groups=[NVL72], facility=Facility(rack_power_kw=150), pdu_options=[PDU])
    assert not {"RACK_NODE_OVER_POWER", "RACK_SYSTEM_HALL_POWER"} & {str(f.code) for f in plan.findings}
