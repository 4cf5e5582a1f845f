"""Bill of materials of a design: every part with its quantity and indicative list price.

Node groups give server × count and each component × quantity × count; the fabric plan adds its switches,
cables, optics and management switches. design_bom is pure: it takes the parsed design, the fabric plan and the
catalogue view; design_bill reads a stored document (the catalogue snapshot when no view is given).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from configurator.defaults import complete_design
from configurator.rules.design import DesignIn, DesignInputError
from configurator.rules.parse import parse_design
from configurator.rules.specs import CatalogView
from configurator.snapshot import catalog_snapshot

CENT = Decimal("0.01")


@dataclass(frozen=True)
class BomLine:
    section: str  # node group name, or "fabric"
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


def design_bom(design: DesignIn, fabric_plan: dict[str, Any] | None, catalog: CatalogView) -> list[BomLine]:
    lines: list[BomLine] = []
    # The same default node set validation added (CPUs, memory, boot drive), so every quoted node is complete.
    design, _added, _findings = complete_design(design, catalog)

    def add(section: str, pn: str, qty: int) -> None:
        spec = catalog.get(pn)
        name = spec.name if spec else pn
        price = spec.price_eur if spec else None
        lines.append(BomLine(section=section, part_number=pn, description=name, quantity=qty, unit_price_eur=price))

    for index, group in enumerate(design.node_groups):
        section = group.name or f"node group {index + 1}"
        add(section, group.server, group.count)
        for comp in group.components:
            add(section, comp.part, comp.quantity * group.count)
    if fabric_plan:
        for item in fabric_plan.get("bom", []):
            if item.get("quantity", 0) > 0 and catalog.get(item["part"]) is not None:
                add("fabric", item["part"], int(item["quantity"]))
    return lines


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
    lines = design_bom(design, (result or {}).get("fabric_plan"), view)
    total, missing = bom_total(lines)
    return Bill(lines=lines, total=total, on_request=missing)
