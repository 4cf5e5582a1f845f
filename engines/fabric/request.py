"""The stateless fabric-plan request (contract design/v1, "Fabric plan"): parsing and part resolution.

``parse_fabric_request`` checks the shape and ranges of the JSON body and names every bad field;
``resolve`` looks the named parts up in the catalogue. Both raise ``DesignInputError`` ({field: message}).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from design.contract import (
    DEFAULT_TOPOLOGY,
    MAX_ENDPOINTS,
    RACK_FIELDS,
    TOPOLOGIES,
    Checker,
    parse_oversubscription,
    rack_values,
)
from design.model import DesignInputError, RackIn
from design.specs import AdapterSpec, CatalogView, SwitchSpec

__all__ = ["TOPOLOGIES", "FabricRequestIn", "parse_fabric_request", "parse_oversubscription", "parse_rack", "resolve"]

_FIELDS = {"nodes", "rails", "switch", "oversubscription", "topology", "hca", "rack", "node_height_u", "node_power_w"}


@dataclass(frozen=True, kw_only=True)
class FabricRequestIn:
    nodes: int
    rails: int
    switch: str
    oversubscription: tuple[int, int] = (1, 1)
    topology: str = DEFAULT_TOPOLOGY
    hca: str | None = None
    rack: RackIn = field(default_factory=RackIn)
    node_height_u: int | None = None
    node_power_w: int | None = None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _positive_int(
    raw: dict[str, Any], key: str, errors: dict[str, str], *, required: bool, path: str = ""
) -> int | None:
    name = f"{path}{key}"
    if key not in raw or raw[key] is None:
        if required:
            errors[name] = "is required"
        return None
    value = raw[key]
    if not _is_int(value):
        errors[name] = f"must be a whole number, got {value!r}"
        return None
    if value < 1:
        errors[name] = f"must be at least 1, got {value}"
        return None
    return cast(int, value)


def parse_rack(raw: Any, errors: dict[str, str], path: str = "rack") -> RackIn:
    """Rack-model overrides, with the design's limits (design.contract); unknown fields are refused, as
    everywhere in this request."""
    c = Checker(errors)
    if isinstance(raw, dict):
        c.unknown_fields(raw, RACK_FIELDS, prefix=f"{path}.")
    return RackIn(**rack_values(c, raw, path))


def parse_fabric_request(raw: dict[str, Any]) -> FabricRequestIn:
    """Parse ``{"nodes", "rails", "switch", ["oversubscription", "topology", "hca", "rack"]}``."""
    if not isinstance(raw, dict):
        raise DesignInputError({"(body)": "must be a JSON object"})
    errors: dict[str, str] = {}
    for key in raw:
        if key not in _FIELDS:
            errors[key] = "unknown field"
    nodes = _positive_int(raw, "nodes", errors, required=True)
    rails = _positive_int(raw, "rails", errors, required=True)
    if nodes and rails and nodes * rails > MAX_ENDPOINTS:
        errors["nodes"] = (
            f"{nodes} nodes x {rails} rails = {nodes * rails:,} endpoints exceeds the planner's limit of "
            f"{MAX_ENDPOINTS:,}"
        )
    switch = raw.get("switch")
    if switch is None or (isinstance(switch, str) and not switch.strip()):
        errors["switch"] = "is required"
    elif not isinstance(switch, str):
        errors["switch"] = f"must be a part number string, got {switch!r}"
    oversub = (1, 1)
    if raw.get("oversubscription") is not None:
        try:
            oversub = parse_oversubscription(raw["oversubscription"])
        except ValueError as exc:
            errors["oversubscription"] = str(exc)
    topology = DEFAULT_TOPOLOGY if raw.get("topology") is None else raw["topology"]  # {} or "" is no default
    if topology not in TOPOLOGIES:
        errors["topology"] = f"must be one of {', '.join(TOPOLOGIES)}, got {topology!r}"
    hca = raw.get("hca")
    if hca is not None and (not isinstance(hca, str) or not hca.strip()):
        errors["hca"] = f"must be a part number string, got {hca!r}"
    rack = parse_rack(raw.get("rack"), errors)
    height = _positive_int(raw, "node_height_u", errors, required=False)
    power = _positive_int(raw, "node_power_w", errors, required=False)
    if errors:
        raise DesignInputError(errors)
    # no errors: the required fields are there
    return FabricRequestIn(
        nodes=cast(int, nodes),
        rails=cast(int, rails),
        switch=cast(str, switch).strip(),
        oversubscription=oversub,
        topology=topology,
        hca=hca.strip() if hca else None,
        rack=rack,
        node_height_u=height,
        node_power_w=power,
    )


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
