"""Stable finding codes of the rack planner. Codes are stable; never rename one.

Severity, title, explanation and source of each code are in the one rule registry
(``engines.findings.registry``).
"""

from __future__ import annotations

from enum import StrEnum


class RackCode(StrEnum):
    POWER_DEFAULT = "RACK_POWER_DEFAULT"
    COOLING_DEFAULT = "RACK_COOLING_DEFAULT"
    NODE_TOO_TALL = "RACK_NODE_TOO_TALL"
    NODE_OVER_POWER = "RACK_NODE_OVER_POWER"
    NODE_POWER_UNKNOWN = "RACK_NODE_POWER_UNKNOWN"
    SWITCH_POWER_UNKNOWN = "RACK_SWITCH_POWER_UNKNOWN"
    SWITCH_HEIGHT_UNKNOWN = "RACK_SWITCH_HEIGHT_UNKNOWN"
    AIR_DENSITY = "RACK_AIR_DENSITY"
    LIQUID_NODE_IN_AIR = "RACK_LIQUID_NODE_IN_AIR"
    NO_PDU = "RACK_NO_PDU"
    PDU_KNOWN_LOAD_ONLY = "RACK_PDU_KNOWN_LOAD_ONLY"
    PDU_OUTLETS_UNKNOWN = "RACK_PDU_OUTLETS_UNKNOWN"
    NO_MANAGEMENT_SWITCH = "RACK_NO_MANAGEMENT_SWITCH"
    MANAGEMENT_SWITCH_COUNT = "RACK_MANAGEMENT_SWITCH_COUNT"
    NODE_INLET_UNKNOWN = "RACK_NODE_INLET_UNKNOWN"
    NODE_HEIGHT_UNKNOWN = "RACK_NODE_HEIGHT_UNKNOWN"  # raised at the service edge: the server's height is unknown
    PDU_OVER_CONTINUOUS = "RACK_PDU_OVER_CONTINUOUS"  # a PDU carries more than 80 % of its rating
    PDU_BUSBAR = "RACK_PDU_BUSBAR"  # no PDU that fits the rack's zero-U positions carries its load
    CORD_OVER_RATING = "RACK_CORD_OVER_RATING"  # a power supply draws more than the PDU outlet and its cord carry
    SYSTEM_HALL_POWER = "RACK_SYSTEM_HALL_POWER"  # no rack power given: a rack-scale system at its own power
    SERVER_SIZE_ASSUMED = "RACK_SERVER_SIZE_ASSUMED"  # control-plane servers and UFM appliances have no catalogue part
