"""The bill of materials of a design: every line the quote will carry, with its indicative list price.

There is one bill. The validation result carries it (``bom``, with ``totals.list_price_eur`` and
``totals.list_price_at_least``), built by ``assemble_bill`` from the result's own plans, and every door shows those
lines: the wizard, the API, the CLI, the quote (which freezes them) and its PDF and workbook. Pure: no Django;
the words of a line no catalogue part fits come from the service (``BillWords``, in the result's language), and
the service (configurator.bom) gives the bill its section titles and reads a stored result's. Its sections are the
stable keys of ``SECTIONS``:

* ``nodes``: each node group's server × count and each component × quantity × count (``group`` names the group);
* ``compute_fabric``: the fabric plan's switches, cables and optics (its management switches are counted by the
  rack plan instead, under ``oob``);
* ``storage``, ``inband``, ``oob``: each planned network's own bill (``network_plans[key].bom``); the management
  switches the rack plan places (one in every rack, as placed, when the out-of-band switches are per rack) are
  ``oob`` lines too;
* ``racks_power``: the rack plan's racks, PDUs and node power cords;
* ``control_plane``, ``services``: the lines the result gives for them.

Every device the bill carries that stands in a rack (every switch of every network, the UFM appliances and the
control-plane servers) is billed as the physical model racks it: its quantity is the count of the rack plan's
devices of that part in the section of their role (``engines.cluster.rackbill``); the plans give the cables and
optics that join them, and the price and words of each line.

A part the catalogue cannot price is a line of its own with its quantity and no unit price (on request), never
left out: a PDU without a list price, PDUs the plan needs when the catalogue holds none, cords whose plug or socket
type is unknown, racks of an unstocked height. Totals that leave such a line out say "at least".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Protocol

from design.contract import BILL_SECTIONS
from design.jsontext import JsonObject
from design.model import DesignIn
from design.specs import PowerCordSpec, RackPartSpec, ServerSpec, SwitchSpec
from engines.catalog_view import CatalogView
from engines.cluster.control_plane import POWER, RACKS, ClusterLine, left_out
from engines.cluster.defaults import complete_design
from engines.cluster.rackbill import RackBill

CENT = Decimal("0.01")

NODES, COMPUTE_FABRIC, STORAGE, INBAND, OOB = "nodes", "compute_fabric", "storage", "inband", "oob"
RACKS_POWER, CONTROL_PLANE, SERVICES = "racks_power", "control_plane", "services"
SECTIONS = BILL_SECTIONS  # in the order every door shows them (design.contract)
NETWORK_SECTIONS = (STORAGE, INBAND, OOB)  # the keys of ``network_plans``, each a section of its own
# Lines without a catalogue part (what the plan needs but no part fits) carry this part number: none.
NO_PART = ""


class BillWords(Protocol):
    """The bill's own words in the result's language (messages.bill): what a line says that no
    catalogue part fits, and what a rack-scale system's line includes."""

    def rack_needed(self, units: int) -> str: ...

    def pdu_needed(self, feeds: str) -> str: ...

    def cord_needed(self, outlet: str | None, inlet: str | None, current_a: float | None = None) -> str: ...

    def rack_system_included(
        self,
        name: str,
        *,
        compute_trays: int | None,
        gpus: int | None,
        switch_trays: int | None,
        power_shelves: int | None,
        management_switches: int | None,
    ) -> str: ...


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

    def to_dict(self) -> JsonObject:
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
    def from_dict(cls, d: Mapping[str, Any]) -> BomLine:
        price = d.get("unit_price_eur")
        return cls(
            section=d["section"],
            part_number=d.get("part") or NO_PART,
            description=d.get("description") or "",
            quantity=int(d["quantity"]),
            unit_price_eur=None if price in (None, "") else Decimal(str(price)),
            group=d.get("group"),
        )


PartCounts = tuple[tuple[str, int], ...]


def _price(raw: object) -> Decimal | None:
    return None if raw in (None, "") else Decimal(str(raw))


