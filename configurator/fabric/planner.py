"""The fabric planner's public names, kept at this import path: the planner is ``plan.py`` (with ``sizing.py``,
``rack_model.py``, ``findings.py`` and ``model.py``)."""

from .findings import protocol_finding, speed_finding
from .model import LEAF_SPINE, NODE_LEAF, SPINE_CORE, FabricPlan, LinkPlan
from .plan import plan_fabric
from .rack_model import nodes_per_rack
from .sizing import balanced_uppers, size_fabric

__all__ = [
    "LEAF_SPINE",
    "NODE_LEAF",
    "SPINE_CORE",
    "FabricPlan",
    "LinkPlan",
    "balanced_uppers",
    "nodes_per_rack",
    "plan_fabric",
    "protocol_finding",
    "size_fabric",
    "speed_finding",
]
