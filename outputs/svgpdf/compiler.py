"""The SVG tree compiled into content-stream operators (the module docstring of outputs.svgpdf)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import Any

from .paths import _bounds, _outline, _path, _rounded
from .style import (
    _NUMBER,
    ANCHOR_SHARE,
    BASELINE_SHIFT,
    GROUP_OPACITY,
    IDENTITY,
    INHERITED,
    INITIAL,
    MAX_HATCH_LINES,
    NOT_DRAWN,
    PROPERTIES,
    SVG_NS,
    Matrix,
    _apply,
    _colour,
    _declarations,
    _first,
    _font,
    _invert,
    _multiply,
    _number,
    _Sheet,
    _skip,
    _stroke,
    _transform,
    _width,
    fp_str,
)

# A line of a hatching pattern's tile: axis ("x": vertical), where, the tile's step, colour, the band's style.
_Hatch = tuple[str, float, float, tuple[float, float, float], dict[str, str]]


class _Label:
    """A label compiled: its text state and matrix; its font subset and bytes are the PDF's, looked up at draw."""

    __slots__ = ("font", "size", "state", "text")

    def __init__(self, font: str, size: float, state: str, text: str) -> None:
        self.font, self.size, self.state, self.text = font, size, state, text


class _Compiler:
    """Turns the SVG tree into content-stream operators, tracking the graphics state they leave behind so that a
    colour, width or dash is written only when it changes."""

    def __init__(self, root: ET.Element) -> None:
        self.ops: list[str | list[_Label] | tuple[float, float]] = []
        self.gstate: dict[str, str] = {}
        self.alpha = (1.0, 1.0)
        self.labels = 0
        self.elements = 0
        css = "".join("".join(el.itertext()) for el in root.iter(f"{SVG_NS}style"))
        self.sheet = _Sheet(css)
        self.styles: dict[tuple[Any, ...], dict[str, str]] = {}
        self.text_paints: dict[int, tuple[Any, ...]] = {}
        self.shape_paints: dict[int, tuple[Any, ...]] = {}
        self.strokes: dict[tuple[Any, ...], tuple[float, list[tuple[str, str]]]] = {}
        self.patterns = {el.get("id"): el for el in root.iter(f"{SVG_NS}pattern") if el.get("id")}

    # -- style

    def style(self, el: ET.Element, tag: str, parent: dict[str, str]) -> dict[str, str]:
        """The element's computed style (the cascade of the module docstring). Elements alike under the same
        parent style share one (it is not to be changed)."""
        attrib = el.attrib
        present = PROPERTIES & attrib.keys()
        key = (
            id(parent),
            tag,
            attrib.get("class"),
            attrib.get("style"),
            tuple(sorted((k, attrib[k]) for k in present)),
        )
        style = self.styles.get(key)
        if style is None:
            style = self.styles[key] = self.cascade(el, tag, parent, present)
        return style

    def cascade(
        self, el: ET.Element, tag: str, parent: dict[str, str], present: frozenset[str] | set[str]
    ) -> dict[str, str]:
        style = {k: v for k, v in parent.items() if k in INHERITED}
        style["opacity"] = "1"
        style["display"] = "inline"
        attrib = el.attrib
        for key in present:
            style[key] = attrib[key]
        classes = attrib.get("class")
        if self.sheet.rules:
            for declarations in self.sheet.matching(tag, frozenset(classes.split()) if classes else frozenset()):
                style.update(declarations)
        inline = attrib.get("style")
        if inline:
            for key, value in _declarations(inline).items():
                if key in PROPERTIES:
                    style[key] = value
                else:
                    _skip(f"style property {key}")
        for key, value in style.items():
            if value == "inherit":
                style[key] = parent.get(key, INITIAL.get(key, ""))
        if style["font-size"] != parent.get("font-size"):
            size = style["font-size"].strip()
            parent_size = _number(parent.get("font-size"), 16.0)
            if size.endswith("%"):
                style["font-size"] = fp_str(parent_size * _number(size[:-1], 100.0) / 100)
            else:
                style["font-size"] = fp_str(_number(size, parent_size, parent_size))
        if tag in ("g", "a") and style["opacity"].strip() not in ("1", ""):
            # a group's opacity given to each of its shapes and labels: the same where they do not overlap
            style[GROUP_OPACITY] = fp_str(_number(style["opacity"], 1.0) * _number(style[GROUP_OPACITY], 1.0))
        return style

    # -- tree

    def element(self, el: ET.Element, parent: dict[str, str], ctm: Matrix) -> None:
        tag = el.tag
        if not isinstance(tag, str) or not tag.startswith(SVG_NS):
            if isinstance(tag, str):
                _skip(f"element {tag}")
            return
        tag = tag[len(SVG_NS) :]
        if tag in NOT_DRAWN:
            return
        style = self.style(el, tag, parent)
        if style["display"].strip() == "none":
            return
        transform = el.get("transform")
        if transform:
            ctm = _multiply(_transform(transform), ctm)
        if tag in ("g", "a"):
            for child in el:
                self.element(child, style, ctm)
            return
        self.elements += 1
        if tag == "text":
            self.text(el, style, ctm)
            return
        path = self.shape(el, tag, style)
        if path is None:
            return
        if style["visibility"].strip() in ("hidden", "collapse"):
            return
        self.paint(path, style, ctm)

    def shape(self, el: ET.Element, tag: str, style: dict[str, str]) -> list[tuple[Any, ...]] | None:
        """The element's outline in user units: ('m', x, y), ('l', x, y), ('c', x1, y1, x2, y2, x, y), ('h',)."""
        get = el.get
        if tag == "rect":
            x, y = _number(get("x")), _number(get("y"))
            w, h = _number(get("width")), _number(get("height"))
            if w <= 0 or h <= 0:
                return None
            rx_attr, ry_attr = get("rx"), get("ry")
            rx = _number(rx_attr if rx_attr is not None else ry_attr)
            ry = _number(ry_attr if ry_attr is not None else rx_attr)
            rx, ry = min(max(rx, 0.0), w / 2), min(max(ry, 0.0), h / 2)
            if not rx or not ry:
                return [("m", x, y), ("l", x + w, y), ("l", x + w, y + h), ("l", x, y + h), ("h",)]
            return _rounded(x, y, w, h, rx, ry)
        if tag == "line":
            return [("m", _number(get("x1")), _number(get("y1"))), ("l", _number(get("x2")), _number(get("y2")))]
        if tag == "path":
            return _path(get("d") or "")
        if tag in ("polyline", "polygon"):
            v = [float(n) for n in _NUMBER.findall(get("points") or "")]
            if len(v) < 4:
                return None
            out: list[tuple[Any, ...]] = [("m", v[0], v[1])]
            out += [("l", v[i], v[i + 1]) for i in range(2, len(v) - 1, 2)]
            if tag == "polygon":
                out.append(("h",))
            return out
        if tag in ("circle", "ellipse"):
            cx, cy = _number(get("cx")), _number(get("cy"))
            rx = _number(get("r") if tag == "circle" else get("rx"))
            ry = _number(get("r") if tag == "circle" else get("ry"))
            if rx <= 0 or ry <= 0:
                return None
            return _rounded(cx - rx, cy - ry, 2 * rx, 2 * ry, rx, ry)
        _skip(f"element {tag}")
        return None

    # -- graphics state

    def set(self, key: str, op: str, out: list[str]) -> None:
        if self.gstate.get(key) != op:
            self.gstate[key] = op
            out.append(op)

    def set_alpha(self, fill: float, stroke: float) -> None:
        if (fill, stroke) != self.alpha:
            self.alpha = (fill, stroke)
            self.ops.append((fill, stroke))

    def stroke_state(self, style: dict[str, str], ctm: Matrix, out: list[str]) -> float:
        """Writes the stroke's state; returns its width in user units (0: no stroke)."""
        get = style.get
        key = (
            get("stroke-width"),
            get("stroke-dasharray"),
            get("stroke-dashoffset"),
            get("stroke-linecap"),
            get("stroke-linejoin"),
            get("stroke-miterlimit"),
            abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]),
        )
        state = self.strokes.get(key)
        if state is None:
            state = self.strokes[key] = _stroke(style, math.sqrt(key[-1]))
        width, ops = state
        for name, op in ops:
            self.set(name, op, out)
        return width

    def opacity(self, style: dict[str, str], key: str) -> float:
        value = _number(style[key], 1.0) * _number(style["opacity"], 1.0) * _number(style[GROUP_OPACITY], 1.0)
        return min(max(value, 0.0), 1.0)

    # -- shapes

    def shape_paint(self, style: dict[str, str]) -> tuple[Any, ...]:
        """What a shape of this style is painted with: its pattern, fill and stroke colours, (fill, stroke)
        opacity, and whether its fill rule is even-odd."""
        fill_value, stroke_value = style["fill"].strip(), style["stroke"].strip()
        pattern = None
        fill: tuple[float, float, float] | None
        if fill_value.startswith("url("):
            pattern, fill = self.pattern(fill_value)
        else:
            fill = _colour(fill_value)
        stroke = None if stroke_value.startswith("url(") else _colour(stroke_value)
        if stroke_value.startswith("url("):
            _skip("stroke with a paint server")
        alpha = (self.opacity(style, "fill-opacity"), self.opacity(style, "stroke-opacity"))
        return pattern, fill, stroke, alpha, style["fill-rule"].strip() == "evenodd"

    def paint(self, path: list[tuple[Any, ...]], style: dict[str, str], ctm: Matrix) -> None:
        paint = self.shape_paints.get(id(style))
        if paint is None:
            paint = self.shape_paints[id(style)] = self.shape_paint(style)
        pattern, fill, stroke, alpha, even_odd = paint
        is_line = all(op[0] != "h" for op in path) and len(path) == 2
        if is_line:
            fill, pattern = None, None  # a line has no inside
        if fill is None and pattern is None and stroke is None:
            return
        points = _outline(path, ctm)
        out: list[str] = []
        self.set_alpha(*alpha)
        width = self.stroke_state(style, ctm, out) if stroke is not None else 0.0
        if stroke is not None and width:
            self.set("RG", f"{fp_str(*stroke)} RG", out)
        if pattern is not None:
            out += self.hatch(points, pattern, path, ctm, even_odd)
            fill = None
        if fill is not None:
            self.set("rg", f"{fp_str(*fill)} rg", out)
        stroked = stroke is not None and width > 0
        if fill is not None or stroked:
            out.append(points)
            if fill is not None and stroked:
                out.append("B*" if even_odd else "B")
            elif fill is not None:
                out.append("f*" if even_odd else "f")
            else:
                out.append("S")
        if out:
            self.ops.append(" ".join(out))

    def pattern(self, value: str) -> tuple[ET.Element | None, tuple[float, float, float] | None]:
        """The pattern a fill refers to and the colour it falls back to (SVG's ``url(#id) colour``)."""
        match = re.match(r"url\(\s*['\"]?#([^)'\"]+)['\"]?\s*\)\s*(.*)", value)
        if not match:
            return None, None
        fallback = _colour(match.group(2)) if match.group(2) else None
        element = self.patterns.get(match.group(1))
        if element is None:
            _skip(f"paint server {match.group(1)!r}")
        return element, fallback

    def hatch(
        self, points: str, pattern: ET.Element, path: list[tuple[Any, ...]], ctm: Matrix, even_odd: bool
    ) -> list[str]:
        """A fill with a hatching pattern: its background colour, then, clipped to the shape, its lines repeated
        across the shape (each tile's line that spans the tile joins its neighbours' into one long line)."""
        tile_w, tile_h = _number(pattern.get("width")), _number(pattern.get("height"))
        if pattern.get("patternUnits", "objectBoundingBox") != "userSpaceOnUse" or tile_w <= 0 or tile_h <= 0:
            _skip("pattern not in user space units")
            return []
        space = _multiply(
            _multiply(
                (1, 0, 0, 1, _number(pattern.get("x")), _number(pattern.get("y"))),
                _transform(pattern.get("patternTransform")),
            ),
            ctm,
        )
        inverse = _invert(space)
        if inverse is None:
            return []
        background, lines = self.tile(pattern, tile_w, tile_h)
        out: list[str] = []
        if background is not None:
            self.set("rg", f"{fp_str(*background)} rg", out)
            out += [points, "f*" if even_odd else "f"]
        if not lines:
            return out
        corners = [_apply(inverse, x, y) for x, y in _bounds(path, ctm)]
        saved = dict(self.gstate)
        body = ["q", points, "W* n" if even_odd else "W n", f"{fp_str(*space)} cm"]
        for line in lines:
            body += self.hatch_lines(line, corners)
        body.append("Q")
        self.gstate = saved
        return out + body

    def tile(
        self, pattern: ET.Element, tile_w: float, tile_h: float
    ) -> tuple[tuple[float, float, float] | None, list[_Hatch]]:
        """A hatching pattern's tile: its background colour (a rectangle covering the tile) and its lines across
        the tile, each as (axis, where, tile step, colour, the style of the band the tile shows of it)."""
        pattern_style = self.style(pattern, "pattern", INITIAL)
        background = None
        lines: list[_Hatch] = []
        for child in pattern:
            if not isinstance(child.tag, str):
                continue
            tag = child.tag[len(SVG_NS) :]
            child_style = self.style(child, tag, pattern_style)
            if tag == "rect":
                colour = _colour(child_style["fill"]) if not child_style["fill"].startswith("url(") else None
                if _number(child.get("width")) >= tile_w and _number(child.get("height")) >= tile_h:
                    background = colour
                    continue
            if tag == "line":
                x1, y1 = _number(child.get("x1")), _number(child.get("y1"))
                x2, y2 = _number(child.get("x2")), _number(child.get("y2"))
                colour = _colour(child_style["stroke"])
                if colour is None:
                    continue
                vertical = x1 == x2 and abs(y2 - y1) >= tile_h
                if vertical or (y1 == y2 and abs(x2 - x1) >= tile_w):
                    # the tile clips its line: what shows is the band of the stroke inside the tile
                    at, step = (x1, tile_w) if vertical else (y1, tile_h)
                    half = _number(child_style["stroke-width"], 1.0) / 2
                    low, high = max(at - half, 0.0), min(at + half, step)
                    if high > low:
                        band = dict(child_style, **{"stroke-width": fp_str(high - low), "stroke-dasharray": "none"})
                        lines.append(("x" if vertical else "y", (low + high) / 2, step, colour, band))
                    continue
            _skip(f"pattern content {tag}")
        return background, lines

    def hatch_lines(self, line: _Hatch, corners: list[tuple[float, float]]) -> list[str]:
        """One line of the tile repeated across the shape's box (``corners`` in the pattern's space)."""
        axis, at, step, colour, line_style = line
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        low, high = (min(xs), max(xs)) if axis == "x" else (min(ys), max(ys))
        across_low, across_high = (min(ys), max(ys)) if axis == "x" else (min(xs), max(xs))
        first, last = math.floor((low - at) / step) - 1, math.ceil((high - at) / step) + 1
        if last - first > MAX_HATCH_LINES:
            _skip("pattern of too many lines")
            return []
        body: list[str] = []
        width = self.stroke_state(line_style, IDENTITY, body)
        if not width:
            return body
        self.set("RG", f"{fp_str(*colour)} RG", body)
        for k in range(first, last + 1):
            c = at + k * step
            if axis == "x":
                body.append(f"{fp_str(c, across_low)} m {fp_str(c, across_high)} l")
            else:
                body.append(f"{fp_str(across_low, c)} m {fp_str(across_high, c)} l")
        body.append("S")
        return body

    # -- labels

    def text(self, el: ET.Element, style: dict[str, str], ctm: Matrix) -> None:
        if len(el):
            _skip("tspan positioning")
        text = " ".join(((el.text or "") if not len(el) else "".join(el.itertext())).split())
        if not text:
            return
        paint = self.text_paints.get(id(style))
        if paint is None:
            paint = self.text_paints[id(style)] = self.text_paint(style)
        font, size, share, shift, fill, stroke, alpha = paint
        if not size:
            return
        x, y = _first(el.get("x")), _first(el.get("y"))
        if share:
            x -= share * _width(text, font, size)
        y += shift
        out: list[str] = []
        if alpha != self.alpha:
            self.set_alpha(*alpha)
        if fill is not None:
            self.set("rg", fill, out)
        mode = 0 if fill is not None else 3
        if stroke is not None:
            width = self.stroke_state(style, ctm, out)
            if width:
                self.set("RG", stroke, out)
                mode = 2 if fill is not None else 1
        self.set("Tr", f"{mode} Tr", out)
        if ctm[1] or ctm[2]:
            out.append(f"{fp_str(*_multiply((1.0, 0.0, 0.0, -1.0, x, y), ctm))} Tm")
        else:  # upright: no need to multiply the matrices out
            a, d = ctm[0], ctm[3]
            out.append(f"{fp_str(a, 0, 0, -d, a * x + ctm[4], d * y + ctm[5])} Tm")
        label = _Label(font, size, " ".join(out), text)
        self.labels += 1
        last = self.ops[-1] if self.ops else None
        if isinstance(last, list):
            last.append(label)
        else:
            self.ops.append([label])

    def text_paint(self, style: dict[str, str]) -> tuple[Any, ...]:
        """What a label of this style is drawn with: font, size (0: not drawn), its anchor's share of the width,
        its baseline's shift, its fill and stroke colour operators, its (fill, stroke) opacity."""
        size = _number(style["font-size"], 16.0)
        if size <= 0 or style["visibility"].strip() in ("hidden", "collapse"):
            return ("", 0.0, 0.0, 0.0, None, None, (1.0, 1.0))
        fill = _colour(style["fill"]) if not style["fill"].strip().startswith("url(") else None
        stroke = _colour(style["stroke"]) if not style["stroke"].strip().startswith("url(") else None
        return (
            _font(style["font-family"], style["font-weight"], style["font-style"]),
            size,
            ANCHOR_SHARE.get(style["text-anchor"].strip(), 0.0),
            BASELINE_SHIFT.get(style["dominant-baseline"].strip(), 0.0) * size,
            None if fill is None else f"{fp_str(*fill)} rg",
            None if stroke is None else f"{fp_str(*stroke)} RG",
            (self.opacity(style, "fill-opacity"), self.opacity(style, "stroke-opacity")),
        )
