"""The design document (contract design/v1, docs/design-v1.md): its node groups, workload, racks, fabric, facility,
networks and services."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, ClassVar, Final

from pydantic import (
    AfterValidator,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    Strict,
    WithJsonSchema,
)
from pydantic_core import InitErrorDetails

from design.contract import (
    COOLING_TYPES,
    DEFAULT_PDU_FEEDS,
    DEFAULT_RACK_UNITS,
    DEFAULT_SUPPORT_YEARS,
    DEFAULT_TOPOLOGY,
    FACILITY_FIELDS,
    MAX_COMPONENTS_PER_GROUP,
    MAX_CONCURRENCY,
    MAX_CONTEXT_TOKENS,
    MAX_NODE_GROUPS,
    MAX_NODES,
    MAX_NODES_PER_RACK,
    MAX_PARAMS_BILLION,
    MAX_PORTS_USED,
    MAX_QUANTITY,
    MAX_RACK_POWER_KW,
    MAX_RACK_UNITS,
    MAX_SUPPORT_YEARS,
    MAX_SYSTEM_PORTS,
    MAX_TARGET_DAYS,
    MAX_TRAINING_TOKENS_BILLION,
    MIN_RACK_UNITS,
    NETWORK_KEYS,
    OOB_PLACEMENTS,
    PDU_FEEDS,
    ROLES,
    SERVICE_KEYS,
    SUPPLIED_ITEMS,
    TOPOLOGIES,
    WORKLOAD_KINDS,
    type_name,
)
from design.jsontext import JsonObject
from design.model.base import (
    SCHEMA,
    Distance,
    Flag,
    Name,
    OneOf,
    PartNumber,
    Ratio,
    Say,
    SlotName,
    Text,
    _Float,
    _In,
    _Int,
    _no_default,
    _no_error_at,
    _optional,
    _Part,
    _refusal,
    _StrictStr,
    _unknown,
    refuse,
)
from design.model.site import SiteIn, site_refusals
from design.vocabulary import FULL_TRAINING_MODES, MODES, PRECISIONS, kind_of


class ComponentIn(_Part):
    part: PartNumber = Field(description="Catalogue part number, e.g. HGX-H200-8GPU or MCX75310AAS-NEAT.")
    quantity: Annotated[_Int, Field(ge=1, le=MAX_QUANTITY), Say("whole", what=" for one node")] = Field(
        description="Per node."
    )
    role: Annotated[_StrictStr, OneOf(ROLES), Say("choice")] | None = Field(
        None, description="Optional; without it the service infers one."
    )
    slots: Annotated[
        tuple[SlotName, ...] | None,
        Say("list", what=" of slot names"),
        Field(description="Optional explicit placement: one slot name of the server per part."),
    ] = None
    ports_used: Annotated[_Int, Field(ge=1, le=MAX_PORTS_USED), Say("whole")] | None = Field(
        None,
        description="Adapters only: ports cabled per card, 1 up to the adapter's port count (more is a 400 naming "
        "this field). Default: every port. A compute adapter's cabled ports are its rails: a dual-port card with "
        "both ports used is two links to two rail leaves.",
    )


def _group_names(raw: Any) -> Any:
    """A node group without a name (or an empty one) is called "group <n>" (1-based)."""
    if not isinstance(raw, list):
        return raw
    return [
        {**g, "name": f"group {i + 1}"} if isinstance(g, dict) and g.get("name") in (None, "") else g
        for i, g in enumerate(raw)
    ]


class NodeGroupIn(_In):
    model_config = ConfigDict(json_schema_extra=_optional("name"))

    name: Name = Field(description="Default: group <n>, counting from 1.")
    count: Annotated[_Int, Field(ge=1, le=MAX_NODES), Say("whole", what=" for a node count")]
    server: PartNumber = Field(description="A server part number, e.g. SYS-821GE-TNHR.")
    components: Annotated[
        tuple[ComponentIn, ...],
        Field(max_length=MAX_COMPONENTS_PER_GROUP, description=f"At most {MAX_COMPONENTS_PER_GROUP} per group."),
        Say("list"),
    ] = ()

    @classmethod
    def _cross(cls, data: JsonObject, errors: list[Any]) -> list[InitErrorDetails]:
        """Explicit slots name one slot per part."""
        components = data.get("components")
        if not isinstance(components, (list, tuple)):
            return []
        out: list[InitErrorDetails] = []
        for j, comp in enumerate(components):
            if not isinstance(comp, dict) or not isinstance(slots := comp.get("slots"), (list, tuple)):
                continue
            quantity = comp.get("quantity")
            if (
                len(slots) != quantity
                and _no_error_at(errors, "components", j, "slots")
                and _no_error_at(errors, "components", j, "quantity")
            ):
                message = f"names {len(slots)} slots for a quantity of {quantity}; give one slot per part"
                out.append(_refusal(("components", j, "slots"), message, slots))
        return out


class WorkloadIn(_In):
    model_config = ConfigDict(json_schema_extra=_optional("kind"))
    _nullable: ClassVar[frozenset[str]] = frozenset({"independent_jobs"})  # null is neither true nor false

    kind: Annotated[_StrictStr, OneOf(WORKLOAD_KINDS), Say("choice")] = Field(
        description="training or inference; required unless mode is given."
    )
    model_parameters_billion: Annotated[_Float, Field(gt=0, le=MAX_PARAMS_BILLION), Say("positive")]
    # pretraining, full-finetune, lora, inference; "" = the kind's default (sizing.default_mode)
    mode: Annotated[_StrictStr, OneOf(MODES), Say("choice")] = Field(
        "", description="Default: pretraining or inference.", json_schema_extra=_no_default
    )
    precision: Annotated[_StrictStr, OneOf(PRECISIONS), Say("choice")] = "bf16"
    context_tokens: Annotated[_Int, Field(ge=1, le=MAX_CONTEXT_TOKENS), Say("whole", what=" of tokens")] | None = Field(
        None, description="Inference: tokens per sequence held in the KV cache."
    )
    concurrency: Annotated[_Int, Field(ge=1, le=MAX_CONCURRENCY), Say("whole", what=" of sequences")] | None = Field(
        None, description="Inference: sequences served at once."
    )
    independent_jobs: Flag = Field(
        False,
        description="True when the nodes run separate jobs (inference replicas, separate experiments) and no job "
        "spans nodes: two or more GPU nodes without a compute fabric are then an info, not a warning.",
    )
    training_tokens_billion: (
        Annotated[
            _Float, Field(gt=0, le=MAX_TRAINING_TOKENS_BILLION), Say("above_zero", high=MAX_TRAINING_TOKENS_BILLION)
        ]
        | None
    ) = Field(None, description="Training only: the tokens the run trains on, in billions.")
    target_days: Annotated[_Float, Field(gt=0, le=MAX_TARGET_DAYS), Say("above_zero", high=MAX_TARGET_DAYS)] | None = (
        Field(
            None, description="Training only: the days the run should take (the sizing needs training_tokens_billion)."
        )
    )

    @classmethod
    def _prepare(cls, data: JsonObject) -> JsonObject:
        data = super()._prepare(data)
        # kind may be left out when mode says it (mode "inference" is kind inference, every other mode training)
        if "kind" not in data and data.get("mode") in MODES:
            data = {**data, "kind": kind_of(data["mode"])}
        return data

    @classmethod
    def _cross(cls, data: JsonObject, errors: list[Any]) -> list[InitErrorDetails]:
        def valid(key: str) -> Any:
            return data.get(key) if key in data and _no_error_at(errors, key) else None

        out: list[InitErrorDetails] = []
        mode, kind = valid("mode"), valid("kind")
        given = data.get("kind")
        if mode is None and isinstance(given, str) and not given.strip():
            out.append(_refusal(("kind",), "must not be empty", given))  # kind is required without a mode
        if kind is None and mode is not None:
            kind = kind_of(mode)
        if kind is not None and mode is not None and kind_of(mode) != kind:
            out.append(_refusal(("mode",), f"{mode!r} is not a mode of kind {kind!r}", mode))
        precision = valid("precision") if "precision" in data else "bf16"
        if precision == "int4" and (mode in FULL_TRAINING_MODES or (mode is None and kind == "training")):
            message = "int4 applies to inference and LoRA (QLoRA) only; full training keeps bf16 or fp8 weights"
            out.append(_refusal(("precision",), message, precision))
        for key, only in (
            ("context_tokens", "training"),
            ("concurrency", "training"),
            ("training_tokens_billion", "inference"),
            ("target_days", "inference"),
        ):
            if kind == only and valid(key) is not None:
                message = (
                    "applies to inference only (it sizes the KV cache)"
                    if only == "training"
                    else "applies to training only"
                )
                out.append(_refusal((key,), message, data[key]))
        return out


class RackIn(_Part):
    """Overrides of the documented rack model (all optional; limits: design.contract)."""

    nodes_per_rack: Annotated[_Int, Field(ge=1, le=MAX_NODES_PER_RACK), Say("whole", what=" for one rack")] | None = (
        None
    )
    in_rack_m: Distance | None = Field(None, description="Node to leaf when the leaf is in the same rack.")
    node_to_leaf_m: Distance | None = Field(
        None, description="Row run from a node rack to the middle-of-row leaf rack."
    )
    leaf_to_spine_m: Distance | None = None
    spine_to_core_m: Distance | None = None


def _ratio_given(data: JsonObject) -> JsonObject:
    """An empty oversubscription is the default, as if absent."""
    if data.get("oversubscription") == "":
        data = {k: v for k, v in data.items() if k != "oversubscription"}
    return data


class FabricIn(_In):
    @classmethod
    def _prepare(cls, data: JsonObject) -> JsonObject:
        return _ratio_given(super()._prepare(data))

    switch: PartNumber = Field(description="A switch part number, e.g. MQM9700-NS2F.")
    oversubscription: Ratio = "1:1"
    topology: Annotated[_StrictStr, OneOf(TOPOLOGIES), Say("choice")] = DEFAULT_TOPOLOGY
    hca: Text | None = Field(None, description="Optional adapter part number of the compute NICs.")
    rails: Annotated[_Int, Field(ge=1, le=MAX_QUANTITY), Say("whole", what=" for rails")] | None = Field(
        None, description="Default: the compute NICs per node."
    )
    rack: RackIn = RackIn()


def _supplied(value: Any) -> tuple[str, ...] | None:
    """``facility.supplied``: a list of SUPPLIED_ITEMS (repeats read once), kept in the contract's order; None (null)
    is the size's default."""
    if value is None or isinstance(value, tuple):
        return value  # null, or built in Python (already read)
    names = f"{', '.join(SUPPLIED_ITEMS[:-1])} or {SUPPLIED_ITEMS[-1]}"
    if not isinstance(value, list):
        raise refuse(f"must be a list of {names}, not {type_name(value)}")
    for item in value:
        if item not in SUPPLIED_ITEMS or not isinstance(item, str):
            shown = repr(item) if isinstance(item, str) else type_name(item)
            raise refuse(f"holds {shown}; each item must be one of {names}")
    return tuple(item for item in SUPPLIED_ITEMS if item in value)


