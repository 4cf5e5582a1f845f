"""The SVG picture as a ReportLab flowable (the module docstring of outputs.svgpdf)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from reportlab.lib.rl_accel import escapePDF
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable

from outputs import pdffonts

from .compiler import _Compiler
from .style import _NUMBER, IDENTITY, INITIAL, MAX_SVG_CHARS, SVG_NS, Matrix, _number, fp_str


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
