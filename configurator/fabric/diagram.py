"""An SVG topology diagram of a fabric plan: nodes, leaves grouped by SU and rail, spines, core.

Readable at any size because it aggregates: one box per SU ("8 leaves, r1-r8"), one box per pod of spines
in a 3-tier fabric, one box per core plane, and at most MAX_BOXES boxes per row (the rest as "+N more").
Edges join the drawn groups; each layer gap carries its link count, links per switch pair and media.
Pure string building with escaped text.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .planner import LEAF_SPINE, NODE_LEAF, SPINE_CORE, FabricPlan

MAX_BOXES = 16
WIDTH = 1280
BOX_H = 54
ROW_GAP = 150
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


def _row(labels: list[list[str]], total: int, y: float, fill: str, more: str) -> tuple[list[str], list[float]]:
    """Boxes for a row of ``total`` groups of which ``labels`` are the first; returns (svg, box centres)."""
    shown = labels if total <= MAX_BOXES else labels[: MAX_BOXES - 1]
    count = len(shown) + (1 if total > len(shown) else 0)
    slot = (WIDTH - 2 * MARGIN) / max(count, 1)
    w = min(slot - 12, 220)
    parts, centres = [], []
    for i, lines in enumerate(shown):
        x = MARGIN + slot * i + (slot - w) / 2
        parts.append(_box(x, y, w, lines, fill))
        centres.append(x + w / 2)
    if total > len(shown):
        x = MARGIN + slot * len(shown) + (slot - w) / 2
        parts.append(_box(x, y, w, [f"+{total - len(shown):,} more", more], "#eee"))
        centres.append(x + w / 2)
    return parts, centres


def _edges(upper: list[float], lower: list[float], y_up: float, y_low: float, pairs) -> list[str]:
    out = []
    for i, j in pairs(len(upper), len(lower)):
        out.append(
            f'<line x1="{upper[i]:.1f}" y1="{y_up + BOX_H:.1f}" x2="{lower[j]:.1f}" y2="{y_low:.1f}" '
            'stroke="#789" stroke-width="1" opacity="0.6"/>'
        )
    return out


def _all_pairs(a: int, b: int):
    return ((i, j) for i in range(a) for j in range(b))


def _label(y: float, text: str) -> str:
    # A white band behind the label keeps it readable over the edges. Not a stroke halo with paint-order: print
    # renderers (WeasyPrint) ignore paint-order and paint the white stroke over the text, hiding the label.
    width = 7 * len(text) + 8
    return (
        f'<path d="M{MARGIN - 4} {y - 13:.1f}h{width}v17h-{width}z" fill="#fff" fill-opacity="0.85"/>'
        f'<text x="{MARGIN}" y="{y:.1f}" class="edge">{escape(text)}</text>'
    )


def _link_text(plan: FabricPlan, name: str, per_pair: int | None) -> str:
    lp = plan.link(name)
    if lp is None:
        return ""
    pair = f" · {per_pair} per switch pair" if per_pair else ""
    media = f" · {lp.cable_part} ({lp.length_m:g} m)" if lp.cable_part else " · no catalogue medium"
    return f"{lp.links:,} {name} links at {lp.speed_gbps} Gb/s{pair}{media}"


def render_svg(plan: FabricPlan) -> str:
    """The plan as a standalone SVG document."""
    title = (
        f"{plan.topology} fabric: {plan.nodes:,} nodes x {plan.rails} rails, {plan.tiers} tier(s), "
        f"{plan.leaf_switches + plan.spine_switches + plan.core_switches:,} x {plan.switch}"
    )
    rows = plan.tiers + 1 if plan.tiers else 1
    height = MARGIN * 2 + 40 + rows * ROW_GAP
    body: list[str] = [f'<text x="{MARGIN}" y="{MARGIN}" class="title">{escape(title)}</text>']
    if not plan.tiers:
        body.append(_label(MARGIN + 40, "No fabric could be sized: see the findings."))
        return _document(title, height, body)

    y = MARGIN + 40
    layers: list[tuple[list[float], float]] = []
    if plan.tiers == 3:
        planes = plan.spines_per_pod
        labels = [[f"plane {i + 1}", f"{plan.cores_per_plane} cores"] for i in range(min(planes, MAX_BOXES))]
        svg, centres = _row(labels, planes, y, "#f6d7b0", f"planes of {plan.cores_per_plane}")
        body += svg
        layers.append((centres, y))
        y += ROW_GAP
    if plan.tiers >= 2:
        if plan.tiers == 3:
            labels = [[f"pod {p + 1:02d}", f"{plan.spines_per_pod} spines"] for p in range(min(plan.pods, MAX_BOXES))]
            svg, centres = _row(labels, plan.pods, y, "#cfe0f5", f"pods of {plan.spines_per_pod} spines")
        else:
            n = plan.spine_switches
            labels = [
                [f"spine-{i + 1:02d}", f"{plan.links_per_leaf_spine_pair}/leaf"] for i in range(min(n, MAX_BOXES))
            ]
            svg, centres = _row(labels, n, y, "#cfe0f5", "spines")
        body += svg
        layers.append((centres, y))
        y += ROW_GAP

    # Leaves: one box per SU (rail-optimized), per leaf (fat-tree), or the single switch.
    if plan.tiers == 1:
        groups, labels = 1, [[plan.switch, f"{plan.node_links} of {plan.logical_ports * plan.split} ports"]]
    elif plan.topology == "rail-optimized":
        groups = plan.units
        labels = [[f"SU {u + 1:02d}", f"{plan.rails} leaves"] for u in range(min(groups, MAX_BOXES))]
    else:
        groups = plan.leaf_switches
        labels = [
            [f"leaf-{i + 1:03d}", f"{plan.leaf_downlinks * plan.split} node ports"]
            for i in range(min(groups, MAX_BOXES))
        ]
    svg, leaf_centres = _row(labels, groups, y, "#d8efd2", "leaf groups")
    body += svg
    leaf_y = y
    y += ROW_GAP

    # Nodes: one box per SU, or one box for all.
    if plan.topology == "rail-optimized" and plan.tiers >= 2:
        node_labels = []
        for u in range(min(plan.units, MAX_BOXES)):
            in_unit = min(plan.nodes_per_unit, plan.nodes - u * plan.nodes_per_unit)
            node_labels.append([f"{in_unit} nodes", f"x {plan.rails} NICs"])
        svg, node_centres = _row(node_labels, plan.units, y, "#eee8f6", "SUs of nodes")
    else:
        svg, node_centres = _row([[f"{plan.nodes:,} nodes", f"{plan.rails} NICs each"]], 1, y, "#eee8f6", "")
    body += svg

    # Edges and labels, from the top down.
    if plan.tiers == 3:
        (core_c, core_y), (pod_c, pod_y) = layers
        body += _edges(core_c, pod_c, core_y, pod_y, _all_pairs)
        body.append(_label(core_y + BOX_H + 22, _link_text(plan, SPINE_CORE, plan.links_per_spine_core_pair)))
        units_per_pod = max(1, plan.leaves_per_pod // (plan.rails if plan.topology == "rail-optimized" else 1))

        def pod_pairs(a: int, b: int):
            return ((min(j // units_per_pod, a - 1), j) for j in range(b))

        body += _edges(pod_c, leaf_centres, pod_y, leaf_y, pod_pairs)
        body.append(_label(pod_y + BOX_H + 22, _link_text(plan, LEAF_SPINE, plan.links_per_leaf_spine_pair)))
    elif plan.tiers == 2:
        spine_c, spine_y = layers[0]
        body += _edges(spine_c, leaf_centres, spine_y, leaf_y, _all_pairs)
        body.append(_label(spine_y + BOX_H + 22, _link_text(plan, LEAF_SPINE, plan.links_per_leaf_spine_pair)))
    node_pairs = (
        (lambda a, b: ((i, i) for i in range(min(a, b))))
        if len(node_centres) > 1
        else (lambda a, b: ((i, 0) for i in range(a)))
    )
    body += _edges(leaf_centres, node_centres, leaf_y, y, node_pairs)
    body.append(_label(leaf_y + BOX_H + 22, _link_text(plan, NODE_LEAF, None)))
    return _document(title, height, body)


def _document(title: str, height: int, body: list[str]) -> str:
    style = (
        "<style>text{font-family:sans-serif;font-size:12px;fill:#123}"
        ".title{font-size:16px;font-weight:bold}.edge{font-size:12px;fill:#345}</style>"
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label={quoteattr(title)}>'
        f"<title>{escape(title)}</title>{style}{''.join(body)}</svg>"
    )
