"""Complete nodes: where a node group names no CPUs, no memory or no boot drive, add its server's default node set.

Designs written before the catalogue held node contents stay valid: the cluster pipeline (engines.cluster.pipeline,
and the bill of materials for a stored result) completes them from each server's ``DefaultPart`` rows before the
other engines run, lists what it added in the result's ``defaults_added`` (contract design/v1, "Additions") with one
info finding per group, and prices the parts on the BOM, so a quote freezes a complete node. The node, fabric, rack
and network engines never add parts themselves. Pure: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from design.model import ComponentIn, DesignIn
from design.specs import ServerSpec
from engines.catalog_view import CatalogView
from engines.findings.finding import Finding
from engines.findings.params.node_contents import NodeDefaultsAdded, NodeIncomplete
from engines.findings.registry import finding
from engines.node.context import node_part_role

DEFAULT_ROLES = ("cpu", "memory", "boot")


@dataclass(frozen=True)
class DefaultAdded:
    """One default part the service added to a node group (the result's ``defaults_added``)."""

    node_group: str
    part: str
    quantity: int
    role: str | None

    def to_json(self) -> dict[str, str | int | None]:
        return {"node_group": self.node_group, "part": self.part, "quantity": self.quantity, "role": self.role}


def _named_roles(components: tuple[ComponentIn, ...], catalog: CatalogView) -> set[str]:
    """The node-part roles a group names already (given, or inferred from the part's category)."""
    roles = set()
    for comp in components:
        spec = catalog.get(comp.part)
        role = comp.role or (node_part_role(spec) if spec is not None else None)
        if role:
            roles.add(role)
    return roles


def complete_design(design: DesignIn, catalog: CatalogView) -> tuple[DesignIn, list[DefaultAdded], list[Finding]]:
    """The design with every node group completed from its server's default node set, the list of what was added
    (DefaultAdded: node group, part, quantity, role; empty when the design is complete) and one info finding per
    completed group (NODE_DEFAULTS_ADDED). Added components come after the group's own, so the paths of the
    design's components do not move."""
    added: list[DefaultAdded] = []
    findings: list[Finding] = []
    groups = []
    for index, group in enumerate(design.node_groups):
        extra, missing = _defaults_for(group.server, group.components, catalog)
        if missing:
            findings.append(finding(f"node_groups[{index}]", NodeIncomplete(server=group.server, missing=missing)))
        if extra:
            added += [DefaultAdded(group.name, c.part, c.quantity, c.role) for c in extra]
            findings.append(
                finding(
                    f"node_groups[{index}]",
                    NodeDefaultsAdded(
                        server=group.server,
                        added=[{"part": c.part, "quantity": c.quantity, "role": c.role} for c in extra],
                    ),
                )
            )
            group = group.model_copy(update={"components": group.components + tuple(extra)})
        groups.append(group)
    if not added:
        return design, [], findings
    return design.model_copy(update={"node_groups": tuple(groups)}), added, findings


def _defaults_for(
    server_pn: str, components: tuple[ComponentIn, ...], catalog: CatalogView
) -> tuple[list[ComponentIn], list[str]]:
    """The server's default parts for each role the group does not name, and the roles that stay missing because
    the catalogue holds no default for them (SYS-420GP-TNAR, a DDR4 platform without a node set)."""
    server = catalog.get(server_pn)
    if not isinstance(server, ServerSpec) or server.rack_scale:  # a rack-scale system's trays come fitted
        return [], []
    named = _named_roles(components, catalog)
    defaults = {d.role: d for d in server.default_parts if catalog.get(d.part_number) is not None}
    extra, missing = [], []
    for role in DEFAULT_ROLES:
        if role in named:
            continue
        if role in defaults:
            d = defaults[role]
            extra.append(ComponentIn(part=d.part_number, quantity=d.quantity, role=role))
        else:
            missing.append(role)
    return extra, missing