def _part_counts(section: Mapping[str, Any] | None) -> PartCounts:
    return tuple((item["part"], int(item.get("quantity", 0))) for item in (section or {}).get("bom", []))


@dataclass(frozen=True, slots=True)
class BillSources:
    """The plans the bill is built from: the compute fabric's bill, each network's, the rack plan's racks, PDUs and
    cords, the control-plane and service lines, and what the offer leaves out (None: the design's default for its
    size). From the validation's own plans, or from a stored result's JSON (``from_json``)."""

    fabric: PartCounts = ()
    networks: Mapping[str, PartCounts] = field(default_factory=dict)
    racks: RackBill | None = None
    control_plane: tuple[ClusterLine, ...] = ()
    services: tuple[ClusterLine, ...] = ()
    left_out: frozenset[str] | None = None

    @classmethod
    def from_json(cls, result: Mapping[str, Any]) -> BillSources:
        """From a validation result as written (its ``fabric_plan``, ``rack_plan`` and, when present,
        ``network_plans``, ``control_plane``, ``services`` and ``left_out``)."""
        networks = result.get("network_plans") or {}
        given = result.get("left_out")
        rack_plan = result.get("rack_plan")
        return cls(
            fabric=_part_counts(result.get("fabric_plan")),
            networks={key: _part_counts(networks.get(key)) for key in NETWORK_SECTIONS},
            racks=RackBill.from_json(rack_plan) if rack_plan and rack_plan.get("racks") else None,
            control_plane=_lines_from_json(CONTROL_PLANE, result.get(CONTROL_PLANE)),
            services=_lines_from_json(SERVICES, result.get(SERVICES)),
            left_out=frozenset(given["items"]) if isinstance(given, dict) else None,
        )


def _lines_from_json(section: str, written: Mapping[str, Any] | None) -> tuple[ClusterLine, ...]:
    return tuple(
        ClusterLine(
            section=section,
            part=item["part"],
            description=item.get("description") or "",
            quantity=int(item.get("quantity", 0)),
            price_eur=_price(item.get("unit_price_eur")),
        )
        for item in (written or {}).get("bom", [])
    )


class _Lines:
    """The bill being built: one line per (section, group, part), quantities added up."""

    def __init__(self, catalog: CatalogView, words: BillWords) -> None:
        self.catalog = catalog
        self.words = words
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
        name = description or (_rack_system_description(spec, self.words) if isinstance(spec, ServerSpec) else "")
        name = name or (spec.name if spec else part)
        price = spec.price_eur if spec else price
        key = (section, group, part, "" if part else name)
        old = self.lines.get(key)
        qty = quantity + (old.quantity if old else 0)
        self.lines[key] = BomLine(section, part, name, qty, price, group)

    def ordered(self) -> list[BomLine]:
        order = {s: i for i, s in enumerate(SECTIONS)}
        return sorted(self.lines.values(), key=lambda line: order.get(line.section, len(SECTIONS)))


def assemble_bill(
    design: DesignIn, sources: BillSources, catalog: CatalogView, words: BillWords, *, complete: bool = True
) -> list[BomLine]:
    """The design's bill from its plans (``sources``). ``complete``: add the server's default node set first
    (CPUs, memory, boot drive) as validation does; False when ``design`` is already the completed design."""
    if complete:
        design, _added, _findings = complete_design(design, catalog)
    bill = _Lines(catalog, words)
    for index, group in enumerate(design.node_groups):
        name = group.name or f"node group {index + 1}"
        bill.add(NODES, group.server, group.count, group=name)
        for comp in group.components:
            bill.add(NODES, comp.part, comp.quantity * group.count, group=name)
    placed = sources.racks.placed if sources.racks is not None else {}
    for part, quantity in sources.fabric:
        if not _is_management(part, catalog):  # the compute fabric's management switches are racked as oob
            bill.add(COMPUTE_FABRIC, part, placed.get((COMPUTE_FABRIC, part), quantity))
    for key in NETWORK_SECTIONS:
        for part, quantity in sources.networks.get(key, ()):
            bill.add(key, part, placed.get((key, part), quantity))
    billed = {part for part, _quantity in sources.networks.get(OOB, ())}
    for (key, part), quantity in placed.items():  # the management switches racked, one in every rack
        if key == OOB and part not in billed:
            bill.add(OOB, part, quantity)
    leave = sources.left_out if sources.left_out is not None else left_out(design, catalog).items
    for part, quantity, description in rack_plan_lines(sources.racks, catalog, words, leave=leave):
        bill.add(RACKS_POWER, part, quantity, description=description)
    for line in sources.control_plane:
        quantity = placed.get((CONTROL_PLANE, line.part), line.quantity)
        bill.add(CONTROL_PLANE, line.part, quantity, description=line.description, price=line.price_eur)
    for line in sources.services:
        bill.add(SERVICES, line.part, line.quantity, description=line.description, price=line.price_eur)
    return bill.ordered()


