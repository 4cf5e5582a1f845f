"""The offer's pictures (topology diagram, rack elevation, slot map: SVG drawn by configurator.pictures) as
ReportLab flowables of the offer PDF.

Interface: ``Picture(svg, max_width, max_height)`` is a Flowable that draws the picture scaled to fit within
max_width x max_height points (keeping its aspect ratio), every label as real text in the offer's fonts
(quotes.pdffonts).

The pictures are our own drawing code's, so this draws exactly the SVG they are written in, straight into the page's
content stream, and nothing more:

* elements: ``svg`` (viewBox, width, height), ``g``/``a``, ``rect`` (rx/ry rounded), ``line``, ``path`` (M L H V C S
  Q T Z, absolute and relative; an arc is drawn as a straight line to its end), ``polyline``, ``polygon``,
  ``circle``, ``ellipse``, ``text`` (its whole string at its first x/y); ``title``, ``desc``, ``style``, ``defs``
  and ``pattern`` are read, not drawn;
* style: presentation attributes, then the ``<style>`` sheet's rules (type, class, ``type.class`` and ``*``
  selectors, by specificity then order), then the ``style`` attribute, as SVG cascades them; fill, stroke and the
  font properties, text-anchor and dominant-baseline inherited from ``svg`` and ``g``;
* paint: ``#rgb``, ``#rrggbb``, ``rgb()``, colour names, ``none``; ``url(#pattern)`` for a hatching pattern (a
  background rectangle and lines across its tile, turned by its patternTransform) drawn as the shape's clip,
  filled with the background and stroked with parallel lines; fill-, stroke- and (element) opacity, stroke-width,
  stroke-dasharray/-dashoffset, -linecap, -linejoin, fill-rule;
* transforms: matrix, translate, scale, rotate (about a point), skewX, skewY, on any element;
* labels: one text-showing operation with the whole string (a reader searching "SU 01" finds it), anchored as SVG
  anchors it (middle centred on x, end ending at x, by the font's own advance widths), on its baseline, shifted
  for dominant-baseline as browsers shift it (middle: half the x-height; central: the middle of the em box;
  hanging, text-top, text-bottom likewise); sans-serif and system-ui in the offer's sans, monospace and
  ui-monospace in its mono face, bold from weight 600.

Anything else is left out of the drawing (logged once, at debug level), never an error. The picture is compiled once,
when the flowable is made: only the labels' font subsets, which belong to the PDF being written, are looked up while
drawing. An SVG that does not parse, or is not an SVG picture with a size, raises ValueError at once.
"""

from __future__ import annotations

import functools
import logging
import math
import re
import xml.etree.ElementTree as ET
from typing import Any

from reportlab.lib.rl_accel import escapePDF
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable

from . import pdffonts

logger = logging.getLogger(__name__)

