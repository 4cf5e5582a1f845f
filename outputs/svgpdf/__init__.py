"""The offer's pictures (topology diagram, rack elevation, slot map: SVG drawn by outputs.pictures) as
ReportLab flowables of the offer PDF.

Interface: ``Picture(svg, max_width, max_height)`` is a Flowable that draws the picture scaled to fit within
max_width x max_height points (keeping its aspect ratio), every label as real text in the offer's fonts
(outputs.pdffonts).

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

from .picture import Picture

__all__ = ["Picture"]
