"""The compute fabric's links of a validated design, as the cabling CSV lists them: the one source of the hand-over
formats (topology.conf, topology.yaml, fabric.topo, cut-sheet.xlsx), so that every export names the same nodes,
switches and ports, at the same rack and unit, as the cabling CSV."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from configurator.rackplan import fabric_locator
from engines.fabric.cabling import iter_cabling_csv

from .format import OutputUnavailable

if TYPE_CHECKING:
    from configurator.result import ValidationResult


def unavailable() -> OutputUnavailable:
    return OutputUnavailable("no_fabric_plan", _("This configuration has no fabric plan to cable."))


def compute_lines(result: ValidationResult) -> tuple[Iterator[str], bool]:
    """The compute fabric's CSV lines (header first) and whether they carry the rack columns; OutputUnavailable
    (``no_fabric_plan``) when the design has no fabric with tiers."""
    fabric = result.fabric_plan
    if fabric is None or not fabric.plan.tiers:
        raise unavailable()
    counts = {g["group"]: g["count"] for g in result.totals.groups}
    locate = fabric_locator(result.rack_plan, counts)
    return iter_cabling_csv(fabric.plan, locate), locate is not None


@dataclass(frozen=True)
class Link:
    """One row of the cabling CSV's compute part: A end (a node or a switch) to Z end, with rack and unit."""

    a_end: str
    a_port: str
    z_end: str
    z_port: str
    link_class: str
    cable_part: str
    length_m: str
    a_rack: str = ""
    a_u: str = ""
    z_rack: str = ""
    z_u: str = ""

    @property
    def node_link(self) -> bool:
        return self.link_class == "node-leaf"


def compute_links(result: ValidationResult) -> list[Link]:
    """Every compute link of the design, in the cabling CSV's order."""
    lines, _racks = compute_lines(result)
    reader = csv.reader(lines)
    next(reader)
    return [Link(*row) for row in reader]


def is_rack_scale(result: ValidationResult) -> bool:
    """True when the design's nodes are trays of rack-scale NVLink systems (GB200/GB300 NVL72)."""
    return any(p.get("rack_scale") for p in result.placement)


def switch_type(result: ValidationResult) -> str:
    """The switch family of the compute fabric (``MQM9700`` of ``MQM9700-NS2F``)."""
    fabric = result.fabric_plan
    part = fabric.plan.switch if fabric is not None else "SWITCH"
    return part.split("-")[0] or part


def plane_of(name: str) -> int:
    """The plane (1-based) of a switch of a multi-plane fabric (``pl2-su01-leaf-r3``), 1 otherwise."""
    if name.startswith("pl") and "-" in name and name[2 : name.index("-")].isdigit():
        return int(name[2 : name.index("-")])
    return 1
