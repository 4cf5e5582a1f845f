"""The NetBox model of a validated design: every rack, device, port and cable, read from the cabling CSV's rows and
the rack plan, for the ``netbox.zip`` export (outputs.formats.netbox_zip).

Names are the cabling CSV's: a device is the end a row names at that rack and unit (``node-0001`` at R01-01 U1,
``su01-leaf-r1``, ``oob-R01-01``, a zero-U PDU ``R01-01-pdu-1``); a racked device no row names (the design has no
out-of-band network, or the device has no port cabled) is ``<rack>-u<unit>``. The units of a rack-scale system
(NVL72) are devices at their own units of its 48U rack: ``<system> compute tray`` (named as its compute cables name
it), ``NVLink switch tray``, ``power shelf`` and ``management switch``.

Every row is a cable between two ports. A row's end outside the plan's racks is a device of the site in no rack:
the customer's network (``uplink-net-01``, a network rather than a port) is device ``customer-network``, an
interface per cable named for the network and the port cabled to it (``uplink-net-01/oob-01/u1``); a storage
system's port (``storage-port-0257``) is an interface of that name on device ``customer-storage``; an out-of-band
switch no rack holds yet (``oob-extra-01``) is that switch, unracked. A row the plan could give no port (a design
whose landing leaves are full, which its findings call an error) or whose end is none of these is listed, with
its reason, in the bundle's README."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from configurator.result import ValidationResult
from configurator.snapshot import catalog_snapshot
from engines.catalog_view import CatalogView
from engines.fabric.cabling import HEADER, RACK_COLUMNS
from engines.networks.model import OOB
from engines.racks.model import DeviceRole, Rack, RackPlan

from .links import cabling_rows
from .netbox_types import UNKNOWN_MANUFACTURER, DeviceType, cable_port_type, component_type, device_type, slugify

Place = tuple[str, str]  # (rack, unit) as the cabling CSV writes them
Slots = dict[Place, int]  # the racked devices no row has named yet, by place: their index in the model's devices
STATUS = "planned"
OTHER = "other"  # NetBox's interface type for a port whose kind the catalogue does not give
CUSTOMER_NETWORK = "customer-network"  # the device (and role) of the customer's network
CUSTOMER_STORAGE = "customer-storage"  # the device (and role) of the customer's storage systems
_OUTSIDE = (
    ("uplink-net-", CUSTOMER_NETWORK, "Customer network", "The customer's network: the ports the uplinks land on"),
    ("storage-port-", CUSTOMER_STORAGE, "Customer storage", "The customer's storage systems: their network ports"),
)
OOB_EXTRA = "oob-extra-"  # an out-of-band switch the plan adds that no rack holds yet
_QUOTED = re.compile(r'[,"\r\n]')  # a field with one of these is quoted in CSV
COMPUTE_COLUMNS = (HEADER + RACK_COLUMNS).split(",")  # a compute row's, read without its network column


# A device: (name, role, part, rack, position, face); position None for a zero-U device or one in no rack, face the
# rack face a racked device is mounted from (the rack plan's), else "". A feed: (panel, name, rack, kind: primary or
# redundant, the PDU it feeds, the PDU's part). Plain tuples of strings and numbers, which the garbage collector
# stops tracking: a 2,048-node plan has 7,800 devices and 4,300 feeds, which as objects it would keep tracking and
# every few bundles collect with the whole process's objects (a full collection, some 100 ms).
NbDevice = tuple[str, str, str, str, int | None, str]
NbFeed = tuple[str, str, str, str, str, str]


INTERFACES = ("device", "name", "type")
CABLES = ("side_a_site", "side_a_device", "side_a_type", "side_a_name", "side_b_site", "side_b_device",
          "side_b_type", "side_b_name", "status", "description", "length", "length_unit")  # fmt: skip


@dataclass
class NetBoxModel:
    """Everything the bundle lists, in NetBox's terms."""

    site: str = ""  # the site's name (site_name)
    racks: list[Rack] = field(default_factory=list)
    devices: list[NbDevice] = field(default_factory=list)
    types: dict[str, DeviceType] = field(default_factory=dict)
    feeds: list[NbFeed] = field(default_factory=list)
    panels: list[str] = field(default_factory=list)
    # interfaces.csv's lines (device, name, type): the ports the cables use that their devices' types do not list
    interfaces: list[str] = field(default_factory=list)
    # cables.csv's lines (CABLES), in the cabling CSV's order: written as the rows come, so that none of 57,000 is
    # kept as a tuple the garbage collector tracks
    cables: list[str] = field(default_factory=list)
    left_out: list[tuple[str, str]] = field(default_factory=list)  # (cabling row, reason)
    oob_switch: str = ""  # the out-of-band network's switch part (an unracked further switch is one)
    plain: bool = True  # no field of any row is quoted in CSV (no comma, quote or line break in it)
    # the catalogue view the design was validated against: the device types' facts
    catalog: CatalogView = field(default_factory=lambda: CatalogView(version=""))


