"""``netbox.zip``: the design as a NetBox bulk import bundle, every object ``status=planned``, one CSV per object type
with NetBox's import field names, in the order NetBox needs them (README.txt in the bundle says it), plus a
devicetype-library YAML file per device type (outputs.netbox_types). Devices, ports and cables are the cabling CSV's
(outputs.netbox), every row a cable: the customer's network and storage are devices of the site in no rack. The site
is named as the design (else as its configuration, else ``cluster-<hash>``). Each PDU has its own power feed,
three-phase at the line voltage (√3 × the catalogue's phase voltage, rounded to the volt) and the PDU's rated current,
at 100 % utilisation, so that NetBox's available power (voltage × current × √3 × utilisation) is the PDU's rating."""

from __future__ import annotations

import csv
import io
import math
import re
import zipfile
from collections.abc import Iterable, Iterator, Sequence

from configurator.result import ValidationResult
from design.specs import CatalogView, PduSpec
from outputs.format import OutputFormat
from outputs.links import unavailable
from outputs.netbox import STATUS, NbCable, NetBoxModel, netbox_model
from outputs.netbox_types import POWER, UNKNOWN_MANUFACTURER, UNRECORDED, slugify

ORDER = (
    ("manufacturers.csv", "the manufacturers of the device types"),
    ("device-types/", "every device type: Device Types > Import, one YAML file each"),
    ("device-roles.csv", "the device roles"),
    ("sites.csv", "the site"),
    ("racks.csv", "the racks"),
    ("power-panels.csv", "the site's power panels (A, and B for A+B feeds)"),
    ("power-feeds.csv", "one feed per PDU"),
    ("devices.csv", "every device: racked at its unit, a zero-U PDU without a position; the customer's in no rack"),
    ("interfaces.csv", "the ports the cabling uses that the device types do not list (adapters, management ports)"),
    ("cables.csv", "every cable of the cabling CSV"),
)
ROLE_COLOURS = {"node": "4caf50", "pdu": "9e9e9e", "control": "3f51b5", "ufm": "3f51b5", "management": "795548",
                "oob": "795548", "storage": "ff9800", "inband": "00bcd4", "customer": "607d8b"}  # fmt: skip
SWITCH_COLOUR = "2196f3"
RACK_WIDTH = 19  # inches: NetBox needs a rack's width (or a rack type); every part the plan racks is 19-inch EIA
EPOCH = (1980, 1, 1, 0, 0, 0)
_QUOTE = re.compile(r'[,"\r\n]')  # a field with one of these is quoted in CSV