SVG_NS = "{http://www.w3.org/2000/svg}"
MAX_SVG_CHARS = 16_000_000  # the largest picture (2,048 nodes) is some 60,000
MAX_HATCH_LINES = 20_000  # per shape: beyond it a pattern is drawn as its background colour
# DejaVu Sans and Sans Mono, every face (units per em 2048): x-height 1120, ascent 1901, descent 483.
X_HEIGHT, ASCENT, DESCENT = 1120 / 2048, 1901 / 2048, 483 / 2048
BASELINE_SHIFT = {  # dominant-baseline: how far the alphabetic baseline lies below y, in em
    "middle": X_HEIGHT / 2,
    "central": (ASCENT - DESCENT) / 2,
    "hanging": ASCENT * 0.8,
    "text-before-edge": ASCENT,
    "text-top": ASCENT,
    "before-edge": ASCENT,
    "mathematical": ASCENT / 2,
    "text-after-edge": -DESCENT,
    "text-bottom": -DESCENT,
    "after-edge": -DESCENT,
    "ideographic": -DESCENT,
}
ANCHOR_SHARE = {"middle": 0.5, "end": 1.0}
GROUP_OPACITY = "-group-opacity"  # the opacity of the groups around an element, multiplied: not an SVG property
INHERITED = frozenset(
    {
        "fill",
        "fill-opacity",
        "fill-rule",
        "stroke",
        "stroke-width",
        "stroke-opacity",
        "stroke-dasharray",
        "stroke-dashoffset",
        "stroke-linecap",
        "stroke-linejoin",
        "stroke-miterlimit",
        "font-family",
        "font-size",
        "font-weight",
        "font-style",
        "text-anchor",
        "dominant-baseline",
        "visibility",
        GROUP_OPACITY,
    }
)
PROPERTIES = (INHERITED - {GROUP_OPACITY}) | {"opacity", "display"}
INITIAL = {
    "fill": "#000",
    "fill-opacity": "1",
    "fill-rule": "nonzero",
    "stroke": "none",
    "stroke-width": "1",
    "stroke-opacity": "1",
    "stroke-dasharray": "none",
    "stroke-dashoffset": "0",
    "stroke-linecap": "butt",
    "stroke-linejoin": "miter",
    "stroke-miterlimit": "4",
    "font-family": "sans-serif",
    "font-size": "16",
    "font-weight": "normal",
    "font-style": "normal",
    "text-anchor": "start",
    "dominant-baseline": "auto",
    "visibility": "visible",
    GROUP_OPACITY: "1",
}
NOT_DRAWN = frozenset({"title", "desc", "style", "defs", "metadata", "pattern"})
MONO_FAMILIES = ("monospace", "ui-monospace", "mono", "courier", "consolas", "menlo", "monaco")
SANS_FAMILIES = ("sans-serif", "system-ui", "ui-sans-serif", "serif", "dejavu", "arial", "helvetica", "-apple-system")
NAMED_COLOURS = {
    "black": (0, 0, 0),
    "white": (255, 255, 255),
    "red": (255, 0, 0),
    "green": (0, 128, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 255, 0),
    "orange": (255, 165, 0),
    "purple": (128, 0, 128),
    "gray": (128, 128, 128),
    "grey": (128, 128, 128),
    "silver": (192, 192, 192),
    "lightgray": (211, 211, 211),
    "lightgrey": (211, 211, 211),
    "darkgray": (169, 169, 169),
    "darkgrey": (169, 169, 169),
    "navy": (0, 0, 128),
    "teal": (0, 128, 128),
    "maroon": (128, 0, 0),
    "olive": (128, 128, 0),
    "lime": (0, 255, 0),
    "aqua": (0, 255, 255),
    "cyan": (0, 255, 255),
    "fuchsia": (255, 0, 255),
    "magenta": (255, 0, 255),
    "whitesmoke": (245, 245, 245),
    "gainsboro": (220, 220, 220),
    "steelblue": (70, 130, 180),
    "darkred": (139, 0, 0),
    "darkgreen": (0, 100, 0),
    "darkblue": (0, 0, 139),
}
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TRANSFORM = re.compile(r"(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)")
_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_SELECTOR = re.compile(r"^(\*|[a-zA-Z][\w-]*)?((?:\.[\w-]+)*)$")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_SKIPPED: set[str] = set()
_PATH_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def fp_str(*values: float) -> str:
    """Numbers for the content stream, to six significant digits (a hundredth of a unit at the pictures' sizes):
    ReportLab's own is slow without its C accelerator."""
    text = ("%.6g " * len(values) % values)[:-1]
    if "e" in text or "n" in text:  # an exponent, inf or nan: not PDF numbers
        return " ".join(f"{v:.4f}" if math.isfinite(v) else "0" for v in values)
    return text


def _skip(what: str) -> None:
    """Something of the SVG left out of the drawing: said once per process, at debug level."""
    if what not in _SKIPPED:
        _SKIPPED.add(what)
        logger.debug("SVG picture: %s is not drawn", what)


