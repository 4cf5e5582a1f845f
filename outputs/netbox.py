"""The NetBox model of a validated design: every rack, device, port and cable, read from the cabling CSV's rows and
the rack plan, for the ``netbox.zip`` export (outputs.formats.netbox_zip).

Names are the cabling CSV's: a device is the end a row names at that rack and unit (``node-0001`` at R01-01 U1,
``su01-leaf-r1``, ``oob-R01-01``, a zero-U PDU ``R01-01-pdu-1``); a racked device no row names (the design has no
out-of-band network, or the device has no port cabled) is ``<rack>-u<unit>``. The units of a rack-scale system
(NVL72) are devices at their own units of its 48U rack: ``<system> compute tray`` (named as its compute cables name
it), ``NVLink switch tray``, ``power shelf`` and ``management switch``. A row whose end has no
rack (the customer's storage port or uplink network, an out-of-band switch no rack holds yet) or no port cannot be
a NetBox cable; it is listed, with its reason, in the bundle's README."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass, field

from configurator.result import ValidationResult
from engines.racks.model import DeviceRole, Rack, RackPlan

from .links import cabling_lines
from .netbox_types import DeviceType, component_type, device_type

STATUS = "planned"
OTHER = "other"  # NetBox's interface type for a port whose kind the catalogue does not give


@dataclass
class NbDevice:
    name: str
    role: str
    part: str
    rack: str
    position: int | None  # None: zero-U
    face: str = ""  # the rack face a racked device is mounted from (the rack plan's)


@dataclass
class NbFeed:
    panel: str
    name: str
    rack: str
    kind: str  # primary / redundant
    pdu: str
    part: str


@dataclass
class NbCable:
    a: tuple[str, str]
    b: tuple[str, str]
    part: str
    length_m: str


@dataclass
class NetBoxModel:
    """Everything the bundle lists, in NetBox's terms."""

    racks: list[Rack] = field(default_factory=list)
    devices: list[NbDevice] = field(default_factory=list)
    types: dict[str, DeviceType] = field(default_factory=dict)
    feeds: list[NbFeed] = field(default_factory=list)
    panels: list[str] = field(default_factory=list)
    interfaces: dict[tuple[str, str], str] = field(default_factory=dict)  # (device, port) -> type, added ports
    cables: list[NbCable] = field(default_factory=list)
    left_out: list[tuple[str, str]] = field(default_factory=list)  # (cabling row, reason)


def _rows(result: ValidationResult) -> Iterator[list[str]]:
    reader = csv.reader(cabling_lines(result))
    next(reader)
    yield from reader


def _places(rows: list[list[str]]) -> dict[tuple[str, str], list[str]]:
    """Every cabling end with a rack, by (rack, unit) (unit "" for a zero-U PDU), in the order the rows name them."""
    at: dict[tuple[str, str], list[str]] = {}
    seen: set[str] = set()
    for f in rows:
        for name, rack, unit in ((f[0], f[7], f[8]), (f[2], f[9], f[10])):
            if rack and name not in seen:
                seen.add(name)
                at.setdefault((rack, unit), []).append(name)
    return at


def _rack_devices(model: NetBoxModel, rack: Rack, at: dict[tuple[str, str], list[str]]) -> None:
    for d in rack.devices:
        names = at.get((rack.name, str(d.position_u)), [])
        role = str(d.role)
        own = f"{rack.name}-u{d.position_u:02d}"
        component = _COMPONENTS.get(d.role) if rack.system else None
        if component is not None and d.part == rack_part(rack):
            # A unit of a rack-scale system (a compute tray, NVLink switch tray or power shelf) at its own unit.
            kind = f"{d.part} {component}"
            model.devices.append(NbDevice(names[0] if names else own, role, kind, rack.name, d.position_u, face=d.face))
            if kind not in model.types:
                model.types[kind] = component_type(d.part, component, d.height_u)
            continue
        model.devices.append(NbDevice(names[0] if names else own, role, d.part, rack.name, d.position_u, face=d.face))
        _type(model, d.part, d.height_u)
    horizontal = sum(1 for d in rack.devices if d.role == DeviceRole.PDU)
    zero_u = [p.part for p in rack.pdus for _ in range(p.quantity)][horizontal:]
    for k, part in enumerate(zero_u, horizontal + 1):
        # The cabling CSV's name of the rack's k-th PDU (engines.cluster.cabling), cabled or not.
        model.devices.append(NbDevice(f"{rack.name}-pdu-{k}", str(DeviceRole.PDU), part, rack.name, None))
        _type(model, part, 0)


