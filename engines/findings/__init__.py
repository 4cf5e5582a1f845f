"""Findings, the base both engines share: what a rule says about a design, as a stable code, a severity, a subject
and plain parameters, and the one rule registry that gives every code its severity, title, rationale and source.

Pure Python, below the node rules (``engines.node``) and the fabric planner (``engines.fabric``), which
both import it; it imports neither engine nor Django.

* ``finding.py``: ``Finding``, ``Severity``, ``SEVERITY_ORDER``
* ``codes.py``: ``Code``, the node rules' codes; ``fabric_codes.py``: ``FabricCode``, the fabric planner's codes
* ``registry.py``: ``REGISTRY``, ``Rule`` and ``finding(code, subject, **params)``
"""

from .codes import Code
from .fabric_codes import FabricCode
from .finding import SEVERITY_ORDER, Finding, Severity
from .lifecycle import retired_finding
from .registry import REGISTRY, Rule, finding

__all__ = [
    "REGISTRY",
    "SEVERITY_ORDER",
    "Code",
    "FabricCode",
    "Finding",
    "Rule",
    "Severity",
    "finding",
    "retired_finding",
]
