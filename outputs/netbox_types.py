"""NetBox device types of the catalogue's parts, in the netbox-community devicetype-library's YAML format: the
required keys (``manufacturer``, ``model``, ``slug``, ``u_height``, ``is_full_depth``), the library's slug rule
(the manufacturer's slug, then the model's), and the ports, supplies and outlets the catalogue records, with
NetBox's type values. What the catalogue does not record is left out, never filled in: no key is empty or null.

``u_height`` is the height the rack plan gives the part (the catalogue's where it has one); ``is_full_depth`` is
NetBox's default (true: the device takes the rack's front and rear) for racked parts, false for zero-U parts and
the trays of a rack-scale system, as the catalogue records no depth. A switch's ports are named as the cabling CSV
names them (``p1`` ...; the RJ45 ports of a management switch ``p1`` ... and its uplink cages ``u1`` ...).

The library's own checks hold too: a file is named as its model (or, where the model is not its own slug up to case,
as the model's slug: ``SRS-GB200-NVL72-compute-tray.yaml``), and every device type says how it is powered. A part
whose supplies the catalogue records has a power port per supply; one it does not (a switch, a PDU's input, an NVL72
tray, a control-plane server) has one power port ``Power`` of NetBox's type ``other``, rather than none or a guessed
inlet; the customer's network and storage, which the design does not power, are ``is_powered: false``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from design.specs import MediaSpec, PduSpec, ServerSpec, SwitchSpec
from engines.catalog_view import CatalogView

UNKNOWN_MANUFACTURER = "Unspecified"  # the catalogue records none (the control-plane servers)
RJ45_1G = "1000base-t"
_IB = {"HDR": "infiniband-hdr", "NDR": "infiniband-ndr", "XDR": "infiniband-xdr"}
_ETH = {
    (100, "QSFP28"): "100gbase-x-qsfp28",
    (200, "QSFP56"): "200gbase-x-qsfp56",
    (400, "QSFP112"): "400gbase-x-qsfp112",
    (400, "OSFP"): "400gbase-x-osfp",
    (800, "OSFP"): "800gbase-x-osfp",
}
_INLETS = {"C14": "iec-60320-c14", "C20": "iec-60320-c20"}
UNRECORDED = "other"  # NetBox's power-port type of a supply whose inlet the catalogue does not record
POWER = "Power"  # the one power port of a powered part whose supplies the catalogue does not record


def slugify(text: str) -> str:
    """The devicetype-library's slug of a manufacturer or model: lower case, spaces, ``/`` and ``_`` to ``-``,
    ``+`` to ``plus``, ``&`` to ``and``; other characters outside ``a-z0-9-`` dropped."""
    out = text.casefold().replace(" ", "-").replace("/", "-").replace("_", "-").replace("+", "-plus")
    out = out.replace("&", "-and-")
    out = "".join(c for c in out if c.isascii() and (c.isalnum() or c == "-"))
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


@dataclass
class DeviceType:
    manufacturer: str
    model: str
    u_height: int
    part_number: str = ""
    description: str = ""
    ports: dict[str, str] = field(default_factory=dict)  # interface name -> NetBox type
    power_ports: list[tuple[str, str]] = field(default_factory=list)
    outlets: list[tuple[str, str]] = field(default_factory=list)
    powered: bool = True  # False: a stand-in the design does not power (the customer's network, its storage)

    @property
    def slug(self) -> str:
        return f"{slugify(self.manufacturer)}-{slugify(self.model)}"

    @property
    def path(self) -> str:
        """The library's file: named as the model where the model is its own slug up to case, else as its slug."""
        name = self.model if self.model.casefold() == slugify(self.model) else slugify(self.model)
        return f"device-types/{self.manufacturer}/{name}.yaml"

    def to_dict(self) -> dict[str, Any]:
        """The library's YAML document: only keys with a value."""
        doc: dict[str, Any] = {
            "manufacturer": self.manufacturer,
            "model": self.model,
            "slug": self.slug,
            "part_number": self.part_number[:50],
            "u_height": self.u_height,
            "is_full_depth": self.u_height > 0,
            "description": self.description[:200],
        }
        if not self.powered:
            doc["is_powered"] = False
        elif self.power_ports:
            doc["power-ports"] = [{"name": n, "type": t} for n, t in self.power_ports]
        else:
            doc["power-ports"] = [{"name": POWER, "type": UNRECORDED}]
        if self.outlets:
            doc["power-outlets"] = [{"name": n, "type": t} for n, t in self.outlets]
        if self.ports:
            doc["interfaces"] = [{"name": n, "type": t} for n, t in self.ports.items()]
        return {k: v for k, v in doc.items() if v not in ("", None, [])}

    def to_yaml(self) -> str:
        """The library's YAML file (its style: LibraryDumper), made once per device type as it stands (a switch's
        file lists every port, and PyYAML's emitter is pure Python: a few milliseconds each)."""
        key = repr(self)  # every field, as it stands
        text = _YAML.get(key)
        if text is None:
            if len(_YAML) >= _YAML_KEPT:
                _YAML.clear()
            text = _YAML[key] = yaml.dump(
                self.to_dict(), Dumper=LibraryDumper, sort_keys=False, allow_unicode=True, explicit_start=True
            )
        return text