def _multiply(m: Matrix, n: Matrix) -> Matrix:
    """m, then n (PDF's row-vector order: a point p goes to p·m·n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _invert(m: Matrix) -> Matrix | None:
    a, b, c, d, e, f = m
    det = a * d - b * c
    if not det:
        return None
    return (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)


def _transform(value: str | None) -> Matrix:
    """An SVG transform list as one matrix (its first function applied last, as SVG nests them)."""
    matrix = IDENTITY
    if not value:
        return matrix
    for name, args in _TRANSFORM.findall(value):
        v = [float(n) for n in _NUMBER.findall(args)]
        step: Matrix | None = None
        if name == "matrix" and len(v) == 6:
            step = (v[0], v[1], v[2], v[3], v[4], v[5])
        elif name == "translate" and v:
            step = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "scale" and v:
            step = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "rotate" and v:
            r = math.radians(v[0])
            cos, sin = math.cos(r), math.sin(r)
            step = (cos, sin, -sin, cos, 0, 0)
            if len(v) >= 3:
                cx, cy = v[1], v[2]
                step = _multiply(_multiply((1, 0, 0, 1, -cx, -cy), step), (1, 0, 0, 1, cx, cy))
        elif name == "skewX" and v:
            step = (1, 0, math.tan(math.radians(v[0])), 1, 0, 0)
        elif name == "skewY" and v:
            step = (1, math.tan(math.radians(v[0])), 0, 1, 0, 0)
        if step is None:
            _skip(f"transform {name}({args})")
            continue
        matrix = _multiply(step, matrix)
    return matrix


def _number(value: str | None, default: float = 0.0, font_size: float = 16.0) -> float:
    """A length or number in user units (px; em and pt worked out; a percentage is not: the default)."""
    if value is None:
        return default
    value = value.strip()
    try:
        return float(value)
    except ValueError:
        pass
    match = _NUMBER.match(value)
    if not match:
        return default
    number, unit = float(match.group(0)), value[match.end() :].strip().lower()
    if unit in ("", "px"):
        return number
    if unit == "em":
        return number * font_size
    if unit == "pt":
        return number * 4 / 3
    if unit == "mm":
        return number * 96 / 25.4
    _skip(f"length unit {unit!r}")
    return default


@functools.lru_cache(maxsize=1024)
def _colour(value: str) -> tuple[float, float, float] | None:
    """An SVG colour as r, g, b in 0..1; None for none (or a colour not understood, logged)."""
    value = value.strip().lower()
    if value in ("none", "transparent", ""):
        return None
    if value.startswith("#"):
        digits = value[1:]
        if len(digits) in (3, 4):
            digits = "".join(c * 2 for c in digits[:3])
        if len(digits) in (6, 8):
            try:
                return int(digits[0:2], 16) / 255, int(digits[2:4], 16) / 255, int(digits[4:6], 16) / 255
            except ValueError:
                pass
    elif value.startswith("rgb"):
        parts = re.findall(r"[-+]?[\d.]+%?", value)
        if len(parts) >= 3:
            channels = [float(p[:-1]) * 2.55 if p.endswith("%") else float(p) for p in parts[:3]]
            return tuple(min(max(c, 0.0), 255.0) / 255 for c in channels)  # type: ignore[return-value]
    elif value in NAMED_COLOURS:
        r, g, b = NAMED_COLOURS[value]
        return r / 255, g / 255, b / 255
    elif value == "currentcolor":
        return 0.0, 0.0, 0.0
    _skip(f"colour {value!r}")
    return None


def _declarations(text: str) -> dict[str, str]:
    out = {}
    for declaration in text.split(";"):
        name, colon, value = declaration.partition(":")
        if colon:
            out[name.strip().lower()] = value.replace("!important", "").strip()
    return out


class _Sheet:
    """The rules of the picture's <style> elements this drawing understands."""

    def __init__(self, css: str) -> None:
        self.rules: list[tuple[tuple[int, int, int], str | None, frozenset[str], dict[str, str]]] = []
        for order, (selectors, body) in enumerate(_RULE.findall(_COMMENT.sub("", css))):
            declarations = {k: v for k, v in _declarations(body).items() if k in PROPERTIES}
            for k in _declarations(body).keys() - PROPERTIES:
                _skip(f"CSS property {k}")
            for selector in selectors.split(","):
                selector = selector.strip()
                match = _SELECTOR.match(selector)
                if not match or not selector:
                    _skip(f"CSS selector {selector!r}")
                    continue
                tag = match.group(1)
                classes = frozenset(c for c in match.group(2).split(".") if c)
                types = 1 if tag and tag != "*" else 0
                self.rules.append(
                    ((len(classes), types, order), None if tag in (None, "*") else tag, classes, declarations)
                )
        self.rules.sort(key=lambda rule: rule[0])

    def matching(self, tag: str, classes: frozenset[str]) -> list[dict[str, str]]:
        return [d for _, t, c, d in self.rules if (t is None or t == tag) and c <= classes]


