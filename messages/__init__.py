"""Finding messages: the service edge renders each engine finding (code + parameters) into a message and a fix
in the active language, from one gettext message per code (a few codes choose between variants by a parameter,
each its own message id). The Dutch texts live in locale/nl/LC_MESSAGES/django.po, like every other page text.

``finding_dict`` gives the shape of contract design/v1: ``{"code", "severity", "subject", "message", "fix"}``.

A rendered (message, fix) is kept per (code, parameters, language): a renderer reads nothing but the finding's
parameters, the active language's catalogue and its number formats, so the same finding in the same language
says the same thing until one of those changes. The parameters are the key, by value and by type (1, 1.0 and
True are different keys), so a catalogue change that changes a value a message says is a new key; parameters of
any other kind than plain JSON-like values and enums (a set, an object) are rendered every time. The kept texts
are dropped when a setting changes (a test's override of LANGUAGES or the number formats) or a compiled
catalogue (.mo) changes under the development server, which reloads translations without restarting.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils import translation
from django.utils.autoreload import file_changed
from django.utils.translation import gettext

from design.jsontext import JsonObject
from engines.findings.finding import Finding
from engines.findings.params.base import Params
from engines.findings.registry import REGISTRY
from engines.node.totals import NodeTotals

from . import cluster as _cluster  # noqa: F401  (registers the control-plane and services renderers)
from . import fabric as _fabric  # noqa: F401  (registers the fabric renderers)
from . import networks as _networks  # noqa: F401  (registers the network renderers)
from . import node_contents as _node_contents  # noqa: F401  (registers the node-contents renderers)
from . import nodes as _nodes  # noqa: F401  (registers the node renderers)
from . import pcie as _pcie  # noqa: F401  (registers the PCIe renderers)
from . import power as _power
from . import rack_systems as _rack_systems  # noqa: F401  (registers the rack-scale system renderers)
from . import racks as _racks  # noqa: F401  (registers the rack renderers)
from . import subnet_manager as _subnet_manager  # noqa: F401  (registers the subnet-manager renderers)
from . import workload as _workload  # noqa: F401  (registers the workload renderers)
from .base import PARAMS as PARAMS  # code -> its parameter class (the guard tests)
from .base import RENDERERS
from .bill import section_title
from .languages import language_codes

RENDERED_MAX = 4096  # kept (message, fix) pairs; when full, the kept texts are dropped and kept anew
_rendered: dict[tuple[Any, ...], tuple[str, str]] = {}


class _Unkeyed(Exception):
    """A parameter that is not a plain value: the finding is rendered without keeping its text."""


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _key(value: Any) -> Any:
    """``value`` as a hashable key that tells types apart (1, 1.0, True and "1" differ); _Unkeyed for a value that
    is not plain data (a set's order is not its value's, an object may change)."""
    kind = type(value)
    if kind in _SCALARS:
        return kind, value
    if kind is dict:
        return dict, tuple([(k if type(k) is str else _key(k), _key(v)) for k, v in value.items()])
    if kind is list or kind is tuple:
        return kind, tuple([_key(v) for v in value])
    if isinstance(value, Params):
        return kind, tuple([_key(getattr(value, name)) for name in value.field_names()])
    if isinstance(value, Enum):
        return kind, value
    raise _Unkeyed


def forget_rendered() -> None:
    """Drop every kept message: the next finding of each code is rendered again."""
    _rendered.clear()


@receiver(setting_changed, dispatch_uid="messages.forget_rendered")
def _setting_changed(**kwargs: object) -> None:
    forget_rendered()


@receiver(file_changed, dispatch_uid="messages.forget_rendered_on_mo")
def _translation_file_changed(sender: object, file_path: Path, **kwargs: object) -> None:
    if Path(file_path).suffix == ".mo":
        forget_rendered()


def render(finding: Finding) -> tuple[str, str]:
    """(message, fix) of ``finding`` in the active language."""
    return _render(finding, translation.get_language())


def _render(finding: Finding, language: str | None) -> tuple[str, str]:
    """(message, fix) of ``finding`` in ``language``, which must be the active language. A compute-fabric check
    said of a storage or in-band network (subject ``networks.<key>``) is headed by the network's name, so it reads
    apart from the same check of the compute fabric ("Storage network: The managed MQM9700-NS2F switches…")."""
    renderer = RENDERERS.get(finding.code)
    if renderer is None:
        raise LookupError(f"no message for finding code {finding.code}")
    message, fix = _kept(renderer, language, finding.params)
    network = finding.subject.split(".")[1] if finding.subject.startswith("networks.") else None
    if network and str(finding.code).startswith("FABRIC_"):
        message = f"{section_title(network)}: {message}"
    return message, fix


def _kept(fn: Any, language: str | None, params: Any) -> Any:
    """``fn(params)`` in the active ``language``, rendered once per (fn, language, params) and then kept."""
    try:
        key = (fn, language, _key(params))
    except _Unkeyed:
        return fn(params)
    said = _rendered.get(key)
    if said is None:
        said = fn(params)
        if len(_rendered) >= RENDERED_MAX:
            _rendered.clear()
        _rendered[key] = said
    return said


def _finding_dict(finding: Finding, language: str | None) -> dict[str, Any]:
    message, fix = _render(finding, language)
    return {
        "code": str(finding.code),
        "severity": str(finding.severity),
        "subject": finding.subject,
        "message": message,
        "fix": fix,
    }


def _speaking(language: str) -> AbstractContextManager[None]:
    """``translation.override(language)``, or nothing to do when ``language`` is already the active one (a door
    activates the request's language before it validates)."""
    return nullcontext() if translation.get_language() == language else translation.override(language)


def finding_dict(finding: Finding, language: str = "en") -> dict[str, Any]:
    with _speaking(language):
        return _finding_dict(finding, translation.get_language())


def finding_dicts(findings: Iterable[Finding], language: str = "en") -> list[dict[str, Any]]:
    with _speaking(language):
        active = translation.get_language()
        return [_finding_dict(f, active) for f in findings]


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


def totals_dict(totals: NodeTotals) -> JsonObject:
    """The node engine's totals with each power assumption said in every language of settings.LANGUAGES
    (contract design/v1: ``{"group", "en", "nl"}``, one key per language)."""
    assumptions = totals.get("power_assumptions", [])
    texts: list[dict[str, str]] = [{} for _ in assumptions]
    for lang in language_codes():
        with translation.override(lang):
            active = translation.get_language()
            for text, a in zip(texts, assumptions, strict=True):
                text[lang] = _kept(_power.assumption, active, a)
    said = [{"group": a["group"], **text} for a, text in zip(assumptions, texts, strict=True)]
    return {**totals, "power_assumptions": said}
