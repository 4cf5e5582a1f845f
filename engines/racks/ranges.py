"""The written rack plan by distinct racks: each distinct rack content once, with the names of its racks as ranges.

A plan's racks come down to a handful of contents (a 100,000-node plan's 51,693 racks to 6), so ``rack_plan.racks``
lists each content once, where it used to list each run of identical racks (3,132 entries at that size), and
``rows[].racks`` names a row's racks as ranges, where it used to name every one. Plain dicts in, plain dicts out:
``model.RackPlan.to_dict`` and ``from_dict`` call these, so the physical model itself still keeps every rack.

Name ranges: ``"R01-01..R01-33"`` is every name from the first to the last whose trailing number counts up by one
in the same width (``R01-01``, ``R01-02``, ... ``R01-33``); a single name stands for itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields
from functools import lru_cache
from operator import attrgetter
from typing import Any

from design.jsontext import JsonObject

RANGE = ".."
_NUMBERED = re.compile(r"^(.*?)(\d+)$")

# What places a range of racks, as opposed to what the racks hold (the distinct content's own fields).
PLACE_KEYS = ("first_node", "row", "slot")


def name_ranges(names: Sequence[str]) -> list[str]:
    """``names`` with each run of consecutively numbered names (same prefix, same width) written as one range."""
    whole = _one_range(names)
    if whole is not None:
        return whole
    out: list[str] = []
    start = prev = None  # the open run's first name and (prefix, number, width) of its last
    for name in names:
        m = _NUMBERED.match(name)
        here = (m.group(1), int(m.group(2)), len(m.group(2))) if m else None
        if prev is not None and here is not None and (here[0], here[1] - 1, here[2]) == prev and start is not None:
            out[-1] = f"{start}{RANGE}{name}"
            prev = here
            continue
        out.append(name)
        start, prev = name, here
    return out


def _one_range(names: Sequence[str]) -> list[str] | None:
    """The names as one range when they are one (a row as the planner names it), checked by whole-tuple comparison
    rather than a pattern match per name; None otherwise."""
    if len(names) < 2:
        return None
    m = _NUMBERED.match(names[0])
    if m is None:
        return None
    prefix, digits = m.group(1), m.group(2)
    if int(digits) + len(names) > 10 ** len(digits):  # the numbers outgrow their width (R01-99, R01-100): no range
        return None
    if tuple(map(prefix.__add__, _numbers(int(digits), len(names), len(digits)))) != tuple(names):
        return None
    return [f"{names[0]}{RANGE}{names[-1]}"]


@lru_cache(maxsize=64)
def _numbers(first: int, count: int, width: int) -> tuple[str, ...]:
    return tuple(f"{n:0{width}d}" for n in range(first, first + count))


def expand_names(items: Iterable[str]) -> list[str]:
    """Every name of ``name_ranges`` output (or of a plain list of names, as results stored before ranges)."""
    out: list[str] = []
    for item in items:
        first, sep, last = item.partition(RANGE)
        a, b = _NUMBERED.match(first), _NUMBERED.match(last)
        if not sep or a is None or b is None or a.group(1) != b.group(1) or len(a.group(2)) != len(b.group(2)):
            out.append(item)  # a name of its own (a name that happens to hold ".." included)
            continue
        prefix, width = a.group(1), len(a.group(2))
        out += [f"{prefix}{n:0{width}d}" for n in range(int(a.group(2)), int(b.group(2)) + 1)]
    return out


def distinct_racks(merged: Sequence[tuple[Any, int, str, tuple[Any, ...]]]) -> list[JsonObject]:
    """``rack_plan.racks`` from the plan's runs of identical racks in plan order (``model.merged_runs``: first rack,
    count, last name, written lines): one entry per distinct content, in the order each first appears, written
    once, with ``ranges`` (the runs holding it, in plan order: ``first`` and ``last`` name, ``count``, and the
    ``row``, ``slot`` and ``first_node`` of the first rack).

    The entry keeps the fields an entry had: ``name``, ``row``, ``slot`` and ``first_node`` are its first rack's,
    ``last_name`` its last rack's and ``count`` every rack holding it, so sums over ``count`` still count every rack.
    Contents compare by every field of the rack but its name and place, and by its lines as written (identical
    racks share one written list, so each list is written to text once)."""
    texts: dict[int, tuple[Any, str]] = {}  # by the written list's identity (the list kept alive with it)
    by_content: dict[tuple[Any, ...], JsonObject] = {}
    out: list[JsonObject] = []
    for rack, count, last, lines in merged:
        key = _content_of(rack)(rack)
        for written in lines:
            text = texts.get(id(written))
            if text is None:
                text = texts[id(written)] = (written, json.dumps(written, sort_keys=True))
            key += (text[1],)
        run = {
            "first": rack.name,
            "last": last,
            "count": count,
            "row": rack.row,
            "slot": rack.slot,
            "first_node": rack.first_node,
        }
        found = by_content.get(key)
        if found is None:
            found = by_content[key] = {"name": rack.name, "count": count, "last_name": last, **rack.to_dict(*lines)}
            found["ranges"] = [run]
            out.append(found)
            continue
        found["count"] += count
        found["last_name"] = last
        found["ranges"].append(run)
    return out


_CONTENT: dict[type, Callable[[Any], tuple[Any, ...]]] = {}
_NOT_CONTENT = frozenset({"name", "row", "slot", "first_node", "devices", "pdus", "cords"})


def _content_of(rack: Any) -> Callable[[Any], tuple[Any, ...]]:
    """What a rack holds: its fields but its name, place, first node and lines (compared as written), read by one
    ``attrgetter`` made once per rack type."""
    get = _CONTENT.get(type(rack))
    if get is None:
        get = _CONTENT[type(rack)] = attrgetter(*(f.name for f in fields(rack) if f.name not in _NOT_CONTENT))
    return get


def runs_in_order(entries: Sequence[JsonObject]) -> list[JsonObject]:
    """The runs of identical racks in plan order (row by row, slot by slot) from ``rack_plan.racks``: each range of
    a distinct entry as an entry of its own, as ``model.rack_entries`` wrote them. Entries without ``ranges`` (a
    result stored before distinct racks: runs in plan order already, or one rack each) are returned as they are."""
    if not any("ranges" in e for e in entries):
        return list(entries)
    runs: list[JsonObject] = []
    for e in entries:
        for r in e.get("ranges") or [_range_of(e)]:
            runs.append(
                {
                    **e,
                    "name": r["first"],
                    "last_name": r["last"],
                    "count": r["count"],
                    "row": r["row"],
                    "slot": r["slot"],
                    "first_node": r.get("first_node", 0),
                }
            )
    runs.sort(key=lambda run: (run["row"], run["slot"]))
    return runs


def _range_of(entry: JsonObject) -> JsonObject:
    return {
        "first": entry["name"],
        "last": entry.get("last_name", entry["name"]),
        "count": entry.get("count", 1),
        "row": entry["row"],
        "slot": entry["slot"],
        "first_node": entry.get("first_node", 0),
    }
