"""Management racks: the storage and in-band switches, the central out-of-band switches, the UFM appliances and the
control plane's servers each get a rack, a unit and power, after the core racks (engines.racks.plan)."""

from engines.findings import RackCode
from engines.racks import Facility, SwitchGroup, SwitchRole, plan_racks
from engines.racks.model import DeviceRole, RackKind
from engines.racks.packing import KEPT_FREE

from .parts import PDU_22K, air_nodes, leaves, mgmt, spines


def _group(role: SwitchRole, count: int, part: str = "MSN5600", height_u: int | None = 2, power_w=1_000):
    return SwitchGroup(role=role, part=part, count=count, height_u=height_u, power_w=power_w)


def _plan(*equipment: SwitchGroup, nodes: int = 64, spine_count: int = 4):
    return plan_racks(
        node_groups=[air_nodes(nodes, su=32)],
        switches=[leaves(8), spines(spine_count), mgmt(), *equipment],
        facility=Facility(rack_power_kw=40),
        pdu_options=[PDU_22K],
    )


def _placed(plan, role: DeviceRole) -> list[tuple[str, int]]:
    return [(rack.name, d.position_u) for rack in plan.racks for d in rack.devices if d.role == role]


def test_every_storage_in_band_and_control_plane_device_has_one_place_in_a_management_rack():
    plan = _plan(
        _group(SwitchRole.STORAGE_LEAF, 6, part="MQM9700-NS2F", height_u=1),
        _group(SwitchRole.STORAGE_SPINE, 3, part="MQM9700-NS2F", height_u=1),
        _group(SwitchRole.INBAND_LEAF, 4),
        _group(SwitchRole.INBAND_SPINE, 2),
        SwitchGroup(role=SwitchRole.CONTROL, part="HEAD-NODE-BCM", count=2, height_u=None, power_w=None),
        SwitchGroup(role=SwitchRole.UFM, part="UFM-ENTERPRISE-APPLIANCE", count=2, height_u=None, power_w=None),
    )
    expected = {
        DeviceRole.STORAGE_LEAF: 6,
        DeviceRole.STORAGE_SPINE: 3,
        DeviceRole.INBAND_LEAF: 4,
        DeviceRole.INBAND_SPINE: 2,
        DeviceRole.CONTROL: 2,
        DeviceRole.UFM: 2,
    }
    kinds = {rack.name: rack.kind for rack in plan.racks}
    for role, count in expected.items():
        places = _placed(plan, role)
        assert len(places) == count, role
        assert len(set(places)) == count  # no two at one unit
        assert {kinds[name] for name, _u in places} == {RackKind.MANAGEMENT}
    # The nodes and the compute fabric's switches are where they were: no management device among them.
    for rack in plan.racks:
        if rack.kind != RackKind.MANAGEMENT:
            assert not {d.role for d in rack.devices} & set(expected)


def test_management_racks_stand_at_the_second_rows_end_and_have_their_own_management_switch_and_pdus():
    """Two SUs, a row each: the spine rack ends the first row, the management racks the second, where neither the
    spine racks a growing fabric adds nor the rows behind move them."""
    plan = _plan(_group(SwitchRole.INBAND_LEAF, 2), _group(SwitchRole.STORAGE_LEAF, 2, part="MQM9700-NS2F"))
    spine_racks = [rack for rack in plan.racks if any(d.role == DeviceRole.SPINE for d in rack.devices)]
    management = [rack for rack in plan.racks if rack.kind == RackKind.MANAGEMENT]
    assert [(r.row, r.slot) for r in spine_racks] == [(0, len(plan.rows[0].racks) - 1)]
    assert management and {rack.row for rack in management} == {1}
    assert plan.rows[1].racks[-len(management) :] == tuple(r.name for r in management)
    for rack in management:
        assert [d.role for d in rack.devices if d.role == DeviceRole.MANAGEMENT] == [DeviceRole.MANAGEMENT]
        assert rack.pdus  # powered like every rack
        # The rack's power is the sum of what it holds (unknown power counts nothing and is said).
        assert rack.power_known_w == sum(d.power_w or 0 for d in rack.devices)


