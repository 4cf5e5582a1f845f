"""Issue #32 item 4, NVL72 racks complete: each compute tray of a GB200/GB300 NVL72 rack at its own unit of its 48U
rack in the rack plan and the cabling list, its NVLink switch trays, power shelves and management switches at
theirs, and the elevation drawing the 48U rack whole."""

from __future__ import annotations

import csv
import re
from collections import Counter

import pytest

from configurator.services import design_validate
from outputs.services import design_output

pytestmark = pytest.mark.django_db


def nvl72(racks: int, server: str = "SRS-GB200-NVL72") -> dict:
    return {
        "schema": "design/v1",
        "name": "nvl72",
        "node_groups": [{"name": "gpu", "count": racks, "server": server, "components": []}],
        "fabric": {"switch": "MQM9700-NS2F"},
    }


def _rows(result) -> list[dict[str, str]]:
    body = "".join(design_output(name="cabling.csv", result=result, language="en").body)  # type: ignore[arg-type]
    return [row for row in csv.DictReader(body.splitlines()) if row["network"] == "compute"]


@pytest.mark.parametrize("server", ["SRS-GB200-NVL72", "SRS-GB300-NVL72"])
def test_every_tray_at_its_own_unit_of_a_48u_rack(seeded_catalog, server):
    result = design_validate(document=nvl72(2, server)).to_json()
    systems = [r for r in result["rack_plan"]["racks"] if r["system"]]
    assert sum(r["count"] for r in systems) == 2
    [rack] = systems
    assert rack["u_total"] == 48
    units: Counter[str] = Counter()
    seen: set[int] = set()
    for d in rack["devices"]:
        for k in range(d["count"]):
            u = d["position_u"] + k * d["height_u"] * (1 if d["last_position_u"] >= d["position_u"] else -1)
            assert 1 <= u <= 48 and u not in seen  # no two devices share a unit
            seen.add(u)
            units[d["role"]] += 1
    assert units == {"node": 18, "nvlink-switch": 9, "power-shelf": 8, "system-management": 2}
    assert rack["u_used"] == 37 and rack["blank_u"] == 11
    # The written rack stays compact: stacks of alike devices are one entry each.
    assert len(rack["devices"]) <= 7


def test_each_trays_compute_cables_carry_its_own_unit(seeded_catalog):
    result = design_validate(document=nvl72(2))
    rows = [r for r in _rows(result) if r["a_end"].startswith("node-")]
    assert len(rows) == 2 * 18 * 4  # every tray's four ConnectX-7
    per_tray: dict[str, set[tuple[str, str]]] = {}
    for r in rows:
        per_tray.setdefault(r["a_end"], set()).add((r["a_rack"], r["a_u"]))
    assert len(per_tray) == 36
    assert all(len(places) == 1 for places in per_tray.values())  # a tray's cables share its place
    places = [next(iter(p)) for p in per_tray.values()]
    assert len(set(places)) == 36  # and no two trays share one
    for rack in {rack for rack, _u in places}:
        assert len({u for r, u in places if r == rack}) == 18


def test_the_elevation_draws_the_48u_rack_whole(seeded_catalog):
    from engines.racks import RackPlan, render_elevation_svg
    from messages.racks import elevation_labels

    result = design_validate(document=nvl72(2)).to_json()
    plan = RackPlan.from_dict(result["rack_plan"])
    svg = render_elevation_svg(plan, elevation_labels(), columns=None)
    height = int(re.search(r'height="(\d+)"', svg).group(1))  # type: ignore[union-attr]
    from engines.racks.elevation import HEAD, U_PX

    assert height >= 40 + HEAD + 48 * U_PX
    assert ">45<" in svg  # unit numbers up to the rack's own top
    assert svg.count("Compute tray") >= 1 and "NVLink switch tray" in svg and "Power shelf" in svg


def test_a_mixed_fabrics_nvl72_endpoints_stand_at_trays_of_their_own_racks(seeded_catalog):
    from configurator.examples import h200_training_cluster

    doc = nvl72(2)
    doc["node_groups"].append({**h200_training_cluster()["node_groups"][0], "name": "hgx", "count": 16})
    result = design_validate(document=doc)
    rows = [r for r in _rows(result) if r["a_end"].startswith("node-")]
    assert len(rows) == 2 * 18 * 4 + 16 * 8  # each kind with its own NICs
    systems = {r["name"] for r in result.to_json()["rack_plan"]["racks"] if r["system"]} | {
        r["last_name"] for r in result.to_json()["rack_plan"]["racks"] if r["system"]
    }
    places = {r["a_end"]: (r["a_rack"], r["a_u"]) for r in rows}
    trays = [places[f"node-{n:04d}"] for n in range(1, 19)]  # the NVL72 racks' 18 endpoints of 8 NICs
    assert {rack for rack, _u in trays} == systems and len(set(trays)) == 18
    assert all(rack and u for rack, u in places.values())


def test_the_out_of_band_rows_cable_each_trays_bmc_to_its_racks_own_switches(seeded_catalog):
    result = design_validate(document=nvl72(2, "SRS-GB300-NVL72"))
    body = "".join(design_output(name="cabling.csv", result=result, language="en").body)  # type: ignore[arg-type]
    rows = [r for r in csv.DictReader(body.splitlines()) if r["network"] == "oob"]
    compute = {r["a_end"]: (r["a_rack"], r["a_u"]) for r in _rows(result) if r["a_end"].startswith("node-")}
    systems = sorted({rack for rack, _u in compute.values()})
    assert len(systems) == 2
    for rack in systems:
        devices = [r for r in rows if r["a_rack"] == rack and r["link_class"] == "device-leaf"]
        assert len(devices) == 18 + 9 + 8  # trays' BMCs, NVLink switch trays, power shelves
        assert {r["z_end"] for r in devices} <= {f"oob-{rack}-1", f"oob-{rack}-2"} and {
            r["z_rack"] for r in devices
        } == {rack}
        trays = {r["a_end"]: (r["a_rack"], r["a_u"]) for r in devices if r["a_port"] == "bmc"}
        # a tray's BMC is named and placed as its compute cables are
        assert len(trays) == 18 and all(compute[name] == place for name, place in trays.items())
        uplinks = [r for r in rows if r["a_rack"] == rack and r["link_class"] == "leaf-uplink"]
        assert len(uplinks) == 2 * 2 and {r["a_end"] for r in uplinks} == {f"oob-{rack}-1", f"oob-{rack}-2"}
    ends = [(r["z_end"], r["z_port"]) for r in rows if r["link_class"] == "device-leaf"]
    assert len(ends) == len(set(ends))  # no port used twice
