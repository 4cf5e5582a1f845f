"""Stable finding codes of the control plane and the services (engines.cluster.control_plane). Never rename one.

Severity, title, explanation and source of each code are in the one rule registry
(``engines.findings.registry``).
"""

from __future__ import annotations

from enum import StrEnum


class ClusterCode(StrEnum):
    CONTROL_PLANE_ADDED = "CONTROL_PLANE_ADDED"
    CONTROL_PLANE_UFM = "CONTROL_PLANE_UFM"
    SERVICES_DECLINED = "SERVICES_DECLINED"
    SERVICES_ON_REQUEST = "SERVICES_ON_REQUEST"
    OFFER_LEFT_OUT = "OFFER_LEFT_OUT"


class ExpansionCode(StrEnum):
    """What the growth of an installed cluster crosses (engines.cluster.expansion)."""

    NEW_TIER = "EXPANSION_NEW_TIER"
    UNIT_BOUNDARY = "EXPANSION_UNIT_BOUNDARY"
    RACK_POWER = "EXPANSION_RACK_POWER"
    DEVICES_MOVED = "EXPANSION_DEVICES_MOVED"
    STORAGE_SYSTEMS_KEPT = "EXPANSION_STORAGE_SYSTEMS_KEPT"
    NETWORK_TIER = "EXPANSION_NETWORK_TIER"
