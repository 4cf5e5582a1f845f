"""The rule registry: every stable finding code of both engines (node rules and fabric), with its severity,
title, short rationale (explanation), source and the checks that emit it.

The engines take a finding's severity from here (``finding``), never from the call site, so a code can never
change severity by accident. The rule catalogue page, the API and the docs list this registry. Titles and
explanations are English message ids, translated at the service edge (``configurator.messages``); nothing here
imports Django. Source keys such as [CX7-SPEC] are those of the shared hardware reference (reference/hardware.md
§6); "NCS seeds" are the distributor's own articles.

The entries live in one module per engine (node_rules, contents_rules, fabric_rules, rack_rules), in the order the
rule catalogue lists them.
"""

from __future__ import annotations

from . import contents_rules, fabric_rules, node_rules, rack_rules
from .codes import Code
from .fabric_codes import FabricCode
from .finding import Finding
from .rule import Rule

REGISTRY: dict[str, Rule] = {
    rule.code: rule for rule in (*node_rules.RULES, *contents_rules.RULES, *fabric_rules.RULES, *rack_rules.RULES)
}


def finding(code: Code | FabricCode | str, subject: str, **params: object) -> Finding:
    """A finding whose severity comes from the registry. ``params`` are plain values (numbers, part numbers,
    enum values, lists) from which the service edge renders the message and the fix."""
    return Finding(code=str(code), severity=REGISTRY[str(code)].severity, subject=subject, params=params)
