"""Choosing the cable or optics for one link class (node-leaf, leaf-spine, spine-core).

Side A is always the lower switch of the link (the leaf for node links, the leaf for leaf-spine, the spine
for spine-core); side B is the HCA or the upper switch. A *plug* is one connector in one cage or card port.
A switch plug in a twin-port OSFP cage serves 2 logical ports, and with split ports (NDR200 on NDR) 2 x split
links. Every option is costed per link and the cheapest one that fits both sides and reaches wins.

Facts come from the catalogue's MediaSpec rows, never from part numbers: connectors, top, twin, legs, speed
per leg, length (cables, fibres) and reach (transceivers). Conventions (see README):

* a discontinued or end-of-life part is chosen only when no active option reaches;
* plug tops (flat, finned) must match where both are known; a top unknown at either end is an assumed fit,
  ranked after known fits and reported (``MediaChoice.unknown_tops``), never a silent choice;

* a cable's or fibre's end with ``legs`` > 1 is a splitter end: one plug per leg;
* a transceiver's electrical end is the one whose connector is not optical (MPO-12, LC);
* an adapter's QSFP112 cage (ConnectX-7, BlueField-3) takes QSFP56 and QSFP28 plugs too, the card downshifting to
  their line rate (NV-LX-OV: "QSFP112 cages in ConnectX-7 adapters and BlueField-3 DPUs are backwards compatible and
  support QSFP56 200G ... and QSFP28 100G"); no such rule is sourced for switch cages, so they take their own only;
* every end's ``speed_gbps`` must be at least the link speed (a 400G optic runs NDR200 in 200G mode), and at most
  the port speed of the switch cage it plugs into (``Side.port_gbps``): an 800G XDR plug (200G-PAM4 lanes) does
  not run in a 400G NDR cage, since "200G-PAM4-based transceivers cannot downshift to 100G-PAM4" (NV-XDR-LX);
* the two transceivers of an optic set have optical ports of the same speed (an XDR optic never links to a 400G
  NDR optic, for the same reason);
* fixed-length parts: the shortest length >= distance + SLACK_M; a fibre must also be within both
  transceivers' reach. A run within the optics' reach but longer than every catalogued fibre lacks a fibre
  (``MediaResult.optics_reach_m``), which the findings tell apart from a run no optic reaches.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property
from typing import Any, cast

from design.specs import MediaEnd, MediaSpec
from design.vocabulary import Connector, MediaKind, Protocol, Top
from engines.catalog_view import CatalogView

SLACK_M = 0.5  # service loop and routing inside the racks, added to every run before choosing a length
OPTICAL = frozenset({Connector.MPO12, Connector.LC})
CABLE_KINDS = frozenset({MediaKind.DAC, MediaKind.ACC, MediaKind.AOC})
# The plugs an adapter cage takes besides its own connector (module docstring, NV-LX-OV).
ADAPTER_CAGE_ALSO_TAKES = {Connector.QSFP112: frozenset({Connector.QSFP56, Connector.QSFP28})}


@dataclass(frozen=True)
class Side:
    """One end of a link class: the connector its plugs need, and how many links one plug must serve."""

    connector: Connector | None
    top: Top | None
    twin: bool
    links_per_plug: int
    label: str  # the part number (empty for an assumed HCA), for messages
    is_switch: bool
    port_gbps: int | None = None  # a switch cage's own port speed; None (adapters, unknown): not checked


@dataclass(frozen=True)
class Item:
    part: MediaSpec
    role: str  # cable, transceiver-a, fibre, transceiver-b
    at: str  # "a", "b" or "mid": which side's switch groups its count is rounded on
    links_per_item: int


@dataclass(frozen=True)
class MediaChoice:
    kind: str  # the cable kind (dac, acc, aoc) or "optics"
    items: tuple[Item, ...]
    length_m: float
    price_per_link: Decimal | None
    # The sides ("a", "b") where the plug top of the medium or of the cage is not known: the fit is assumed.
    unknown_tops: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return " + ".join(i.part.part_number for i in self.items)

    @cached_property
    def retired(self) -> tuple[MediaSpec, ...]:
        """The discontinued or end-of-life parts of this choice (chosen only when no active option reaches)."""
        return tuple(i.part for i in self.items if i.part.retired)


@dataclass(frozen=True)
class MediaResult:
    choice: MediaChoice | None
    matched: bool  # some catalogue option joins both connectors at the speed
    longest_m: float | None  # the longest run a matching option covers
    # The sides ("a", "b") whose connector no catalogue medium has at all at the link speed (no cable end, no
    # transceiver): the catalogue lacks that media class, as opposed to lacking the cable that joins two sides.
    bare: tuple[str, ...] = ()
    optics_matched: bool = False  # some transceiver + fibre set joins both sides (at any length)
    # The longest reach of those optics themselves (both transceivers' reach), whatever fibres the catalogue holds:
    # a run within it but longer than every catalogued fibre lacks a fibre, not a medium that can reach.
    optics_reach_m: float | None = None


def side_has_media(media: Iterable[MediaSpec], side: Side, speed_gbps: int) -> bool:
    """Some medium has an end of the side's connector at the link speed or faster (any top, twin or legs)."""
    if side.connector is None:
        return False
    return any(
        end.connector == side.connector and end.speed_gbps >= speed_gbps for m in media for end in (m.end_a, m.end_b)
    )


