"""Choosing the cable or optics for one link class (node-leaf, leaf-spine, spine-core).

Side A is always the lower switch of the link (the leaf for node links, the leaf for leaf-spine, the spine
for spine-core); side B is the HCA or the upper switch. A *plug* is one connector in one cage or card port.
A switch plug in a twin-port OSFP cage serves 2 logical ports, and with split ports (NDR200 on NDR) 2 x split
links. Every option is costed per link and the cheapest one that fits both sides and reaches wins.

Facts come from the catalogue's MediaSpec rows, never from part numbers: connectors, top, twin, legs, speed
per leg, length (cables, fibres) and reach (transceivers). Conventions (see README):

* a cable's or fibre's end with ``legs`` > 1 is a splitter end: one plug per leg;
* a transceiver's electrical end is the one whose connector is not optical (MPO-12, LC);
* every end's ``speed_gbps`` must be at least the link speed (a 400G optic runs NDR200 in 200G mode);
* fixed-length parts: the shortest length >= distance + SLACK_M; a fibre must also be within both
  transceivers' reach.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from configurator.rules.specs import CatalogView, Connector, MediaEnd, MediaKind, MediaSpec, Protocol, Top

SLACK_M = 0.5  # service loop and routing inside the racks, added to every run before choosing a length
OPTICAL = frozenset({Connector.MPO12, Connector.LC})
CABLE_KINDS = frozenset({MediaKind.DAC, MediaKind.ACC, MediaKind.AOC})


@dataclass(frozen=True)
class Side:
    """One end of a link class: the connector its plugs need, and how many links one plug must serve."""

    connector: Connector | None
    top: Top | None
    twin: bool
    links_per_plug: int
    label: str  # the part number (empty for an assumed HCA), for messages
    is_switch: bool


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

    @property
    def label(self) -> str:
        return " + ".join(i.part.part_number for i in self.items)


@dataclass(frozen=True)
class MediaResult:
    choice: MediaChoice | None
    matched: bool  # some catalogue option joins both connectors at the speed
    longest_m: float | None  # the longest run a matching option covers
    # The sides ("a", "b") whose connector no catalogue medium has at all at the link speed (no cable end, no
    # transceiver): the catalogue lacks that media class, as opposed to lacking the cable that joins two sides.
    bare: tuple[str, ...] = ()


def side_has_media(media: Iterable[MediaSpec], side: Side, speed_gbps: int) -> bool:
    """Some medium has an end of the side's connector at the link speed or faster (any top, twin or legs)."""
    if side.connector is None:
        return False
    return any(
        end.connector == side.connector and end.speed_gbps >= speed_gbps for m in media for end in (m.end_a, m.end_b)
    )