def _rack_devices(model: NetBoxModel, rack: Rack, slots: Slots) -> None:
    """The rack's devices, each named ``<rack>-u<unit>`` until a row names it (its slot, by rack and unit); its
    zero-U PDUs by the cabling CSV's names."""
    name, types, devices = rack.name, model.types, model.devices
    system = rack_part(rack) if rack.system else None
    horizontal = 0  # the rack's PDUs at a unit of their own
    for d in rack.devices:
        component = _COMPONENTS.get(d.role) if system is not None and d.part == system else None
        if component is not None:
            # A unit of a rack-scale system (a compute tray, NVLink switch tray or power shelf) at its own unit.
            kind = f"{d.part} {component}"
            if kind not in types:
                types[kind] = component_type(d.part, component, d.height_u, model.catalog)
        else:
            kind = d.part
            if kind not in types:
                types[kind] = device_type(kind, d.height_u, model.catalog)
        horizontal += d.role == DeviceRole.PDU
        slots.setdefault((name, str(d.position_u)), len(devices))
        devices.append((f"{name}-u{d.position_u:02d}", str(d.role), kind, name, d.position_u, d.face))
    zero_u = [p.part for p in rack.pdus for _ in range(p.quantity)][horizontal:]
    for k, part in enumerate(zero_u, horizontal + 1):
        # The cabling CSV's name of the rack's k-th PDU (engines.cluster.cabling), cabled or not.
        devices.append((f"{name}-pdu-{k}", str(DeviceRole.PDU), part, name, None, ""))
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
        model.types[part] = device_type(part, height, model.catalog)


def _power(model: NetBoxModel, plan: RackPlan) -> None:
    """One feed per PDU: with A+B feeds, each pair of a rack's PDUs has one on panel A (primary) and one on panel B
    (redundant); with one feed, every PDU is on panel A."""
    ab = str(plan.feeds) == "A+B"
    model.panels = ["Panel A", "Panel B"] if ab else ["Panel A"]
    count: dict[str, int] = {}
    pdu = str(DeviceRole.PDU)
    for name, role, part, rack, _position, _face in model.devices:
        if role != pdu:
            continue
        k = count[rack] = count.get(rack, 0) + 1  # the rack's k-th PDU
        side = "B" if ab and k % 2 == 0 else "A"
        pair = (k + 1) // 2 if ab else k
        model.feeds.append(
            (f"Panel {side}", f"{rack}-{side}{pair}", rack, "redundant" if side == "B" else "primary", name, part)
        )


class _Ends:
    """Every device's ports by name (its type's and those the rows add), and the racked devices no row has named
    yet by (rack, unit): the first row end at a device's rack and unit names it."""

    def __init__(self, model: NetBoxModel, slots: Slots):
        self.model = model
        self.slots = slots
        types = model.types
        self.ports = {d[0]: dict(types[d[2]].ports) for d in model.devices if d[4] is None}  # the unracked ones

    def place(self, name: str, rack: str, unit: str) -> dict[str, str] | None:
        k = self.slots.pop((rack, unit), None) if rack else None
        if k is None:
            return None
        devices = self.model.devices
        _own, role, part, where, position, face = devices[k]
        devices[k] = (name, role, part, where, position, face)
        ports = self.ports[name] = dict(self.model.types[part].ports)
        return ports

    def new(
        self, name: str, port: str, rack: str, unit: str, far: str, far_port: str
    ) -> tuple[str, str, dict[str, str] | None]:
        """An end no row has named yet: the racked device at its rack and unit, else one in no rack (``_outside``);
        its device, port and ports."""
        ports = self.place(name, rack, unit)
        return (name, port, ports) if ports is not None else _outside(self.model, self.ports, name, port, far, far_port)