def _fits(end: MediaEnd, side: Side) -> bool:
    """The end plugs into the side: same connector (or one an adapter cage also takes), same twin form, no known
    top that differs, and no faster than the side's own port speed where that is known (a plug never runs above its
    cage)."""
    return (
        side.connector is not None
        and (
            end.connector == side.connector
            or (not side.is_switch and end.connector in ADAPTER_CAGE_ALSO_TAKES.get(side.connector, ()))
        )
        and (end.top is None or side.top is None or end.top == side.top)
        and end.twin == side.twin
        and (side.port_gbps is None or end.speed_gbps <= side.port_gbps)
    )


def _protocol_ok(part: MediaSpec, protocol: Protocol) -> bool:
    return part.protocol in (Protocol.VPI, protocol) or protocol == Protocol.VPI


def _plug_ports(end: MediaEnd) -> int:
    return end.legs * (2 if end.twin else 1)


def _electrical(t: MediaSpec) -> tuple[MediaEnd, MediaEnd] | None:
    """(electrical, optical) ends of a transceiver, or None if it has no clear optical side."""
    if t.end_b.connector in OPTICAL and t.end_a.connector not in OPTICAL:
        return t.end_a, t.end_b
    if t.end_a.connector in OPTICAL and t.end_b.connector not in OPTICAL:
        return t.end_b, t.end_a
    return None


def _shortest(parts: Iterable[MediaSpec], required: float, limit: float | None = None) -> MediaSpec | None:
    """The shortest part with length >= required (and <= limit), cheapest among equal lengths."""
    best = None
    for p in parts:
        if p.length_m is None or p.length_m < required or (limit is not None and p.length_m > limit):
            continue
        key = (p.length_m, p.price_eur is None, p.price_eur or 0, p.part_number)
        if best is None or key < best[0]:
            best = (key, p)
    return best[1] if best else None


def _per_link(*pairs: tuple[Decimal | None, int]) -> Decimal | None:
    total = Decimal(0)
    for price, links in pairs:
        if price is None:
            return None
        total += Decimal(price) / links
    return total


# The choice is a pure function of the catalogue and the two sides, and a catalogue view never changes once
# built, so choices are remembered per view (weakly: a replaced view takes its memo with it). bench/fabric.py
# shows it matters: a plan takes about 0.03 ms with the memo and 0.15 ms without (QM9700, 8 rails, 64-2,048 nodes).
_MEMO: weakref.WeakKeyDictionary[CatalogView, dict[tuple[Any, ...], MediaResult]] = weakref.WeakKeyDictionary()
_MEMO_SIZE = 256


def select_media(
    catalog: CatalogView,
    a: Side,
    b: Side,
    *,
    speed_gbps: int,
    distance_m: float,
    protocol: Protocol,
    pair_links: int | None = None,
) -> MediaResult:
    """Cheapest catalogue option joining side A and side B (see ``_select_media``), memoised per catalogue view."""
    try:
        memo = _MEMO.setdefault(catalog, {})
    except TypeError:  # a view that cannot be weakly referenced: no memo
        memo = {}
    key = (a, b, speed_gbps, distance_m, protocol, pair_links)
    result = memo.get(key)
    if result is None:
        result = _select_media(
            catalog, a, b, speed_gbps=speed_gbps, distance_m=distance_m, protocol=protocol, pair_links=pair_links
        )
        if len(memo) >= _MEMO_SIZE:
            memo.clear()
        memo[key] = result
    return result


def _select_media(
    catalog: CatalogView,
    a: Side,
    b: Side,
    *,
    speed_gbps: int,
    distance_m: float,
    protocol: Protocol,
    pair_links: int | None = None,
) -> MediaResult:
    """Cheapest catalogue option joining side A and side B for a run of ``distance_m`` at ``speed_gbps``.

    ``pair_links``: links between one pair of switches (switch-switch classes); a straight twin DAC puts
    both of its links on the same pair, so it needs an even count. Options are ranked (``_rank``): an active
    part before a discontinued or end-of-life one, a plug top known at both ends before an unknown one, then
    price per link.
    """
    media = [p for p in catalog.of_type(MediaSpec) if _protocol_ok(p, protocol)]
    options = _Options(required_m=distance_m + SLACK_M)
    for family, parts in _cable_families(media, a, b, speed_gbps, pair_links).items():
        options.add_cable(family, parts)
    for pairing in _optic_pairings(media, a, b, speed_gbps):
        options.add_optics(pairing)
    return options.result(media, a, b, speed_gbps)


