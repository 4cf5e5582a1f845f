"""The fabric's rack model: how many nodes share a rack and how long each run is (README "Rack model"). Every
default is documented and can be overridden per request through ``RackIn``."""

from __future__ import annotations

from design.model import RackIn

RACK_U = 42
RACK_RESERVED_U = 4  # PDUs, patch panel and the out-of-band switch
RACK_POWER_W = 60_000
DEFAULT_NODES_PER_RACK = 4  # four 8U HGX nodes of <= 14 kW in a 42U rack at ~56 kW
IN_RACK_M = 2.0
NODE_TO_LEAF_M = 15.0
LEAF_TO_SPINE_M = 30.0
SPINE_TO_CORE_M = 50.0


def nodes_per_rack(rack: RackIn | None, node_height_u: int | None, node_power_w: int | None) -> int:
    """Nodes in one rack: the override, else what height and power allow, else 4 (README "Rack model")."""
    if rack is not None and rack.nodes_per_rack:
        return rack.nodes_per_rack
    if node_height_u is None and node_power_w is None:
        return DEFAULT_NODES_PER_RACK
    by_u = (RACK_U - RACK_RESERVED_U) // node_height_u if node_height_u else DEFAULT_NODES_PER_RACK * 8
    by_w = RACK_POWER_W // node_power_w if node_power_w else DEFAULT_NODES_PER_RACK * 8
    return max(1, min(by_u, by_w))


DISTANCE_FIELDS = ("in_rack_m", "node_to_leaf_m", "leaf_to_spine_m", "spine_to_core_m")
IN_RACK_PLAUSIBLE_M = 5.0  # a 42U rack is about 2 m tall: a run inside one rack is a few metres at most
ROW_PLAUSIBLE_M = 1_000.0  # runs between the rows of one site; kilometres are a typo (mm or cm) or another site


def given_distances(rack: RackIn | None) -> frozenset[str]:
    """The distance fields a rack input sets."""
    if rack is None:
        return frozenset()
    return frozenset(name for name in DISTANCE_FIELDS if getattr(rack, name, None) is not None)


def distance(rack: RackIn | None, name: str, default: float) -> float:
    value = getattr(rack, name, None) if rack is not None else None
    return float(value) if value is not None else default