def _fits(end: MediaEnd, side: Side) -> bool:
    return (
        side.connector is not None
        and end.connector == side.connector
        and (end.top is None or side.top is None or end.top == side.top)
        and end.twin == side.twin
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
_MEMO: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
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
    both of its links on the same pair, so it needs an even count.
    """
    required = distance_m + SLACK_M
    media = [p for p in catalog.of_type(MediaSpec) if _protocol_ok(p, protocol)]
    candidates: list[tuple[tuple, MediaChoice]] = []
    matched = False
    longest: float | None = None

    def note_reach(value: float | None) -> None:
        nonlocal longest
        if value is not None and (longest is None or value > longest):
            longest = value

    # Direct cables (DAC, ACC, AOC), grouped into families of identical ends so a length is chosen per family.
    families: dict[tuple, list[MediaSpec]] = {}
    for c in media:
        if c.kind not in CABLE_KINDS:
            continue
        for x, y in ((c.end_a, c.end_b), (c.end_b, c.end_a)):
            if not (_fits(x, a) and _fits(y, b)):
                continue
            links = max(_plug_ports(x), _plug_ports(y))
            if links % x.legs or links % y.legs:
                continue
            if links // x.legs != a.links_per_plug or links // y.legs != b.links_per_plug:
                continue
            if x.speed_gbps < speed_gbps or y.speed_gbps < speed_gbps:
                continue
            if b.is_switch and y.legs == 1 and pair_links is not None and pair_links % links:
                continue
            families.setdefault((c.kind, x, y, links), []).append(c)
            break
    for (kind, _x, _y, links), parts in families.items():
        matched = True
        note_reach(max((p.length_m or 0.0) for p in parts))
        cable = _shortest(parts, required)
        if cable is None:
            continue
        choice = MediaChoice(
            kind=str(kind),
            items=(Item(cable, "cable", "mid", links),),
            length_m=cable.length_m,
            price_per_link=_per_link((cable.price_eur, links)),
        )
        candidates.append((_rank(choice), choice))

    # Transceiver + fibre + transceiver.
    transceivers = [(t, ends) for t in media if t.kind == MediaKind.TRANSCEIVER and (ends := _electrical(t))]
    at_a = [(t, opt) for t, (el, opt) in transceivers if _fits(el, a) and el.speed_gbps >= speed_gbps]
    at_b = [(t, opt) for t, (el, opt) in transceivers if _fits(el, b) and el.speed_gbps >= speed_gbps]
    fibre_families: dict[tuple, list[MediaSpec]] = {}
    for f in media:
        if f.kind == MediaKind.FIBRE:
            fibre_families.setdefault((f.end_a, f.end_b, f.fibre), []).append(f)
    for ta, opt_a in at_a:
        for (fe_a, fe_b, fibre_type), fibres in fibre_families.items():
            for fa, fb in ((fe_a, fe_b), (fe_b, fe_a)):
                if fa.connector != opt_a.connector or not _same_fibre(ta.fibre, fibre_type):
                    continue
                if min(fa.speed_gbps, fb.speed_gbps, opt_a.speed_gbps) < speed_gbps:
                    continue
                per_fibre = max(fa.legs, fb.legs)
                if per_fibre % fa.legs or per_fibre % fb.legs:
                    continue
                links_a = opt_a.legs * per_fibre // fa.legs
                if links_a != a.links_per_plug:
                    continue
                for tb, opt_b in at_b:
                    if opt_b.connector != fb.connector or not _same_fibre(tb.fibre, fibre_type):
                        continue
                    if opt_b.speed_gbps < speed_gbps:
                        continue
                    links_b = opt_b.legs * per_fibre // fb.legs
                    if links_b != b.links_per_plug or ta.reach_m is None or tb.reach_m is None:
                        continue
                    matched = True
                    reach = min(ta.reach_m, tb.reach_m)
                    note_reach(min(reach, max((f.length_m or 0.0) for f in fibres)))
                    fibre = _shortest(fibres, required, limit=reach)
                    if fibre is None:
                        continue
                    choice = MediaChoice(
                        kind="optics",
                        items=(
                            Item(ta, "transceiver-a", "a", links_a),
                            Item(fibre, "fibre", "mid", per_fibre),
                            Item(tb, "transceiver-b", "b", links_b),
                        ),
                        length_m=fibre.length_m,
                        price_per_link=_per_link(
                            (ta.price_eur, links_a), (fibre.price_eur, per_fibre), (tb.price_eur, links_b)
                        ),
                    )
                    candidates.append((_rank(choice), choice))
    if not candidates:
        bare = (
            ()
            if matched
            else tuple(n for n, side in (("a", a), ("b", b)) if not side_has_media(media, side, speed_gbps))
        )
        return MediaResult(choice=None, matched=matched, longest_m=longest, bare=bare)
    candidates.sort(key=lambda c: c[0])
    return MediaResult(choice=candidates[0][1], matched=True, longest_m=longest)


def _same_fibre(t: str | None, f: str | None) -> bool:
    return t is None or f is None or t == f


def _rank(choice: MediaChoice) -> tuple:
    price = choice.price_per_link
    return (price is None, price or 0, len(choice.items), choice.length_m, choice.label)


def item_quantity(item: Item, a_groups: Iterable[tuple[int, int]], b_groups, links: int) -> int:
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