@dataclass(frozen=True)
class _CableFamily:
    """Cables of one kind with identical ends (``x`` at side A, ``y`` at side B): a length is chosen per family."""

    kind: MediaKind
    x: MediaEnd
    y: MediaEnd
    links: int
    unknown_tops: tuple[str, ...]


@dataclass(frozen=True)
class _OpticPairing:
    """Transceiver at A, a fibre family, transceiver at B, and the links each of them carries."""

    ta: MediaSpec
    fibres: tuple[MediaSpec, ...]
    tb: MediaSpec
    links_a: int
    per_fibre: int
    links_b: int
    unknown_tops: tuple[str, ...]


def _unknown_tops(pairs: Iterable[tuple[str, MediaEnd, Side]]) -> tuple[str, ...]:
    """The sides ("a", "b") where the plug top of the medium or of the cage it plugs into is not known."""
    return tuple(name for name, end, side in pairs if end.top is None or side.top is None)


def _cable_links(x: MediaEnd, y: MediaEnd, a: Side, b: Side, speed: int, pair_links: int | None) -> int | None:
    """Links one cable carries with end ``x`` at side A and ``y`` at side B, or None if it does not fit them."""
    if not (_fits(x, a) and _fits(y, b)) or x.speed_gbps < speed or y.speed_gbps < speed:
        return None
    links = max(_plug_ports(x), _plug_ports(y))
    if links % x.legs or links % y.legs:
        return None
    if links // x.legs != a.links_per_plug or links // y.legs != b.links_per_plug:
        return None
    if b.is_switch and y.legs == 1 and pair_links is not None and pair_links % links:
        return None
    return links


def _cable_families(
    media: list[MediaSpec], a: Side, b: Side, speed: int, pair_links: int | None
) -> dict[_CableFamily, list[MediaSpec]]:
    """Direct cables (DAC, ACC, AOC) that fit both sides, grouped into families of identical ends."""
    families: dict[_CableFamily, list[MediaSpec]] = {}
    for c in media:
        if c.kind not in CABLE_KINDS:
            continue
        for x, y in ((c.end_a, c.end_b), (c.end_b, c.end_a)):
            links = _cable_links(x, y, a, b, speed, pair_links)
            if links is not None:
                tops = _unknown_tops((("a", x, a), ("b", y, b)))
                families.setdefault(_CableFamily(c.kind, x, y, links, tops), []).append(c)
                break
    return families


def _transceivers_at(media: list[MediaSpec], side: Side, speed: int) -> list[tuple[MediaSpec, MediaEnd, MediaEnd]]:
    """(transceiver, electrical end, optical end) of every transceiver that plugs into the side at the speed."""
    found = []
    for t in media:
        ends = _electrical(t) if t.kind == MediaKind.TRANSCEIVER else None
        if ends and _fits(ends[0], side) and ends[0].speed_gbps >= speed:
            found.append((t, *ends))
    return found


def _fibre_families(media: list[MediaSpec]) -> dict[tuple[Any, ...], list[MediaSpec]]:
    families: dict[tuple[Any, ...], list[MediaSpec]] = {}
    for f in media:
        if f.kind == MediaKind.FIBRE:
            families.setdefault((f.end_a, f.end_b, f.fibre), []).append(f)
    return families


def _optic_pairings(media: list[MediaSpec], a: Side, b: Side, speed: int) -> Iterable[_OpticPairing]:
    """Every transceiver + fibre + transceiver combination whose plugs, speeds, fibre type and leg counts fit."""
    at_b = _transceivers_at(media, b, speed)
    fibre_families = _fibre_families(media)
    for ta, el_a, opt_a in _transceivers_at(media, a, speed):
        for (fe_a, fe_b, fibre_type), fibres in fibre_families.items():
            for fa, fb in ((fe_a, fe_b), (fe_b, fe_a)):
                if fa.connector != opt_a.connector or not _same_fibre(ta.fibre, fibre_type):
                    continue
                if min(fa.speed_gbps, fb.speed_gbps, opt_a.speed_gbps) < speed:
                    continue
                per_fibre = max(fa.legs, fb.legs)
                if per_fibre % fa.legs or per_fibre % fb.legs or opt_a.legs * per_fibre // fa.legs != a.links_per_plug:
                    continue
                for tb, el_b, opt_b in at_b:
                    if opt_b.connector != fb.connector or not _same_fibre(tb.fibre, fibre_type):
                        continue
                    links_b = opt_b.legs * per_fibre // fb.legs
                    if opt_b.speed_gbps != opt_a.speed_gbps or links_b != b.links_per_plug:
                        continue
                    if ta.reach_m is None or tb.reach_m is None:
                        continue
                    tops = _unknown_tops((("a", el_a, a), ("b", el_b, b)))
                    yield _OpticPairing(ta, tuple(fibres), tb, a.links_per_plug, per_fibre, links_b, tops)