Supplied = Annotated[
    tuple[str, ...] | None,
    PlainValidator(_supplied),
    WithJsonSchema(
        {"anyOf": [{"type": "array", "items": {"type": "string", "enum": list(SUPPLIED_ITEMS)}}, {"type": "null"}]}
    ),
]


class FacilityIn(_In):
    """The design's ``facility``: the racks and power the site offers; every field optional.

    ``None`` means not given: the rack planner then uses its stated default (per cooling type for the power), and
    the offer leaves out what a design of its size usually finds on site (configurator.cluster.left_out).
    """

    model_config = ConfigDict(extra="forbid")

    rack_units: Annotated[_Int, Field(ge=MIN_RACK_UNITS, le=MAX_RACK_UNITS), Say("whole", what=" for a rack")] = Field(
        DEFAULT_RACK_UNITS, description="Units per rack."
    )
    rack_power_kw: Annotated[_Float, Field(gt=0, le=MAX_RACK_POWER_KW), Say("positive")] | None = Field(
        None,
        description="The most one rack may draw, in kW. Absent: 30 kW for air cooling, 80 kW for liquid (stated in "
        "the result's rack_plan.rack_power_basis and a RACK_POWER_DEFAULT finding).",
    )
    cooling: Annotated[_StrictStr, OneOf(COOLING_TYPES), Say("choice")] | None = Field(
        None, description="air or liquid. Absent: liquid if any server is liquid-cooled, else air."
    )
    pdu_feeds: Annotated[_StrictStr, OneOf(PDU_FEEDS), Say("choice")] = Field(
        DEFAULT_PDU_FEEDS, description="A: one feed; A+B: two, each carrying the rack."
    )
    supplied: Supplied = Field(
        None,
        description="What the site already has, which the offer leaves out: any of racks (the enclosures), power "
        "(PDUs and node power cords), oob (the out-of-band management network and its switches), control_plane "
        "(head and management nodes). [] : the offer carries everything. Absent or null: the default for the "
        "design's size (one server: all four; fewer than 4 nodes: control_plane), stated in the result's left_out.",
    )

    @classmethod
    def unknown_key(cls, key: str) -> str:
        return _unknown(key, FACILITY_FIELDS)


