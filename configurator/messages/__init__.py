"""Finding messages: the service edge renders each engine finding (code + parameters) into a message and a fix
in the active language, from one gettext message per code (a few codes choose between variants by a parameter,
each its own message id). The Dutch texts live in locale/nl/LC_MESSAGES/django.po, like every other page text.

``finding_dict`` gives the shape of contract design/v1: ``{"code", "severity", "subject", "message", "fix"}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from engines.findings.finding import Finding
from engines.findings.registry import REGISTRY

from . import cluster as _cluster  # noqa: F401  (registers the control-plane and services renderers)
from . import fabric as _fabric  # noqa: F401  (registers the fabric renderers)
from . import networks as _networks  # noqa: F401  (registers the network renderers)
from . import node_contents as _node_contents  # noqa: F401  (registers the node-contents renderers)
from . import nodes as _nodes  # noqa: F401  (registers the node renderers)
from . import pcie as _pcie  # noqa: F401  (registers the PCIe renderers)
from . import power as _power
from . import rack_systems as _rack_systems  # noqa: F401  (registers the rack-scale system renderers)
from . import racks as _racks  # noqa: F401  (registers the rack renderers)
from . import workload as _workload  # noqa: F401  (registers the workload renderers)
from .base import RENDERERS
from .languages import language_codes


def render(finding: Finding) -> tuple[str, str]:
    """(message, fix) of ``finding`` in the active language."""
    renderer = RENDERERS.get(finding.code)
    if renderer is None:
        raise LookupError(f"no message for finding code {finding.code}")
    return renderer(finding.params)


def finding_dict(finding: Finding, language: str = "en") -> dict[str, Any]:
    with translation.override(language):
        message, fix = render(finding)
    return {
        "code": str(finding.code),
        "severity": str(finding.severity),
        "subject": finding.subject,
        "message": message,
        "fix": fix,
    }


def finding_dicts(findings: Iterable[Finding], language: str = "en") -> list[dict[str, Any]]:
    with translation.override(language):
        return [finding_dict(f, language) for f in findings]


def rule_entries(languages: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """Every registered code with its severity, source, the checks that emit it, and its title and explanation
    in each of ``languages`` (default: every language of settings.LANGUAGES; the rule catalogue page, the API and
    the docs)."""
    languages = language_codes() if languages is None else languages
    texts: dict[str, dict[str, tuple[str, str]]] = {}
    for lang in languages:
        with translation.override(lang):
            texts[lang] = {code: (gettext(r.title), gettext(r.explanation)) for code, r in REGISTRY.items()}
    return [
        {
            "code": code,
            "severity": str(rule.severity),
            "title": {lang: texts[lang][code][0] for lang in languages},
            "explanation": {lang: texts[lang][code][1] for lang in languages},
            "source": rule.source,
            "checks": list(rule.checks),
        }
        for code, rule in sorted(REGISTRY.items())
    ]


@dataclass(frozen=True)
class Said:
    """A text in English and Dutch."""

    en: str
    nl: str


@dataclass(frozen=True)
class Both:
    """A finding's message and fix in English and Dutch (tests, and pages that show both)."""

    message: Said
    fix: Said


def both(finding: Finding) -> Both:
    """The message and fix of ``finding`` in both languages."""
    with translation.override("en"):
        m_en, f_en = render(finding)
    with translation.override("nl"):
        m_nl, f_nl = render(finding)
    return Both(message=Said(m_en, m_nl), fix=Said(f_en, f_nl))


def totals_dict(totals: dict[str, Any]) -> dict[str, Any]:
    """The node engine's totals with each power assumption said in every language of settings.LANGUAGES
    (contract design/v1: ``{"group", "en", "nl"}``, one key per language)."""
    said = []
    for a in totals.get("power_assumptions", []):
        texts = {}
        for lang in language_codes():
            with translation.override(lang):
                texts[lang] = _power.assumption(a)
        said.append({"group": a["group"], **texts})
    return {**totals, "power_assumptions": said}
