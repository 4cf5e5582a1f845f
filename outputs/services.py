"""The one service every door calls for an output of a validated design (outputs.registry names the formats), and
the pictures of a result as the wizard and the offer show them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from configurator.services import Outcome, design_evaluate

from .format import Output, OutputErrorCode, OutputFormat, OutputUnavailable
from .picture_set import PictureSet, SlotMap, picture_set, result_pictures
from .registry import FORMATS

if TYPE_CHECKING:
    from configurator.models import Configuration
    from configurator.result import ValidationResult

__all__ = [
    "FORMATS",
    "Output",
    "OutputFormat",
    "OutputErrorCode",
    "OutputUnavailable",
    "PictureSet",
    "SlotMap",
    "configuration_output",
    "design_output",
    "picture_set",
    "result_pictures",
]


def design_output(*, name: str, result: ValidationResult, language: str) -> Output:
    """The output ``name`` (a file name of outputs.registry.FORMATS: ``cabling.csv``, ``diagram.svg``, …) of a
    validation result, its texts in ``language``. KeyError for a name no format has; OutputUnavailable when the
    design has nothing to give in that format (``code``: e.g. ``no_fabric_plan``)."""
    fmt = FORMATS[name]
    return Output(name=fmt.name, media_type=fmt.media_type, body=fmt.render(result, language))


def configuration_output(*, configuration: Configuration, name: str, outcome: Outcome | None = None) -> Output:
    """design_output of a stored design, in the configuration's language. ``outcome``: the caller's validation of
    the stored design, when it has one already; OutputUnavailable too when the design cannot be validated (input
    errors)."""
    fmt = FORMATS[name]
    if outcome is None:
        outcome = design_evaluate(document=configuration.document, language=configuration.language)
    if outcome.result is None:
        raise fmt.unavailable()
    return design_output(name=name, result=outcome.result, language=configuration.language)
