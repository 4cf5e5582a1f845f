"""The bill of materials at the service edge: the bill with its section titles in the active language, and the
bill of a stored result (engines.cluster.bill builds it; the validation result carries it).

``Bill`` is what the pages and both quote documents show: the lines, their total and how many are priced on
request, by section with its title. ``design_bill`` reads a stored result's own ``bom``, or, for a result stored
before it carried one, builds the same bill from the document and the result's plans (``design_bom``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from configurator.snapshot import catalog_snapshot
from design.jsontext import JsonObject
from design.model import DesignIn, DesignInputError
from engines.catalog_view import CatalogView
from engines.cluster.bill import BillSources, BomLine, assemble_bill, bom_total
from engines.intake.parse import parse_design
from messages import bill as bill_words
from messages.bill import section_title


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


def design_bom(
    design: DesignIn, result: Mapping[str, Any], catalog: CatalogView, *, complete: bool = True
) -> list[BomLine]:
    """The design's bill from a validation ``result`` as written (its ``fabric_plan``, ``rack_plan`` and, when
    present, ``network_plans``, ``control_plane``, ``services`` and ``left_out``), its words in the active
    language. ``complete``: add the server's default node set first (CPUs, memory, boot drive) as validation does;
    False when ``design`` is already the completed design."""
    return assemble_bill(design, BillSources.from_json(result), catalog, bill_words, complete=complete)


def design_bill(*, document: JsonObject, result: JsonObject | None, catalog: CatalogView | None = None) -> Bill | None:
    """The design's bill: the validation result's own ``bom``; for a result stored before it carried one, the same
    bill built from the document and the result's plans. None when the document cannot be read yet."""
    if result and result.get("bom") is not None:
        return bill_of([BomLine.from_dict(d) for d in result["bom"]])
    try:
        design = parse_design(document)
    except DesignInputError:
        return None
    return bill_of(design_bom(design, result or {}, catalog or catalog_snapshot()))
