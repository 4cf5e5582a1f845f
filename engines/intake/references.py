"""Checking a well-shaped design's part references against the catalogue view: unknown part numbers, and parts
used where another kind belongs (a switch as a node component, a CPU given the role of memory). Raises
DesignInputError with the field paths, like the parser (engines.intake.parse)."""

from __future__ import annotations

from design.model import DesignIn, DesignInputError, NetworkIn
from design.specs import NOT_COMPONENTS, AdapterSpec, CpuSpec, DriveSpec, MemorySpec, PartSpec, ServerSpec, SwitchSpec
from engines.catalog_view import CatalogView

# The roles each kind of node part may take (contract design/v1 "Additions"); a drive is a boot or a data
# (storage) drive, an adapter a compute, storage or management NIC.
ROLES_BY_KIND: tuple[tuple[type, tuple[str, ...]], ...] = (
    (CpuSpec, ("cpu",)),
    (MemorySpec, ("memory",)),
    (DriveSpec, ("boot", "storage")),
    (AdapterSpec, ("compute", "storage", "management")),
)


_ARTICLE = {"adapter": "an adapter", "other": "another kind of part", "memory": "a memory module (DIMM)"}


def _kind(spec: PartSpec) -> str:
    cat = str(spec.category)
    return _ARTICLE.get(cat, f"a {cat}")


def describe_misuse(spec: PartSpec, expected: str) -> str:
    """ "'MQM9700-NS2F' is a switch, not a server"."""
    return f"{spec.part_number!r} is {_kind(spec)}, not {expected}"


def component_misuse(spec: PartSpec, group_index: int | None = None) -> str | None:
    """Why this part cannot be a node component, or None if it can, and where it belongs instead.

    Components are GPUs, adapters, NVLink bridges and other in-node parts. A server belongs in the node group's
    ``server`` field, a switch in ``fabric.switch``; cables and optics are chosen by the fabric plan, not listed
    per node.
    """
    if not isinstance(spec, NOT_COMPONENTS):
        return None
    if isinstance(spec, ServerSpec):
        where = f"node_groups[{group_index}].server" if group_index is not None else "a node group's server"
        return f"{describe_misuse(spec, 'a node component')}; a server belongs in {where}"
    if isinstance(spec, SwitchSpec):
        return f"{describe_misuse(spec, 'a node component')}; a switch belongs in fabric.switch"
    return f"{describe_misuse(spec, 'a node component')}; cables and optics come from the fabric plan"


def role_misfit(spec: PartSpec, role: str) -> str | None:
    """Why ``role`` does not fit this part (a CPU given as memory, a DIMM as a boot drive), or None if it does.
    GPUs and bridges take no role; their role field is ignored as before."""
    for kind, roles in ROLES_BY_KIND:
        if isinstance(spec, kind):
            if role in roles:
                return None
            return f"{spec.part_number!r} is {_kind(spec)}; its role is {' or '.join(roles)}, not {role!r}"
    return None


def ports_used_misfit(spec: PartSpec, ports_used: int) -> str | None:
    """Why ``ports_used`` does not fit this part: only adapters have ports to cable, at most as many as they have."""
    if not isinstance(spec, AdapterSpec):
        return f"{spec.part_number!r} is {_kind(spec)}; only adapters take ports_used"
    if ports_used > spec.ports:
        return (
            f"{ports_used} ports used, but {spec.part_number} has {spec.ports} port{'s' if spec.ports != 1 else ''}; "
            f"give at most {spec.ports}"
        )
    return None


def check_references(design: DesignIn, catalog: CatalogView) -> None:
    """Raise DesignInputError for unknown part numbers and parts used where another kind belongs."""
    errors: dict[str, str] = {}

    def unknown(pn: str) -> str:
        return f"unknown part number {pn!r}: not in catalogue {catalog.version}"

    for i, group in enumerate(design.node_groups):
        path = f"node_groups[{i}].server"
        spec = catalog.get(group.server)
        if spec is None:
            errors[path] = unknown(group.server)
        elif not isinstance(spec, ServerSpec):
            errors[path] = describe_misuse(spec, "a server")
        for j, comp in enumerate(group.components):
            path = f"node_groups[{i}].components[{j}].part"
            spec = catalog.get(comp.part)
            if spec is None:
                errors[path] = unknown(comp.part)
            elif (why := component_misuse(spec, i)) is not None:
                errors[path] = why
            elif comp.role is not None and (why := role_misfit(spec, comp.role)) is not None:
                errors[f"node_groups[{i}].components[{j}].role"] = why
            if spec is not None and comp.ports_used is not None and (why := ports_used_misfit(spec, comp.ports_used)):
                errors[f"node_groups[{i}].components[{j}].ports_used"] = why
    if design.fabric is not None:
        spec = catalog.get(design.fabric.switch)
        if spec is None:
            errors["fabric.switch"] = unknown(design.fabric.switch)
        elif not isinstance(spec, SwitchSpec):
            errors["fabric.switch"] = describe_misuse(spec, "a switch")
        if design.fabric.hca is not None:
            spec = catalog.get(design.fabric.hca)
            if spec is None:
                errors["fabric.hca"] = unknown(design.fabric.hca)
            elif not isinstance(spec, AdapterSpec):
                errors["fabric.hca"] = describe_misuse(spec, "an adapter (HCA)")
    for key, network in _chosen_networks(design):
        if network.switch is not None:
            spec = catalog.get(network.switch)
            if spec is None:
                errors[f"networks.{key}.switch"] = unknown(network.switch)
            elif not isinstance(spec, SwitchSpec):
                errors[f"networks.{key}.switch"] = describe_misuse(spec, "a switch")
    if errors:
        raise DesignInputError(errors)


def _chosen_networks(design: DesignIn) -> list[tuple[str, NetworkIn]]:
    """The networks of ``design.networks`` the customer gave choices for (not left out, not supplied)."""
    if design.networks is None:
        return []
    chosen = (("storage", design.networks.storage), ("inband", design.networks.inband), ("oob", design.networks.oob))
    return [(key, network) for key, network in chosen if isinstance(network, NetworkIn)]
