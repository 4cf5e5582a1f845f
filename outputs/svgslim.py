"""The offer's pictures with fewer SVG elements for the same drawing, before the offer PDF draws them.

An SVG is drawn element by element, and each element costs the same work whatever it is: its style
worked out, its graphical state set, its own fill and stroke. The pictures of a 2,048-node quote hold some 1,100
elements, most of them alike: 288 links of the topology diagram drawn as ``<line>``s of one style, the racks' device
rectangles of three or four fills, each wrapped in ``<g>``s that carry nothing. ``slim`` draws the same picture with
fewer of them, for the PDF only (the web pages keep the elements they address one by one):

* a run of ``<line>``s of the same style becomes one ``<path>`` of as many segments;
* in a run of plain rectangles and labels (a rack's frame and devices), the rectangles of one style become one
  ``<path>`` of as many rectangles, drawn before the run's labels. Where two rectangles overlap, the earlier stays
  below (its style's path comes first; if it cannot, the run is left as it is); rectangles that only share an edge
  (a rack's units) show the same whichever is drawn first; a label is drawn over its rectangle as before;
* a ``<g>`` without attributes is left out (its children are drawn as they are).

Only elements written exactly as the picture code writes them are merged; anything else is copied unchanged.
"""

from __future__ import annotations

import re

_LINE = re.compile(r'<line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"((?: [a-z-]+="[^"<>]*")*)/>')
_LINE_RUN = re.compile(rf"(?:{_LINE.pattern}\s*){{2,}}")
# A plain rectangle: position, size and only colour/stroke attributes after them (no rx, class, style or transform).
_RECT = re.compile(
    r'<rect x="([-\d.]+)" y="([-\d.]+)" width="([\d.]+)" height="([\d.]+)"'
    r'((?: (?:fill|stroke|stroke-width)="[^"<>]*")*)/>'
)
_TEXT = re.compile(r"<text [^<>]*>[^<>]*</text>")
_ELEMENT = rf"(?:{_RECT.pattern}|{_TEXT.pattern})"
_RECT_RUN = re.compile(rf"(?:{_ELEMENT}\s*){{3,}}")
_BARE_G = re.compile(r"<g>|</g>")


def _lines(match: re.Match[str]) -> str:
    """A run of lines as paths: one per style, in the order the styles first appear."""
    paths: dict[str, list[str]] = {}
    for x1, y1, x2, y2, style in _LINE.findall(match.group(0)):
        paths.setdefault(style, []).append(f"M{x1} {y1}L{x2} {y2}")
    if any("fill=" in style for style in paths):
        return match.group(0)
    return "".join(f'<path d="{"".join(d)}" fill="none"{style}/>' for style, d in paths.items())


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """Whether two rectangles (x, y, width, height) share more than an edge."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _rects(match: re.Match[str]) -> str:
    """A run of rectangles and labels: the rectangles of each style as one path, then the labels in order."""
    run = match.group(0)
    rects = [(tuple(float(v) for v in found[:4]), found[4]) for found in _RECT.findall(run)]
    order: dict[str, int] = {}
    for _, style in rects:
        order.setdefault(style, len(order))
    if len(order) == len(rects):
        return run
    # Two rectangles that overlap keep their order: of different styles, the earlier one's path comes first; of one
    # style, one path would stroke the first over the second's fill, so the run stays as it is.
    if any(
        (style == other_style or order[style] > order[other_style]) and _overlap(box, other)
        for i, (box, style) in enumerate(rects)
        for other, other_style in rects[i + 1 :]
    ):
        return run
    paths: dict[str, list[str]] = {}
    for found in _RECT.findall(run):
        x, y, w, h, style = found
        paths.setdefault(style, []).append(f"M{x} {y}h{w}v{h}h-{w}z")
    shapes = "".join(f'<path d="{"".join(d)}"{style}/>' for style, d in paths.items())
    return shapes + "".join(_TEXT.findall(run))


def slim(svg: str) -> str:
    """The same picture in fewer elements (module docstring)."""
    svg = _BARE_G.sub("", svg)
    svg = _LINE_RUN.sub(_lines, svg)
    return _RECT_RUN.sub(_rects, svg)
