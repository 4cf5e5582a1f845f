"""SVG text in the quote PDF laid out a label at a time, not a letter at a time.

WeasyPrint draws an SVG ``<text>`` by laying out every character on its own through Pango (``weasyprint.svg.text``),
so that per-letter ``x``/``y``/``dx``/``dy``/``rotate`` lists and ``letter-spacing`` can place each glyph. The pictures
of the offer (topology diagram, rack elevation, slot maps) use none of these: each label is one string at one point.
Laid out letter by letter, the 439 labels of a 2,048-node quote took over half of its PDF build, and every letter
became a separate text run in the PDF.

``install()`` puts a drawing function in front of WeasyPrint's: a label with at most one ``x`` and one ``y`` and no
per-letter attribute is laid out once, as one Pango line (kerned as the HTML text of the page is), and drawn as one
text run, at the position, anchor, baseline, fill and stroke WeasyPrint itself gives it. A label met before in the
thread (the forty "Spine MQM9700-NS2F" of a rack) reuses its layout. Anything else goes to WeasyPrint's own function
unchanged. It replaces WeasyPrint's entry only when that entry is the function this was written against
(``weasyprint.svg.text.text``), so another WeasyPrint version draws as WeasyPrint does.

Two more costs of the pictures go with it. WeasyPrint centres (``text-anchor="middle"``) or right-aligns (``end``) a
label by drawing it into a PDF form of its own and placing that form shifted by the label's width: a form object
per label (383 of the 439 labels of a 2,048-node quote), each written, compressed and referenced in the PDF. A label
laid out whole has its width before it is drawn, so it is drawn shifted in place, in the page's own content. And
WeasyPrint parses a colour string (``fill="#334"``) again for every shape; the few distinct colours of a picture are
parsed once per process, each use given its own copy (WeasyPrint scales the copy's alpha by the opacity); likewise a
length with a unit (``font-size="1em"``, ``stroke-width="1px"``, the defaults it reads for every node) is worked out
once per font size and reference, not through four regular expressions each time, and the attribute strings
WeasyPrint normalises, parses as a URL or as an opacity for every node (mostly absent or the same few) are worked out
once each.
"""

from __future__ import annotations

import importlib
import threading
from math import inf

PER_LETTER = frozenset({"dx", "dy", "rotate", "letter-spacing", "textLength", "lengthAdjust"})
TEXT_TAGS = ("text", "tspan", "a", "textPath")
ANCHORS = {"middle": 0.5, "end": 1.0}  # text-anchor: the share of its width a label is drawn left of its x
_LOCK = threading.Lock()
_INSTALLED: list[bool] = []
_COLOURS: dict[str, object] = {}
_SIZES: dict[tuple, float] = {}
_LAYOUTS = threading.local()  # per thread, as its font configuration (quotes.documents._font_config)
MAX_LAYOUTS = 2048
SVG_MODULES = (
    "weasyprint.svg",
    "weasyprint.svg.utils",
    "weasyprint.svg.text",
    "weasyprint.svg.defs",
    "weasyprint.svg.shapes",
    "weasyprint.svg.bounding_box",
)


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
    from weasyprint.text.ffi import FROM_UNITS, pango
    from weasyprint.text.line_break import Layout, line_size

    def whole(node) -> bool:
        """Whether the label is one string at one point (laid out whole)."""
        attrib = node.attrib
        one_point = _single(attrib.get("x")) and _single(attrib.get("y"))
        return bool(node.text) and not PER_LETTER & attrib.keys() and one_point

    def text(svg, node, font_size):
        """WeasyPrint's SVG text, the whole label in one layout (module docstring)."""
        laid_out = node.__dict__.pop("_whole_layout", None)  # a centred or right-aligned label (draw_node below)
        if laid_out is not None:
            return _draw(svg, node, font_size, *laid_out)
        if not whole(node):
            return original(svg, node, font_size)
        try:
            style, layout, width, height, baseline = _layout(svg, node, font_size)
        except Exception:  # noqa: BLE001 - a WeasyPrint whose internals differ: its own drawing, nothing lost
            return original(svg, node, font_size)
        _draw(svg, node, font_size, style, layout, width, height, baseline)

    def _layout(svg, node, font_size):
        """The label as one Pango line in the node's font: (style, layout, width, height, baseline). A label met
        before in this thread's font configuration (a rack's forty "Spine MQM9700-NS2F") is laid out once: the
        drawing only reads the layout."""
        family = node.get("font-family", "sans-serif")
        font_style = node.get("font-style", "normal")
        weight = _weight(node.get("font-weight", 400))
        direction = node.get("direction")
        key = (node.text, family, font_style, weight, font_size, direction, id(svg.font_config))
        layouts = _LAYOUTS.__dict__.setdefault("layouts", {})
        laid_out = layouts.get(key)
        if laid_out is not None and laid_out[0].font_config is svg.font_config:
            return laid_out
        style = text_module.Style()
        style.update(INITIAL_VALUES)
        style.font_config = svg.font_config
        style["font_family"] = [font.strip("\"'") for font in family.split(",")]
        style["font_style"] = font_style
        style["font_weight"] = weight
        style["font_size"] = font_size
        if direction in ("ltr", "rtl"):
            style["direction"] = direction
        # What split_first_line(text, style, context, inf, 0) gives for a line that cannot wrap, in one Pango
        # layout: it lays the text out twice and lets it go, and drawing would lay it out a third time.
        layout = Layout(style, 0, inf)
        layout.set_text(node.text.rstrip(" "))
        first_line, _ = layout.get_first_line()
        width, height = line_size(first_line, style)
        baseline = pango.pango_layout_get_baseline(layout.layout) * FROM_UNITS
        if len(layouts) >= MAX_LAYOUTS:
            layouts.clear()
        layouts[key] = laid_out = (style, layout, width, height, baseline)
        return laid_out

    def _draw(svg, node, font_size, style, layout, width, height, baseline, shift=0.0):
        """Draws the laid-out label where WeasyPrint puts its first letter, with its vertical alignment, ``shift``
        of its width to the left (its text-anchor)."""
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
        x_position = x + svg.cursor_d_position[0] - shift * width
        y_position = y + svg.cursor_d_position[1] + y_align
        svg.cursor_position = x + width, y
        node.text_bounding_box = extend_bounding_box(
            node.text_bounding_box,
            ((x_position, y_position - baseline), (x_position + width, y_position - baseline + height)),
        )

        svg.stream.push_state()
        fill, stroke = svg.set_graphical_state(node, font_size)
        svg.stream.begin_text()
        svg.fill_stroke(fill, stroke, text=True)
        box = text_module.TextBox(layout, style)
        box.baseline = baseline
        emojis = draw_first_line(svg.stream, box, "none", "none", Matrix(a=1, d=-1, e=x_position, f=y_position))
        svg.stream.end_text()
        svg.stream.pop_state()
        draw_emojis(svg.stream, style, x, y, emojis)

    def draw_node(draw, size_of):
        """WeasyPrint's SVG.draw_node, with a centred or right-aligned label laid out before it is drawn: the label
        is then drawn shifted by its anchor in the page's content, not into a form of its own (module docstring)."""

        def draw_node(svg, node, font_size, fill_stroke=True, context=None):
            attrib = node.attrib
            anchor = attrib.get("text-anchor")
            if (
                anchor in ANCHORS
                and node.tag == "text"
                and len(node._etree_node) == 0  # no tspan: one string
                and attrib.get("direction", "ltr") == "ltr"
                and node.display
                and whole(node)
            ):
                try:
                    own_size = size_of(attrib.get("font-size", "1em"), font_size, font_size)
                    laid_out = _layout(svg, node, own_size)
                except Exception:  # noqa: BLE001 - WeasyPrint draws it its own way
                    return draw(svg, node, font_size, fill_stroke, context)
                node._whole_layout = (*laid_out, ANCHORS[anchor])
                attrib["text-anchor"] = "start"  # no form: text() shifts it
                try:
                    return draw(svg, node, font_size, fill_stroke, context)
                finally:
                    attrib["text-anchor"] = anchor
                    node.__dict__.pop("_whole_layout", None)
            return draw(svg, node, font_size, fill_stroke, context)

        return draw_node

    return text, draw_node


