"""The expansion of an installed cluster: the larger design validated, and what it takes from the installed one.

The installed cluster is a design document (a stored configuration's, or a won or issued quote's frozen ``design``:
``installed_document`` takes either). The growth is N more nodes in a named node group, or new node groups
(``growth_parse`` reads the doors' body and names the bad field). ``expansion_plan`` validates the installed and
the grown design (configurator.services.design_validate, the one validation service; the grown one planned from
the installed rack plan, ``engines.cluster.rackplan.growing_from``, so an installed one-rack cluster's rack stays
as it stands), takes both cabling lists
(the cabling CSV's columns and rows, every network: outputs.links.cabling_table, read as the rows the CSV writes)
and hands the two plans to engines.cluster.expansion, which compares them.

The answer (``Expansion.to_json``) is the grown design's validation result plus ``delta_bom`` (what to buy, the
re-cabling labour line included; never a negative quantity), ``unused`` (installed parts no longer needed),
``recabling`` (one row per link of the grown plan and per removed link: ``action`` keep, move, add or remove,
``network``, ``link_class``, ``old`` and ``new`` ends with device, port, rack and unit), ``moved_devices``
(installed devices at another rack or unit) and ``findings`` (what the growth crosses, then the grown design's
own). Nothing is stored.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from configurator.cluster import service_prices
from configurator.result import ShownFinding, ValidationResult, shown_findings
from configurator.services import design_validate
from design.contract import MAX_NAME_LENGTH
from design.jsontext import JsonObject
from design.model import DesignInputError
from engines.cluster.bill import BomLine
from engines.cluster.expansion import (
    BillDelta,
    Recabling,
    Table,
    bill_delta,
    defaulted_system_ports,
    expansion_findings,
    moved_by_cabling,
    network_tiers,
    recable_line,
    recabling_tables,
    storage_systems_kept,
)
from engines.cluster.rackplan import growing_from
from engines.fabric.growth import Action
from engines.findings.cluster_codes import ExpansionCode
from engines.findings.registry import finding
from engines.networks.model import STORAGE, NetworkPlan
from messages.languages import resolve_language
from outputs.format import OutputUnavailable
from outputs.links import cabling_table, installed_ends, network_table

MAX_ADD = 100_000  # nodes one expansion may add: far beyond any fabric the planners size


@dataclass(frozen=True)
class Growth:
    """N more nodes in the node group ``node_group``, or the new node groups ``node_groups`` (design/v1 groups)."""

    node_group: str | None = None
    add: int = 0
    node_groups: tuple[JsonObject, ...] = ()


def growth_parse(body: Any) -> Growth:
    """The growth of a door's body: ``{"node_group": NAME, "add": N}`` or ``{"node_groups": [...]}``.
    DesignInputError names the bad field."""
    if not isinstance(body, Mapping):
        raise DesignInputError({"body": "Expected an object with node_group and add, or node_groups."})
    if "node_groups" in body:
        groups = body["node_groups"]
        if not isinstance(groups, list) or not groups or not all(isinstance(g, Mapping) for g in groups):
            raise DesignInputError({"node_groups": "Expected a non-empty list of node groups (design/v1)."})
        if "add" in body or "node_group" in body:
            raise DesignInputError({"node_groups": "Give either node_group and add, or node_groups, not both."})
        return Growth(node_groups=tuple(dict(g) for g in groups))
    name, add = body.get("node_group"), body.get("add")
    if not isinstance(add, int) or isinstance(add, bool) or not 1 <= add <= MAX_ADD:
        raise DesignInputError({"add": f"Expected a whole number of nodes from 1 to {MAX_ADD:,}."})
    if name is not None and (not isinstance(name, str) or not name):
        raise DesignInputError({"node_group": "Expected the name of one of the design's node groups."})
    return Growth(node_group=name, add=add)


def installed_document(source: Any) -> JsonObject:
    """The installed design: ``source`` itself (a design document), or a frozen quote's (schema quote/v1)
    ``design``."""
    if isinstance(source, Mapping) and source.get("schema") == "quote/v1":
        design = source.get("design")
        if not isinstance(design, Mapping) or not design:
            raise DesignInputError({"design": "The frozen quote carries no design."})
        return dict(design)
    if not isinstance(source, Mapping):
        raise DesignInputError({"design": "Expected a design document (design/v1) or a frozen quote (quote/v1)."})
    return dict(source)


def grown_document(document: JsonObject, growth: Growth, installed: ValidationResult | None = None) -> JsonObject:
    """The installed design with the growth applied (a copy). Without a named group, a design of one node group
    grows that one; DesignInputError when the group is unknown or ambiguous. A group with other groups after it
    does not grow in place: its added nodes are a new group after the installed ones (``gpu-2``: the same server
    and parts), so the servers of the groups after it keep their racks, units and names.

    ``installed``: the installed design's validation. Where its storage network reserved the storage systems'
    ports by default, the grown design states that count (``networks.storage.system_ports``): the storage systems
    do not grow with the nodes, and their cables stay on their leaves (EXPANSION_STORAGE_SYSTEMS_KEPT says so)."""
    grown = _with_growth(document, growth)
    ports = defaulted_system_ports(_storage(installed)) if installed is not None else 0
    if ports:
        _state(grown, "storage", system_ports=ports)
    placement = _oob_placement(installed)
    if placement:
        _state(grown, "oob", placement=placement)
    return grown


def _state(grown: JsonObject, key: str, **given: Any) -> None:
    networks = dict(grown.get("networks") or {})
    networks[key] = {**(networks.get(key) or {}), **given}
    grown["networks"] = networks


def _oob_placement(installed: ValidationResult | None) -> str | None:
    """Where the installed out-of-band switches stand (``central`` or ``per-rack``) when the design left it to the
    plan: the grown design states it, so its switches stay where they stand (a group of denser racks added, such as
    NVL72 racks beside HGX nodes, would make the default per-rack and put a switch in every installed rack)."""
    section = installed.network_plans.get("oob") if installed is not None else None
    plan = section.plan if section is not None else None
    return plan.placement if plan is not None and plan.placement else None


def _with_growth(document: JsonObject, growth: Growth) -> JsonObject:
    grown = copy.deepcopy(dict(document))
    groups = grown.get("node_groups")
    if not isinstance(groups, list):
        raise DesignInputError({"design.node_groups": "The installed design has no node groups."})
    names = [g.get("name") for g in groups if isinstance(g, Mapping)]
    if growth.node_groups:
        taken = {n or f"group {i + 1}" for i, n in enumerate(names)}  # an unnamed group is "group <n>"
        for i, g in enumerate(growth.node_groups):
            if (name := g.get("name")) and name in taken:
                field = f"node_groups[{i}].name"
                raise DesignInputError({field: f"The installed design has a node group named {name!r}."})
        grown["node_groups"] = [*groups, *(copy.deepcopy(dict(g)) for g in growth.node_groups)]
        return grown
    listed = ", ".join(map(str, names))
    name = growth.node_group
    if name is None:
        if len(names) != 1:
            raise DesignInputError({"node_group": f"Name the node group to grow: one of {listed}."})
        name = names[0]
    if name not in names:
        raise DesignInputError({"node_group": f"No node group is named {name!r}; the design has {listed}."})
    index = names.index(name)
    if index < len(groups) - 1:
        # Node groups racked after this one stand where they stand: the added nodes are a group of their own (the
        # same server and parts), racked after every installed group, so no installed server moves or is renamed.
        added = copy.deepcopy(dict(groups[index]))
        added.update(name=_added_name(str(name), names), count=growth.add)
        groups.append(added)
        return grown
    group = groups[index]
    group["count"] = int(group.get("count") or 0) + growth.add
    return grown


def _added_name(name: str, names: list[Any]) -> str:
    """A name for the added nodes of group ``name`` that no group has: ``name-2``, ``name-3``, ..."""
    stem, n = name[: MAX_NAME_LENGTH - 4], 2
    while f"{stem}-{n}" in names:
        n += 1
    return f"{stem}-{n}"


@dataclass(frozen=True)
class Expansion:
    """The grown design's validation result and what it takes from the installed one."""

    installed: ValidationResult
    result: ValidationResult
    bill: BillDelta
    labour: BomLine | None
    cabling: Recabling
    findings: tuple[ShownFinding, ...]

    @property
    def delta_bom(self) -> list[BomLine]:
        return [*self.bill.delta, *([self.labour] if self.labour else [])]

    def summary(self) -> JsonObject:
        c = self.cabling
        return {
            "installed_nodes": self.installed.totals.node_count,
            "expanded_nodes": self.result.totals.node_count,
            "cables": {str(a): c.count(a) for a in Action},
            "labour_cables": c.labour_cables,
            "moved_devices": len(c.moved),
        }

    def frozen_json(self) -> JsonObject:
        """What an expansion quote freezes of it (quotes.snapshot.FrozenExpansion, less the original's number): the
        counts, and the re-cabling rows that change something (kept cables are only counted)."""
        changed = [c.to_json() for c in self.cabling.changes if c.change.action != Action.KEEP]
        return {**self.summary(), "recabling": changed}

    def to_json(self) -> JsonObject:
        out = dict(self.result.to_json())
        out.update(
            {
                "findings": [f.to_json() for f in (*self.findings, *self.result.findings)],
                "delta_bom": [line.to_dict() for line in self.delta_bom],
                "unused": [line.to_dict() for line in self.bill.unused],
                "recabling": [c.to_json() for c in self.cabling.changes],
                "moved_devices": self.cabling.moved_json(),
                "expansion": self.summary(),
            }
        )
        return out