def test_devices_never_overlap_and_stay_inside_the_rack():
    plan = _plan(
        _group(SwitchRole.STORAGE_LEAF, 40, part="MQM9700-NS2F", height_u=1, power_w=1_700),
        SwitchGroup(role=SwitchRole.CONTROL, part="MGMT-NODE-K8S", count=10, height_u=None, power_w=None),
    )
    for rack in plan.racks:
        used: set[int] = set()
        for d in rack.devices:
            units = set(range(d.position_u, d.position_u + d.height_u))
            assert not used & units, (rack.name, d)
            assert min(units) >= 1 and max(units) <= rack.u_total
            used |= units
    # 40 storage leaves at 1.7 kW do not fit one 40 kW rack: they spill into more management racks, by power.
    assert sum(1 for rack in plan.racks if rack.kind == RackKind.MANAGEMENT) >= 2


def test_servers_without_a_catalogue_part_are_racked_at_an_assumed_size_and_said_once():
    plan = _plan(
        SwitchGroup(role=SwitchRole.CONTROL, part="HEAD-NODE-BCM", count=2, height_u=None, power_w=None),
        SwitchGroup(role=SwitchRole.CONTROL, part="MGMT-NODE-K8S", count=3, height_u=None, power_w=None),
    )
    said = [f for f in plan.findings if f.code == RackCode.SERVER_SIZE_ASSUMED]
    assert [f.params.as_dict() for f in said] == [{"servers": 5, "assumed_u": 2}]
    heights = {d.height_u for rack in plan.racks for d in rack.devices if d.role == DeviceRole.CONTROL}
    assert heights == {2}
    # Their power is unknown, so the management rack's power is too (never a guessed figure).
    rack = next(r for r in plan.racks if r.kind == RackKind.MANAGEMENT)
    assert rack.power_w is None


def test_a_one_row_cluster_puts_its_management_rack_at_the_rows_end():
    plan = plan_racks(
        node_groups=[air_nodes(8)],
        switches=[leaves(2), mgmt(), _group(SwitchRole.INBAND_LEAF, 2)],
        facility=Facility(rack_power_kw=40),
        pdu_options=[PDU_22K],
    )
    assert len(plan.rows) == 1
    last = plan.racks[-1]
    assert last.kind == RackKind.MANAGEMENT and last.row == 0


def _servers(count: int, part: str = "HEAD-NODE-BCM") -> SwitchGroup:
    return SwitchGroup(role=SwitchRole.CONTROL, part=part, count=count, height_u=None, power_w=None)


def test_places_kept_free_for_the_control_planes_next_step_hold_the_switches_below_where_the_step_puts_them():
    """Five servers now, twelve at the next step: the seven places between are kept free, so the out-of-band
    switch below them stands where it stands beside twelve servers, and nothing is racked in them."""
    free = SwitchGroup(role=SwitchRole.UFM, part=KEPT_FREE, count=7, height_u=None, power_w=0)
    oob = _group(SwitchRole.OOB, 1, part="SN2201", height_u=1, power_w=100)
    now = _plan(_servers(5), free, oob)
    then = _plan(_servers(12), oob)
    assert _placed(now, DeviceRole.OOB) == _placed(then, DeviceRole.OOB)
    (rack,) = [r for r in now.racks if r.kind == RackKind.MANAGEMENT]
    assert [d.part for d in rack.devices if d.role in (DeviceRole.CONTROL, DeviceRole.UFM)] == ["HEAD-NODE-BCM"] * 5


def test_places_kept_free_alone_make_no_management_rack():
    free = SwitchGroup(role=SwitchRole.UFM, part=KEPT_FREE, count=12, height_u=None, power_w=0)
    assert RackKind.MANAGEMENT not in {r.kind for r in _plan(free).racks}
    assert RackKind.MANAGEMENT in {r.kind for r in _plan(free, _servers(1)).racks}