class Default(Enum):
    """A network key left out: the service plans that network its own way (DEFAULT)."""

    DEFAULT = "default"


DEFAULT: Final = Default.DEFAULT

# The keys each network's object takes (the contract's order), and why another one is refused.
_NETWORK_FIELDS = {
    "storage": ("switch", "oversubscription", "system_ports"),
    "inband": ("switch", "oversubscription"),
    "oob": ("switch", "placement"),
}
_NETWORK_HINT = {"oob": "use switch or placement"}


class NetworkIn(_In):
    """One of the networks besides the compute fabric; every field optional."""

    model_config = ConfigDict(json_schema_extra={"additionalProperties": False})

    @classmethod
    def _prepare(cls, data: JsonObject) -> JsonObject:
        return _ratio_given(super()._prepare(data))

    switch: Text | None = Field(
        None, description="A catalogue switch part number. Absent: the service's default switch for this network."
    )
    oversubscription: Ratio | None = Field(
        None, description="storage and inband only: downlinks:uplinks, as fabric.oversubscription."
    )
    system_ports: Annotated[_Int, Field(ge=0, le=MAX_SYSTEM_PORTS), Say("whole")] | None = Field(
        None,
        description="storage only: the switch ports the customer's storage systems need (their count times their "
        "ports each). Absent: the storage leaves' free ports are left for them, and a finding says how many.",
    )
    placement: Annotated[_StrictStr, OneOf(OOB_PLACEMENTS), Say("choice")] | None = Field(
        None,
        description="oob only: central (the out-of-band switches in management racks, as the DGX SuperPOD RA racks "
        "them) or per-rack (one in each rack). Absent: central where racks are sparse (fewer than 24 management "
        "ports in the fullest compute rack), else per-rack; a finding states the choice.",
    )


