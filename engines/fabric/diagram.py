"""An SVG topology diagram of a fabric plan: nodes, leaves grouped by SU and rail, spines, core.

Readable at any size because it aggregates: one box per SU ("8 leaves, r1-r8"), one box per pod of spines
in a 3-tier fabric, one box per core plane, and at most MAX_BOXES boxes per row (the rest as "+N more").
Edges join the drawn groups; each layer gap carries its link count, links per switch pair and media.
Pure string building with escaped text. Every word on the picture comes from a ``Words`` table (English by
default); the domain edge (outputs/pictures.py) passes the translated one, so the engine writes no language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from engines.fabric.model import LEAF_SPINE, NODE_LEAF, SPINE_CORE, FabricPlan
from engines.svgtext import text_width


def _n(value: float) -> str:
    return f"{value:,}"


@dataclass(frozen=True)
class Words:
    """The diagram's texts as functions of their values. ``num`` formats a count, ``length`` a length in metres."""

    num: Callable[..., str] = _n
    length: Callable[..., str] = lambda m: f"{m:g} m"  # noqa: E731
    topology: Callable[..., str] = lambda t: t  # noqa: E731
    link_class: Callable[..., str] = lambda c: c  # noqa: E731
    title: Callable[..., str] = lambda topology, nodes, rails, tiers, switches, switch: (  # noqa: E731
        f"{topology} fabric: {nodes} nodes x {rails} rails, {tiers} tier(s), {switches} x {switch}"
    )
    no_fabric: Callable[..., str] = lambda: "No fabric could be sized: see the findings."  # noqa: E731
    more: Callable[..., str] = lambda n: f"+{n} more"  # noqa: E731
    plane: Callable[..., str] = lambda i: f"plane {i}"  # noqa: E731
    cores: Callable[..., str] = lambda n: f"{n} cores"  # noqa: E731
    planes_of: Callable[..., str] = lambda n: f"planes of {n}"  # noqa: E731
    pod: Callable[..., str] = lambda i: f"pod {i}"  # noqa: E731
    spines: Callable[..., str] = lambda n: f"{n} spines"  # noqa: E731
    pods_of: Callable[..., str] = lambda n: f"pods of {n} spines"  # noqa: E731
    per_leaf: Callable[..., str] = lambda n: f"{n}/leaf"  # noqa: E731
    spine_row: Callable[..., str] = lambda: "spines"  # noqa: E731
    ports_used: Callable[..., str] = lambda used, total: f"{used} of {total} ports"  # noqa: E731
    leaves: Callable[..., str] = lambda n: f"{n} leaves"  # noqa: E731
    node_ports: Callable[..., str] = lambda n: f"{n} node ports"  # noqa: E731
    leaf_groups: Callable[..., str] = lambda: "leaf groups"  # noqa: E731
    nodes: Callable[..., str] = lambda n: f"{n} nodes"  # noqa: E731
    times_nics: Callable[..., str] = lambda n: f"x {n} NICs"  # noqa: E731
    node_groups: Callable[..., str] = lambda: "SUs of nodes"  # noqa: E731
    nics_each: Callable[..., str] = lambda n: f"{n} NICs each"  # noqa: E731
    links: Callable[..., str] = lambda n, kind, speed: f"{n} {kind} links at {speed} Gb/s"  # noqa: E731
    per_pair: Callable[..., str] = lambda n: f"{n} per switch pair"  # noqa: E731
    no_medium: Callable[..., str] = lambda: "no catalogue medium"  # noqa: E731


ENGLISH = Words()

MAX_BOXES = 16
WIDTH = 1280
BOX_H = 54


@dataclass(frozen=True)
class Canvas:
    """The diagram's width and the most boxes a row shows. The screen's is 1,280 wide; a printed page (182 mm of
    text column) shrinks that to 0.4, its 12 px labels to 5 pt, so print draws half as wide with at most 4 boxes a
    row (labels of about 10 pt, each box wide enough for its words) and leaves the title to the page's heading."""

    width: int = WIDTH
    max_boxes: int = MAX_BOXES
    title: bool = True
    row_gap: int = 150


SCREEN = Canvas()
PRINT = Canvas(width=640, max_boxes=4, title=False, row_gap=100)
MARGIN = 40


