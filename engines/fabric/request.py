"""The stateless fabric-plan request (contract design/v1, "Fabric plan"; docs/design-v1.md): part resolution.

``parse_fabric_request`` (engines.intake.parse, the typed model design.model.FabricRequestIn) checks the shape and
ranges of the JSON body and names every bad field; ``resolve`` looks the named parts up in the catalogue. Both
raise ``DesignInputError`` ({field: message}).
"""

from __future__ import annotations

from typing import Any, cast

from design.contract import TOPOLOGIES, parse_oversubscription
from design.model import DesignInputError, FabricRequestIn
from design.specs import AdapterSpec, SwitchSpec
from engines.catalog_view import CatalogView
from engines.intake.parse import parse_fabric_request

__all__ = ["TOPOLOGIES", "FabricRequestIn", "parse_fabric_request", "parse_oversubscription", "resolve"]


def _kind(part: Any) -> str:
    category = str(getattr(part, "category", "other"))
    article = "an" if category[:1] in "aeiou" else "a"
    return f"{article} {'GPU' if category == 'gpu' else category}"


def resolve_parts(
    catalog: CatalogView, switch: str, hca: str | None, *, switch_field: str = "switch", hca_field: str = "hca"
) -> tuple[SwitchSpec, AdapterSpec | None]:
    """Look up the switch and HCA part numbers; name the field of an unknown or wrong-kind part."""
    errors: dict[str, str] = {}
    sw = catalog.get(switch)
    if sw is None:
        errors[switch_field] = f"unknown part '{switch}'"
    elif not isinstance(sw, SwitchSpec):
        errors[switch_field] = f"'{switch}' is {_kind(sw)}, not a switch"
    adapter = None
    if hca is not None:
        adapter = catalog.get(hca)
        if adapter is None:
            errors[hca_field] = f"unknown part '{hca}'"
        elif not isinstance(adapter, AdapterSpec):
            errors[hca_field] = f"'{hca}' is {_kind(adapter)}, not an adapter"
    if errors:
        raise DesignInputError(errors)
    return cast(SwitchSpec, sw), cast("AdapterSpec | None", adapter)  # no errors: each is of its kind


def resolve(req: FabricRequestIn, catalog: CatalogView) -> tuple[SwitchSpec, AdapterSpec | None]:
    """The request's switch and HCA as catalogue specs. Rails a rail-optimized fabric of that switch can never
    wire are bad input, naming ``rails`` (see ``rails_beyond_radix``). A management switch is not judged by its
    radix: the plan refuses it as a fabric switch and says so (FABRIC_SWITCH_IS_MANAGEMENT)."""
    switch, hca = resolve_parts(catalog, req.switch, req.hca)
    message = None if switch.management else rails_beyond_radix(req.nodes, req.rails, switch, req.topology)
    if message:
        raise DesignInputError({"rails": message})
    return switch, hca


def rails_beyond_radix(nodes: int, rails: int, switch: SwitchSpec, topology: str) -> str | None:
    """Rail-optimized puts one leaf per rail in every scalable unit, and every leaf needs a link to every spine,
    so one spine layer of k-port switches takes at most k leaves: more than k rails (k = the switch's logical
    ports, 64 on a QM9700) cannot be wired rail-optimized at all, unless every endpoint fits on one switch
    (k x max_split ports). Such a rail count is not a design but a typo; fewer rails that still do not fit
    (between k/2 and k, beyond one SU) are explained by the planner's FABRIC_PORTS_EXCEEDED finding."""
    k = switch.logical_ports
    if topology != "rail-optimized" or k <= 0 or rails <= k or nodes * rails <= k * max(1, switch.max_split):
        return None
    return (
        f"{rails} rails is more than a rail-optimized fabric of {switch.part_number} can wire: every scalable "
        f"unit has one leaf per rail and every leaf needs a link to every spine, so {k}-port switches take at "
        f"most {k} rails (and {nodes} x {rails} endpoints do not fit on one switch); use at most {k} rails (one "
        "compute NIC per GPU, usually 8) or topology fat-tree"
    )