def _network(value: Any) -> NetworkIn | None | Default:
    if value is None or value is DEFAULT or isinstance(value, NetworkIn):
        return value
    if not isinstance(value, dict):  # null is the other answer a network key takes
        raise refuse(f"must be an object or null, not {type_name(value)}")
    return NetworkIn.model_validate(value)


Network = Annotated[
    NetworkIn | None | Default,
    PlainValidator(_network, json_schema_input_type=NetworkIn | None),
]


class NetworksIn(_In):
    """``networks``: per key, DEFAULT (absent: planned by the service), None (null: the customer supplies that
    network, and a finding says so) or the customer's choices (NetworkIn)."""

    model_config = ConfigDict(json_schema_extra={"additionalProperties": False})

    @classmethod
    def _prepare(cls, data: JsonObject) -> JsonObject:
        return data  # a null network is the customer's; a null unknown key is still unknown

    storage: Network = Field(
        DEFAULT,
        json_schema_extra=_no_default,
        description="null: the customer supplies it. Absent: planned from the storage adapters.",
    )
    inband: Network = Field(
        DEFAULT,
        json_schema_extra=_no_default,
        description="null: the customer supplies it. Absent: planned from the management adapters.",
    )
    oob: Network = Field(
        DEFAULT,
        json_schema_extra=_no_default,
        description="null: the customer supplies it. Absent: planned (every node has a BMC port).",
    )

    @classmethod
    def _cross(cls, data: JsonObject, errors: list[Any]) -> list[InitErrorDetails]:
        out = [
            _refusal((key,), f"unknown key '{key}'; use storage, inband or oob", data[key])
            for key in data
            if key not in NETWORK_KEYS
        ]
        for key in NETWORK_KEYS:
            value = data.get(key)
            if not isinstance(value, dict):
                continue
            allowed = _NETWORK_FIELDS[key]
            for k in value:
                if k in allowed:
                    continue
                if k == "placement":
                    message = "placement applies to the out-of-band network only"
                elif k == "oversubscription":
                    message = "oversubscription does not apply to the out-of-band network"
                elif k == "system_ports":
                    message = "system_ports applies to the storage network only"
                else:
                    message = (
                        f"unknown key '{k}'; {_NETWORK_HINT.get(key, 'use switch, oversubscription or system_ports')}"
                    )
                out.append(_refusal((key, k), message, value[k]))
        return out