_COMPONENTS = {
    DeviceRole.NODE: "compute tray",
    DeviceRole.NVLINK_SWITCH: "NVLink switch tray",
    DeviceRole.POWER_SHELF: "power shelf",
    DeviceRole.SYSTEM_MANAGEMENT: "management switch",
}


def rack_part(rack: Rack) -> str | None:
    """The rack-scale system's part (its compute trays carry it)."""
    return next((d.part for d in rack.devices if d.role == DeviceRole.NODE), None)


def _type(model: NetBoxModel, part: str, height: int) -> None:
    if part not in model.types:
        model.types[part] = device_type(part, height)


def _power(model: NetBoxModel, plan: RackPlan) -> None:
    """One feed per PDU: with A+B feeds, each pair of a rack's PDUs has one on panel A (primary) and one on panel B
    (redundant); with one feed, every PDU is on panel A."""
    ab = str(plan.feeds) == "A+B"
    model.panels = ["Panel A", "Panel B"] if ab else ["Panel A"]
    count: dict[str, int] = {}
    for device in model.devices:
        if device.role != str(DeviceRole.PDU):
            continue
        k = count[device.rack] = count.get(device.rack, 0) + 1  # the rack's k-th PDU
        side = "B" if ab and k % 2 == 0 else "A"
        pair = (k + 1) // 2 if ab else k
        model.feeds.append(
            NbFeed(f"Panel {side}", f"{device.rack}-{side}{pair}", device.rack,
                   "redundant" if side == "B" else "primary", device.name, device.part)
        )  # fmt: skip


def _cables(model: NetBoxModel, rows: list[list[str]]) -> None:
    placed = {d.name: d for d in model.devices}
    ports: dict[str, dict[str, str]] = {}
    for d in model.devices:
        kind = model.types.get(d.part)
        ports[d.name] = kind.ports if kind is not None else {}
    added = model.interfaces
    cables = model.cables
    for f in rows:
        a, a_port, b, b_port = f[0], f[1], f[2], f[3]
        if a not in placed or b not in placed:
            model.left_out.append((",".join(f), _unplaced(a if a not in placed else b)))
            continue
        if not a_port or not b_port:
            model.left_out.append((",".join(f), "the row names no port at one end"))
            continue
        cables.append(NbCable((a, a_port), (b, b_port), f[5], f[6]))
        a_ports, b_ports = ports[a], ports[b]
        if a_port not in a_ports and (a, a_port) not in added:
            added[(a, a_port)] = _added_type(a_ports, a_port, b_ports.get(b_port))
        if b_port not in b_ports and (b, b_port) not in added:
            added[(b, b_port)] = _added_type(b_ports, b_port, a_ports.get(a_port))


def _unplaced(end: str) -> str:
    if end.startswith("uplink-net-"):
        return f"{end} is the customer's network, no device of the plan"
    if end.startswith("storage-port-"):
        return f"{end} is a port of the customer's storage system"
    return f"{end} is in no rack of the plan"


def _added_type(own: dict[str, str], port: str, peer: str | None) -> str:
    """An added port's NetBox type: a split half's is its panel port's (``p9.2`` of ``p9``); another's is the type
    of the port it is cabled to (the link's standard); ``other`` when neither is known."""
    base = port.split(".", 1)[0]
    if base != port and base in own:
        return own[base]
    return peer or OTHER


def netbox_model(result: ValidationResult) -> NetBoxModel:
    """The design's NetBox model (module docstring)."""
    plan = result.rack_plan.plan
    rows = list(_rows(result))
    at = _places(rows)
    model = NetBoxModel(racks=list(plan.racks))
    for rack in model.racks:
        _rack_devices(model, rack, at)
    _power(model, plan)
    _cables(model, rows)
    return model
