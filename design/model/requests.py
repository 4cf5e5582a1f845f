"""The two requests that are no design: the fabric-plan request (contract design/v1 "Fabric plan") and the
recommendation request (a workload and optional limits)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    WithJsonSchema,
)
from pydantic_core import InitErrorDetails

from design.contract import (
    DEFAULT_TOPOLOGY,
    MAX_ENDPOINTS,
    MAX_NODES,
    RACK_FIELDS,
    TOPOLOGIES,
    parse_oversubscription,
    type_name,
)
from design.jsontext import JsonObject
from design.model.base import (
    _NOT_BLANK,
    Say,
    _Float,
    _In,
    _Int,
    _no_error_at,
    _refusal,
    _StrictStr,
    _unknown,
    refuse,
)
from design.model.document import (
    RackIn,
    WorkloadIn,
)


def _request_ratio(value: Any) -> tuple[int, int]:
    if isinstance(value, tuple):
        return value  # built in Python (already parsed)
    try:
        return parse_oversubscription(value)
    except ValueError as exc:
        raise refuse(str(exc)) from None


def _topology(value: Any) -> str:
    if not isinstance(value, str) or value not in TOPOLOGIES:
        raise refuse(f"must be one of {', '.join(TOPOLOGIES)}, got {value!r}")
    return value


def _stripped(value: str) -> str:
    return value.strip()


RequestCount = Annotated[int, Strict(), Field(ge=1), Say("count")]
RequestPart = Annotated[_StrictStr, Field(pattern=_NOT_BLANK), AfterValidator(_stripped), Say("part")]
RequestSwitch = Annotated[_StrictStr, Field(pattern=_NOT_BLANK), AfterValidator(_stripped), Say("switch")]


class FabricRequestIn(_In):
    """The stateless fabric-plan request: ``{"nodes", "rails", "switch", ["oversubscription", "topology", "hca",
    "rack"]}``; unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", title="FabricPlanRequest")

    nodes: Annotated[RequestCount, Field(json_schema_extra={"maximum": MAX_ENDPOINTS})] = Field(
        description=f"nodes × rails is at most {MAX_ENDPOINTS:,}."
    )
    rails: Annotated[RequestCount, Field(json_schema_extra={"maximum": MAX_ENDPOINTS})]
    switch: RequestSwitch = Field(description="A switch part number, e.g. MQM9700-NS2F.")
    oversubscription: Annotated[
        tuple[int, int],
        PlainValidator(_request_ratio, json_schema_input_type=str),
        Field(
            description="downlinks:uplinks, e.g. 2:1; each side 1 to 1,000, downlinks at least uplinks.",
            json_schema_extra={"default": "1:1"},
        ),
    ] = (1, 1)
    topology: Annotated[
        str, PlainValidator(_topology), WithJsonSchema({"type": "string", "enum": list(TOPOLOGIES)})
    ] = DEFAULT_TOPOLOGY
    hca: RequestPart | None = Field(None, description="Optional adapter part number of the compute NICs.")
    rack: RackIn = Field(
        RackIn(), description="The design's fabric.rack, with the same limits; other keys are refused."
    )
    node_height_u: RequestCount | None = Field(None, description="Rack units of one node (for the rack layout).")
    node_power_w: RequestCount | None = Field(None, description="Watts one node draws (for the rack layout).")

    @classmethod
    def unknown_key(cls, key: str) -> str:
        return "unknown field"

    @classmethod
    def _cross(cls, data: JsonObject, errors: list[Any]) -> list[InitErrorDetails]:
        rack = data.get("rack")
        out = (
            [_refusal(("rack", key), _unknown(key, RACK_FIELDS), rack) for key in rack or () if key not in RACK_FIELDS]
            if isinstance(rack, dict)
            else []
        )
        nodes: Any = data.get("nodes")
        rails: Any = data.get("rails")
        if (
            "nodes" in data
            and "rails" in data
            and _no_error_at(errors, "nodes")
            and _no_error_at(errors, "rails")
            and nodes * rails > MAX_ENDPOINTS
        ):
            message = (
                f"{nodes} nodes x {rails} rails = {nodes * rails:,} endpoints exceeds the planner's limit of "
                f"{MAX_ENDPOINTS:,}"
            )
            out.append(_refusal(("nodes",), message, nodes))
        return out


MAX_GPU_FAMILIES = 20  # the recommendation's GPU-family limit: more names than the catalogue has families


def _gpu_families(value: Any) -> list[str]:
    """A list of non-empty strings, at most MAX_GPU_FAMILIES; whether each names a family the catalogue holds is
    the recommendation's to say (it reads the catalogue)."""
    if not isinstance(value, list | tuple):
        raise refuse(f"must be a list of GPU families, not {type_name(value)}")
    if len(value) > MAX_GPU_FAMILIES:
        raise refuse(f"names {len(value):,} GPU families; the most it takes is {MAX_GPU_FAMILIES}")
    for item in value:
        if not isinstance(item, str):
            raise refuse(f"must hold GPU family names (strings), not {type_name(item)}")
        if not item.strip():
            raise refuse("must not hold an empty GPU family name")
    return [item.strip() for item in value]


class RecommendLimitsIn(_In):
    """What a recommendation must keep to; every key optional, unknown keys refused."""

    model_config = ConfigDict(extra="forbid", title="RecommendLimits")

    gpu_families: Annotated[
        list[str],
        PlainValidator(_gpu_families),
        WithJsonSchema({"type": "array", "items": {"type": "string", "minLength": 1}, "maxItems": MAX_GPU_FAMILIES}),
    ] = Field(
        default_factory=list,
        description="GPU families allowed, by the first word of the GPU model (H100, H200, B200, B300, L40S) or a "
        "generation (Hopper, Blackwell); empty or absent: any.",
    )
    budget_eur: Annotated[_Float, Field(gt=0), Say("positive")] | None = Field(
        None, description="The most the design's list price (its bill of materials) may be, in euros."
    )
    max_nodes: Annotated[_Int, Field(ge=1, le=MAX_NODES), Say("whole", what=" for a node count")] | None = Field(
        None, description="The most servers (or NVL72 racks) the design may have."
    )

    @classmethod
    def unknown_key(cls, key: str) -> str:
        return "unknown field"


class RecommendRequestIn(_In):
    """The recommendation request: ``{"workload": {...}, "limits": {...}}``; the workload as a design's (kind,
    model size, mode, precision, the KV cache's context and concurrency, the run's tokens and target days, a GPU or
    node count), the limits optional."""

    model_config = ConfigDict(extra="forbid", title="RecommendRequest")

    workload: Annotated[WorkloadIn, Say("text")] = Field(description="The workload, as a design's workload.")
    limits: RecommendLimitsIn = Field(RecommendLimitsIn(), description="Optional limits.")

    @classmethod
    def unknown_key(cls, key: str) -> str:
        return "unknown field"
