"""Stable finding codes of the planner of the other networks (storage, in-band, out-of-band). Never rename one.

Severity, title, explanation and source of each code are in the one rule registry
(``engines.findings.registry``).
"""

from __future__ import annotations

from enum import StrEnum


class NetworkCode(StrEnum):
    CUSTOMER_SUPPLIED = "NETWORK_CUSTOMER_SUPPLIED"
    NO_ADAPTERS = "NETWORK_NO_ADAPTERS"
    CONVERGED = "NETWORK_CONVERGED"
    SINGLE_PORT = "NETWORK_SINGLE_PORT"
    NO_SWITCH = "NETWORK_NO_SWITCH"
    OOB_NOT_MANAGEMENT = "NETWORK_OOB_NOT_MANAGEMENT"
    OOB_EXTRA_SWITCHES = "NETWORK_OOB_EXTRA_SWITCHES"
    OOB_UPLINK_PORTS = "NETWORK_OOB_UPLINK_PORTS"
    MEDIA_NOT_CATALOGUED = "NETWORK_MEDIA_NOT_CATALOGUED"
    OOB_PLACEMENT = "NETWORK_OOB_PLACEMENT"
    INBAND_RATIO = "NETWORK_INBAND_RATIO"
    STORAGE_SYSTEM_PORTS = "NETWORK_STORAGE_SYSTEM_PORTS"