def _colour(parse):
    """WeasyPrint's SVG colour parser, each distinct string parsed once (module docstring)."""

    def colour(string):
        parsed = _COLOURS.get(string)
        if parsed is None:
            parsed = parse(string)
            if len(_COLOURS) < 1024:
                _COLOURS[string] = parsed
        clone = object.__new__(type(parsed))
        clone.__dict__.update(parsed.__dict__)
        return clone

    return colour


def _size(compute):
    """WeasyPrint's SVG length (weasyprint.svg.utils.size), a length with a unit worked out once per font size and
    reference (module docstring); a plain number is read as WeasyPrint reads it."""

    def size(string, font_size=None, percentage_reference=None):
        if not isinstance(string, str):
            return compute(string, font_size, percentage_reference)
        try:
            return float(string)
        except ValueError:
            pass
        key = (string, font_size, percentage_reference)
        value = _SIZES.get(key)
        if value is None:
            value = compute(string, font_size, percentage_reference)
            if len(_SIZES) < 4096:
                _SIZES[key] = value
        return value

    return size


def _memo(compute):
    """A pure function of one string (or number) of WeasyPrint's SVG code, each distinct argument worked out once."""
    results: dict = {}

    def memo(value):
        try:
            return results[value]
        except KeyError:
            pass
        except TypeError:  # not hashable: as WeasyPrint computes it
            return compute(value)
        result = compute(value)
        if len(results) < 4096:
            results[value] = result
        return result

    return memo


def _replace(name: str, original, replacement) -> None:
    """Put ``replacement`` in the place of ``original`` under ``name`` in every SVG module that imported it."""
    for module_name in SVG_MODULES:
        module = importlib.import_module(module_name)
        if getattr(module, name, None) is original:
            setattr(module, name, replacement)


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
                fast, make_draw_node = _make(original, text_module)
                colour = getattr(svg_module, "color", None)
                colour_ok = callable(colour) and getattr(colour, "__module__", "") == "weasyprint.svg.utils"
                colour_ok = colour_ok and hasattr(colour("#334"), "__dict__")
            except ImportError:
                known = False
            else:
                svg_module.text = fast
                for tag in TEXT_TAGS:
                    svg_module.TAGS[tag] = fast
                draw = getattr(svg_module.SVG, "draw_node", None)
                if callable(draw) and getattr(draw, "__module__", "") == "weasyprint.svg":
                    svg_module.SVG.draw_node = make_draw_node(draw, svg_module.size)
                if colour_ok:
                    svg_module.color = _colour(colour)
                utils = importlib.import_module("weasyprint.svg.utils")
                for name in ("size", "normalize", "parse_url", "alpha_value"):
                    compute = getattr(utils, name, None)
                    if callable(compute) and getattr(compute, "__module__", "") == "weasyprint.svg.utils":
                        _replace(name, compute, _size(compute) if name == "size" else _memo(compute))
        _INSTALLED.append(known)
        return known
