"""``diagram.svg``, ``elevation.svg`` and ``slotmap.svg``: the pictures of outputs.picture_set as files, as the
wizard shows them (the first node group's slot map)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from django.utils.translation import gettext as _

from configurator.result import ValidationResult
from outputs.format import OutputErrorCode, OutputFormat, OutputUnavailable
from outputs.picture_set import PictureSet, result_pictures


def _no_picture() -> OutputUnavailable:
    return OutputUnavailable(OutputErrorCode.NO_PICTURE, _("This design has nothing to draw in this picture."))


def _svg_format(name: str, draw: Callable[[PictureSet], str]) -> OutputFormat:
    def render(result: ValidationResult, language: str) -> Iterator[str]:
        svg = draw(result_pictures(result=result, language=language))
        if not svg:
            raise _no_picture()
        return iter((svg,))

    return OutputFormat(name=name, media_type="image/svg+xml", render=render, unavailable=_no_picture)


DIAGRAM = _svg_format("diagram.svg", lambda pictures: pictures.diagram())
ELEVATION = _svg_format("elevation.svg", lambda pictures: "".join(pictures.elevations()))
SLOT_MAP = _svg_format("slotmap.svg", lambda pictures: "".join(m.svg for m in pictures.slot_maps(limit=1)))
