"""What a format is: a file name, its media type, and how it is rendered from a validation result."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from configurator.result import ValidationResult


class OutputErrorCode(StrEnum):
    """Why a design has nothing to give in a format: the stable ``code`` of OutputUnavailable, which the API
    answers."""

    NO_FABRIC_PLAN = "no_fabric_plan"  # nothing to cable
    NO_PICTURE = "no_picture"  # nothing to draw in this picture
    UNKNOWN_EXPORT = "unknown_export"  # no export has this name
    DESIGN_NOT_VALID = "design_not_valid"  # the design has errors: nothing is handed over until they are fixed


class OutputUnavailable(Exception):
    """The design has nothing to give in this format (``code``: a stable reason, OutputErrorCode; ``message``: for
    people, in the active language)."""

    def __init__(self, code: OutputErrorCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


# The body of a text format is str chunks; of a binary one (a zip, a workbook) bytes chunks.
Body = Iterable[str] | Iterable[bytes]
Render = Callable[["ValidationResult", str], Body]


@dataclass(frozen=True)
class OutputFormat:
    """One output of a validated design.

    ``name``: the file name a door serves it under (``cabling.csv``); ``media_type``: its Content-Type;
    ``render(result, language)``: its body in chunks, text or bytes (a CSV row by row, so a 2,000-node plan never
    sits in memory), or OutputUnavailable; ``unavailable()``: the refusal when there is no result to render (the
    design's input errors prevent one)."""

    name: str
    media_type: str
    render: Render
    unavailable: Callable[[], OutputUnavailable]


@dataclass(frozen=True)
class Output:
    """A rendered output: its file name, media type and body (chunks of text or bytes, streamed by the doors)."""

    name: str
    media_type: str
    body: Body