def _csv(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _feed_power(part: str, catalog: CatalogView) -> tuple[object, object, object]:
    """(phase, voltage, amperage) of a PDU's feed from its catalogue entry; unknown values left empty."""
    spec = catalog.get(part)
    if not isinstance(spec, PduSpec) or spec.voltage_v is None:
        return "", "", ""
    if spec.phases == 3:
        return "three-phase", round(spec.voltage_v * math.sqrt(3)), spec.current_a or ""
    return "single-phase", spec.voltage_v, spec.current_a or ""


def site_name(result: ValidationResult) -> tuple[str, str]:
    """The site's name and slug: the design's name (NetBox's 100 characters at most), else ``cluster-<hash>``."""
    name = " ".join(result.name.split())[:100]
    slug = slugify(name)[:100].strip("-")
    if not slug:
        name = slug = f"cluster-{result.design_hash[:8]}"
    return name, slug


def files(result: ValidationResult, model: NetBoxModel) -> Iterator[tuple[str, str]]:
    """(path, text) of every file of the bundle, in import order."""
    site, slug = site_name(result)
    types = model.types.values()
    makers = sorted({t.manufacturer for t in types})
    yield "manufacturers.csv", _csv(("name", "slug"), ((m, slugify(m)) for m in makers))
    for t in types:
        yield t.path, t.to_yaml()
    roles = sorted({d.role for d in model.devices})
    yield "device-roles.csv", _csv(("name", "slug", "color"), ((r, r, _colour(r)) for r in roles))
    yield "sites.csv", _csv(("name", "slug", "status"), [(site, slug, STATUS)])
    yield "racks.csv", _csv(("site", "name", "status", "width", "u_height"),
                            ((site, r.name, STATUS, RACK_WIDTH, r.u_total) for r in model.racks))  # fmt: skip
    yield "power-panels.csv", _csv(("site", "name"), ((site, p) for p in model.panels))
    yield "power-feeds.csv", _feeds(site, model)
    yield "devices.csv", _devices(site, model)
    yield "interfaces.csv", _interfaces(model)
    yield "cables.csv", _cables(site, model)
    yield "README.txt", readme(model)


def _interfaces(model: NetBoxModel) -> str:
    header = ("device", "name", "type")
    if not model.plain:
        return _csv(header, ((d, p, t) for (d, p), t in model.interfaces.items()))
    return "".join([",".join(header) + "\n", *(f"{d},{p},{t}\n" for (d, p), t in model.interfaces.items())])


def _colour(role: str) -> str:
    return ROLE_COLOURS.get(role.split("-", 1)[0], SWITCH_COLOUR)


def _feeds(site: str, model: NetBoxModel) -> str:
    header = ("site", "power_panel", "rack", "name", "status", "type", "supply", "phase", "voltage", "amperage",
              "max_utilization", "description")  # fmt: skip
    power = {part: _feed_power(part, model.catalog) for part in {f.part for f in model.feeds}}
    rows = (
        (site, f.panel, f.rack, f.name, STATUS, f.kind, "ac", *power[f.part], 100, f"feeds PDU {f.pdu}")
        for f in model.feeds
    )
    return _csv(header, rows)


def _devices(site: str, model: NetBoxModel) -> str:
    header = ("name", "role", "manufacturer", "device_type", "status", "site", "rack", "position", "face")
    rows = []
    for d in model.devices:
        kind = model.types[d.part]
        position = "" if d.position is None else d.position
        rows.append((d.name, d.role, kind.manufacturer, kind.model, STATUS, site, d.rack, position, d.face))
    return _csv(header, rows)


CABLES = ("side_a_site", "side_a_device", "side_a_type", "side_a_name", "side_b_site", "side_b_device",
          "side_b_type", "side_b_name", "status", "description", "length", "length_unit")  # fmt: skip


def _cables(site: str, model: NetBoxModel) -> str:
    """cables.csv, a line per cable formatted directly (57,000 at 2,048 nodes); a cable with a field the CSV must
    quote goes through the csv module."""
    out = [",".join(CABLES) + "\n"]
    add = out.append
    lead = _csv(("site",), [(site,)]).split("\n", 1)[1].rstrip("\n")  # the site as a CSV field
    plain = model.plain  # no field of any cable needs quoting: every field as it is, unchecked
    for c in model.cables:
        a, a_port, b, b_port, part, length = c
        if plain or _QUOTE.search(a + a_port + b + b_port + part + length) is None:
            unit = "m" if length else ""
            add(f"{lead},{a},dcim.interface,{a_port},{lead},{b},dcim.interface,{b_port},{STATUS},{part[:200]},"
                f"{length},{unit}\n")  # fmt: skip
        else:
            add(_csv(CABLES, [_cable_row(site, c)]).split("\n", 1)[1])
    return "".join(out)


def _cable_row(site: str, c: NbCable) -> tuple[str, ...]:
    a, a_port, b, b_port, part, length = c
    return (site, a, "dcim.interface", a_port, site, b, "dcim.interface", b_port, STATUS, part[:200], length,
            "m" if length else "")  # fmt: skip


def readme(model: NetBoxModel) -> str:
    lines = ["NetBox import bundle (status: planned). Import in this order:", ""]
    lines += [f"{k:2d}. {name:20s} {what}" for k, (name, what) in enumerate(ORDER, 1)]
    lines += ["", "CSV files: Import (bulk import) of the object type, format CSV. Device types: Device Types >",
              "Import, each YAML file of device-types/<manufacturer>/ (or the devicetype-library's importer).",
              "Device and cable names are those of the cabling CSV; a racked device no row names is",
              "<rack>-u<unit>. A rack-scale system's trays and shelves are devices at their own units.",
              "Every row of the cabling CSV is a cable. The customer's side is a device in no rack:",
              "customer-network (an interface per uplink, uplink-net-01/<switch>/<port>) and customer-storage",
              "(an interface per storage port, storage-port-0257).",
              "Power: one feed per PDU, three-phase at the line voltage and the PDU's rated current, at 100 %",
              "utilisation, so that NetBox's available power is the PDU's rating; lower max_utilization to your",
              "site's derating. Device types keep only what the catalogue records; a part without a catalogued",
              f"manufacturer is under {UNKNOWN_MANUFACTURER}, and one whose power supplies it does not record has",
              f"one power port {POWER} of type {UNRECORDED} (set its inlets once the hardware is known).",
              ""]  # fmt: skip
    if model.left_out:
        lines += [f"Not in cables.csv ({len(model.left_out)} rows of the cabling CSV):"]
        lines += [f"  {row}  -- {why}" for row, why in model.left_out]
    return "\n".join(lines) + "\n"


def render(result: ValidationResult, language: str) -> Iterator[bytes]:
    """The zip (one chunk); OutputUnavailable (``no_fabric_plan``) when the design has no fabric to cable."""
    model = netbox_model(result)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as bundle:
        for path, text in files(result, model):
            entry = zipfile.ZipInfo(path, date_time=EPOCH)  # a fixed date: the same design, the same bytes
            entry.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(entry, text, compresslevel=1)  # fast: the CSVs compress well at any level
    return iter((out.getvalue(),))


FORMAT = OutputFormat(name="netbox.zip", media_type="application/zip", render=render, unavailable=unavailable)