def _rack_system_description(spec: ServerSpec, words: BillWords) -> str:
    """A rack-scale system's line (one part is one whole rack, sold as one system): its name with what comes in it.
    Counts the catalogue does not hold are left out, never guessed. Empty for any other server."""
    if not spec.rack_scale:
        return ""
    gpus = (spec.compute_trays or 0) * (spec.gpus_per_tray or 0) or None
    return words.rack_system_included(
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


def _rack_part(units: int | None, catalog: CatalogView) -> RackPartSpec | None:
    racks = [p for p in catalog.of_type(RackPartSpec) if p.height_u == units]
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
    racks: RackBill | None, catalog: CatalogView, words: BillWords, *, leave: frozenset[str] = frozenset()
) -> list[tuple[str, int, str]]:
    """(part, quantity, description) of the rack plan's racks, PDUs and node power cords, every one of them but
    what the site has (``leave``: "racks" the enclosures, "power" the PDUs and cords; control_plane.left_out).

    A catalogue part where one fits (its own description: ""), priced or on request; otherwise a line without a
    part whose description says what is needed: racks of a height the catalogue does not stock, PDUs when the
    catalogue holds none (one per feed in every rack, each carrying the whole rack) and cords whose plug or socket
    type is not known (``words``, in the result's language). Never a guessed part."""
    if racks is None or not racks.racks:
        return []
    out: list[tuple[str, int, str]] = []
    # A rack-scale system (NVL72) is a rack of its own with its power shelves: no enclosure, PDU or cord for it.
    count = racks.enclosures
    if not count:
        return out
    if RACKS not in leave:
        rack = _rack_part(racks.rack_units, catalog)
        units = racks.rack_units if racks.rack_units is not None else 0
        out.append((rack.part_number, count, "") if rack else (NO_PART, count, words.rack_needed(units)))
    if POWER in leave:
        return out
    out += [(p.part, p.quantity, "") for p in racks.pdus if p.quantity]
    if not racks.pdus:
        feeds = racks.feeds
        needed = count * (2 if feeds == "A+B" else 1)
        out.append((NO_PART, needed, words.pdu_needed(feeds)))
    for c in racks.cords:
        if not c.quantity:
            continue
        cord = _cord_part(c.pdu_outlet, c.node_inlet, catalog, c.current_a)
        if cord is not None:
            out.append((cord.part_number, c.quantity, ""))
        else:
            out.append((NO_PART, c.quantity, words.cord_needed(c.pdu_outlet, c.node_inlet, c.current_a)))
    return out


def bom_total(lines: Iterable[BomLine]) -> tuple[Decimal, int]:
    """Sum of priced lines, and the number of lines without a price (on request)."""
    lines = list(lines)
    total = sum((line.total_eur for line in lines if line.total_eur is not None), Decimal("0.00"))
    return total, sum(1 for line in lines if line.total_eur is None)


def bom_result(lines: list[BomLine]) -> tuple[list[JsonObject], JsonObject]:
    """The validation result's ``bom`` and its totals (``list_price_eur``: the priced lines' sum as a string
    decimal; ``list_price_at_least``: true when some line is priced on request)."""
    total, missing = bom_total(lines)
    return [line.to_dict() for line in lines], {"list_price_eur": str(total), "list_price_at_least": missing > 0}
