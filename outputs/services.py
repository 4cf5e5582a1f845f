"""The one service every door calls for an output of a validated design (outputs.registry names the formats), and
the pictures of a result as the wizard and the offer show them."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from configurator.services import Outcome, design_evaluate

from .format import Output, OutputErrorCode, OutputFormat, OutputUnavailable
from .picture_set import PictureSet, SlotMap, picture_set, result_pictures
from .registry import FORMATS

if TYPE_CHECKING:
    from configurator.models import Configuration
    from configurator.result import ValidationResult

# The hand-over files of a won design, in the order the wizard offers them.
HANDOVER_EXPORTS = ("netbox.zip", "topology.conf", "topology.yaml", "fabric.topo", "cut-sheet.xlsx")

__all__ = [
    "FORMATS",
    "HANDOVER_EXPORTS",
    "DesignNotValid",
    "UnknownOutput",
    "configuration_export",
    "design_export",
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
    return design_output(name=name, result=_named(outcome.result, configuration), language=configuration.language)


class UnknownOutput(LookupError):
    """No format has this file name (``name``); ``names``: the file names there are."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name
        self.names = tuple(FORMATS)


class DesignNotValid(OutputUnavailable):
    """The design has errors: nothing is handed over until they are fixed (``fields``: subject → message)."""

    def __init__(self, message: str, fields: dict[str, str]):
        super().__init__(OutputErrorCode.DESIGN_NOT_VALID, message)
        self.fields = fields


def _format(name: str) -> OutputFormat:
    if name not in FORMATS:
        raise UnknownOutput(name)
    return FORMATS[name]


def design_export(*, name: str, result: ValidationResult, language: str) -> Output:
    """The export ``name`` of a validated design, as the hand-over doors give it: UnknownOutput for a name no format
    has, DesignNotValid when the design has errors, OutputUnavailable when it has nothing to give in that format."""
    _format(name)
    if not result.valid:
        fields = {f.subject: f.message for f in result.errors}
        raise DesignNotValid(_("The design has errors; fix them before exporting it."), fields)
    return design_output(name=name, result=result, language=language)


def configuration_export(*, configuration: Configuration, name: str) -> Output:
    """design_export of a stored design, in the configuration's language (OutputUnavailable too when the stored
    design cannot be validated)."""
    fmt = _format(name)
    outcome = design_evaluate(document=configuration.document, language=configuration.language)
    if outcome.result is None:
        raise fmt.unavailable()
    return design_export(name=name, result=_named(outcome.result, configuration), language=configuration.language)


def _named(result: ValidationResult, configuration: Configuration) -> ValidationResult:
    """The result named as its design, else as the configuration (the NetBox bundle's site takes the name)."""
    if result.name or not configuration.name:
        return result
    return replace(result, name=configuration.name)
