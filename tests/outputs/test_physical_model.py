"""One physical cluster (design/v1 round 4): every device the bill carries sits at one place in a rack, no two
overlap, a rack's power is the sum of what it holds, and every row of the cabling list joins two real ports, each
with its rack and unit, no port used twice; out-of-band cables stay in their rack. Checked over generated designs:
HGX nodes from 1 to 2,048 and NVL72 racks, with the storage, in-band and out-of-band networks on and off."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from configurator.services import design_validate
from engines.racks.model import DeviceRole
from outputs.formats.cabling_csv import render as cabling_csv
from tests.outputs.test_handover import nvl72

pytestmark = pytest.mark.django_db

STORAGE_ADAPTER = "900-9D3B6-00CN-AB0"  # BlueField-3, 2 x 400G (the SuperPOD H100 RA's storage ports)
INBAND_ADAPTER = "MCX755106AS-HEAT"  # ConnectX-7, 2 x 200G (its in-band ports)
SWITCH_ROLES = {
    DeviceRole.LEAF,
    DeviceRole.SPINE,
    DeviceRole.CORE,
    DeviceRole.MANAGEMENT,
    DeviceRole.STORAGE_LEAF,
    DeviceRole.STORAGE_SPINE,
    DeviceRole.STORAGE_CORE,
    DeviceRole.INBAND_LEAF,
    DeviceRole.INBAND_SPINE,
    DeviceRole.INBAND_CORE,
    DeviceRole.OOB,
}


def _hgx(nodes: int, storage: bool, inband: bool, oob: bool) -> dict:
    components = [
        {"part": "HGX-H100-8GPU", "quantity": 1},
        {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
    ]
    if storage:
        components.append({"part": STORAGE_ADAPTER, "quantity": 1, "role": "storage"})
    if inband:
        components.append({"part": INBAND_ADAPTER, "quantity": 1, "role": "management"})
    doc = {
        "schema": "design/v1",
        "name": f"{nodes} HGX H100 nodes",
        "node_groups": [{"name": "gpu", "count": nodes, "server": "SYS-821GE-TNHR", "components": components}],
        "fabric": {"switch": "MQM9700-NS2F", "oversubscription": "1:1", "topology": "rail-optimized"},
        "facility": {"supplied": []},
    }
    if not oob:
        doc["networks"] = {"oob": None}
    return doc


def _nvl72(racks: int, oob: bool) -> dict:
    doc = {
        "schema": "design/v1",
        "name": f"{racks} GB300 NVL72 racks",
        "node_groups": [{"name": "rack", "count": racks, "server": "SRS-GB300-NVL72", "components": []}],
        "fabric": {"switch": "Q3400-RA", "oversubscription": "1:1", "topology": "rail-optimized"},
        "facility": {"supplied": []},
    }
    if not oob:
        doc["networks"] = {"oob": None}
    return doc


designs = st.one_of(
    st.builds(
        _hgx,
        st.one_of(st.integers(1, 40), st.sampled_from([64, 127, 128, 256, 512, 1024, 2048])),
        st.booleans(),
        st.booleans(),
        st.booleans(),
    ),
    st.builds(_nvl72, st.integers(1, 16), st.booleans()),
)


def _placed(plan) -> Counter:
    """Every device of the rack plan by part (a rack of a run counted once each); a rack-scale system (NVL72) is
    billed as one part, its trays, shelves and built-in switches coming with it: once per rack."""
    placed: Counter = Counter()
    for run in plan.runs:
        if run.rack.system:
            placed[next(d.part for d in run.rack.devices if d.role == DeviceRole.NODE)] += run.count
            continue
        for d in run.rack.devices:
            if d.role != DeviceRole.PDU:
                placed[d.part] += run.count
    return placed


def _check_racks(result) -> None:
    plan = result.rack_plan.plan
    for run in plan.runs:
        rack = run.rack
        units: set[int] = set()
        for d in rack.devices:
            own = set(range(d.position_u, d.position_u + d.height_u))
            assert not units & own, f"{rack.name}: {d.part} overlaps"
            assert min(own) >= 1 and max(own) <= rack.u_total, f"{rack.name}: {d.part} outside the rack"
            units |= own
        known = sum(d.power_w or 0 for d in rack.devices)
        assert rack.power_known_w == known, rack.name
        assert (rack.power_w is None) == any(d.power_w is None for d in rack.devices), rack.name


def _check_bill(result) -> None:
    """Every switch, server and control-plane line of the bill is placed exactly as often as billed."""
    placed = _placed(result.rack_plan.plan)
    roles = {d.part: d.role for run in result.rack_plan.plan.runs for d in run.rack.devices}
    billed: Counter = Counter()
    for line in result.bom:
        if line.part_number in roles or line.section in ("nodes", "control_plane"):
            billed[line.part_number] += line.quantity
    control = {line.part_number for line in result.bom if line.section == "control_plane"}
    racked = SWITCH_ROLES | {DeviceRole.NODE, DeviceRole.CONTROL, DeviceRole.UFM}
    for part, quantity in billed.items():
        if part and (roles.get(part) in racked or part in control):
            assert placed[part] == quantity, f"{part}: billed {quantity}, placed {placed[part]}"


def _check_cables(result) -> None:
    lines = list(cabling_csv(result, "en"))
    header = lines[0].rstrip("\n").split(",")
    assert header[7:11] == ["a_rack", "a_u", "z_rack", "z_u"]
    ports: Counter = Counter()
    racks = {name for run in result.rack_plan.plan.runs for name in run.names}
    for line in lines[1:]:
        f = line.rstrip("\n").split(",")
        network = f[-1]
        for end, port in ((f[0], f[1]), (f[2], f[3])):
            if port:
                ports[(end, port)] += 1
        if result.valid and f[4] == "leaf-uplink" and not f[2].startswith("uplink-net"):
            assert f[3], line  # a valid design's uplinks land on real ports of its leaves
        if f[2].startswith(("uplink-net", "oob-extra")):
            continue  # the customer's network, or an out-of-band switch the plan says is not racked
        assert f[7] in racks and f[9] in racks, line
        assert f[10], line
        if not f[0].endswith(tuple(f"-pdu-{k}" for k in range(1, 9))):
            assert f[8], line  # zero-U PDUs have no unit
        if network == "oob" and f[4] == "device-leaf" and f[2].startswith("oob-R"):
            own = f[2].removeprefix("oob-")  # the rack's switch, or one of an NVL72 rack's two (oob-R01-02-1)
            assert f[7] == f[9] and f[7] in (own, own.rsplit("-", 1)[0]), line  # inside its own rack
    assert not [k for k, n in ports.items() if n > 1], "a port used twice"


SLOW = [HealthCheck.too_slow, HealthCheck.function_scoped_fixture]


@settings(max_examples=30, deadline=None, suppress_health_check=SLOW)
@given(document=designs)
def test_every_billed_device_has_one_place_and_every_cable_two_real_ends(seeded_catalog, document):
    result = design_validate(document=document)
    _check_racks(result)
    _check_bill(result)
    if result.fabric_plan is not None and result.fabric_plan.plan.tiers and result.rack_plan.plan.runs:
        _check_cables(result)


def test_the_127_node_superpod_racks_its_storage_and_in_band_switches_and_control_plane(seeded_catalog):
    result = design_validate(document=_hgx(127, True, True, True))
    placed = _placed(result.rack_plan.plan)
    storage, inband = result.network_plans["storage"].plan, result.network_plans["inband"].plan
    roles = Counter()
    for run in result.rack_plan.plan.runs:
        for d in run.rack.devices:
            roles[d.role] += run.count
    assert roles[DeviceRole.STORAGE_LEAF] + roles[DeviceRole.STORAGE_SPINE] == storage.switches
    assert roles[DeviceRole.INBAND_LEAF] + roles[DeviceRole.INBAND_SPINE] == inband.switches
    # The SuperPOD control plane: 2 BCM head nodes, 3 + 3 Kubernetes and 2 Slurm login nodes, each racked.
    assert roles[DeviceRole.CONTROL] == 10
    assert placed["HEAD-NODE-BCM"] == 2
    kinds = {run.rack.kind for run in result.rack_plan.plan.runs}
    assert "management" in kinds


def test_eight_nvl72_racks_land_every_out_of_band_uplink_on_a_free_port_of_a_storage_leaf(seeded_catalog):
    # The converged storage network's last leaf has free ports for 14 of the 40 uplinks; the plan counts them
    # against all its leaves' free ports, so the rest land on the leaves before it.
    result = design_validate(document=nvl72(8))
    rows = [f.rstrip("\n").split(",") for f in cabling_csv(result, "en")]
    uplinks = [f for f in rows if f[4] == "leaf-uplink"]
    assert len(uplinks) == 40 and all(f[2].startswith("storage-leaf-") and f[3] for f in uplinks)
    assert len({f[2] for f in uplinks}) > 1
    _check_cables(result)
