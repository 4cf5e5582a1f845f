"""The offer's pictures (topology diagram, rack elevation, slot map: SVG drawn by configurator.pictures) as
ReportLab flowables of the offer PDF.

Interface: ``Picture(svg, max_width, max_height)`` is a Flowable that draws the picture scaled to fit within
max_width x max_height points (keeping its aspect ratio, never enlarged past the page column), every label as real
text in the offer's fonts (quotes.pdffonts)."""

from __future__ import annotations

import io

from reportlab.platypus import Flowable


class Picture(Flowable):
    def __init__(self, svg: str, max_width: float, max_height: float) -> None:
        super().__init__()
        from svglib.svglib import svg2rlg

        self._drawing = svg2rlg(io.BytesIO(svg.encode()))
        width, height = self._drawing.width, self._drawing.height
        self._scale = min(max_width / width, max_height / height)
        self.width, self.height = width * self._scale, height * self._scale

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        from reportlab.graphics import renderPDF

        self.canv.saveState()
        self.canv.scale(self._scale, self._scale)
        renderPDF.draw(self._drawing, self.canv, 0, 0)
        self.canv.restoreState()