@functools.lru_cache(maxsize=256)
def _font(families: str, weight: str, font_style: str) -> str:
    """The offer's face for the label's font-family, -weight and -style."""
    mono = False
    for family in families.split(","):
        family = family.strip().strip("\"'").lower()
        if any(name in family for name in MONO_FAMILIES):
            mono = True
            break
        if any(name in family for name in SANS_FAMILIES):
            break
    weight = weight.strip().lower()
    bold = weight in ("bold", "bolder") or (weight.isdigit() and int(weight) >= 600)
    italic = font_style.strip().lower() in ("italic", "oblique")
    if mono:
        return pdffonts.MONO_BOLD if bold else pdffonts.MONO
    return pdffonts.BOLD if bold else pdffonts.ITALIC if italic else pdffonts.SANS


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
        pattern_style = self.style(pattern, "pattern", INITIAL)
        background = None
        lines: list[tuple[str, float, float, tuple[float, float, float], dict[str, str]]] = []
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
        out: list[str] = []
        if background is not None:
            self.set("rg", f"{fp_str(*background)} rg", out)
            out += [points, "f*" if even_odd else "f"]
        if not lines:
            return out
        corners = [_apply(inverse, x, y) for x, y in _bounds(path, ctm)]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        saved = dict(self.gstate)
        body = ["q", points, "W* n" if even_odd else "W n", f"{fp_str(*space)} cm"]
        for axis, at, step, colour, line_style in lines:
            low, high = (min(xs), max(xs)) if axis == "x" else (min(ys), max(ys))
            across_low, across_high = (min(ys), max(ys)) if axis == "x" else (min(xs), max(xs))
            first, last = math.floor((low - at) / step) - 1, math.ceil((high - at) / step) + 1
            if last - first > MAX_HATCH_LINES:
                _skip("pattern of too many lines")
                continue
            width = self.stroke_state(line_style, IDENTITY, body)
            if not width:
                continue
            self.set("RG", f"{fp_str(*colour)} RG", body)
            segments = []
            for k in range(first, last + 1):
                c = at + k * step
                if axis == "x":
                    segments.append(f"{fp_str(c, across_low)} m {fp_str(c, across_high)} l")
                else:
                    segments.append(f"{fp_str(across_low, c)} m {fp_str(across_high, c)} l")
            body += segments
            body.append("S")
        body.append("Q")
        self.gstate = saved
        return out + body

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


@functools.lru_cache(maxsize=4096)
def _width(text: str, font: str, size: float) -> float:
    """A label's advance width (a rack's forty "Spine MQM9700-NS2F" measured once)."""
    return pdfmetrics.stringWidth(text, font, size)