def _cabling(result: ValidationResult) -> Table:
    """The cabling CSV's columns and rows, read as the rows the CSV writes (no text parsed)."""
    try:
        return cabling_table(result)
    except OutputUnavailable:  # no compute fabric: the other networks' cables are compared
        return network_table(result)


def expansion_plan(*, installed: Any, growth: Growth, language: str | None = None) -> Expansion:
    """The expansion of the installed design (a design document or a frozen quote) by ``growth`` (module docstring).
    DesignInputError names the bad field of the growth or of either design."""
    language = resolve_language(language)
    document = installed_document(installed)
    before = design_validate(document=document, language=language)
    return grown_plan(before=before, document=document, growth=growth, language=language)


def grown_plan(*, before: ValidationResult, document: JsonObject, growth: Growth, language: str) -> Expansion:
    """The expansion of the installed ``document`` (``before``: its validation, its racks as they stand) by
    ``growth``."""
    with growing_from(before.rack_plan.plan, installed_ends(before)):  # the installed racks stay as they stand
        after = design_validate(document=grown_document(document, growth, before), language=language)
    return expansion_compare(before=before, after=after, language=language)


def _plans(result: ValidationResult) -> dict[str, NetworkPlan]:
    return {key: section.plan for key, section in result.network_plans.items() if section is not None}


