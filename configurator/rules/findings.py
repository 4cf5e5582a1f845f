"""Findings: what the engines say about a design, in English and Dutch."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
LANGUAGES = ("en", "nl")


@dataclass(frozen=True)
class Text:
    """A sentence in both languages. Engines format numbers into both before building one."""

    en: str
    nl: str

    def get(self, language: str) -> str:
        return self.nl if language == "nl" else self.en


@dataclass(frozen=True)
class Finding:
    code: str  # a stable upper-snake code, listed in the rule catalogue
    severity: Severity
    subject: str  # the field path it concerns, e.g. node_groups[0].components[1]
    message: Text
    fix: Text
    data: dict[str, Any] = field(default_factory=dict)  # the numbers behind the message

    def to_dict(self, language: str = "en") -> dict[str, Any]:
        return {
            "code": str(self.code),
            "severity": str(self.severity),
            "subject": self.subject,
            "message": self.message.get(language),
            "fix": self.fix.get(language),
        }
