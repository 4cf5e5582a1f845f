"""The pictures of one validation result, as a page or a document shows them: the fabric's topology diagram, the
rack elevation and a slot map per node group. The wizard's steps and the offer draw them from here, the one place
that chooses their words (messages/, in the given language) and their layout per medium.

``printed`` False: for the screen (the wizard), the diagram at the screen's canvas, the distinct racks at their own
size two to a line, in one picture. ``printed`` True: for the offer's page, the diagram's labels about 10 pt at the
text column's width, the racks three to a line and one picture per line, each picture in fewer SVG elements for the
same drawing (outputs.svgslim). A picture that cannot be drawn is left out (logged), never an error: the plan's
tables still show.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from django.utils import translation

from design.jsontext import JsonObject
from engines.cluster.rackbill import rack_count, rack_heights
from messages.diagram import words as diagram_words
from messages.racks import elevation_labels, kw_number
from messages.slotmap import slot_map_labels

from . import svgslim
from .pictures import fabric_diagram_svg, rack_elevation_pages, rack_elevation_svg, slot_map_svg

if TYPE_CHECKING:
    from configurator.result import ValidationResult

logger = logging.getLogger(__name__)

SCREEN_RACKS_PER_LINE = 2  # racks of the web page's elevation side by side (each 304 px wide)
PRINT_RACKS_PER_LINE = 3  # racks of a line of the offer's elevation, the line as wide as the page


class _FabricSection(Protocol):
    """A live result's fabric section (configurator.result.FabricSection): written out only when drawn."""

    def to_json(self) -> JsonObject: ...


class _RackPlanSection(Protocol):
    """A live result's rack plan (engines.cluster.rackplan.RackPlanSection): written out only when drawn."""

    @property
    def rack_count(self) -> int: ...

    @property
    def rack_heights(self) -> tuple[tuple[int, int], ...]: ...

    def to_json(self) -> JsonObject: ...


@dataclass(frozen=True)
class SlotMap:
    """One node group's slot map: the group's name (or "#n") and its SVG."""

    name: str
    svg: str


@dataclass(frozen=True)
class PictureSet:
    """The pictures of one result's plans (contract design/v1: ``fabric_plan``, ``rack_plan``, ``placement``, as
    dicts; a live result's fabric section and rack plan are written out only when drawn), each drawn when asked
    for (outputs.pictures memoises them)."""

    fabric_plan: JsonObject | _FabricSection | None
    rack_plan: JsonObject | _RackPlanSection | None
    placement: Any
    language: str
    printed: bool = False

    def diagram(self) -> str:
        """The topology diagram, or '' when the design has no fabric with tiers."""
        plan = self.fabric_plan
        if plan is not None and not isinstance(plan, dict):
            plan = plan.to_json()
        if not plan or not plan.get("tiers"):
            return ""
        try:
            with translation.override(self.language):
                svg = fabric_diagram_svg(plan, diagram_words(), self.language, printed=self.printed)
        except Exception:  # a picture must never stop a page or a quote
            logger.warning("Topology diagram could not be drawn", exc_info=True)
            return ""
        return self._finished(svg) if svg else ""

    def elevations(self) -> list[str]:
        """The rack elevation: for the screen one picture of every distinct rack, for print a picture per line of
        racks; [] when there are no racks."""
        plan = self.rack_plan
        if plan is not None and not isinstance(plan, dict):
            plan = plan.to_json()
        with translation.override(self.language):
            labels = elevation_labels()
            if not self.printed:
                svg = rack_elevation_svg(plan, labels, kw_number, columns=None, per_line=SCREEN_RACKS_PER_LINE)
                return [svg] if svg else []
            pages = rack_elevation_pages(plan, labels, kw_number, per_line=PRINT_RACKS_PER_LINE)
        return [self._finished(svg) for svg in pages]

    def rack_count(self) -> int:
        """Every physical rack the elevation stands for (a distinct rack is drawn once, with its count)."""
        plan = self.rack_plan
        return rack_count(plan) if plan is None or isinstance(plan, dict) else plan.rack_count

    def rack_heights(self) -> tuple[tuple[int, int], ...]:
        """(units, racks) for each height of rack, the tallest first: an NVL72 system's own 48U beside 42U."""
        plan = self.rack_plan
        return rack_heights(plan) if plan is None or isinstance(plan, dict) else plan.rack_heights

    def slot_maps(self, limit: int | None = None) -> list[SlotMap]:
        """One slot map per node group of the placement (the first ``limit`` groups), in the groups' order."""
        placement = self.placement
        if not placement:
            return []
        groups = (
            placement
            if isinstance(placement, list)
            else list(placement.values())
            if isinstance(placement, dict)
            else []
        )
        with translation.override(self.language):
            labels = slot_map_labels()
        pictures = []
        for index, group in enumerate(groups[:limit]):
            try:
                svg = slot_map_svg(group, labels)
            except Exception:  # a picture must never stop a page or a quote
                logger.warning("Slot map of node group %s could not be drawn", index, exc_info=True)
                continue
            if svg:
                name = group.get("name") or group.get("group") if isinstance(group, dict) else None
                pictures.append(SlotMap(name=name or f"#{index + 1}", svg=self._finished(svg)))
        return pictures

    def _finished(self, svg: str | bytes) -> str:
        text = svg if isinstance(svg, str) else svg.decode()
        return svgslim.slim(text) if self.printed else text


def picture_set(
    *,
    fabric_plan: JsonObject | None,
    rack_plan: JsonObject | None,
    placement: Any,
    language: str,
    printed: bool = False,
) -> PictureSet:
    """The pictures of a result's plans (a live result's ``to_json()`` parts, or a frozen quote's ``validation``)."""
    return PictureSet(
        fabric_plan=fabric_plan, rack_plan=rack_plan, placement=placement, language=language, printed=printed
    )


def result_pictures(*, result: ValidationResult, language: str, printed: bool = False) -> PictureSet:
    """The pictures of a live validation result (what the wizard's steps show)."""
    return PictureSet(
        fabric_plan=result.fabric_plan,
        rack_plan=result.rack_plan,
        placement=result.placement,
        language=language,
        printed=printed,
    )