def _cables(model: NetBoxModel, result: ValidationResult, slots: Slots, quoted: bool) -> None:
    """One pass over the cabling CSV's rows (57,000 at 2,048 nodes, none kept), read as the rows the CSV writes
    (outputs.links.cabling_rows: fields, no text parsed): every row a cable between two ports, its ends' devices
    named as it comes, the ports no device type lists added, and its line of cables.csv written: every field as it
    is, or, ``quoted``, a cable with a field CSV must quote through the csv module."""
    ends = _Ends(model, slots)
    ports = ends.ports
    added = model.interfaces.append
    line = model.cables.append
    lead = csv_line((model.site,))[:-1]  # the site as a CSV field
    media: set[tuple[str, str]] = set()  # the cables' (part, length) pairs
    a_ports: dict[str, str] | None
    b_ports: dict[str, str] | None
    part = length = ""
    tail = f",{STATUS},,,\n"  # the line's last four fields: status, cable part, length, unit
    for f in cabling_rows(result, network=False):  # no row's network read
        if f[5] is not part or f[6] is not length:  # runs of rows share one part's and length's text
            part, length = f[5], f[6]
            media.add((part, length))
            tail = f",{STATUS},{part[:200]},{length},{'m' if length else ''}\n"
        a, a_port, b, b_port = f[0], f[1], f[2], f[3]
        try:
            a_ports = ports[a]
        except KeyError:
            a, a_port, a_ports = ends.new(a, a_port, f[7], f[8], b, b_port)
        try:
            b_ports = ports[b]
        except KeyError:
            b, b_port, b_ports = ends.new(b, b_port, f[9], f[10], f[0], f[1])
        if a_ports is None or b_ports is None or not a_port or not b_port:
            model.left_out.append(_left_out(f, a_ports is not None, b_ports is not None))
            continue
        if quoted and _QUOTED.search(a + a_port + b + b_port + part + length) is not None:
            line(_quoted_cable(model.site, a, a_port, b, b_port, part, length))
        else:
            line(f"{lead},{a},dcim.interface,{a_port},{lead},{b},dcim.interface,{b_port}{tail}")
        if a_port not in a_ports:  # a port its device's type does not list (a node's NIC): typed as its peer
            peer = b_ports.get(b_port)
            kind = a_ports[a_port] = (
                peer if peer and "." not in a_port else _added_type(model, a_ports, a_port, peer, part)
            )
            added(csv_line((a, a_port, kind)) if quoted else f"{a},{a_port},{kind}\n")
        if b_port not in b_ports:
            peer = a_ports.get(a_port)
            kind = b_ports[b_port] = (
                peer if peer and "." not in b_port else _added_type(model, b_ports, b_port, peer, part)
            )
            added(csv_line((b, b_port, kind)) if quoted else f"{b},{b_port},{kind}\n")
    model.plain = _plain(model, media)


