"""Bill of materials of a design: every part with its quantity and indicative list price.

Node groups give server × count and each component × quantity × count; the fabric plan adds its switches,
cables, optics and management switches. Pure: takes the parsed design, the fabric plan and the catalogue view.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from configurator.rules.design import DesignIn
from configurator.rules.specs import CatalogView

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
