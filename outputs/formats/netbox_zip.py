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
from design.specs import PduSpec
from engines.catalog_view import CatalogView
from outputs.format import OutputFormat
from outputs.links import unavailable
from outputs.netbox import CABLES, INTERFACES, STATUS, NetBoxModel, csv_line, netbox_model, site_name
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


def files(result: ValidationResult, model: NetBoxModel) -> Iterator[tuple[str, str]]:
    """(path, text) of every file of the bundle, in import order."""
    site, slug = site_name(result)
    lead = csv_line((site,))[:-1]  # the site as a CSV field
    types = model.types.values()
    makers = sorted({t.manufacturer for t in types})
    yield "manufacturers.csv", _csv(("name", "slug"), ((m, slugify(m)) for m in makers))
    for t in types:
        yield t.path, t.to_yaml()
    roles = sorted({d[1] for d in model.devices})
    yield "device-roles.csv", _csv(("name", "slug", "color"), ((r, r, _colour(r)) for r in roles))
    yield "sites.csv", _csv(("name", "slug", "status"), [(site, slug, STATUS)])
    # Whether no field of racks.csv, power-feeds.csv and devices.csv needs quoting: their devices' names (the
    # model's), roles, faces, racks and types; a feed is named for its rack, and described by its PDU's name.
    texts = [*roles, *{d[5] for d in model.devices}, *(r.name for r in model.racks)]  # and the devices' faces
    plain = model.plain and _plain([*texts, *(t.manufacturer for t in types), *(t.model for t in types)])
    yield "racks.csv", _racks(site, lead, model, plain)
    yield "power-panels.csv", _csv(("site", "name"), ((site, p) for p in model.panels))
    yield "power-feeds.csv", _feeds(site, lead, model, plain)
    yield "devices.csv", _devices(site, lead, model, plain)
    yield "interfaces.csv", "".join([",".join(INTERFACES) + "\n", *model.interfaces])
    yield "cables.csv", "".join([",".join(CABLES) + "\n", *model.cables])
    yield "README.txt", readme(model)


def _colour(role: str) -> str:
    return ROLE_COLOURS.get(role.split("-", 1)[0], SWITCH_COLOUR)


def _plain(texts: Iterable[str]) -> bool:
    """Whether no text is a field CSV quotes (one with a comma, a quote or a line break)."""
    return _QUOTE.search("\0".join(texts)) is None


def _racks(site: str, lead: str, model: NetBoxModel, plain: bool) -> str:
    header = ("site", "name", "status", "width", "u_height")
    if not plain:
        return _csv(header, ((site, r.name, STATUS, RACK_WIDTH, r.u_total) for r in model.racks))
    lines = [f"{lead},{r.name},{STATUS},{RACK_WIDTH},{r.u_total}\n" for r in model.racks]
    return "".join([",".join(header) + "\n", *lines])


def _feeds(site: str, lead: str, model: NetBoxModel, plain: bool) -> str:
    """power-feeds.csv: a line per feed formatted directly (4,300 at 2,048 nodes) where no field needs quoting."""
    header = ("site", "power_panel", "rack", "name", "status", "type", "supply", "phase", "voltage", "amperage",
              "max_utilization", "description")  # fmt: skip
    power = {part: _feed_power(part, model.catalog) for part in {f[5] for f in model.feeds}}
    if not plain:
        rows = (
            (site, panel, rack, name, STATUS, kind, "ac", *power[part], 100, f"feeds PDU {pdu}")
            for panel, name, rack, kind, pdu, part in model.feeds
        )
        return _csv(header, rows)
    supply = {part: ",".join(map(str, values)) for part, values in power.items()}
    lines = [f"{lead},{panel},{rack},{name},{STATUS},{kind},ac,{supply[part]},100,feeds PDU {pdu}\n"
             for panel, name, rack, kind, pdu, part in model.feeds]  # fmt: skip
    return "".join([",".join(header) + "\n", *lines])


def _devices(site: str, lead: str, model: NetBoxModel, plain: bool) -> str:
    """devices.csv: a line per device formatted directly (7,800 at 2,048 nodes) where no field needs quoting."""
    header = ("name", "role", "manufacturer", "device_type", "status", "site", "rack", "position", "face")
    types = model.types
    if not plain:
        rows = (
            (name, role, types[part].manufacturer, types[part].model, STATUS, site, rack,
             "" if position is None else position, face)
            for name, role, part, rack, position, face in model.devices
        )  # fmt: skip
        return _csv(header, rows)
    kinds = {part: f"{t.manufacturer},{t.model}" for part, t in types.items()}
    lines = [f"{name},{role},{kinds[part]},{STATUS},{lead},{rack},{'' if position is None else position},{face}\n"
             for name, role, part, rack, position, face in model.devices]  # fmt: skip
    return "".join([",".join(header) + "\n", *lines])


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