def _box(x: float, y: float, w: float, lines: list[str], fill: str) -> str:
    text = "".join(
        f'<text x="{x + w / 2:.1f}" y="{y + 20 + 16 * i:.1f}" text-anchor="middle">{escape(t)}</text>'
        for i, t in enumerate(lines[:2])
    )
    return (
        f'<g><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{BOX_H}" rx="6" fill="{fill}" '
        f'stroke="#334"/>{text}</g>'
    )


def _row(
    labels: list[list[str]], total: int, y: float, fill: str, more: str, w_: Words = ENGLISH, c: Canvas = SCREEN
) -> tuple[list[str], list[float]]:
    """Boxes for a row of ``total`` groups of which ``labels`` are the first; returns (svg, box centres)."""
    shown = labels[: c.max_boxes] if total <= c.max_boxes else labels[: c.max_boxes - 1]
    count = len(shown) + (1 if total > len(shown) else 0)
    slot = (c.width - 2 * MARGIN) / max(count, 1)
    w = min(slot - 12, 220)
    parts, centres = [], []
    for i, lines in enumerate(shown):
        x = MARGIN + slot * i + (slot - w) / 2
        parts.append(_box(x, y, w, lines, fill))
        centres.append(x + w / 2)
    if total > len(shown):
        x = MARGIN + slot * len(shown) + (slot - w) / 2
        parts.append(_box(x, y, w, [w_.more(w_.num(total - len(shown))), more], "#eee"))
        centres.append(x + w / 2)
    return parts, centres


def _edges(
    upper: list[float],
    lower: list[float],
    y_up: float,
    y_low: float,
    pairs: Callable[[int, int], Iterable[tuple[int, int]]],
) -> list[str]:
    out = []
    for i, j in pairs(len(upper), len(lower)):
        out.append(
            f'<line x1="{upper[i]:.1f}" y1="{y_up + BOX_H:.1f}" x2="{lower[j]:.1f}" y2="{y_low:.1f}" '
            'stroke="#789" stroke-width="1" stroke-opacity="0.6"/>'
        )
    return out


def _all_pairs(a: int, b: int) -> Iterator[tuple[int, int]]:
    return ((i, j) for i in range(a) for j in range(b))


def _label(y: float, text: str, x: float | None = None, c: Canvas = SCREEN) -> str:
    """A text band at ``y``: from the left margin, or centred on ``x`` (a link label sits on its links).

    A white band behind the label keeps it readable over the edges. Not a stroke halo with paint-order: print
    renderers (WeasyPrint) ignore paint-order and paint the white stroke over the text, hiding the label. A label
    wider than the canvas is broken at a " · " into two lines, one band each."""
    lines = _lines(text, c.width - 8)
    out = []
    for i, line in enumerate(lines):
        at_y = y + (i - (len(lines) - 1) / 2) * LINE_H
        width = round(text_width(line, 12)) + 8
        left: float
        at: float
        if x is None:
            left, anchor, at = MARGIN - 4, "", MARGIN
        else:
            left = min(max(x - width / 2, 4), c.width - 4 - width)
            anchor, at = ' text-anchor="middle"', left + width / 2
        out.append(
            f'<path d="M{left:.1f} {at_y - 13:.1f}h{width}v{LINE_H}h-{width}z" fill="#fff" fill-opacity="0.85"/>'
            f'<text x="{at:.1f}" y="{at_y:.1f}" class="edge"{anchor}>{escape(line)}</text>'
        )
    return "".join(out)


LINE_H = 17  # a label's band


def _lines(text: str, room: float) -> list[str]:
    """``text`` on one line, or on two broken at the " · " that balances them best when one is wider than
    ``room``."""
    parts = text.split(" · ")
    if text_width(text, 12) + 8 <= room or len(parts) < 2:
        return [text]
    splits = [[" · ".join(parts[:k]), " · ".join(parts[k:])] for k in range(1, len(parts))]
    return min(splits, key=lambda pair: max(text_width(line, 12) for line in pair))


def _link_label(
    upper: list[float],
    lower: list[float],
    y_up: float,
    y_low: float,
    pairs: Callable[[int, int], Iterable[tuple[int, int]]],
    text: str,
    c: Canvas = SCREEN,
) -> str:
    """The label of the links between two rows, on them: half-way down the gap, centred where one of the links
    drawn crosses it, the one nearest the middle of the bundle (not off in the margin, away from its lines)."""
    crossings = [(upper[i] + lower[j]) / 2 for i, j in pairs(len(upper), len(lower))]
    middle = (min(upper + lower) + max(upper + lower)) / 2 if upper + lower else c.width / 2
    x = min(crossings, key=lambda at: abs(at - middle), default=middle)
    return _label((y_up + BOX_H + y_low) / 2 + 4, text, x, c)


