"""Rack elevation: an SVG front view of every distinct rack of a plan, unit by unit.

``render_elevation_svg(plan, labels)`` draws each *distinct* rack once (same devices at the same units, same PDUs
and power), headed by its first rack's name and, when several racks are alike, their count (``labels.count``,
e.g. "×64"), so a 2,048-node cluster of 512 identical compute racks stays a handful of drawings.

Readable at phone width and in print:

* a ``viewBox`` with ``width="100%"`` and no fixed height, so the picture scales to its container; ``columns``
  racks side by side (2 by default; 1 suits a narrow screen), wrapping into further lines;
* or, with ``columns=None`` (the web page), every distinct rack side by side in one line at its own size
  (``width`` and ``height`` in pixels): the picture is never taller than one rack and its labels never shrink
  below their 11 to 15 px, however many racks the plan holds; a wide plan scrolls sideways;
* every device is named in text (role label and part number), and blanking has a hatch pattern as well as its
  label: no meaning rests on colour alone; black text and outlines on light fills print in greyscale;
* unit numbers at U1 and every fifth unit, counted from the bottom (EIA-310);
* zero-U PDUs are drawn as strips beside the rails (feed A left, feed B right), horizontal ones in their units.

All words come from ``labels`` (translated at the service edge); the module adds none beyond part numbers,
rack names and numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from engines.svgtext import text_width

from .model import Device, DeviceRole, Feeds, Rack, RackPlan, RackRun
from .ranges import name_ranges

U_PX = 22  # height of one unit
RACK_W = 210  # width of the rails
GUTTER = 34  # unit numbers on the left
STRIP = 18  # a zero-U PDU strip
HEAD = 58  # rack name, count and power above the rack
COL_W = GUTTER + STRIP + RACK_W + STRIP + 24
FONT = 13

FILLS = {
    DeviceRole.NODE: "#dce9f7",
    DeviceRole.LEAF: "#e3f1dc",
    DeviceRole.SPINE: "#f6ecd4",
    DeviceRole.CORE: "#f4dfe2",
    DeviceRole.MANAGEMENT: "#ebebeb",
    DeviceRole.PDU: "#f2f2f2",
    DeviceRole.NVLINK_SWITCH: "#e6e0f3",
    DeviceRole.POWER_SHELF: "#f2f2f2",
    DeviceRole.SYSTEM_MANAGEMENT: "#ebebeb",
    DeviceRole.STORAGE_LEAF: "#e0ecec",
    DeviceRole.STORAGE_SPINE: "#e0ecec",
    DeviceRole.STORAGE_CORE: "#e0ecec",
    DeviceRole.INBAND_LEAF: "#ece4f2",
    DeviceRole.INBAND_SPINE: "#ece4f2",
    DeviceRole.INBAND_CORE: "#ece4f2",
    DeviceRole.OOB: "#ebebeb",
    DeviceRole.CONTROL: "#fbf3d9",
    DeviceRole.UFM: "#fbe6d9",
}


@dataclass(frozen=True, kw_only=True)
class ElevationLabels:
    """Every word of the picture, translated by the caller. Format fields: ``{n}``, ``{kw}``, ``{feed}``."""

    title: str
    node: str
    leaf: str
    spine: str
    core: str
    management: str
    pdu: str
    storage: str  # a storage network switch
    inband: str  # an in-band (north-south) network switch
    oob: str  # a central out-of-band switch
    control: str  # a control-plane server
    ufm: str  # a UFM appliance
    blank: str
    count: str  # e.g. "×{n}"
    power: str  # e.g. "{kw} kW"
    power_at_least: str  # e.g. "at least {kw} kW": part of the rack's load is unknown
    power_unknown: str
    feed: str  # e.g. "feed {feed}"
    # Inside a rack-scale system (engines.racks.systems); English unless the caller translates them.
    compute_tray: str = "Compute tray"
    nvlink_switch: str = "NVLink switch tray"
    power_shelf: str = "Power shelf"
    system_management: str = "Management"

    def role(self, role: DeviceRole, system: bool = False) -> str:
        """The device's label: its role's, or its family's (a storage leaf is a storage switch); a rack-scale
        system's compute trays (``system``) are compute trays."""
        if system and role == DeviceRole.NODE:
            return self.compute_tray
        return str(getattr(self, str(role).replace("-", "_"), None) or getattr(self, role.family))