def _total_nodes(groups: Any, errors: list[Any]) -> int:
    """The nodes of the groups that are read: a bad name (read as the default) or a bad role (read as none) leaves a
    group in the total; any other bad field takes it out."""
    bad = {
        e["loc"][1]
        for e in errors
        if len(e["loc"]) > 1
        and e["loc"][0] == "node_groups"
        and (len(e["loc"]) == 2 or e["loc"][2] != "name")
        and not (len(e["loc"]) == 5 and e["loc"][4] == "role")
    }
    return sum(g["count"] if isinstance(g, dict) else g.count for i, g in enumerate(groups) if i not in bad)


def _bounded(raw: Any) -> Any:
    """One node group or more, and an oversized list refused before any group is read (bounded work)."""
    if isinstance(raw, list) and not raw:
        raise refuse("must hold at least one node group")
    if isinstance(raw, list) and len(raw) > MAX_NODE_GROUPS:
        raise refuse(f"holds {len(raw):,} node groups; the most a design may have is {MAX_NODE_GROUPS}")
    return _group_names(raw)


NodeGroups = Annotated[
    tuple[NodeGroupIn, ...],
    BeforeValidator(_bounded),
    Field(
        json_schema_extra={"minItems": 1, "maxItems": MAX_NODE_GROUPS},
        description=f"One to {MAX_NODE_GROUPS} groups, with at most {MAX_NODES:,} nodes together (400 otherwise, "
        "naming the limit).",
    ),
    Say("list", missing="is required: one or more node groups"),
]


def _support_years(value: int) -> int:
    if value > MAX_SUPPORT_YEARS:
        raise refuse(f"must be at most {MAX_SUPPORT_YEARS} years, not {value}")
    return value


def _service_flag(value: Any) -> Any:
    if not isinstance(value, bool):
        raise refuse(f"must be true or false, not {type_name(value)}")
    return value


ServiceFlag = Annotated[bool, BeforeValidator(_service_flag), Strict()]


