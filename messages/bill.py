"""The bill of materials' own words, in the active language: the section titles every door shows, and the
description of a line that no catalogue part fits (what the rack plan needs and nothing in the catalogue is)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from .base import num


def section_titles() -> dict[str, str]:
    """The title of each bill section (configurator.bom.SECTIONS), for the pages and both quote documents."""
    return {
        "nodes": pgettext("bill section", "Nodes"),
        "compute_fabric": pgettext("bill section", "Compute fabric"),
        "storage": pgettext("bill section", "Storage network"),
        "inband": pgettext("bill section", "In-band management network"),
        "oob": pgettext("bill section", "Out-of-band management network"),
        "racks_power": pgettext("bill section", "Racks and power"),
        "control_plane": pgettext("bill section", "Control plane"),
        "services": pgettext("bill section", "Services"),
    }


def section_title(section: str) -> str:
    return section_titles().get(section, section)


def rack_needed(units: int) -> str:
    return _("%(units)sU rack (none in the catalogue)") % {"units": units}


def pdu_needed(feeds: str) -> str:
    return _(
        "Rack PDU, one per feed (%(feeds)s) in every rack, each carrying the whole rack (none in the catalogue)"
    ) % {"feeds": feeds}


def cord_needed(outlet: str | None, inlet: str | None, current_a: float | None = None) -> str:
    if outlet is None and current_a:
        said = _("Node power cord for a supply drawing about %(current)s A: no PDU outlet in the catalogue carries it")
        return said % {"current": num(current_a, 1)}
    unknown = _("unknown")
    return _("Node power cord: PDU outlet %(outlet)s, server inlet %(inlet)s (cord type not known)") % {
        "outlet": outlet or unknown,
        "inlet": inlet or unknown,
    }


def rack_system_included(
    name: str,
    *,
    compute_trays: int | None,
    gpus: int | None,
    switch_trays: int | None,
    power_shelves: int | None,
    management_switches: int | None,
) -> str:
    """A rack-scale system's bill line: its name and what comes in the rack; a count left unknown is not named."""
    parts = [
        words % {"n": n}
        for n, words in (
            (compute_trays, _("%(n)s compute trays")),
            (gpus, _("%(n)s GPUs")),
            (switch_trays, _("%(n)s NVLink switch trays")),
            (power_shelves, _("%(n)s power shelves")),
            (management_switches, _("%(n)s management switches")),
        )
        if n
    ]
    if not parts:
        return name
    return _("%(name)s; includes %(parts)s") % {"name": name, "parts": ", ".join(parts)}
