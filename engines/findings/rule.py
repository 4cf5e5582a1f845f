"""One entry of the rule registry, and the helpers the registry's data modules write it with."""

from __future__ import annotations

from dataclasses import dataclass

from .cluster_codes import ClusterCode, ExpansionCode
from .codes import Code
from .fabric_codes import FabricCode
from .finding import Severity
from .network_codes import NetworkCode
from .rack_codes import RackCode

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO


def gettext_noop(message: str) -> str:
    """Marks an English message id for translation (makemessages extracts it); translated at the service edge."""
    return message


@dataclass(frozen=True)
class Rule:
    """One registry entry. ``checks`` name the functions (full dotted paths) that emit the code."""

    code: str
    severity: Severity
    title: str
    explanation: str
    source: str
    checks: tuple[str, ...]


def rule(
    code: ClusterCode | Code | ExpansionCode | FabricCode | NetworkCode | RackCode,
    severity: Severity,
    title: str,
    explanation: str,
    source: str,
    checks: tuple[str, ...],
) -> Rule:
    return Rule(str(code), severity, title, explanation, source, checks)