class ServicesIn(_In):
    """``services`` (optional): the commercial lines the offer carries; each can be declined. Defaults: what a
    professional buyer of a GPU cluster expects, three years of hardware support, installation and rack
    integration, NVIDIA AI Enterprise for NVIDIA data-centre GPUs."""

    model_config = ConfigDict(extra="forbid")

    support_years: Annotated[
        _Int,
        Field(ge=0, json_schema_extra={"maximum": MAX_SUPPORT_YEARS}),
        AfterValidator(_support_years),
        Say("whole"),
    ] = Field(
        DEFAULT_SUPPORT_YEARS,
        description=f"Years of hardware warranty and support, 0 to {MAX_SUPPORT_YEARS}; 0 declines it.",
    )
    installation: ServiceFlag = Field(True, description="Installation and rack integration, per rack.")
    ai_enterprise: ServiceFlag = Field(
        True, description="NVIDIA AI Enterprise per NVIDIA GPU, for the support years (at least one)."
    )

    @classmethod
    def unknown_key(cls, key: str) -> str:
        return f"unknown key '{key}'; use {', '.join(SERVICE_KEYS[:-1])} or {SERVICE_KEYS[-1]}"


class DesignIn(_In):
    """A design as the engines read it (engines.intake.parse.parse_design returns a DesignDocument, which is one)."""

    name: Name = ""
    workload: WorkloadIn | None = None
    node_groups: NodeGroups = ()
    fabric: FabricIn | None = Field(None, description="null or absent: no compute fabric.")
    facility: FacilityIn = Field(FacilityIn(), description="null or absent: the defaults.")
    networks: NetworksIn | None = Field(
        None,
        description="The storage, in-band management and out-of-band networks; null or absent: every network "
        "planned by the service.",
    )
    services: ServicesIn = Field(
        ServicesIn(), description="The offer's support, installation and NVIDIA AI Enterprise; null or absent: all."
    )
    site: SiteIn | None = Field(None, description="The naming template of nodes and switches; absent: node-0001.")

    @property
    def node_count(self) -> int:
        return sum(g.count for g in self.node_groups)

    @classmethod
    def _cross(cls, data: JsonObject, errors: list[Any]) -> list[InitErrorDetails]:
        groups = data.get("node_groups")
        if not isinstance(groups, (list, tuple)) or any(e["loc"] == ("node_groups",) for e in errors):
            return []
        total = _total_nodes(groups, errors)
        if total > MAX_NODES:
            message = f"{total:,} nodes in total is an absurd size; the most this tool accepts is {MAX_NODES:,}"
            return [_refusal(("node_groups",), message, groups)]
        return [*_same_names(groups), *site_refusals(data.get("site"), total, errors)]


def _same_names(groups: list[Any] | tuple[Any, ...]) -> list[InitErrorDetails]:
    """A node group's name is its handle in findings, the bill, the racks and an expansion: two groups may not
    share one (an unnamed group's is its default, ``group <n>``)."""
    seen: dict[str, int] = {}
    out: list[InitErrorDetails] = []
    for i, g in enumerate(groups):
        if not isinstance(g, dict):
            continue
        name = g.get("name") or f"group {i + 1}"
        if not isinstance(name, str):
            continue
        if name in seen:
            message = f"{name!r} names node_groups[{seen[name]}] too; give each node group a name of its own"
            out.append(_refusal(("node_groups", i, "name"), message, name))
        else:
            seen[name] = i
    return out


def _schema_is(value: Any) -> str:
    if value != SCHEMA:
        raise refuse(f'must be "{SCHEMA}", not {value!r}')
    return SCHEMA


class DesignDocument(DesignIn):
    """A design document, contract design/v1 (docs/design-v1.md)."""

    model_config = ConfigDict(title="Design")
    _nullable: ClassVar[frozenset[str]] = frozenset({"schema"})

    schema_: Annotated[
        str,
        PlainValidator(_schema_is),
        WithJsonSchema({"type": "string", "enum": [SCHEMA]}),
        Say("schema", missing=f'is required and must be "{SCHEMA}"'),
    ] = Field(alias="schema")
    node_groups: NodeGroups  # required in a document