def _stroke(style: dict[str, str], scale: float) -> tuple[float, list[tuple[str, str]]]:
    """A stroke's width in user units (0: none) and the operators of its state, by graphics-state key."""
    width = _number(style["stroke-width"], 1.0) * scale
    if width <= 0:
        return 0.0, []
    ops = [("w", f"{fp_str(width)} w")]
    dashes = style["stroke-dasharray"].strip()
    dash = "[] 0 d"
    if dashes and dashes != "none":
        values = [_number(v) for v in re.split(r"[\s,]+", dashes) if v]
        if len(values) % 2:
            values *= 2
        if values and all(v >= 0 for v in values) and any(values):
            offset = _number(style["stroke-dashoffset"]) * scale
            dash = f"[{fp_str(*[v * scale for v in values])}] {fp_str(offset)} d"
    ops.append(("d", dash))
    caps = {"butt": "0 J", "round": "1 J", "square": "2 J"}
    joins = {"miter": "0 j", "round": "1 j", "bevel": "2 j"}
    ops.append(("J", caps.get(style["stroke-linecap"].strip(), "0 J")))
    ops.append(("j", joins.get(style["stroke-linejoin"].strip(), "0 j")))
    ops.append(("M", f"{fp_str(max(_number(style['stroke-miterlimit'], 4.0), 1.0))} M"))
    return width, ops


def _first(value: str | None) -> float:
    if not value:
        return 0.0
    try:
        return float(value)
    except ValueError:
        pass
    numbers = re.split(r"[\s,]+", value.strip())
    if len(numbers) > 1:
        _skip("per-letter text positions")
    return _number(numbers[0])


def _rounded(x: float, y: float, w: float, h: float, rx: float, ry: float) -> list[tuple[Any, ...]]:
    """A rectangle with corners rounded to rx, ry (quarter ellipses as Bézier curves), clockwise from the top."""
    k = 0.5522847498
    kx, ky = rx * k, ry * k
    r, b = x + w, y + h
    return [
        ("m", x + rx, y),
        ("l", r - rx, y),
        ("c", r - rx + kx, y, r, y + ry - ky, r, y + ry),
        ("l", r, b - ry),
        ("c", r, b - ry + ky, r - rx + kx, b, r - rx, b),
        ("l", x + rx, b),
        ("c", x + rx - kx, b, x, b - ry + ky, x, b - ry),
        ("l", x, y + ry),
        ("c", x, y + ry - ky, x + rx - kx, y, x + rx, y),
        ("h",),
    ]


def _path(d: str) -> list[tuple[Any, ...]] | None:
    """An SVG path's data as the outline operators of ``_Compiler.shape`` (an arc as a line to its end point)."""
    tokens = _PATH_TOKEN.findall(d)
    out: list[tuple[Any, ...]] = []
    x = y = start_x = start_y = 0.0
    last_control: tuple[float, float] | None = None
    last_quad: tuple[float, float] | None = None
    command = ""
    i, n = 0, len(tokens)
    while i < n:
        token = tokens[i]
        if token.isalpha():
            command = token
            i += 1
            if command in "Zz":
                if out:
                    out.append(("h",))
                x, y = start_x, start_y
                last_control = last_quad = None
                continue
        elif not command or command in "Zz":
            return out or None  # a number where a command should be: the path stops there, as in SVG
        upper = command.upper()
        count = _PATH_ARGS[upper]
        if i + count > n:
            break
        try:
            v = [float(t) for t in tokens[i : i + count]]
        except ValueError:  # a command where a number should be: the path stops there, as in SVG
            break
        i += count
        relative = command.islower()
        if upper == "H":
            x = x + v[0] if relative else v[0]
            out.append(("l", x, y))
        elif upper == "V":
            y = y + v[0] if relative else v[0]
            out.append(("l", x, y))
        else:
            if relative:
                if upper == "A":
                    v[5] += x
                    v[6] += y
                else:
                    v = [value + (x if j % 2 == 0 else y) for j, value in enumerate(v)]
            if upper == "M":
                x, y = start_x, start_y = v[0], v[1]
                out.append(("m", x, y))
                command = "l" if relative else "L"  # further pairs are lines
            elif upper == "L":
                x, y = v[0], v[1]
                out.append(("l", x, y))
            elif upper == "C":
                out.append(("c", *v))
                last_control, (x, y) = (v[2], v[3]), (v[4], v[5])
                last_quad = None
                continue
            elif upper == "S":
                cx, cy = (2 * x - last_control[0], 2 * y - last_control[1]) if last_control else (x, y)
                out.append(("c", cx, cy, *v))
                last_control, (x, y) = (v[0], v[1]), (v[2], v[3])
                last_quad = None
                continue
            elif upper in ("Q", "T"):
                if upper == "Q":
                    qx, qy, ex, ey = v
                else:
                    qx, qy = (2 * x - last_quad[0], 2 * y - last_quad[1]) if last_quad else (x, y)
                    ex, ey = v
                out.append(
                    (
                        "c",
                        x + 2 / 3 * (qx - x),
                        y + 2 / 3 * (qy - y),
                        ex + 2 / 3 * (qx - ex),
                        ey + 2 / 3 * (qy - ey),
                        ex,
                        ey,
                    )
                )
                last_quad, (x, y) = (qx, qy), (ex, ey)
                last_control = None
                continue
            elif upper == "A":
                _skip("path arc")
                x, y = v[5], v[6]
                out.append(("l", x, y))
        last_control = last_quad = None
    if out and out[0][0] != "m":
        return None
    return out or None


