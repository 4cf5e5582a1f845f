"""Management racks: the storage and in-band switches, the central out-of-band switches, the UFM appliances and the
control plane's servers each get a rack, a unit and power, next to the spine racks (engines.racks.plan)."""

from engines.findings import RackCode
from engines.racks import Facility, SwitchGroup, SwitchRole, plan_racks
from engines.racks.model import DeviceRole, RackKind

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


def test_management_racks_stand_with_the_spine_racks_and_have_their_own_management_switch_and_pdus():
    plan = _plan(_group(SwitchRole.INBAND_LEAF, 2), _group(SwitchRole.STORAGE_LEAF, 2, part="MQM9700-NS2F"))
    spine_rows = {rack.row for rack in plan.racks if any(d.role == DeviceRole.SPINE for d in rack.devices)}
    management = [rack for rack in plan.racks if rack.kind == RackKind.MANAGEMENT]
    assert management and {rack.row for rack in management} == spine_rows
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