class _Options:
    """The options found for one link class, whether any joins both sides at all, and the longest reach."""

    def __init__(self, required_m: float) -> None:
        self.required_m = required_m
        self.candidates: list[tuple[tuple[Any, ...], MediaChoice]] = []
        self.matched = False
        self.optics_matched = False
        self.optics_reach: float | None = None
        self.longest: float | None = None

    def _reach(self, value: float) -> None:
        self.matched = True
        if self.longest is None or value > self.longest:
            self.longest = value

    def _offer(self, choice: MediaChoice) -> None:
        self.candidates.append((_rank(choice), choice))

    def add_cable(self, family: _CableFamily, parts: list[MediaSpec]) -> None:
        """The shortest cable of the family that reaches (the active one where one reaches)."""
        self._reach(max((p.length_m or 0.0) for p in parts))
        for pool in (_active(parts), parts):
            cable = _shortest(pool, self.required_m)
            if cable is not None:
                items = (Item(cable, "cable", "mid", family.links),)
                price = _per_link((cable.price_eur, family.links))
                length = cast(float, cable.length_m)  # _shortest chooses among parts of known length
                self._offer(MediaChoice(str(family.kind), items, length, price, family.unknown_tops))
                return

    def add_optics(self, p: _OpticPairing) -> None:
        """The shortest fibre of the pairing within both transceivers' reach (the active one where one reaches)."""
        reach = min(cast(float, p.ta.reach_m), cast(float, p.tb.reach_m))  # paired only when both are known
        self.optics_matched = True
        self.optics_reach = max(reach, self.optics_reach or 0.0)
        self._reach(min(reach, max((f.length_m or 0.0) for f in p.fibres)))
        for pool in (_active(p.fibres), p.fibres):
            fibre = _shortest(pool, self.required_m, limit=reach)
            if fibre is not None:
                items = (
                    Item(p.ta, "transceiver-a", "a", p.links_a),
                    Item(fibre, "fibre", "mid", p.per_fibre),
                    Item(p.tb, "transceiver-b", "b", p.links_b),
                )
                price = _per_link(
                    (p.ta.price_eur, p.links_a), (fibre.price_eur, p.per_fibre), (p.tb.price_eur, p.links_b)
                )
                self._offer(MediaChoice("optics", items, cast(float, fibre.length_m), price, p.unknown_tops))
                return

    def result(self, media: list[MediaSpec], a: Side, b: Side, speed: int) -> MediaResult:
        if not self.candidates:
            bare = (
                ()
                if self.matched
                else tuple(n for n, side in (("a", a), ("b", b)) if not side_has_media(media, side, speed))
            )
            return MediaResult(None, self.matched, self.longest, bare, self.optics_matched, self.optics_reach)
        best = min(self.candidates, key=lambda c: c[0])[1]
        return MediaResult(best, True, self.longest, (), self.optics_matched, self.optics_reach)


def _active(parts: Iterable[MediaSpec]) -> list[MediaSpec]:
    return [p for p in parts if not p.retired]


def _same_fibre(t: str | None, f: str | None) -> bool:
    return t is None or f is None or t == f


def _rank(choice: MediaChoice) -> tuple[Any, ...]:
    price = choice.price_per_link
    return (
        bool(choice.retired),
        bool(choice.unknown_tops),
        price is None,
        price or 0,
        len(choice.items),
        choice.length_m,
        choice.label,
    )


def item_quantity(
    item: Item, a_groups: Iterable[tuple[int, int]], b_groups: Iterable[tuple[int, int]], links: int
) -> int:
    """Parts needed: rounded up per switch, since a plug or splitter never spans two switches.

    ``a_groups`` / ``b_groups``: (switch count, links on each) for the switches at side A / B; ``b_groups``
    None for the HCA side, where every link has its own card port.
    """
    if item.at == "b":
        if b_groups is None:
            return math.ceil(links / item.links_per_item)
        groups = b_groups
    else:
        groups = a_groups
    return sum(count * math.ceil(each / item.links_per_item) for count, each in groups)
