"""Findings: what the engines say about a design, as a stable code, a severity, a subject and parameters.

The engines never write sentences. A finding carries its code's parameter object (``engines.findings.params``: one
frozen dataclass per code, of plain values: numbers, part numbers, enum values, lists); the service edge
(``messages``) renders its message and fix from one gettext message per code, in the visitor's language, reading
the same object.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from design.jsontext import JsonObject

from .params.base import Params


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


@dataclass(frozen=True)
class Finding:
    code: str  # a stable upper-snake code, listed in the rule registry
    severity: Severity
    subject: str  # the field path it concerns, e.g. node_groups[0].components[1]
    params: Params  # the values the message is rendered from: the code's parameter class

    def to_dict(self) -> JsonObject:
        """The finding as plain JSON values, without text (the service edge adds message and fix)."""
        return {
            "code": str(self.code),
            "severity": str(self.severity),
            "subject": self.subject,
            "params": self.params.as_dict(),
        }
