"""What the bill reads of the physical model: the rack plan's racks, the devices racked in them and the power
that feeds them (``RackBill``), from a fresh plan or a stored result's ``rack_plan``.

Every switch, UFM appliance and control-plane server the bill carries is a device racked at one place of the plan
(the out-of-band switches of every rack, the central ones, every network's, the control plane's). The bill takes
their quantities from here (``placed``, by the bill section the device's role belongs to: ``SECTION_OF_ROLE``), and
the cables and optics from the plans that cable them; a rack-scale system's own trays and switches are part of the
system and no line of their own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.racks.model import CordLine, Device, DeviceRole, PduLine, RackPlan, heights

# The bill section of each role of a racked device the bill carries (design.contract.BILL_SECTIONS).
SECTION_OF_ROLE: Mapping[DeviceRole, str] = {
    DeviceRole.LEAF: "compute_fabric",
    DeviceRole.SPINE: "compute_fabric",
    DeviceRole.CORE: "compute_fabric",
    DeviceRole.STORAGE_LEAF: "storage",
    DeviceRole.STORAGE_SPINE: "storage",
    DeviceRole.STORAGE_CORE: "storage",
    DeviceRole.INBAND_LEAF: "inband",
    DeviceRole.INBAND_SPINE: "inband",
    DeviceRole.INBAND_CORE: "inband",
    DeviceRole.MANAGEMENT: "oob",
    DeviceRole.OOB: "oob",
    DeviceRole.CONTROL: "control_plane",
    DeviceRole.UFM: "control_plane",
}
_SECTION_OF_ROLE_NAME = {str(role): section for role, section in SECTION_OF_ROLE.items()}


@dataclass(frozen=True, slots=True)
class RackBill:
    """What the bill of materials reads of a rack plan: the enclosures to fit (every rack but a rack-scale system)
    and their height, the devices racked (``placed``: by bill section and part, over every rack), the PDUs and node
    power cords over all racks and the PDU feeds. From a fresh plan (``of_plan``) or a stored result's JSON
    (``from_json``)."""

    racks: int  # every rack, rack-scale systems included (0: no rack plan)
    enclosures: int
    rack_units: int | None
    placed: Mapping[tuple[str, str], int]
    pdus: tuple[PduLine, ...]
    cords: tuple[CordLine, ...]
    feeds: str

    @classmethod
    def of_plan(cls, plan: RackPlan) -> RackBill:
        # Identical racks share one devices tuple: count the racks of each, then read each tuple once (a
        # 100,000-node plan's 4,693 runs hold a handful of distinct racks).
        racks: dict[int, tuple[tuple[Device, ...], int]] = {}
        for run in plan.runs:
            devices = run.rack.devices
            seen = racks.get(id(devices))
            racks[id(devices)] = (devices, run.count + (seen[1] if seen is not None else 0))
        placed: Counter[tuple[str, str]] = Counter()
        for devices, count in racks.values():
            for device in devices:
                if (section := SECTION_OF_ROLE.get(device.role)) is not None:
                    placed[(section, device.part)] += count
        return cls(
            racks=plan.rack_count,
            enclosures=sum(run.count for run in plan.runs if not run.rack.system),
            rack_units=plan.rack_units,
            placed=placed,
            pdus=plan.pdus,
            cords=plan.cords,
            feeds=str(plan.feeds),
        )

    @classmethod
    def from_json(cls, rack_plan: Mapping[str, Any] | None) -> RackBill:
        """From a result's ``rack_plan`` as written (a stored result's; its racks as entries with a ``count``, or
        one by one as stored before)."""
        rack_plan = rack_plan or {}
        placed: Counter[tuple[str, str]] = Counter()
        for entry in rack_plan.get("racks", []):
            racks = entry.get("count", 1)
            for device in entry.get("devices", []):
                if (section := _SECTION_OF_ROLE_NAME.get(device.get("role", ""))) is not None:
                    placed[(section, device["part"])] += racks * device.get("count", 1)
        return cls(
            racks=rack_count(rack_plan),
            enclosures=enclosure_count(rack_plan),
            rack_units=rack_plan.get("rack_units", 0),
            placed=placed,
            pdus=tuple(PduLine(p["part"], p["quantity"], p.get("cord", "")) for p in rack_plan.get("pdus", [])),
            cords=tuple(
                CordLine(c["pdu_outlet"], c["node_inlet"], c["quantity"], c.get("current_a"))
                for c in rack_plan.get("cords", [])
            ),
            feeds=rack_plan.get("pdu_feeds", "A+B"),
        )


def enclosure_count(rack_plan: Mapping[str, Any] | None) -> int:
    """The racks of a result's ``rack_plan`` as written that are enclosures to fit (every rack but a rack-scale
    system, which is a rack of its own with its power shelves and management switches)."""
    return sum(r.get("count", 1) for r in (rack_plan or {}).get("racks", []) if not r.get("system"))


def rack_heights(rack_plan: Mapping[str, Any] | None) -> tuple[tuple[int, int], ...]:
    """(units, racks) for each height of rack of a result's ``rack_plan`` as written, the tallest first (an entry
    without its height is the plan's ``rack_units``)."""
    plan = rack_plan or {}
    return heights((r.get("u_total", plan.get("rack_units", 0)), r.get("count", 1)) for r in plan.get("racks", []))


def rack_count(rack_plan: Mapping[str, Any] | None) -> int:
    """Every physical rack of a result's ``rack_plan`` as written: the sum of its entries' ``count`` (an entry is a
    distinct rack with every rack holding it, or in a result stored before, a run of identical racks; one stored
    before runs had a count is one rack)."""
    return sum(r.get("count", 1) for r in (rack_plan or {}).get("racks", []))
