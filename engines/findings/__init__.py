"""Findings, the base the three engines share: what a rule says about a design, as a stable code, a severity, a
subject and its code's typed parameters, and the one rule registry that gives every code its severity, title,
rationale and source.

Pure Python, below the node rules (``engines.node``), the fabric planner (``engines.fabric``) and the rack planner
(``engines.racks``), which all import it; it imports no engine and nothing of Django.

* ``finding.py``: ``Finding``, ``Severity``, ``SEVERITY_ORDER``
* ``codes.py``: ``Code``, the node rules' codes; ``fabric_codes.py``: ``FabricCode``, the fabric planner's codes;
  ``rack_codes.py``: ``RackCode``, the rack planner's codes; ``cluster_codes.py``: ``ClusterCode``, the control
  plane's and the services' codes
* ``params/``: one parameter class per code (``Params``), one module per message module of the service edge
* ``registry.py``: ``REGISTRY``, ``Rule`` and ``finding(subject, params)`` (code from the parameter class, severity
  from the registry);
  the entries in ``node_rules.py``, ``contents_rules.py``, ``fabric_rules.py`` and ``rack_rules.py``
"""

from .cluster_codes import ClusterCode
from .codes import Code
from .fabric_codes import FabricCode
from .finding import SEVERITY_ORDER, Finding, Severity
from .lifecycle import retired_finding
from .rack_codes import RackCode
from .registry import REGISTRY, finding
from .rule import Rule

__all__ = [
    "REGISTRY",
    "SEVERITY_ORDER",
    "ClusterCode",
    "Code",
    "FabricCode",
    "Finding",
    "RackCode",
    "Rule",
    "Severity",
    "finding",
    "retired_finding",
]