def csv_line(fields: Sequence[object]) -> str:
    """The fields as one line of CSV, as the csv module writes it (a field with a comma, a quote or a line break
    quoted), newline-terminated."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow(fields)
    return out.getvalue()


def _quoted_cable(site: str, a: str, a_port: str, b: str, b_port: str, part: str, length: str) -> str:
    return csv_line((site, a, "dcim.interface", a_port, site, b, "dcim.interface", b_port, STATUS, part[:200],
                     length, "m" if length else ""))  # fmt: skip


def _plain(model: NetBoxModel, media: set[tuple[str, str]]) -> bool:
    """Whether no field of cables.csv and interfaces.csv needs quoting in CSV: every cable end is a device of the
    model on a port its type lists or the rows added, so its devices, ports and media are all there is to read."""
    texts = [d[0] for d in model.devices]  # their names
    texts += [port for kind in model.types.values() for port in kind.ports]
    texts += [text for pair in media for text in pair]
    if _QUOTED.search("\0".join(texts)) is not None:
        return False
    # The added ports: three fields a line, so two commas and a line break a line where none has any.
    lines = "".join(model.interfaces)
    n = len(model.interfaces)
    return lines.count(",") == 2 * n and lines.count("\n") == n and '"' not in lines and "\r" not in lines


def _left_out(f: Sequence[str], a: bool, b: bool) -> tuple[str, str]:
    """A row that is no cable, as the cabling CSV has it (a compute row, read without its network column, with it),
    and its reason: an end that is no device, or an end without a port."""
    row = ",".join(f if len(f) > len(COMPUTE_COLUMNS) else (*f, "compute")).rstrip("\n")
    if not a or not b:
        return row, f"{f[0] if not a else f[2]} is in no rack of the plan"
    return row, f"the plan gives {f[0] if not f[1] else f[2]} no free port for this link"


def _outside(
    model: NetBoxModel, ports: dict[str, dict[str, str]], end: str, port: str, far: str, far_port: str
) -> tuple[str, str, dict[str, str] | None]:
    """The device, interface and ports of an end in no rack (module docstring); no ports for an end that is none."""
    for prefix, device, kind, words in _OUTSIDE:
        if end.startswith(prefix):
            if device not in ports:
                model.devices.append((device, device, kind, "", None, ""))
                model.types[kind] = DeviceType(UNKNOWN_MANUFACTURER, kind, 0, description=words, powered=False)
                ports[device] = {}
            if prefix == "storage-port-":
                return device, f"{end}/{port}" if port else end, ports[device]
            return device, f"{end}/{port}" if port else f"{end}/{far}/{far_port}", ports[device]
    if end.startswith(OOB_EXTRA) and model.oob_switch:
        model.devices.append((end, str(DeviceRole.OOB), model.oob_switch, "", None, ""))
        if model.oob_switch not in model.types:
            spec = model.catalog.get(model.oob_switch)
            height = getattr(spec, "height_u", None) or 0
            model.types[model.oob_switch] = device_type(model.oob_switch, height, model.catalog)
        ports[end] = dict(model.types[model.oob_switch].ports)
        return end, port, ports[end]
    return end, port, None


def _added_type(model: NetBoxModel, own: dict[str, str], port: str, peer: str | None, part: str) -> str:
    """An added port's NetBox type: a split half's is its panel port's (``p9.2`` of ``p9``); another's is the type
    of the port it is cabled to (the link's standard), else the one its catalogued cable fixes (an RJ45 patch cord's
    ``1000base-t``: the management ports of an NVL72 rack's own switch and trays); ``other`` when none is known."""
    base = port.split(".", 1)[0]
    if base != port and base in own:
        return own[base]
    return peer or cable_port_type(part, model.catalog) or OTHER


def site_name(result: ValidationResult) -> tuple[str, str]:
    """The site's name and slug: the design's name (NetBox's 100 characters at most), else ``cluster-<hash>``."""
    name = " ".join(result.name.split())[:100]
    slug = slugify(name)[:100].strip("-")
    if not slug:
        name = slug = f"cluster-{result.design_hash[:8]}"
    return name, slug


def netbox_model(result: ValidationResult) -> NetBoxModel:
    """The design's NetBox model (module docstring). Its cables are written with every field as it is; should a
    field need quoting after all (a catalogue's part number with a comma), the rows are read again, and each cable
    with such a field quoted."""
    model = _model(result, quoted=False)
    return model if model.plain else _model(result, quoted=True)


def _model(result: ValidationResult, quoted: bool) -> NetBoxModel:
    plan = result.rack_plan.plan
    oob = result.network_plans.get(OOB)
    model = NetBoxModel(
        site=site_name(result)[0],
        racks=list(plan.racks),
        oob_switch=oob.plan.switch or "" if oob is not None else "",
        catalog=result.catalog or catalog_snapshot(),  # a result made without the service: the live catalogue
    )
    slots: Slots = {}
    for rack in model.racks:
        _rack_devices(model, rack, slots)
    _cables(model, result, slots, quoted)
    _power(model, plan)
    return model
