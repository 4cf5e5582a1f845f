"""The rule registry: every stable finding code of the three engines (node rules, fabric and racks), with its severity,
title, short rationale (explanation), source and the checks that emit it.

The engines take a finding's severity from here (``finding``), never from the call site, so a code can never
change severity by accident. The rule catalogue page, the API and the docs list this registry. Titles and
explanations are English message ids, translated at the service edge (``messages``); nothing here
imports Django. Source keys such as [CX7-SPEC] are those of the shared hardware reference (reference/hardware.md
§6); "NCS seeds" are the distributor's own articles.

The entries live in one module per engine (node_rules, contents_rules, fabric_rules, rack_rules, network_rules)
and one for the rack-scale NVLink systems (rack_scale_rules); a code in two of them is refused.
"""

from __future__ import annotations

from collections import Counter

from . import cluster_rules, contents_rules, fabric_rules, network_rules, node_rules, rack_rules, rack_scale_rules
from .finding import Finding
from .params.base import Params
from .rule import Rule

_RULES = (
    *node_rules.RULES,
    *contents_rules.RULES,
    *fabric_rules.RULES,
    *rack_rules.RULES,
    *rack_scale_rules.RULES,
    *network_rules.RULES,
    *cluster_rules.RULES,
)
REGISTRY: dict[str, Rule] = {rule.code: rule for rule in _RULES}
if twice := sorted(code for code, n in Counter(rule.code for rule in _RULES).items() if n > 1):
    raise ValueError(f"rule codes registered twice: {', '.join(twice)}")


def finding(subject: str, params: Params) -> Finding:
    """A finding at ``subject`` with its code's parameter object (``engines.findings.params``, one class per code):
    the code is the object's, the severity the registry's."""
    code = str(params.CODE)
    return Finding(code=code, severity=REGISTRY[code].severity, subject=subject, params=params)
