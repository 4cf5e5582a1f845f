"""The design/v1 contract's shared vocabulary and sub-parsers (``../shared/contracts/design-v1.md``).

Every door reads the same words with the same limits from here: ``POST /api/v1/designs/validate/`` and the
``validate_design`` command (design.parse), ``POST /api/v1/fabric-plans/`` and ``plan_fabric``
(engines.fabric.request), the wizard's forms (web/forms.py) and the OpenAPI schema
(api/serializers/designs.py). A ``rack`` or ``facility`` object gets the same answer at every door.

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

Pure Python: below the engines, above the hardware vocabulary. Messages are English (DesignInputError's);
the wizard's forms say the same in the user's language.
"""

from __future__ import annotations

import math
import re
from enum import StrEnum
from typing import Any, cast

from design.vocabulary import Cooling, Role

__all__ = [
    "COOLING_TYPES",
    "Checker",
    "Cooling",
    "DEFAULT_PDU_FEEDS",
    "DEFAULT_RACK_UNITS",
    "DEFAULT_TOPOLOGY",
    "FACILITY_FIELDS",
    "MAX_DISTANCE_M",
    "MAX_NAME_LENGTH",
    "MAX_NODES_PER_RACK",
    "MAX_OVERSUBSCRIPTION",
    "MAX_RACK_POWER_KW",
    "MAX_RACK_UNITS",
    "MIN_RACK_UNITS",
    "PDU_FEEDS",
    "PduFeeds",
    "RACK_DISTANCE_FIELDS",
    "RACK_FIELDS",
    "ROLES",
    "Role",
    "TOPOLOGIES",
    "Topology",
    "facility_values",
    "oversubscription_beyond_limit",
    "parse_oversubscription",
    "rack_values",
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
FACILITY_FIELDS = ("rack_units", "rack_power_kw", "cooling", "pdu_feeds")

MAX_NAME_LENGTH = 200  # Configuration.name's own length; a design name becomes the configuration's name
MAX_OVERSUBSCRIPTION = 1_000  # each side of d:u

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


class Checker:
    """Collects errors by field path while reading a document; the first error of a path wins.

    ``errors`` may be a dict the caller already fills, so a door with its own top-level fields and the shared
    sub-parsers report into one answer.
    """

    def __init__(self, errors: dict[str, str] | None = None) -> None:
        self.errors: dict[str, str] = {} if errors is None else errors

    def fail(self, path: str, message: str) -> None:
        self.errors.setdefault(path, message)

    def string(
        self,
        obj: dict[str, Any],
        key: str,
        path: str,
        *,
        required: bool,
        default: str | None = None,
        max_length: int | None = None,
    ) -> str | None:
        if key not in obj or obj[key] is None:
            if required:
                self.fail(path, "is required")
            return default
        value = obj[key]
        if not isinstance(value, str):
            self.fail(path, f"must be a string, not {type_name(value)}")
            return default
        if required and not value.strip():
            self.fail(path, "must not be empty")
            return default
        if max_length is not None and len(value) > max_length:
            self.fail(path, f"is {len(value):,} characters long; the most this tool accepts is {max_length:,}")
            return default
        return value

    def choice(
        self,
        obj: dict[str, Any],
        key: str,
        path: str,
        choices: tuple[str, ...],
        *,
        required: bool = False,
        default: str | None = None,
    ) -> str | None:
        value = self.string(obj, key, path, required=required, default=default)
        if value is not None and value != default and value not in choices:
            self.fail(path, f"must be one of {', '.join(choices)}, not {value!r}")
            return default
        return value

    def integer(
        self, obj: dict[str, Any], key: str, path: str, *, required: bool, low: int, high: int, what: str = ""
    ) -> int | None:
        if key not in obj or obj[key] is None:
            if required:
                self.fail(path, "is required")
            return None
        value = obj[key]
        # bool is an int in Python but not in JSON; a float such as 2.0 is not a count either.
        if isinstance(value, bool) or not isinstance(value, int):
            shown = value if isinstance(value, float) else type_name(value)
            self.fail(path, f"must be a whole number, not {shown}")
            return None
        if value < low:
            self.fail(path, f"must be at least {low}, not {value}")
            return None
        if value > high:
            self.fail(path, f"{value} is an absurd size{what}; the most this tool accepts is {high:,}")
            return None
        return cast(int, value)  # checked above: a whole number, not a bool

    def number(self, obj: dict[str, Any], key: str, path: str, *, required: bool, high: float) -> float | None:
        """A positive finite number no larger than ``high``."""
        if key not in obj or obj[key] is None:
            if required:
                self.fail(path, "is required")
            return None
        value = obj[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.fail(path, f"must be a number, not {type_name(value)}")
            return None
        if not math.isfinite(value) or value <= 0:
            self.fail(path, f"must be a positive number, not {value}")
            return None
        if value > high:
            self.fail(path, f"{value} is an absurd size; the most this tool accepts is {high:,}")
            return None
        return float(value)

    def obj(self, value: Any, path: str) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            self.fail(path, f"must be an object, not {type_name(value)}")
            return None
        return value

    def unknown_fields(self, obj: dict[str, Any], allowed: tuple[str, ...], prefix: str = "") -> None:
        """Refuse keys outside ``allowed`` (the fabric-plan request's rule and the facility's; a design ignores
        other extra keys, so the contract can grow optional fields)."""
        for key in obj:
            if key not in allowed:
                same = [name for name in allowed if name.lower() == str(key).lower()]
                hint = f"; did you mean {same[0]}?" if same else ""
                self.fail(f"{prefix}{key}", f"unknown field; expected one of {', '.join(allowed)}{hint}")


def rack_values(c: Checker, raw: Any, path: str) -> dict[str, Any]:
    """The rack-model overrides at ``path`` as keyword values of a RackIn (only the ones given and valid)."""
    if raw is None:
        return {}
    r = c.obj(raw, path)
    if r is None:
        return {}
    values: dict[str, Any] = {
        "nodes_per_rack": c.integer(
            r,
            "nodes_per_rack",
            f"{path}.nodes_per_rack",
            required=False,
            low=1,
            high=MAX_NODES_PER_RACK,
            what=" for one rack",
        )
    }
    for key in RACK_DISTANCE_FIELDS:
        values[key] = c.number(r, key, f"{path}.{key}", required=False, high=MAX_DISTANCE_M)
    return {key: value for key, value in values.items() if value is not None}


def facility_values(c: Checker, raw: Any, path: str = "facility") -> dict[str, Any]:
    """The optional ``facility`` as keyword values of a FacilityIn: rack units (default 42), the most one rack
    may draw (kW), air or liquid cooling, and the PDU feeds (A, or A+B for two independent feeds)."""
    if raw is None:
        return {}
    f = c.obj(raw, path)
    if f is None:
        return {}
    c.unknown_fields(f, FACILITY_FIELDS, prefix=f"{path}.")
    units = c.integer(
        f,
        "rack_units",
        f"{path}.rack_units",
        required=False,
        low=MIN_RACK_UNITS,
        high=MAX_RACK_UNITS,
        what=" for a rack",
    )
    return {
        "rack_units": units or DEFAULT_RACK_UNITS,
        "rack_power_kw": c.number(f, "rack_power_kw", f"{path}.rack_power_kw", required=False, high=MAX_RACK_POWER_KW),
        "cooling": c.choice(f, "cooling", f"{path}.cooling", COOLING_TYPES),
        "pdu_feeds": c.choice(f, "pdu_feeds", f"{path}.pdu_feeds", PDU_FEEDS, default=DEFAULT_PDU_FEEDS)
        or DEFAULT_PDU_FEEDS,
    }


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


# Fabric plan requests: nodes x rails at most; far beyond any 3-tier fabric, it bounds the work a request may ask.
MAX_ENDPOINTS = 1_000_000


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
