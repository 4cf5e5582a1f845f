"""The SVG drawing's vocabulary: the properties it reads and their initial values, colours, numbers, transforms,
the <style> sheet, the offer's faces for a label and a stroke's state (the module docstring of outputs.svgpdf)."""

from __future__ import annotations

import functools
import logging
import math
import re

from reportlab.pdfbase import pdfmetrics

from outputs import pdffonts

logger = logging.getLogger("outputs.svgpdf")

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
