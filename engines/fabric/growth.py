"""Two cabling lists of one cluster compared: which cables stay, which are re-terminated, which are added or
removed, and which devices stand in another rack or unit.

Pure Python: rows in (the cabling CSV's columns: ``read_cabling`` parses its text, ``row_fields`` reads a row of
fields by its columns' names), counts and lists out. Used to
measure how stable the planners are as a cluster grows (``bench/growth.py``) and to list the re-cabling of an
expansion.

Matching, in this order: a cable of the new list with the same two ends (device and port) as one of the old is
**kept**; of the rest, one that shares its A end with an old cable (a leaf's uplink port, a node's NIC) is that
cable **moved** (its Z end re-terminated), then one that shares its Z end likewise (its A end re-terminated); what
is left is **added** (new list only) or **removed** (old list only). A device (a cable end's device) is **moved**
when it appears in both lists at another rack or unit.

``minimum_moves`` is the fewest cables of a link class that any wiring must re-terminate: between a pair of
devices at most ``min(old links, new links)`` cables can stay, so the rest of the old links must move (or go).
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class CableRow(Protocol):
    """A row of the cabling CSV (``outputs.links.Link`` is one); rack and unit may be empty."""

    @property
    def a_end(self) -> str: ...
    @property
    def a_port(self) -> str: ...
    @property
    def z_end(self) -> str: ...
    @property
    def z_port(self) -> str: ...
    @property
    def link_class(self) -> str: ...
    @property
    def a_rack(self) -> str: ...
    @property
    def a_u(self) -> str: ...
    @property
    def z_rack(self) -> str: ...
    @property
    def z_u(self) -> str: ...


@dataclass(frozen=True)
class Cable:
    """One cabling row, as ``read_cabling`` reads it."""

    a_end: str
    a_port: str
    z_end: str
    z_port: str
    link_class: str
    a_rack: str = ""
    a_u: str = ""
    z_rack: str = ""
    z_u: str = ""


class Action(StrEnum):
    KEEP = "keep"
    MOVE = "move"
    ADD = "add"
    REMOVE = "remove"


@dataclass(frozen=True)
class Change:
    """One cable's action; ``old`` is None for an added cable, ``new`` None for a removed one."""

    action: Action
    link_class: str
    old: CableRow | None
    new: CableRow | None


@dataclass(frozen=True)
class Placement:
    """A device's place: rack and lowest unit (both as the cabling list writes them)."""

    rack: str
    unit: str


@dataclass(frozen=True)
class DeviceMove:
    device: str
    old: Placement
    new: Placement


@dataclass(frozen=True)
class CablingDelta:
    changes: tuple[Change, ...]

    def count(self, action: Action, link_class: str | None = None) -> int:
        """Cables with ``action`` (of ``link_class`` only, when given)."""
        return sum(1 for c in self.changes if c.action == action and (link_class is None or c.link_class == link_class))


# A cable's fields, in ``Cable``'s order: each a column of the cabling CSV.
CABLE_FIELDS = ("a_end", "a_port", "z_end", "z_port", "link_class", "a_rack", "a_u", "z_rack", "z_u")


def read_cabling(lines: Iterable[str]) -> list[Cable]:
    """The rows of a cabling CSV (header first; the rack columns when it has them)."""
    reader = csv.reader(iter(lines))
    fields = row_fields(next(reader, []), CABLE_FIELDS)
    return [Cable(*fields(r)) for r in reader if r]


def row_fields(columns: Sequence[str], names: Sequence[str]) -> Callable[[Sequence[str]], tuple[str, ...]]:
    """The reader of the fields ``names`` of a cabling row with these ``columns`` (the CSV's header, or the
    columns of outputs.links.cabling_table's rows): a column the list lacks, or a row lacks, is empty."""
    at = {name: i for i, name in enumerate(columns)}
    picks = [at.get(name, -1) for name in names]

    def fields(row: Sequence[str]) -> tuple[str, ...]:
        n = len(row)
        return tuple(row[i] if 0 <= i < n else "" for i in picks)

    return fields


def _ends(c: CableRow) -> tuple[str, str, str, str]:
    return c.a_end, c.a_port, c.z_end, c.z_port


def _a_end(c: CableRow) -> tuple[str, str]:
    return c.a_end, c.a_port


def _z_end(c: CableRow) -> tuple[str, str]:
    return c.z_end, c.z_port


def compare_cabling(old: Sequence[CableRow], new: Sequence[CableRow]) -> CablingDelta:
    """Every cable of both lists with its action (module docstring): the new list's order, removed cables last."""
    old_by_ends = {_ends(c): c for c in old}
    actions: list[Change | None] = []
    left_new: list[int] = []
    for i, c in enumerate(new):
        hit = old_by_ends.pop(_ends(c), None)
        actions.append(Change(Action.KEEP, c.link_class, hit, c) if hit is not None else None)
        if hit is None:
            left_new.append(i)
    left_old = list(old_by_ends.values())
    for side in (_a_end, _z_end):
        by_end = {side(c): c for c in left_old}
        still: list[int] = []
        for i in left_new:
            hit = by_end.pop(side(new[i]), None)
            if hit is None:
                still.append(i)
            else:
                actions[i] = Change(Action.MOVE, new[i].link_class, hit, new[i])
        left_new, left_old = still, list(by_end.values())
    for i in left_new:
        actions[i] = Change(Action.ADD, new[i].link_class, None, new[i])
    changes = [a for a in actions if a is not None]
    changes += [Change(Action.REMOVE, c.link_class, c, None) for c in left_old]
    return CablingDelta(tuple(changes))


def minimum_moves(old: Sequence[CableRow], new: Sequence[CableRow], link_class: str) -> int:
    """The fewest cables of ``link_class`` of the old list that any wiring of the new one re-terminates or
    removes: per pair of devices, the old links beyond the new list's links between them."""
    pairs_old = Counter((c.a_end, c.z_end) for c in old if c.link_class == link_class)
    pairs_new = Counter((c.a_end, c.z_end) for c in new if c.link_class == link_class)
    return sum(n - min(n, pairs_new.get(pair, 0)) for pair, n in pairs_old.items())


def placements(cables: Iterable[CableRow]) -> dict[str, Placement]:
    """Every device at either end of the cables, with its rack and unit (devices without a rack are left out)."""
    out: dict[str, Placement] = {}
    for c in cables:
        if c.a_rack:
            out.setdefault(c.a_end, Placement(c.a_rack, c.a_u))
        if c.z_rack:
            out.setdefault(c.z_end, Placement(c.z_rack, c.z_u))
    return out


def moved_devices(old: Iterable[CableRow], new: Iterable[CableRow]) -> list[DeviceMove]:
    """The devices of the old list that stand at another rack or unit in the new one (old list's order)."""
    before, after = placements(old), placements(new)
    return [
        DeviceMove(name, place, after[name]) for name, place in before.items() if name in after and after[name] != place
    ]