def _group(runs: Sequence[RackRun]) -> list[tuple[Rack, int, list[str]]]:
    """Distinct racks in order of first appearance, with how many racks look the same and their names."""
    seen: dict[object, int] = {}
    out: list[tuple[Rack, list[int], list[str]]] = []
    for run in runs:
        r = run.rack
        key = (r.kind, r.devices, r.pdus, r.power_w, r.power_known_w, r.u_total)
        i = seen.get(key)
        if i is None:
            seen[key] = len(out)
            out.append((r, [run.count], list(run.names)))
        else:
            out[i][1][0] += run.count
            out[i][2].extend(run.names)
    return [(r, n[0], names) for r, n, names in out]


def _names(names: Sequence[str]) -> tuple[str, str]:
    """The racks' names as the header shows them (the first range, and an ellipsis when there are more) and all
    of them as ranges (the drawing's tooltip)."""
    ranges = name_ranges(sorted(names))
    shown = ranges[0] if len(ranges) == 1 else f"{ranges[0]} …"
    return shown, ", ".join(ranges)


def distinct_racks(plan: RackPlan) -> int:
    """How many distinct racks the elevation draws (racks alike are drawn once, with their count)."""
    return len(_group(plan.runs))


def _one_decimal(x: float) -> str:
    return f"{x:.1f}"


def _kw(labels: ElevationLabels, rack: Rack, number: Callable[[float], str]) -> str:
    if rack.power_w is not None:
        return labels.power.format(kw=number(rack.power_w / 1000))
    if rack.power_known_w:
        return labels.power_at_least.format(kw=number(rack.power_known_w / 1000))
    return labels.power_unknown


def _text(x: float, y: float, body: str, *, size: int = FONT, anchor: str = "middle", extra: str = "") -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" '
        f'dominant-baseline="middle"{extra}>{escape(body)}</text>'
    )


LABEL_W = RACK_W - 8  # the room a device's label has, inside the device's outline
SMALLEST = 9  # the smallest a one-unit device's label is set when its one line is too long


def _device(x: float, top: float, d: Device, labels: ElevationLabels, system: bool = False) -> list[str]:
    """The device's outline and its label: role and part number on one line; on two (role above, part number
    below) when one line would run past the outline and the device is two units or taller; a label still too long
    set smaller until it fits."""
    h = d.height_u * U_PX
    out = [
        f'<rect x="{x:g}" y="{top:g}" width="{RACK_W}" height="{h}" fill="{FILLS[d.role]}" '
        f'stroke="#000" stroke-width="1"/>'
    ]
    role, cx, cy = labels.role(d.role, system), x + RACK_W / 2, top + h / 2
    size = FONT if d.height_u > 1 else FONT - 1
    lines = [f"{role} {d.part}"]
    if text_width(lines[0], size) > LABEL_W and d.height_u > 1:
        lines = [role, d.part]
    while max(text_width(line, size) for line in lines) > LABEL_W and size > SMALLEST:
        size -= 1
    shift = (len(lines) - 1) * size * 0.6
    return [*out, *(_text(cx, cy - shift + i * 2 * shift, line, size=size) for i, line in enumerate(lines))]