def _link_text(plan: FabricPlan, name: str, per_pair: int | None, w: Words = ENGLISH) -> str:
    lp = plan.link(name)
    if lp is None:
        return ""
    pair = f" · {w.per_pair(w.num(per_pair))}" if per_pair else ""
    media = f" · {lp.cable_part} ({w.length(lp.length_m)})" if lp.cable_part else f" · {w.no_medium()}"
    return f"{w.links(w.num(lp.links), w.link_class(name), lp.speed_gbps)}{pair}{media}"


def render_svg(plan: FabricPlan, words: Words = ENGLISH, canvas: Canvas = SCREEN) -> str:
    """The plan as a standalone SVG document, its texts from ``words``, drawn on ``canvas`` (screen or print)."""
    c = canvas
    w = words
    n = w.num
    title = w.title(
        w.topology(plan.topology),
        n(plan.nodes),
        n(plan.rails),
        n(plan.tiers),
        n(plan.leaf_switches + plan.spine_switches + plan.core_switches),
        plan.switch,
    )
    rows = plan.tiers + 1 if plan.tiers else 1
    top = MARGIN + 40 if c.title else MARGIN
    # print: no room below the last row (the page's own spacing follows)
    height = MARGIN * 2 + 40 + rows * c.row_gap if c.title else top + (rows - 1) * c.row_gap + BOX_H + MARGIN
    body: list[str] = [f'<text x="{MARGIN}" y="{MARGIN}" class="title">{escape(title)}</text>'] if c.title else []
    if not plan.tiers:
        body.append(_label(top, w.no_fabric(), None, c))
        return _document(title, height, body, c)

    y = top
    layers = _upper_rows(plan, y, w, body, c)
    y += c.row_gap * len(layers)
    svg, leaf_centres = _leaf_row(plan, y, w, c)
    body += svg
    leaf_y = y
    y += c.row_gap
    svg, node_centres = _node_row(plan, y, w, c)
    body += svg

    # Edges and labels, from the top down.
    body += _upper_edges(plan, layers, leaf_centres, leaf_y, w, c)
    node_pairs = (
        (lambda a, b: ((i, i) for i in range(min(a, b))))
        if len(node_centres) > 1
        else (lambda a, b: ((i, 0) for i in range(a)))
    )
    body += _edges(leaf_centres, node_centres, leaf_y, y, node_pairs)
    node_text = _link_text(plan, NODE_LEAF, None, w)
    body.append(_link_label(leaf_centres, node_centres, leaf_y, y, node_pairs, node_text, c))
    return _document(title, height, body, c)


def _upper_rows(
    plan: FabricPlan, y: int, w: Words, body: list[str], c: Canvas = SCREEN
) -> list[tuple[list[float], int]]:
    """Draws the rows above the leaves from ``y`` down (core planes, then pods or spines); returns each row's box
    centres and top."""
    n = w.num
    layers: list[tuple[list[float], int]] = []
    if plan.tiers == 3:
        planes = plan.spines_per_pod
        labels = [[w.plane(n(i + 1)), w.cores(n(plan.cores_per_plane))] for i in range(min(planes, MAX_BOXES))]
        svg, centres = _row(labels, planes, y, "#f6d7b0", w.planes_of(n(plan.cores_per_plane)), w, c)
        body += svg
        layers.append((centres, y))
        y += c.row_gap
    if plan.tiers >= 2:
        if plan.tiers == 3:
            shown = range(min(plan.pods, MAX_BOXES))
            labels = [[w.pod(f"{p + 1:02d}"), w.spines(n(plan.pod_spines(p)))] for p in shown]
            svg, centres = _row(labels, plan.pods, y, "#cfe0f5", w.pods_of(n(plan.spines_per_pod)), w, c)
        else:
            count = plan.spine_switches
            per_leaf = w.per_leaf(n(plan.links_per_leaf_spine_pair))
            labels = [[f"spine-{i + 1:02d}", per_leaf] for i in range(min(count, MAX_BOXES))]
            svg, centres = _row(labels, count, y, "#cfe0f5", w.spine_row(), w, c)
        body += svg
        layers.append((centres, y))
    return layers