_TEMPLATES = {"m": "%.6g %.6g m", "l": "%.6g %.6g l", "c": "%.6g %.6g %.6g %.6g %.6g %.6g c", "h": "h"}


def _outline(path: list[tuple[Any, ...]], ctm: Matrix) -> str:
    """The outline as PDF path operators, its points through ``ctm``: one format for the whole outline."""
    a, b, c, d, e, f = ctm
    plain = ctm == IDENTITY
    upright = not b and not c
    template = []
    values: list[float] = []
    for op in path:
        kind = op[0]
        template.append(_TEMPLATES[kind])
        if kind == "h":
            continue
        if plain:
            values += op[1:]
        elif upright:
            for j in range(1, len(op), 2):
                values += (a * op[j] + e, d * op[j + 1] + f)
        else:
            for j in range(1, len(op), 2):
                px, py = op[j], op[j + 1]
                values += (a * px + c * py + e, b * px + d * py + f)
    text = " ".join(template) % tuple(values)
    if "e" in text or "n" in text:  # an exponent, inf or nan: written number by number
        text = " ".join(f"{fp_str(*op[1:])} {op[0]}" if op[0] != "h" else "h" for op in _moved(path, ctm))
    return text


def _moved(path: list[tuple[Any, ...]], ctm: Matrix) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for op in path:
        moved: list[Any] = [op[0]]
        for j in range(1, len(op), 2):
            moved += _apply(ctm, op[j], op[j + 1])
        out.append(tuple(moved))
    return out


def _bounds(path: list[tuple[Any, ...]], ctm: Matrix) -> list[tuple[float, float]]:
    """The corners of the outline's bounding box (through ``ctm``; control points included)."""
    xs, ys = [], []
    for op in path:
        coords = op[1:]
        for j in range(0, len(coords), 2):
            px, py = _apply(ctm, coords[j], coords[j + 1])
            xs.append(px)
            ys.append(py)
    if not xs:
        return []
    return [(min(xs), min(ys)), (max(xs), min(ys)), (max(xs), max(ys)), (min(xs), max(ys))]


def _parse(svg: str) -> ET.Element:
    if not isinstance(svg, str):
        raise ValueError("an SVG picture is a string")
    if len(svg) > MAX_SVG_CHARS:
        raise ValueError(f"SVG picture too large to draw ({len(svg)} characters)")
    if "<!DOCTYPE" in svg or "<!ENTITY" in svg:
        raise ValueError("SVG picture with a document type declaration: not drawn")
    try:
        root = ET.fromstring(svg)  # noqa: S314 - our own pictures; no DTD, so no entities to expand
    except ET.ParseError as e:
        raise ValueError(f"not a well-formed SVG picture: {e}") from None
    if root.tag != f"{SVG_NS}svg":
        raise ValueError(f"not an SVG picture: its root element is {root.tag!r}")
    return root


