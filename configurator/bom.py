"""The bill of materials of a design: every line the quote will carry, with its indicative list price.

There is one bill. The validation result carries it (``bom``, with ``totals.list_price_eur`` and
``totals.list_price_at_least``), built by ``design_bom`` from the result's own plans, and every door shows those
lines: the wizard, the API, the CLI, the quote (which freezes them) and its PDF and workbook. Its sections are the
stable keys of ``SECTIONS``:

* ``nodes``: each node group's server × count and each component × quantity × count (``group`` names the group);
* ``compute_fabric``: the fabric plan's switches, cables and optics (its management switches are counted by the
  rack plan instead, under ``oob``);
* ``storage``, ``inband``, ``oob``: each planned network's own bill (``network_plans[key].bom``); the management
  switches the rack plan places (one in every rack, as placed) are ``oob`` lines and replace the out-of-band plan's
  line for the same part;
* ``racks_power``: the rack plan's racks, PDUs and node power cords;
* ``control_plane``, ``services``: the lines the result gives for them.

A part the catalogue cannot price is a line of its own with its quantity and no unit price (on request), never
left out: a PDU without a list price, PDUs the plan needs when the catalogue holds none, cords whose plug or socket
type is unknown, racks of an unstocked height. Totals that leave such a line out say "at least".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from configurator.cluster import POWER, RACKS, left_out
from configurator.defaults import complete_design
from configurator.rackplan import enclosure_count
from configurator.snapshot import catalog_snapshot
from design.contract import BILL_SECTIONS
from design.model import DesignIn, DesignInputError
from design.parse import parse_design
from design.specs import CatalogView, PowerCordSpec, RackPartSpec, ServerSpec, SwitchSpec
from messages.bill import cord_needed, pdu_needed, rack_needed, rack_system_included, section_title

CENT = Decimal("0.01")

NODES, COMPUTE_FABRIC, STORAGE, INBAND, OOB = "nodes", "compute_fabric", "storage", "inband", "oob"
RACKS_POWER, CONTROL_PLANE, SERVICES = "racks_power", "control_plane", "services"
SECTIONS = BILL_SECTIONS  # in the order every door shows them (design.contract)
NETWORK_SECTIONS = (STORAGE, INBAND, OOB)  # the keys of ``network_plans``, each a section of its own
# Lines without a catalogue part (what the plan needs but no part fits) carry this part number: none.
NO_PART = ""


@dataclass(frozen=True)
class BomLine:
    """One line of the bill: ``section`` is one of SECTIONS; ``group`` the node group of a ``nodes`` line.
    ``unit_price_eur`` None: priced on request. ``part_number`` empty: no catalogue part fits (the description
    says what is needed)."""

    section: str
    part_number: str
    description: str
    quantity: int
    unit_price_eur: Decimal | None
    group: str | None = None

    @property
    def total_eur(self) -> Decimal | None:
        if self.unit_price_eur is None:
            return None
        return (self.unit_price_eur * self.quantity).quantize(CENT, rounding=ROUND_HALF_UP)

    @property
    def on_request(self) -> bool:
        return self.unit_price_eur is None

    def to_dict(self) -> dict[str, Any]:
        """The line as the validation result's ``bom`` writes it."""
        return {
            "section": self.section,
            "part": self.part_number,
            "description": self.description,
            "quantity": self.quantity,
            "unit_price_eur": None if self.unit_price_eur is None else str(self.unit_price_eur),
            "group": self.group,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BomLine:
        price = d.get("unit_price_eur")
        return cls(
            section=d["section"],
            part_number=d.get("part") or NO_PART,
            description=d.get("description") or "",
            quantity=int(d["quantity"]),
            unit_price_eur=None if price in (None, "") else Decimal(str(price)),
            group=d.get("group"),
        )


class _Lines:
    """The bill being built: one line per (section, group, part), quantities added up."""

    def __init__(self, catalog: CatalogView) -> None:
        self.catalog = catalog
        self.lines: dict[tuple[str, str | None, str, str], BomLine] = {}

    def add(
        self,
        section: str,
        part: str,
        quantity: int,
        *,
        group: str | None = None,
        description: str = "",
        price: Decimal | None = None,
    ) -> None:
        """A line of ``part``; its price is the catalogue's, or ``price`` for a part the catalogue does not hold
        (a control-plane or service line priced from settings)."""
        if quantity <= 0:
            return
        spec = self.catalog.get(part) if part else None
        name = description or (_rack_system_description(spec) if isinstance(spec, ServerSpec) else "")
        name = name or (spec.name if spec else part)
        price = spec.price_eur if spec else price
        key = (section, group, part, "" if part else name)
        old = self.lines.get(key)
        qty = quantity + (old.quantity if old else 0)
        self.lines[key] = BomLine(section, part, name, qty, price, group)

    def ordered(self) -> list[BomLine]:
        order = {s: i for i, s in enumerate(SECTIONS)}
        return sorted(self.lines.values(), key=lambda line: order.get(line.section, len(SECTIONS)))


def design_bom(
    design: DesignIn, result: dict[str, Any], catalog: CatalogView, *, complete: bool = True
) -> list[BomLine]:
    """The design's bill from its validation ``result`` (its ``fabric_plan``, ``rack_plan`` and, when present,
    ``network_plans``, ``control_plane`` and ``services``). ``complete``: add the server's default node set first
    (CPUs, memory, boot drive) as validation does; False when ``design`` is already the completed design."""
    if complete:
        design, _added, _findings = complete_design(design, catalog)
    bill = _Lines(catalog)
    for index, group in enumerate(design.node_groups):
        name = group.name or f"node group {index + 1}"
        bill.add(NODES, group.server, group.count, group=name)
        for comp in group.components:
            bill.add(NODES, comp.part, comp.quantity * group.count, group=name)
    rack_plan = result.get("rack_plan")
    placed_management = _placed(rack_plan, "management")
    for item in (result.get("fabric_plan") or {}).get("bom", []):
        if not _is_management(item["part"], catalog):
            bill.add(COMPUTE_FABRIC, item["part"], int(item.get("quantity", 0)))
    for key in NETWORK_SECTIONS:
        for item in ((result.get("network_plans") or {}).get(key) or {}).get("bom", []):
            if not (key == OOB and item["part"] in placed_management):
                bill.add(key, item["part"], int(item.get("quantity", 0)))
    for part, quantity in placed_management.items():
        bill.add(OOB, part, quantity)
    given = result.get("left_out")
    leave = frozenset(given["items"]) if isinstance(given, dict) else left_out(design, catalog).items
    for part, quantity, description in rack_plan_lines(rack_plan, catalog, leave=leave):
        bill.add(RACKS_POWER, part, quantity, description=description)
    for key in (CONTROL_PLANE, SERVICES):
        for item in (result.get(key) or {}).get("bom", []):
            price = item.get("unit_price_eur")
            bill.add(
                key,
                item["part"],
                int(item.get("quantity", 0)),
                description=item.get("description") or "",
                price=None if price in (None, "") else Decimal(str(price)),
            )
    return bill.ordered()


def _rack_system_description(spec: ServerSpec) -> str:
    """A rack-scale system's line (one part is one whole rack, sold as one system): its name with what comes in it.
    Counts the catalogue does not hold are left out, never guessed. Empty for any other server."""
    if not spec.rack_scale:
        return ""
    gpus = (spec.compute_trays or 0) * (spec.gpus_per_tray or 0) or None
    return rack_system_included(
        spec.name,
        compute_trays=spec.compute_trays,
        gpus=gpus,
        switch_trays=spec.switch_trays,
        power_shelves=spec.power_shelves,
        management_switches=spec.rack_mgmt_switches,
    )


def _is_management(part: str, catalog: CatalogView) -> bool:
    spec = catalog.get(part)
    return isinstance(spec, SwitchSpec) and spec.management


def _placed(rack_plan: dict[str, Any] | None, role: str) -> Counter[str]:
    """The devices of ``role`` the rack plan places, by part, over every rack of every run."""
    out: Counter[str] = Counter()
    for entry in (rack_plan or {}).get("racks", []):
        racks = entry.get("count", 1)
        for device in entry.get("devices", []):
            if device.get("role") == role:
                out[device["part"]] += racks * device.get("count", 1)
    return out


def _rack_part(rack_plan: dict[str, Any], catalog: CatalogView) -> RackPartSpec | None:
    racks = [p for p in catalog.of_type(RackPartSpec) if p.height_u == rack_plan.get("rack_units")]
    return min(racks, key=lambda p: (p.price_eur is None, p.price_eur or 0, p.part_number), default=None)


def _cord_part(
    outlet: str | None, inlet: str | None, catalog: CatalogView, current_a: float | None = None
) -> PowerCordSpec | None:
    """A cord whose plug (end A) fits the PDU outlet (C19 takes C20, C13 takes C14) and whose socket (end B) fits
    the device inlet (a C20 inlet takes C19, a C14 inlet takes C13), rated for the supply's current when it is
    known (a 6.6 kW supply's 28.7 A is no 16 A cord's); None when either side is unknown or none is rated for it."""
    mate = {"C19": "C20", "C13": "C14", "C20": "C19", "C14": "C13"}
    if not outlet or not inlet:
        return None
    cords = [
        c
        for c in catalog.of_type(PowerCordSpec)
        if c.a_connector == mate.get(outlet)
        and c.b_connector == mate.get(inlet)
        and (current_a is None or c.current_a is None or c.current_a >= current_a)
    ]
    return min(cords, key=lambda c: (c.price_eur is None, c.price_eur or 0, c.part_number), default=None)


def rack_plan_lines(
    rack_plan: dict[str, Any] | None, catalog: CatalogView, *, leave: frozenset[str] = frozenset()
) -> list[tuple[str, int, str]]:
    """(part, quantity, description) of the rack plan's racks, PDUs and node power cords, every one of them but
    what the site has (``leave``: "racks" the enclosures, "power" the PDUs and cords; configurator.cluster.left_out).

    A catalogue part where one fits (its own description: ""), priced or on request; otherwise a line without a
    part whose description says what is needed: racks of a height the catalogue does not stock, PDUs when the
    catalogue holds none (one per feed in every rack, each carrying the whole rack) and cords whose plug or socket
    type is not known (described in the active language). Never a guessed part."""
    if not rack_plan or not rack_plan.get("racks"):
        return []
    out: list[tuple[str, int, str]] = []
    # A rack-scale system (NVL72) is a rack of its own with its power shelves: no enclosure, PDU or cord for it.
    count = enclosure_count(rack_plan)
    if not count:
        return out
    if RACKS not in leave:
        rack = _rack_part(rack_plan, catalog)
        units = rack_plan.get("rack_units", 0)
        out.append((rack.part_number, count, "") if rack else (NO_PART, count, rack_needed(units)))
    if POWER in leave:
        return out
    pdus = [p for p in rack_plan.get("pdus", []) if p["quantity"]]
    out += [(p["part"], p["quantity"], "") for p in pdus]
    if not rack_plan.get("pdus"):
        feeds = rack_plan.get("pdu_feeds", "A+B")
        needed = count * (2 if feeds == "A+B" else 1)
        out.append((NO_PART, needed, pdu_needed(feeds)))
    for c in rack_plan.get("cords", []):
        if not c["quantity"]:
            continue
        cord = _cord_part(c["pdu_outlet"], c["node_inlet"], catalog, c.get("current_a"))
        if cord is not None:
            out.append((cord.part_number, c["quantity"], ""))
        else:
            out.append((NO_PART, c["quantity"], cord_needed(c["pdu_outlet"], c["node_inlet"], c.get("current_a"))))
    return out


def bom_total(lines: list[BomLine]) -> tuple[Decimal, int]:
    """Sum of priced lines, and the number of lines without a price (on request)."""
    total = sum((line.total_eur for line in lines if line.total_eur is not None), Decimal("0.00"))
    return total, sum(1 for line in lines if line.total_eur is None)


def bom_result(lines: list[BomLine]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The validation result's ``bom`` and its totals (``list_price_eur``: the priced lines' sum as a string
    decimal; ``list_price_at_least``: true when some line is priced on request)."""
    total, missing = bom_total(lines)
    return [line.to_dict() for line in lines], {"list_price_eur": str(total), "list_price_at_least": missing > 0}


@dataclass(frozen=True)
class Bill:
    """A design's bill of materials with list prices: lines, their total and how many are priced on request
    (the total is then at least this)."""

    lines: list[BomLine]
    total: Decimal
    on_request: int

    @property
    def at_least(self) -> bool:
        return self.on_request > 0

    @property
    def sections(self) -> list[tuple[str, str, list[BomLine]]]:
        """(section key, its title in the active language, its lines) in the bill's order."""
        out: dict[str, list[BomLine]] = {}
        for line in self.lines:
            out.setdefault(line.section, []).append(line)
        return [(key, section_title(key), lines) for key, lines in out.items()]


def bill_of(lines: list[BomLine]) -> Bill:
    total, missing = bom_total(lines)
    return Bill(lines=lines, total=total, on_request=missing)


def design_bill(*, document: dict, result: dict | None, catalog: CatalogView | None = None) -> Bill | None:
    """The design's bill: the validation result's own ``bom``; for a result stored before it carried one, the same
    bill built from the document and the result's plans. None when the document cannot be read yet."""
    if result and result.get("bom") is not None:
        return bill_of([BomLine.from_dict(d) for d in result["bom"]])
    try:
        design = parse_design(document)
    except DesignInputError:
        return None
    return bill_of(design_bom(design, result or {}, catalog or catalog_snapshot()))
