"""What an expansion quote's documents say it grows, read from its frozen snapshot (``expansion``, schema quote/v1):
what is installed, what is added and what moves, one labelled row each, and the re-cabling list's rows for the
workbook. Said in the active language (the documents render in the quote's)."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from design.jsontext import JsonObject

from .frozen import Snapshot, quantity
from .snapshot import FrozenExpansion, FrozenQuote


def expansion_of(frozen: Snapshot) -> FrozenExpansion | None:
    """The snapshot's expansion (an expansion quote's), or None."""
    return FrozenQuote.from_json(frozen).expansion


def _nodes(count: int) -> str:
    return ngettext("%(n)s node", "%(n)s nodes", count) % {"n": quantity(count, translation.get_language())}


def _count(count: int) -> str:
    return quantity(count, translation.get_language())


def expansion_title(expansion: FrozenExpansion) -> str:
    if not expansion.of and expansion.built:
        return _("Expansion of the installed cluster %(name)s") % {"name": expansion.built}
    return _("Expansion of quote %(number)s") % {"number": expansion.of}


def expansion_source(expansion: FrozenExpansion) -> tuple[str, str]:
    """What it grows, as a (label, text) row: the original quote's number, or the built configuration's name."""
    if not expansion.of and expansion.built:
        return _("Expansion of the installed cluster"), expansion.built
    return _("Expansion of quote"), expansion.of


def _installed(expansion: FrozenExpansion) -> str:
    if not expansion.of and expansion.built:
        return _("%(nodes)s, built as %(name)s") % {"nodes": _nodes(expansion.installed_nodes), "name": expansion.built}
    return _("%(nodes)s, quote %(number)s") % {"nodes": _nodes(expansion.installed_nodes), "number": expansion.of}


def expansion_facts(expansion: FrozenExpansion) -> list[tuple[str, str]]:
    """What is installed, what is added and what moves, as (label, text) rows."""
    cables = expansion.cables
    added = max(0, expansion.expanded_nodes - expansion.installed_nodes)
    moves = ", ".join(
        (
            ngettext("%(n)s cable moved", "%(n)s cables moved", cables.get("move", 0))
            % {"n": _count(cables.get("move", 0))},
            _("%(n)s added") % {"n": _count(cables.get("add", 0))},
            _("%(n)s removed") % {"n": _count(cables.get("remove", 0))},
            _("%(n)s kept as installed") % {"n": _count(cables.get("keep", 0))},
        )
    )
    devices = ngettext(
        "%(n)s installed device moves to another rack or unit",
        "%(n)s installed devices move to another rack or unit",
        expansion.moved_devices,
    ) % {"n": _count(expansion.moved_devices)}
    return [
        (
            _("Installed"),
            _installed(expansion),
        ),
        (
            _("Added"),
            _("%(nodes)s, %(total)s after the expansion: the lines of this offer")
            % {"nodes": _nodes(added), "total": _nodes(expansion.expanded_nodes)},
        ),
        (_("Moves"), f"{moves}; {devices}"),
        (
            _("Re-cabling"),
            ngettext(
                "%(n)s cable moved or added, routed, labelled and tested",
                "%(n)s cables moved or added, routed, labelled and tested",
                expansion.labour_cables,
            )
            % {"n": _count(expansion.labour_cables)},
        ),
    ]


def _end(cable: JsonObject | None, side: str) -> str:
    """One end of a cable as the list shows it: "node-0001 p1 (R01 U12)"."""
    end = (cable or {}).get(side) or {}
    place = " ".join(x for x in (str(end.get("rack") or ""), f"U{end['u']}" if end.get("u") else "") if x)
    label = " ".join(x for x in (str(end.get("device") or ""), str(end.get("port") or "")) if x)
    return f"{label} ({place})" if label and place else label


def recabling_headers() -> list[str]:
    return [
        _("Action"),
        _("Network"),
        _("Link"),
        _("Installed A end"),
        _("Installed Z end"),
        _("New A end"),
        _("New Z end"),
        _("Cable"),
        _("Length (m)"),
    ]


def recabling_rows(expansion: FrozenExpansion) -> list[list[str]]:
    """The re-cabling list: each moved, added and removed cable with its installed and new ends."""
    actions = {"move": _("move"), "add": _("add"), "remove": _("remove"), "keep": _("keep")}
    rows = []
    for row in expansion.recabling:
        old, new = row.get("old"), row.get("new")
        cable = new or old or {}
        rows.append(
            [
                actions.get(str(row.get("action")), str(row.get("action") or "")),
                str(row.get("network") or ""),
                str(row.get("link_class") or ""),
                _end(old, "a"),
                _end(old, "z"),
                _end(new, "a"),
                _end(new, "z"),
                str(cable.get("cable_part") or ""),
                str(cable.get("length_m") or ""),
            ]
        )
    return rows
