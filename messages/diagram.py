"""The fabric diagram's words in the active language (engines.fabric.diagram draws, this module speaks),
and the names of topologies and link classes that the wizard's fabric step shows beside it."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from engines.fabric.diagram import Words

from .base import dec, num

TOPOLOGIES = {
    "rail-optimized": pgettext_lazy("topology", "Rail-optimized"),
    "fat-tree": pgettext_lazy("topology", "Fat tree"),
}
LINK_CLASSES = {
    "node-leaf": pgettext_lazy("link class", "node–leaf"),
    "leaf-spine": pgettext_lazy("link class", "leaf–spine"),
    "spine-core": pgettext_lazy("link class", "spine–core"),
}
RACK_FIELDS = {  # the fabric step's rack layout fields, as its form labels them (web/forms.FabricForm)
    "in_rack_m": gettext_lazy("Cable run within a rack (m)"),
    "node_to_leaf_m": gettext_lazy("Server rack to leaf switch (m)"),
    "leaf_to_spine_m": gettext_lazy("Leaf to spine switch (m)"),
}
NO_MEDIUM = gettext_lazy("no catalogue medium")


def _count(value: str | int) -> int:
    return int(str(value).replace(",", "").replace(".", "").replace("\u00a0", "") or 0)


def words() -> Words:
    """The diagram's texts, built when called so they follow the request's language."""
    return Words(
        num=lambda v: num(v),
        length=lambda m: f"{dec(m)} m",
        topology=lambda t: str(TOPOLOGIES.get(t, t)).lower(),
        link_class=lambda c: str(LINK_CLASSES.get(c, c)),
        title=lambda topology, nodes, rails, tiers, switches, switch: (
            _("%(topology)s fabric: %(nodes)s nodes × %(rails)s rails, %(tiers)s, %(switches)s × %(switch)s")
            % {
                "topology": topology,
                "nodes": nodes,
                "rails": rails,
                "tiers": ngettext("%(n)s tier", "%(n)s tiers", _count(tiers)) % {"n": tiers},
                "switches": switches,
                "switch": switch,
            }
        ),
        no_fabric=lambda: _("No fabric could be sized: see the findings."),
        more=lambda n: _("+%(n)s more") % {"n": n},
        plane=lambda i: _("plane %(i)s") % {"i": i},
        cores=lambda n: ngettext("%(n)s core", "%(n)s cores", _count(n)) % {"n": n},
        planes_of=lambda n: _("planes of %(n)s") % {"n": n},
        pod=lambda i: _("pod %(i)s") % {"i": i},
        spines=lambda n: ngettext("%(n)s spine", "%(n)s spines", _count(n)) % {"n": n},
        pods_of=lambda n: _("pods of %(n)s spines") % {"n": n},
        per_leaf=lambda n: _("%(n)s/leaf") % {"n": n},
        spine_row=lambda: _("spines"),
        ports_used=lambda used, total: _("%(used)s of %(total)s ports") % {"used": used, "total": total},
        leaves=lambda n: ngettext("%(n)s leaf", "%(n)s leaves", _count(n)) % {"n": n},
        node_ports=lambda n: ngettext("%(n)s node port", "%(n)s node ports", _count(n)) % {"n": n},
        leaf_groups=lambda: _("leaf groups"),
        nodes=lambda n: ngettext("%(n)s node", "%(n)s nodes", _count(n)) % {"n": n},
        times_nics=lambda n: _("× %(n)s NICs") % {"n": n},
        node_groups=lambda: _("SUs of nodes"),
        nics_each=lambda n: _("%(n)s NICs each") % {"n": n},
        links=lambda n, kind, speed: (
            _("%(n)s %(kind)s links at %(speed)s Gb/s") % {"n": n, "kind": kind, "speed": speed}
        ),
        per_pair=lambda n: _("%(n)s per switch pair") % {"n": n},
        no_medium=lambda: str(NO_MEDIUM),
    )