def _storage(result: ValidationResult) -> NetworkPlan | None:
    section = result.network_plans.get(STORAGE)
    return section.plan if section is not None else None


def expansion_compare(*, before: ValidationResult, after: ValidationResult, language: str) -> Expansion:
    """What the grown design (``after``'s validation) takes from the installed one (``before``'s): the delta bill
    with its re-cabling labour line, the re-cabling and the findings of the growth."""
    cables = recabling_tables(_cabling(before), _cabling(after))
    with translation.override(language):
        labour = recable_line(
            cables.labour_cables,
            service_prices().recable_per_cable,
            _("Re-cabling: one cable moved or added, routed, labelled and tested"),
        )
        found = expansion_findings(
            before.fabric_plan.plan if before.fabric_plan else None,
            after.fabric_plan.plan if after.fabric_plan else None,
            (before.rack_plan.plan, after.rack_plan.plan),
        )
        found += storage_systems_kept(_storage(before), _storage(after))
        found += network_tiers(_plans(before), _plans(after), cables)
        if cables.moved and not any(f.code == ExpansionCode.DEVICES_MOVED for f in found):
            said = moved_by_cabling(cables.moved, before.rack_plan.plan)
            found += [finding("rack_plan", said)] if said is not None else []
    return Expansion(
        installed=before,
        result=after,
        bill=bill_delta(before.bom, after.bom, cables.kept_parts()),
        labour=labour,
        cabling=cables,
        findings=shown_findings(found, language),
    )
