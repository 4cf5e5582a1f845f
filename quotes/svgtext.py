"""SVG text in the quote PDF laid out a label at a time, not a letter at a time.

WeasyPrint draws an SVG ``<text>`` by laying out every character on its own through Pango (``weasyprint.svg.text``),
so that per-letter ``x``/``y``/``dx``/``dy``/``rotate`` lists and ``letter-spacing`` can place each glyph. The pictures
of the offer (topology diagram, rack elevation, slot maps) use none of these: each label is one string at one point.
Laid out letter by letter, the 439 labels of a 2,048-node quote took over half of its PDF build, and every letter
became a separate text run in the PDF.

``install()`` puts a drawing function in front of WeasyPrint's: a label with at most one ``x`` and one ``y`` and no
per-letter attribute is laid out once, as one Pango line (kerned as the HTML text of the page is), and drawn as one
text run, at the position, anchor, baseline, fill and stroke WeasyPrint itself gives it. Anything else goes to
WeasyPrint's own function unchanged. It replaces WeasyPrint's entry only when that entry is the function this was
written against (``weasyprint.svg.text.text``), so another WeasyPrint version draws as WeasyPrint does.
"""

from __future__ import annotations

import importlib
import threading
from math import inf

PER_LETTER = frozenset({"dx", "dy", "rotate", "letter-spacing", "textLength", "lengthAdjust"})
TEXT_TAGS = ("text", "tspan", "a", "textPath")
_LOCK = threading.Lock()
_INSTALLED: list[bool] = []


def _single(value: str | None) -> bool:
    return value is None or len(value.replace(",", " ").split()) <= 1


def _weight(value) -> int:
    if value == "bold":
        return 700
    try:
        return int(value)
    except (TypeError, ValueError):
        return 400


def _make(original, text_module):
    from weasyprint.css.properties import INITIAL_VALUES
    from weasyprint.draw.text import draw_emojis, draw_first_line
    from weasyprint.matrix import Matrix
    from weasyprint.svg.bounding_box import extend_bounding_box
    from weasyprint.svg.utils import size
    from weasyprint.text.line_break import split_first_line

    def text(svg, node, font_size):
        """WeasyPrint's SVG text, the whole label in one layout (module docstring)."""
        attrib = node.attrib
        if not node.text or PER_LETTER & attrib.keys() or not (_single(attrib.get("x")) and _single(attrib.get("y"))):
            return original(svg, node, font_size)
        try:
            style, layout, width, height, baseline = _layout(svg, node, font_size)
        except Exception:  # noqa: BLE001 - a WeasyPrint whose internals differ: its own drawing, nothing lost
            return original(svg, node, font_size)
        _draw(svg, node, font_size, style, layout, width, height, baseline)

    def _layout(svg, node, font_size):
        """The label as one Pango line in the node's font: (style, layout, width, height, baseline)."""
        style = text_module.Style()
        style.update(INITIAL_VALUES)
        style.font_config = svg.font_config
        style["font_family"] = [font.strip("\"'") for font in node.get("font-family", "sans-serif").split(",")]
        style["font_style"] = node.get("font-style", "normal")
        style["font_weight"] = _weight(node.get("font-weight", 400))
        style["font_size"] = font_size
        if node.get("direction") in ("ltr", "rtl"):
            style["direction"] = node.get("direction")
        layout, _, _, width, height, baseline = split_first_line(node.text, style, svg.context, inf, 0)
        return style, layout, width, height, baseline

    def _draw(svg, node, font_size, style, layout, width, height, baseline):
        """Draws the laid-out label where WeasyPrint puts its first letter, with its vertical alignment."""
        attrib = node.attrib
        # The position as WeasyPrint's per-letter code gives its first letter, and its vertical alignment.
        x = size(attrib["x"], font_size, svg.inner_width) if "x" in attrib else None
        y = size(attrib["y"], font_size, svg.inner_height) if "y" in attrib else None
        if x:
            svg.cursor_d_position[0] = 0
        if y:
            svg.cursor_d_position[1] = 0
        x = svg.cursor_position[0] if x is None else x
        y = svg.cursor_position[1] if y is None else y
        ascent, descent = font_size * 0.8, font_size * 0.2
        alignment = node.get("dominant-baseline", node.get("alignment-baseline"))
        display_anchor = node.get("display-anchor")
        y_align = 0
        if display_anchor == "middle":
            y_align = -height / 2
        elif display_anchor == "bottom":
            y_align = -height
        elif display_anchor == "top":
            pass
        elif alignment in ("central", "middle"):
            y_align = (ascent + descent) / 2 - descent
        elif alignment in ("text-before-edge", "before_edge", "top", "hanging", "text-top"):
            y_align = ascent
        elif alignment in ("text-after-edge", "after_edge", "bottom", "text-bottom"):
            y_align = -descent
        x_position = x + svg.cursor_d_position[0]
        y_position = y + svg.cursor_d_position[1] + y_align
        svg.cursor_position = x + width, y
        node.text_bounding_box = extend_bounding_box(
            node.text_bounding_box,
            ((x_position, y_position - baseline), (x_position + width, y_position - baseline + height)),
        )

        svg.stream.push_state()
        fill, stroke = svg.set_graphical_state(node, font_size)
        svg.stream.begin_text()
        layout.reactivate(style)
        svg.fill_stroke(fill, stroke, text=True)
        box = text_module.TextBox(layout, style)
        box.baseline = baseline
        emojis = draw_first_line(svg.stream, box, "none", "none", Matrix(a=1, d=-1, e=x_position, f=y_position))
        svg.stream.end_text()
        svg.stream.pop_state()
        draw_emojis(svg.stream, style, x, y, emojis)

    return text


def install() -> bool:
    """Route WeasyPrint's SVG text through the one-layout drawing; idempotent. False when this WeasyPrint is not
    the one it was written against (then nothing changes)."""
    with _LOCK:
        if _INSTALLED:
            return _INSTALLED[0]
        svg_module = importlib.import_module("weasyprint.svg")
        text_module = importlib.import_module("weasyprint.svg.text")  # the package's "text" is the function
        original = getattr(text_module, "text", None)
        # draw_node recognises text nodes by comparing TAGS entries with the package's own name "text": both move.
        known = original is not None and getattr(svg_module, "text", None) is original
        known = known and all(svg_module.TAGS.get(tag) is original for tag in TEXT_TAGS)
        if known:
            try:
                fast = _make(original, text_module)
            except ImportError:
                known = False
            else:
                svg_module.text = fast
                for tag in TEXT_TAGS:
                    svg_module.TAGS[tag] = fast
        _INSTALLED.append(known)
        return known