def _rack(
    x0: float,
    y0: float,
    drawn: tuple[Rack, int, list[str]],
    labels: ElevationLabels,
    feeds: Feeds,
    number: Callable[[float], str],
) -> list[str]:
    """One rack drawing with its top-left corner at (x0, y0), headed by the names of the racks it stands for."""
    rack, count, names = drawn
    u_total = rack.u_total
    rails_x = x0 + GUTTER + STRIP
    top = y0 + HEAD
    height = u_total * U_PX
    shown, every = _names(names or [rack.name])
    header = shown if count == 1 else f"{shown} {labels.count.format(n=count)}"
    out = [
        f"<title>{escape(every)}</title>",
        _text(rails_x + RACK_W / 2, y0 + 16, header, size=FONT + 1, extra=' font-weight="bold"'),
        _text(rails_x + RACK_W / 2, y0 + 38, _kw(labels, rack, number)),
        f'<rect x="{rails_x:g}" y="{top:g}" width="{RACK_W}" height="{height}" fill="url(#blank)" '
        f'stroke="#000" stroke-width="2"/>',
    ]
    occupied = [False] * (u_total + 2)
    for d in rack.devices:
        for u in range(d.position_u, min(d.position_u + d.height_u, u_total + 1)):
            occupied[u] = True
        out.extend(_device(rails_x, top + (u_total - (d.position_u + d.height_u - 1)) * U_PX, d, labels, rack.system))
    u = 1
    while u <= u_total:  # label each run of free units once
        if occupied[u]:
            u += 1
            continue
        start = u
        while u <= u_total and not occupied[u]:
            u += 1
        y_mid = top + (u_total - (start + u - 1) / 2 + 0.5) * U_PX
        out.append(_text(rails_x + RACK_W / 2, y_mid, f"{labels.blank} {u - start}U", size=FONT - 1))
    for u in range(1, u_total + 1):
        if u == 1 or u % 5 == 0:
            out.append(_text(x0 + GUTTER - 4, top + (u_total - u + 0.5) * U_PX, str(u), size=FONT - 2, anchor="end"))
    zero_u = [p for p in rack.pdus if not any(d.role == DeviceRole.PDU for d in rack.devices)]
    if zero_u:
        sides = [("A", rails_x - STRIP)] + ([("B", rails_x + RACK_W)] if feeds == Feeds.AB else [])
        per_feed = zero_u[0].quantity // len(sides)
        for feed, sx in sides:
            words = f"{labels.pdu} {labels.feed.format(feed=feed)} {per_feed}× {zero_u[0].part}"
            cx, cy = sx + STRIP / 2, top + height / 2
            out.append(
                f'<rect x="{sx:g}" y="{top:g}" width="{STRIP}" height="{height}" fill="{FILLS[DeviceRole.PDU]}" '
                f'stroke="#000" stroke-width="1"/>'
            )
            out.append(_text(cx, cy, words, size=FONT - 2, extra=f' transform="rotate(-90 {cx:g} {cy:g})"'))
    return out


def render_elevation_svg(
    plan: RackPlan,
    labels: ElevationLabels,
    *,
    columns: int | None = 2,
    number: Callable[[float], str] = _one_decimal,
    only: slice | None = None,
    per_line: int | None = None,
) -> str:
    """The plan's distinct racks as one scalable SVG (module docstring); ``number`` formats kW in the locale.
    ``columns`` None: the distinct racks at their own size in pixels, in one line, or ``per_line`` to a line (so
    the picture fits a page's column and its labels keep their size). ``only``: just these of the distinct racks
    (a printed page draws a few at a time, large enough to read)."""
    groups = _group(plan.runs)
    if only is not None:
        groups = groups[only]
    own_size = columns is None
    columns = max(1, (per_line or len(groups)) if columns is None else columns)
    columns = min(columns, len(groups) or 1)
    # A line is as tall as its tallest rack: a rack-scale system's own 48U are drawn whole beside 42U enclosures.
    rack_h = HEAD + max((g[0].u_total for g in groups), default=plan.rack_units) * U_PX + 20
    lines = -(-len(groups) // columns) if groups else 1
    width, height = columns * COL_W, 40 + lines * rack_h
    size = f'width="{width}" height="{height}"' if own_size else 'width="100%"'
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" {size} '
        f'role="img" aria-label={quoteattr(labels.title)} font-family="sans-serif" fill="#000">',
        f"<title>{escape(labels.title)}</title>",
        '<defs><pattern id="blank" width="8" height="8" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="8" height="8" fill="#fff"/>'
        '<line x1="0" y1="0" x2="0" y2="8" stroke="#bbb" stroke-width="2"/></pattern></defs>',
        _text(width / 2, 20, labels.title, size=FONT + 3, extra=' font-weight="bold"'),
    ]
    for i, drawn in enumerate(groups):
        x0 = (i % columns) * COL_W
        y0 = 40 + (i // columns) * rack_h
        parts.append("<g>")
        parts.extend(_rack(x0, y0, drawn, labels, plan.feeds, number))
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)