def _leaf_row(plan: FabricPlan, y: int, w: Words, c: Canvas = SCREEN) -> tuple[list[str], list[float]]:
    """Leaves: one box per SU (rail-optimized), per leaf (fat-tree), or the single switch."""
    n = w.num
    if plan.tiers == 1:
        groups, labels = 1, [[plan.switch, w.ports_used(n(plan.node_links), n(plan.logical_ports * plan.split))]]
    elif plan.topology == "rail-optimized":
        groups = plan.units
        # A rail leaf per rail in every plane (twin-planar: 2 x the NICs).
        per_su = plan.rails * max(1, plan.fabric_planes)
        labels = [[f"SU {u + 1:02d}", w.leaves(n(per_su))] for u in range(min(groups, MAX_BOXES))]
    else:
        groups = plan.leaf_switches
        labels = [
            [f"leaf-{i + 1:03d}", w.node_ports(n(plan.leaf_downlinks * plan.split))]
            for i in range(min(groups, MAX_BOXES))
        ]
    return _row(labels, groups, y, "#d8efd2", w.leaf_groups(), w, c)


def _node_row(plan: FabricPlan, y: int, w: Words, c: Canvas = SCREEN) -> tuple[list[str], list[float]]:
    """Nodes: one box per SU, or one box for all."""
    n = w.num
    if plan.topology == "rail-optimized" and plan.tiers >= 2:
        node_labels = []
        for u in range(min(plan.units, MAX_BOXES)):
            in_unit = min(plan.nodes_per_unit, plan.nodes - u * plan.nodes_per_unit)
            node_labels.append([w.nodes(n(in_unit)), w.times_nics(n(plan.rails))])
        return _row(node_labels, plan.units, y, "#eee8f6", w.node_groups(), w, c)
    return _row([[w.nodes(n(plan.nodes)), w.nics_each(n(plan.rails))]], 1, y, "#eee8f6", "", w, c)


def _upper_edges(
    plan: FabricPlan,
    layers: list[tuple[list[float], int]],
    leaf_centres: list[float],
    leaf_y: int,
    w: Words,
    c: Canvas = SCREEN,
) -> list[str]:
    """The links between the rows above the leaves and down to the leaves, with their labels."""
    out: list[str] = []
    if plan.tiers == 3:
        (core_c, core_y), (pod_c, pod_y) = layers
        out += _edges(core_c, pod_c, core_y, pod_y, _all_pairs)
        core_text = _link_text(plan, SPINE_CORE, plan.links_per_spine_core_pair, w)
        out.append(_link_label(core_c, pod_c, core_y, pod_y, _all_pairs, core_text, c))
        units_per_pod = max(1, plan.leaves_per_pod // (plan.rails if plan.topology == "rail-optimized" else 1))

        def pod_pairs(a: int, b: int) -> Iterator[tuple[int, int]]:
            return ((min(j // units_per_pod, a - 1), j) for j in range(b))

        out += _edges(pod_c, leaf_centres, pod_y, leaf_y, pod_pairs)
        leaf_text = _link_text(plan, LEAF_SPINE, plan.links_per_leaf_spine_pair, w)
        out.append(_link_label(pod_c, leaf_centres, pod_y, leaf_y, pod_pairs, leaf_text, c))
    elif plan.tiers == 2:
        spine_c, spine_y = layers[0]
        out += _edges(spine_c, leaf_centres, spine_y, leaf_y, _all_pairs)
        leaf_text = _link_text(plan, LEAF_SPINE, plan.links_per_leaf_spine_pair, w)
        out.append(_link_label(spine_c, leaf_centres, spine_y, leaf_y, _all_pairs, leaf_text, c))
    return out


def _document(title: str, height: int, body: list[str], c: Canvas = SCREEN) -> str:
    style = (
        "<style>text{font-family:sans-serif;font-size:12px;fill:#123}"
        ".title{font-size:16px;font-weight:bold}.edge{font-size:12px;fill:#345}</style>"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{c.width}" height="{height}" '
        f'viewBox="0 0 {c.width} {height}" role="img" aria-label={quoteattr(title)}>'
        f"<title>{escape(title)}</title>{style}{''.join(body)}</svg>"
    )