def _viewport(root: ET.Element) -> tuple[float, float, Matrix, tuple[float, float, float, float]]:
    """The picture's size in user units, the matrix from its viewBox to that box (y down) and the box's clip."""
    box = [float(v) for v in _NUMBER.findall(root.get("viewBox") or "")]
    width_attr, height_attr = root.get("width", ""), root.get("height", "")
    absolute_w = _number(width_attr, 0.0) if width_attr and not width_attr.strip().endswith("%") else 0.0
    absolute_h = _number(height_attr, 0.0) if height_attr and not height_attr.strip().endswith("%") else 0.0
    if len(box) == 4 and box[2] > 0 and box[3] > 0:
        min_x, min_y, box_w, box_h = box
        width = absolute_w or (absolute_h * box_w / box_h if absolute_h else box_w)
        height = absolute_h or (absolute_w * box_h / box_w if absolute_w else box_h)
        scale = min(width / box_w, height / box_h)  # preserveAspectRatio xMidYMid meet
        dx = (width - box_w * scale) / 2 - min_x * scale
        dy = (height - box_h * scale) / 2 - min_y * scale
        return width, height, (scale, 0.0, 0.0, scale, dx, dy), (0.0, 0.0, width, height)
    if absolute_w > 0 and absolute_h > 0:
        return absolute_w, absolute_h, IDENTITY, (0.0, 0.0, absolute_w, absolute_h)
    raise ValueError("SVG picture without a size (no viewBox, width or height)")


class Picture(Flowable):
    """An SVG picture of the offer, drawn to fit within max_width x max_height points (module docstring)."""

    def __init__(self, svg: str, max_width: float, max_height: float) -> None:
        super().__init__()
        pdffonts.register()
        root = _parse(svg)
        width, height, view, clip = _viewport(root)
        compiler = _Compiler(root)
        compiler.ops.append("")  # the first op is the viewport's clip, filled in below
        root_style = compiler.style(root, "svg", INITIAL)
        try:
            for child in root:
                compiler.element(child, root_style, view)
        except RecursionError:
            raise ValueError("SVG picture nested too deeply to draw") from None
        compiler.ops[0] = f"{fp_str(*clip)} re W n 0 Tc 0 Tw 100 Tz 0 Ts"
        self._ops = compiler.ops
        self.elements, self.labels = compiler.elements, compiler.labels
        self._scale = max(min(max_width / width, max_height / height), 0.0)
        self.width, self.height = width * self._scale, height * self._scale
        self._uses_alpha = any(isinstance(op, tuple) for op in self._ops)

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canv = self.canv
        doc = canv._doc
        add = canv.addLiteral
        canv.saveState()
        if self._uses_alpha:
            canv.setFillAlpha(1)
            canv.setStrokeAlpha(1)
        canv.transform(self._scale, 0, 0, -self._scale, 0, self.height)  # SVG's y runs down
        current: tuple[Any, ...] | None = None  # the font resource and size the text state holds
        fonts: dict[str, Any] = {}
        for op in self._ops:
            if isinstance(op, str):
                if op:
                    add(op)
            elif isinstance(op, tuple):
                canv.setFillAlpha(op[0])
                canv.setStrokeAlpha(op[1])
            else:
                run = ["BT"]
                for label in op:
                    font = fonts.get(label.font)
                    if font is None:
                        font = fonts[label.font] = pdfmetrics.getFont(label.font)
                    run.append(label.state)
                    for subset, chunk in font.splitString(label.text, doc):
                        key = (label.font, subset, label.size)
                        if key != current:
                            run.append(f"{font.getSubsetInternalName(subset, doc)} {fp_str(label.size)} Tf")
                            current = key
                        run.append(f"({escapePDF(chunk)}) Tj")
                run.append("ET")
                add(" ".join(run))
        canv.restoreState()