_YAML: dict[str, str] = {}  # DeviceType.to_yaml's files by their device type's repr (all its fields)
_YAML_KEPT = 512  # files kept at most: the catalogue's device types, a few versions of each


class LibraryDumper(yaml.SafeDumper):
    """The devicetype-library's YAML style (its yamllint rules): a document start, and a list indented under its key
    (``interfaces:`` then ``  - name: p1``), which PyYAML's default and libyaml's dumper do not indent."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def cable_port_type(part: str, catalog: CatalogView) -> str | None:
    """The NetBox type of the ports a catalogued cable joins where its ends fix it: a 1 Gb/s RJ45 patch cord's are
    ``1000base-t``; None for any other part (a transceiver and fibre link, whose ports the devices' types give)."""
    spec = catalog.get(part)
    if isinstance(spec, MediaSpec) and all(
        e.connector == "RJ45" and e.speed_gbps == 1 for e in (spec.end_a, spec.end_b)
    ):
        return RJ45_1G
    return None


def switch_ports(spec: SwitchSpec) -> dict[str, str]:
    """A switch's ports as the cabling CSV names them, each with its NetBox type; none when the catalogue does not
    say what its cages carry."""
    if spec.protocol == "infiniband":
        kind = _IB.get(spec.generation or "")
    else:
        kind = _ETH.get((spec.port_speed_gbps or 0, str(spec.cage_connector or "")))
    logical = (spec.cages or 0) * (spec.logical_ports_per_cage or 1)
    if spec.rj45_ports:
        ports = {f"p{k}": RJ45_1G for k in range(1, spec.rj45_ports + 1)}
        if kind:
            ports |= {f"u{k}": kind for k in range(1, logical + 1)}
        return ports
    return {f"p{k}": kind for k in range(1, logical + 1)} if kind else {}


def component_type(system: str, component: str, height: int, catalog: CatalogView) -> DeviceType:
    """The device type of one unit of a rack-scale system (NVL72): its compute tray, NVLink switch tray or power
    shelf, named ``<system> <component>``, racked at its own unit of the system's rack (``catalog``: the catalogue
    view the design was validated against)."""
    spec = catalog.get(system)
    manufacturer = (spec.manufacturer if spec is not None else "") or UNKNOWN_MANUFACTURER
    words = f"{component[:1].upper()}{component[1:]} of the {spec.name}" if spec is not None else ""
    return DeviceType(manufacturer, f"{system} {component}", height, description=words)


def device_type(part: str, height: int, catalog: CatalogView) -> DeviceType:
    """The device type of a catalogue part racked ``height`` units high (``catalog``: the catalogue view the design
    was validated against)."""
    spec = catalog.get(part)
    manufacturer = (spec.manufacturer if spec is not None else "") or UNKNOWN_MANUFACTURER
    kind = DeviceType(manufacturer, part, height, part_number=part, description=spec.name if spec else "")
    if isinstance(spec, SwitchSpec):
        kind.ports = switch_ports(spec)
    elif isinstance(spec, ServerSpec) and spec.psu_count:
        inlet = _INLETS.get(spec.psu_inlet or "", UNRECORDED)
        kind.power_ports = [(f"PSU{k}", inlet) for k in range(1, spec.psu_count + 1)]
    elif isinstance(spec, PduSpec):
        kind.outlets = [(f"C13-{k}", "iec-60320-c13") for k in range(1, (spec.outlets_c13 or 0) + 1)]
        kind.outlets += [(f"C19-{k}", "iec-60320-c19") for k in range(1, (spec.outlets_c19 or 0) + 1)]
    return kind
