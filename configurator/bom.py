"""Bill of materials of a design: every part with its quantity and indicative list price.

Node groups give server × count and each component × quantity × count; the fabric plan adds its switches,
cables, optics and management switches. design_bom is pure: it takes the parsed design, the fabric plan and the
catalogue view; design_bill reads a stored document (the catalogue snapshot when no view is given).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from configurator.defaults import complete_design
from configurator.rackplan import enclosure_count
from configurator.snapshot import catalog_snapshot
from design.model import DesignIn, DesignInputError
from design.parse import parse_design
from design.specs import CatalogView, PowerCordSpec, RackPartSpec, ServerSpec, SwitchSpec

CENT = Decimal("0.01")


@dataclass(frozen=True)
class BomLine:
    section: str  # node group name, "fabric", "management" or "racks"
    part_number: str
    description: str
    quantity: int
    unit_price_eur: Decimal | None  # None: price on request

    @property
    def total_eur(self) -> Decimal | None:
        if self.unit_price_eur is None:
            return None
        return (self.unit_price_eur * self.quantity).quantize(CENT, rounding=ROUND_HALF_UP)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["unit_price_eur"] = None if self.unit_price_eur is None else str(self.unit_price_eur)
        d["total_eur"] = None if self.total_eur is None else str(self.total_eur)
        return d


def design_bom(
    design: DesignIn, fabric_plan: dict[str, Any] | None, catalog: CatalogView, rack_plan: dict[str, Any] | None = None
) -> list[BomLine]:
    lines: list[BomLine] = []
    # The same default node set validation added (CPUs, memory, boot drive), so every quoted node is complete.
    design, _added, _findings = complete_design(design, catalog)

    def add(section: str, pn: str, qty: int) -> None:
        spec = catalog.get(pn)
        name = _rack_system_description(spec) if isinstance(spec, ServerSpec) and spec.rack_scale else None
        name = name or (spec.name if spec else pn)
        price = spec.price_eur if spec else None
        lines.append(BomLine(section=section, part_number=pn, description=name, quantity=qty, unit_price_eur=price))

    for index, group in enumerate(design.node_groups):
        section = group.name or f"node group {index + 1}"
        add(section, group.server, group.count)
        for comp in group.components:
            add(section, comp.part, comp.quantity * group.count)
    if fabric_plan:
        for item in fabric_plan.get("bom", []):
            spec = catalog.get(item["part"])
            if item.get("quantity", 0) > 0 and spec is not None:
                # The out-of-band management switches are not part of the compute fabric: their own section.
                section = MANAGEMENT if isinstance(spec, SwitchSpec) and spec.management else "fabric"
                add(section, item["part"], int(item["quantity"]))
    for pn, qty in rack_lines(rack_plan, catalog):
        add(RACKS, pn, qty)
    return lines


def _rack_system_description(spec: ServerSpec) -> str:
    """A rack-scale system's line: the rack with what comes in it (not priced separately; the source sells the rack
    as one system). Counts the catalogue does not hold are left out, never guessed."""
    parts = [
        f"{n} {what}"
        for n, what in (
            (spec.compute_trays, "compute trays"),
            ((spec.compute_trays or 0) * (spec.gpus_per_tray or 0) or None, "GPUs"),
            (spec.switch_trays, "NVLink switch trays"),
            (spec.power_shelves, "power shelves"),
            (spec.rack_mgmt_switches, "management switches"),
        )
        if n
    ]
    return f"{spec.name}; includes {', '.join(parts)}" if parts else spec.name


RACKS = "racks"  # the BOM section of racks, PDUs and power cords
MANAGEMENT = "management"  # the BOM section of the out-of-band management switches


def _rack_part(rack_plan: dict[str, Any], catalog: CatalogView) -> RackPartSpec | None:
    racks = [p for p in catalog.of_type(RackPartSpec) if p.height_u == rack_plan.get("rack_units")]
    return min(racks, key=lambda p: (p.price_eur is None, p.price_eur or 0, p.part_number), default=None)


def _cord_part(outlet: str | None, inlet: str | None, catalog: CatalogView) -> PowerCordSpec | None:
    """A cord whose plug (end A) fits the PDU outlet (C19 takes C20, C13 takes C14) and whose socket (end B) fits
    the device inlet (a C20 inlet takes C19, a C14 inlet takes C13); None when either side is unknown."""
    mate = {"C19": "C20", "C13": "C14", "C20": "C19", "C14": "C13"}
    if not outlet or not inlet:
        return None
    cords = [
        c
        for c in catalog.of_type(PowerCordSpec)
        if c.a_connector == mate.get(outlet) and c.b_connector == mate.get(inlet)
    ]
    return min(cords, key=lambda c: (c.price_eur is None, c.price_eur or 0, c.part_number), default=None)


def _priced(part_number: str, catalog: CatalogView) -> bool:
    part = catalog.get(part_number)
    return part is not None and part.price_eur is not None


def rack_lines(rack_plan: dict[str, Any] | None, catalog: CatalogView) -> list[tuple[str, int]]:
    """Priced rack-level lines of the plan: the rack enclosures, the PDUs it sized and the power cords whose type
    is known. What the catalogue cannot price is in ``rack_needs``, never a guessed part."""
    if not rack_plan or not rack_plan.get("racks"):
        return []
    out: list[tuple[str, int]] = []
    rack = _rack_part(rack_plan, catalog)
    if rack is not None and enclosure_count(rack_plan):
        out.append((rack.part_number, enclosure_count(rack_plan)))
    pdus = rack_plan.get("pdus", [])
    out += [(p["part"], p["quantity"]) for p in pdus if _priced(p["part"], catalog) and p["quantity"]]
    for c in rack_plan.get("cords", []):
        cord = _cord_part(c["pdu_outlet"], c["node_inlet"], catalog)
        if cord is not None and c["quantity"]:
            out.append((cord.part_number, c["quantity"]))
    return out


@dataclass(frozen=True)
class RackNeed:
    """Something the rack plan needs that the bill cannot price: ``what`` is rack, pdu or power_cord. ``part`` names
    the catalogue part the plan sized when it has no list price (a PDU priced on request); empty when none fits."""

    what: str
    quantity: int
    part: str = ""
    rack_units: int = 0
    feeds: str = ""
    max_rack_power_kw: float | None = None


def rack_needs(rack_plan: dict[str, Any] | None, catalog: CatalogView) -> list[RackNeed]:
    """The plan's needs without a priced catalogue part: racks of an unstocked height, PDUs when the catalogue holds
    none (at least one per feed per rack, each carrying the whole rack) or when the PDU the plan sized has no list
    price (named, with the plan's count), and power cords of unknown type."""
    if not rack_plan or not rack_plan.get("racks"):
        return []
    racks = [r for r in rack_plan["racks"] if not r.get("system")]
    count = enclosure_count(rack_plan)
    needs = []
    if not count:
        return needs
    if _rack_part(rack_plan, catalog) is None:
        needs.append(RackNeed("rack", count, rack_units=rack_plan.get("rack_units", 0)))
    for p in rack_plan.get("pdus", []):
        if p["quantity"] and catalog.get(p["part"]) is not None and not _priced(p["part"], catalog):
            needs.append(RackNeed("pdu", p["quantity"], feeds=rack_plan.get("pdu_feeds", "A+B"), part=p["part"]))
    if not rack_plan.get("pdus"):
        feeds = rack_plan.get("pdu_feeds", "A+B")
        power = [r["power_known_w"] for r in racks if r.get("power_known_w")]
        needs.append(
            RackNeed(
                "pdu",
                count * (2 if feeds == "A+B" else 1),
                feeds=feeds,
                max_rack_power_kw=round(max(power) / 1000, 1) if power else None,
            )
        )
    unpriced = sum(
        c["quantity"]
        for c in rack_plan.get("cords", [])
        if _cord_part(c["pdu_outlet"], c["node_inlet"], catalog) is None
    )
    if unpriced:
        needs.append(RackNeed("power_cord", unpriced))
    return needs


def bom_total(lines: list[BomLine]) -> tuple[Decimal, int]:
    """Sum of priced lines, and the number of lines without a price (on request)."""
    total = sum((line.total_eur for line in lines if line.total_eur is not None), Decimal("0.00"))
    return total, sum(1 for line in lines if line.total_eur is None)


@dataclass(frozen=True)
class Bill:
    """A design's bill of materials with list prices: lines, their total and how many are priced on request."""

    lines: list[BomLine]
    total: Decimal
    on_request: int
    needs: list[RackNeed] = field(default_factory=list)  # what the rack plan needs and nothing here prices

    @property
    def sections(self) -> list[tuple[str, list[BomLine]]]:
        out: dict[str, list[BomLine]] = {}
        for line in self.lines:
            out.setdefault(line.section, []).append(line)
        return list(out.items())


def design_bill(*, document: dict, result: dict | None, catalog: CatalogView | None = None) -> Bill | None:
    """The design's bill of materials with list prices, or None when the document cannot be read yet."""
    try:
        design = parse_design(document)
    except DesignInputError:
        return None
    view = catalog or catalog_snapshot()
    rack_plan = (result or {}).get("rack_plan")
    lines = design_bom(design, (result or {}).get("fabric_plan"), view, rack_plan)
    total, missing = bom_total(lines)
    return Bill(lines=lines, total=total, on_request=missing, needs=rack_needs(rack_plan, view))
