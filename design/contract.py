"""The design/v1 contract's vocabulary and limits (docs/design-v1.md), one set for every door.

Every door reads the same words with the same limits from here: ``POST /api/v1/designs/validate/`` and the
``validate_design`` command, ``POST /api/v1/fabric-plans/`` and ``plan_fabric`` (all through the typed model in
design.model, which is the parser and the OpenAPI schema), and the wizard's forms (web/forms.py).

Limits of the rack model, one set for all doors:

- ``nodes_per_rack``: a whole number from 1 to ``MAX_NODES_PER_RACK`` (1,000: no rack holds more servers).
- distances (``RACK_DISTANCE_FIELDS``): any positive number of metres up to ``MAX_DISTANCE_M`` (10,000 m). A run
  shorter than the shortest cable is still a run (the fabric plan picks the shortest cable that covers it), so
  there is no floor above zero; beyond 10 km is a unit slip, not a data-centre cable run: that is twenty times
  the longest reach of any medium in the catalogue (500 m), and distances between a medium's reach and this cap
  come back as reach findings that name the link, not as refusals.

Other limits, the same at every door: a name (the design's, a node group's) holds at most ``MAX_NAME_LENGTH``
characters (200, the configuration's own name); each side of an oversubscription ``d:u`` is at most
``MAX_OVERSUBSCRIPTION`` (1,000: a leaf has no more ports than that to share out); and a ``facility`` object
takes only ``FACILITY_FIELDS``, so a typo such as ``rack_power_kW`` is refused, naming it, rather than ignored.
Bounded work per document: a design holds at most ``MAX_NODE_GROUPS`` node groups of at most
``MAX_COMPONENTS_PER_GROUP`` components each, refused (with the limit named) before the groups are read.

Pure Python: below the engines, above the hardware vocabulary. Messages are English (DesignInputError's);
the wizard's forms say the same in the user's language.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any

from design.vocabulary import Cooling, Role

__all__ = [
    "COOLING_TYPES",
    "Cooling",
    "DEFAULT_PDU_FEEDS",
    "DEFAULT_RACK_UNITS",
    "DEFAULT_TOPOLOGY",
    "FACILITY_FIELDS",
    "SUPPLIED_ITEMS",
    "MAX_COMPONENTS_PER_GROUP",
    "MAX_CONCURRENCY",
    "MAX_CONTEXT_TOKENS",
    "MAX_DISTANCE_M",
    "MAX_ENDPOINTS",
    "MAX_NAME_LENGTH",
    "MAX_NODES",
    "MAX_NODE_GROUPS",
    "MAX_NODES_PER_RACK",
    "MAX_OVERSUBSCRIPTION",
    "MAX_PARAMS_BILLION",
    "MAX_PORTS_USED",
    "MAX_QUANTITY",
    "MAX_RACK_POWER_KW",
    "MAX_RACK_UNITS",
    "MAX_SUPPORT_YEARS",
    "MAX_SYSTEM_PORTS",
    "MAX_TARGET_DAYS",
    "MAX_TRAINING_TOKENS_BILLION",
    "MIN_RACK_UNITS",
    "NETWORK_KEYS",
    "OOB_PLACEMENTS",
    "PDU_FEEDS",
    "PduFeeds",
    "RACK_DISTANCE_FIELDS",
    "RACK_FIELDS",
    "ROLES",
    "Role",
    "TOPOLOGIES",
    "Topology",
    "WORKLOAD_KINDS",
    "oversubscription_beyond_limit",
    "parse_oversubscription",
    "ratio_term",
    "type_name",
]


class Topology(StrEnum):
    RAIL_OPTIMIZED = "rail-optimized"
    FAT_TREE = "fat-tree"


class PduFeeds(StrEnum):
    A = "A"  # one feed
    A_B = "A+B"  # two independent feeds, each carrying the rack


TOPOLOGIES: tuple[str, ...] = tuple(Topology)
DEFAULT_TOPOLOGY = Topology.RAIL_OPTIMIZED.value
ROLES: tuple[str, ...] = tuple(Role)  # components[].role
COOLING_TYPES: tuple[str, ...] = tuple(Cooling)
PDU_FEEDS: tuple[str, ...] = tuple(PduFeeds)
DEFAULT_PDU_FEEDS = PduFeeds.A_B.value

# fabric.rack (design) and rack (fabric-plan request): the rack-model overrides
RACK_DISTANCE_FIELDS = ("in_rack_m", "node_to_leaf_m", "leaf_to_spine_m", "spine_to_core_m")
RACK_FIELDS = ("nodes_per_rack", *RACK_DISTANCE_FIELDS)
MAX_NODES_PER_RACK = 1_000
MAX_DISTANCE_M = 10_000

# facility: the rack planner (engines.racks) draws every unit, so a rack has a bound
MIN_RACK_UNITS, MAX_RACK_UNITS = 1, 60
DEFAULT_RACK_UNITS = 42
MAX_RACK_POWER_KW = 1_000
FACILITY_FIELDS = ("rack_units", "rack_power_kw", "cooling", "pdu_feeds", "supplied")
# facility.supplied: what the site already has, which the offer then leaves out (racks; PDUs and node power cords;
# the out-of-band management network; the control plane's head and management nodes)
SUPPLIED_ITEMS = ("racks", "power", "oob", "control_plane")

MAX_NAME_LENGTH = 200  # Configuration.name's own length; a design name becomes the configuration's name
MAX_OVERSUBSCRIPTION = 1_000  # each side of d:u

MAX_NODES = 100_000  # "absurd size": no quote covers more nodes than this, in one group or all together
# Bounded work per document: a document is refused (with the limit named) before its groups are read, rather than
# let 60,000 groups be checked. Real clusters use a handful of groups (compute, storage, management) and a dozen
# kinds of parts per server.
MAX_NODE_GROUPS = 100
MAX_COMPONENTS_PER_GROUP = 64
MAX_QUANTITY = 1_000  # per node; no server holds more parts of one kind
MAX_PORTS_USED = 16  # per adapter; the catalogue's port count is the real bound (engines.intake.references)

# workload
WORKLOAD_KINDS = ("training", "inference")
MAX_PARAMS_BILLION = 100_000
MAX_CONTEXT_TOKENS = 10_000_000
MAX_CONCURRENCY = 1_000_000
MAX_TRAINING_TOKENS_BILLION = 1_000_000  # training only: tokens the run trains on, in billions
MAX_TARGET_DAYS = 3_650  # training only: the days the run should take (ten years)

# networks (design/v1 round 3): the storage, in-band management and out-of-band networks besides the fabric
NETWORK_KEYS = ("storage", "inband", "oob")
MAX_SYSTEM_PORTS = 100_000  # storage: switch ports the customer's storage systems need
# oob: where the out-of-band switches stand: in management racks (central, as the DGX SuperPOD RA racks them) or
# one in each rack; absent: the service's default for the design's density (engines.networks.plan)
OOB_PLACEMENTS = ("central", "per-rack")

# services (optional): the commercial lines the offer carries, each declinable; the defaults a professional buyer
# expects (three years of hardware support, installation, NVIDIA AI Enterprise)
SERVICE_KEYS = ("support_years", "installation", "ai_enterprise")
MAX_SUPPORT_YEARS = 5
DEFAULT_SUPPORT_YEARS = 3

# Fabric plan requests: nodes x rails at most; far beyond any 3-tier fabric, it bounds the work a request may ask.
MAX_ENDPOINTS = 1_000_000

_OVERSUB = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*$")


def type_name(value: Any) -> str:
    """The JSON type of a value, as an error message names it ("a string", "null")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def parse_oversubscription(value: Any) -> tuple[int, int]:
    """'d:u' with d >= u >= 1 (1:1 non-blocking, 2:1 ...). Raises ValueError with the reason."""
    if not isinstance(value, str):
        raise ValueError("must be a string such as '1:1' or '2:1'")
    match = _OVERSUB.match(value)
    if not match:
        raise ValueError(f"'{value}' is not of the form downlinks:uplinks, such as '1:1' or '2:1'")
    down, up = ratio_term(match.group(1)), ratio_term(match.group(2))
    if down < 1 or up < 1:
        raise ValueError(f"'{value}': both sides must be at least 1")
    if down < up:
        raise ValueError(f"'{value}': a leaf cannot have more uplinks than downlinks; use 1:1 or d:u with d > u")
    if message := oversubscription_beyond_limit(value, down, up):
        raise ValueError(message)
    return down, up


def ratio_term(digits: str) -> int:
    """One side of ``d:u`` as a number; beyond nine digits it stands for "more than the limit", so a side of
    thousands of digits is never converted (Python refuses to, past 4,300)."""
    significant = digits.lstrip("0")
    return int(significant or "0") if len(significant) <= 9 else MAX_OVERSUBSCRIPTION + 1


def oversubscription_beyond_limit(value: str, down: int, up: int) -> str | None:
    """Why ``down:up`` is no oversubscription a fabric can have (a side above MAX_OVERSUBSCRIPTION), or None."""
    if max(down, up) <= MAX_OVERSUBSCRIPTION:
        return None
    shown = value if len(value) <= 40 else value[:40] + "…"
    return (
        f"'{shown}' is an absurd ratio; each side may be at most {MAX_OVERSUBSCRIPTION:,} "
        "(1:1, 2:1 and 3:1 are the usual ones)"
    )


# The sections of the validation result's bill of materials (``bom[].section``), in the order every door shows
# them (design/v1 "Additions, round 3"): stable keys.
BILL_SECTIONS = ("nodes", "compute_fabric", "storage", "inband", "oob", "racks_power", "control_plane", "services")
