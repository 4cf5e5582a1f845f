"""The pictures of a validation result: the fabric's topology diagram, a node group's slot map and the rack
elevation.

Pure functions of the validation result (contract design/v1: ``fabric_plan`` and one ``placement`` entry), so
the wizard's pages and the quote PDF draw the same picture from the same data; neither imports the other.
Memoised per process: a picture depends on its input alone, and the fabric step redraws the same plan on every
change of an unrelated field.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache

from design.jsontext import JsonObject
from engines.fabric.diagram import ENGLISH, PRINT, SCREEN, Canvas, Words, render_svg
from engines.fabric.model import FabricPlan
from engines.node.slotmap import SlotMapLabels, render_slot_map_svg
from engines.racks import ElevationLabels, RackPlan, render_elevation_svg
from engines.racks.elevation import distinct_racks

_DIAGRAMS: OrderedDict[tuple[str, str, Canvas], str] = OrderedDict()
_DIAGRAMS_LOCK = threading.Lock()


def fabric_diagram_svg(
    plan: JsonObject | None, words: Words = ENGLISH, language: str = "en", *, printed: bool = False
) -> str:
    """The planner's topology diagram for the plan in a validation result (``fabric_plan``), or '' when the
    design has no fabric with tiers. Its texts come from ``words`` (messages.diagram.words() in the
    caller's language, which ``language`` names for the cache). FabricPlan.from_dict rebuilds the planner's
    object for the diagram. ``printed``: drawn for the offer's page (engines.fabric.diagram.PRINT), its labels
    about 10 pt at the text column's width."""
    if not plan or not plan.get("tiers"):
        return ""
    key = (json.dumps(plan, sort_keys=True, default=str), language, PRINT if printed else SCREEN)
    with _DIAGRAMS_LOCK:
        svg = _DIAGRAMS.get(key)
        if svg is not None:
            _DIAGRAMS.move_to_end(key)
            return svg
    svg = _diagram(key[0], words, key[2])
    with _DIAGRAMS_LOCK:
        _DIAGRAMS[key] = svg
        while len(_DIAGRAMS) > 512:
            _DIAGRAMS.popitem(last=False)
    return svg


def slot_map_svg(placement_group: JsonObject, labels: SlotMapLabels) -> str:
    """engines.node.slotmap's picture of one node group (one entry of the result's ``placement``), in the words
    of ``labels`` (messages.slotmap.slot_map_labels() in the caller's language)."""
    return _slot_map(json.dumps(placement_group, sort_keys=True, default=str), labels)


@lru_cache(maxsize=512)
def _slot_map(placement_json: str, labels: SlotMapLabels) -> str:
    return render_slot_map_svg(json.loads(placement_json), labels)


def _diagram(plan_json: str, words: Words, canvas: Canvas) -> str:
    fp = FabricPlan.from_dict(json.loads(plan_json))
    try:
        return render_svg(fp, words, canvas)
    except Exception:  # noqa: BLE001 - a picture must never take a page or a quote down; the plan table still shows
        return ""


def rack_elevation_svg(
    rack_plan: JsonObject | None,
    labels: ElevationLabels,
    number: Callable[[float], str],
    *,
    columns: int | None = 2,
    per_line: int | None = None,
) -> str:
    """The rack elevation (engines.racks.elevation) of the result's ``rack_plan``: each distinct rack once,
    with a count; '' when there are no racks. ``labels`` and ``number`` come translated from the caller.
    ``columns`` None: the distinct racks at their own size, in one line or ``per_line`` to a line."""
    if not rack_plan or not rack_plan.get("racks"):
        return ""
    try:
        plan = RackPlan.from_dict(rack_plan)
        return render_elevation_svg(plan, labels, columns=columns, number=number, per_line=per_line)
    except Exception:  # noqa: BLE001 - a picture must never take a page or a quote down; the rack table still shows
        return ""


def rack_elevation_pages(
    rack_plan: JsonObject | None,
    labels: ElevationLabels,
    number: Callable[[float], str],
    *,
    per_line: int = 3,
) -> list[str]:
    """The rack elevation for print: the distinct racks ``per_line`` at a time, one SVG each, so that a line of
    racks can fill the page's width and its labels stay readable (one picture of every rack shrank a 2,048-node
    plan's six distinct racks to 1.4 pt labels). [] when there are no racks."""
    if not rack_plan or not rack_plan.get("racks"):
        return []
    try:
        plan = RackPlan.from_dict(rack_plan)
        total = distinct_racks(plan)
        return [
            render_elevation_svg(plan, labels, columns=per_line, number=number, only=slice(start, start + per_line))
            for start in range(0, total, per_line)
        ]
    except Exception:  # noqa: BLE001 - a picture must never take a quote down; the rack table still shows
        return []
