"""The design document (contract design/v1, docs/design-v1.md) and the fabric-plan request as one typed model.

The pydantic models below are at once the parser (design.parse validates a document with them), what the engines
read (frozen, immutable objects with the attribute names the engines use) and the OpenAPI schema of the two
request bodies (api.schema generates it from these classes). Every limit comes from design.contract; every field
says, through its ``Say``, how its refusals read, so pydantic's errors become the messages and field paths the
doors have always returned (``design.parse.input_errors``). Rules that join two fields (a mode of another kind,
slots that do not match the quantity, the total node count) are each model's ``_cross``; they are checked even
when other fields are bad, so a document gets every bad field at once.

Unknown extra keys are ignored, so the contract can grow optional fields; the ``facility`` object, the ``networks``
object and its networks, and the fabric-plan request (with its ``rack``) refuse them: a typo there would silently
drop a limit the planners must keep.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, ClassVar, Final

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    PlainValidator,
    Strict,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import InitErrorDetails, PydanticCustomError, core_schema

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
    MAX_DISTANCE_M,
    MAX_ENDPOINTS,
    MAX_NAME_LENGTH,
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
    PDU_FEEDS,
    RACK_FIELDS,
    ROLES,
    SERVICE_KEYS,
    SUPPLIED_ITEMS,
    TOPOLOGIES,
    WORKLOAD_KINDS,
    oversubscription_beyond_limit,
    parse_oversubscription,
    ratio_term,
    type_name,
)
from design.vocabulary import FULL_TRAINING_MODES, MODES, PRECISIONS, kind_of

SCHEMA = "design/v1"

__all__ = [
    "DEFAULT",
    "SCHEMA",
    "ComponentIn",
    "Default",
    "DesignDocument",
    "DesignIn",
    "DesignInputError",
    "FabricIn",
    "FabricRequestIn",
    "FacilityIn",
    "NetworkIn",
    "NetworksIn",
    "NodeGroupIn",
    "RackIn",
    "Say",
    "ServicesIn",
    "WorkloadIn",
]


class DesignInputError(Exception):
    """A malformed design or fabric request. ``errors`` maps field paths to messages (English)."""

    def __init__(self, errors: dict[str, str]):
        self.errors = dict(errors)
        super().__init__("; ".join(f"{path}: {msg}" for path, msg in self.errors.items()))


@dataclass(frozen=True)
class Say:
    """How the refusals of one field read (design.parse.input_errors turns pydantic's errors into them).

    ``kind``: ``text`` (a string), ``choice`` (a string of an enum: OneOf), ``ratio`` (``d:u``), ``whole`` (a
    count; ``what`` names it in "an absurd size for one node"), ``positive`` (a positive number), ``above_zero``
    (a round-3 number: "must be a number above 0"), ``flag``, ``list`` (``what``: " of slot names"), ``slot``,
    ``schema``; the fabric-plan request's own wording: ``count`` (a whole number from 1), ``part`` and ``switch``
    (a part number string). ``missing``: the message when the field is absent (or null where it is required).
    """

    kind: str
    what: str = ""
    missing: str = "is required"
    high: float | None = None  # above_zero: the limit, named when the number is infinite


# The message of a rule that joins fields, or of a check pydantic has no constraint for; kept as it is.
DESIGN_ERROR = "design"


def refuse(message: str) -> PydanticCustomError:
    return PydanticCustomError(DESIGN_ERROR, "{message}", {"message": message})


def _refusal(loc: tuple[str | int, ...], message: str, value: Any) -> InitErrorDetails:
    return InitErrorDetails(type=refuse(message), loc=loc, input=value)


@dataclass(frozen=True)
class OneOf:
    """A string that must be one of ``choices`` (an enum in the schema)."""

    choices: tuple[str, ...]

    def check(self, value: str) -> str:
        if value not in self.choices:
            raise refuse(f"must be one of {', '.join(self.choices)}, not {value!r}")
        return value

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {**handler(schema), "enum": list(self.choices)}


def _design_ratio(value: str) -> str:
    """``d:u`` as a design's ``fabric.oversubscription`` reads it (the pattern has already matched)."""
    down, up = (ratio_term(side) for side in value.split(":"))
    if down == 0 or up == 0:
        raise refuse(f"must look like 1:1 or 2:1 (two whole numbers above 0), not {value!r}")
    if message := oversubscription_beyond_limit(value, down, up):
        raise refuse(message)
    return value


# Characters that change how the text around them is shown without being seen themselves: bidirectional
# embeddings, overrides and isolates (the "Trojan Source" trick, CVE-2021-42574) and zero-width characters. A name
# is printed on offers, listed in the admin and written to CSV and XLSX; there it could pass for another name.
_HIDDEN_CHARACTERS = frozenset(
    "\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff"
)


def _visible(value: str) -> str:
    """A name holds no character that is invisible or turns the direction of the text around it."""
    for character in value:
        if character in _HIDDEN_CHARACTERS:
            what = unicodedata.name(character, "an invisible character").lower()
            code = f"U+{ord(character):04X}"
            raise refuse(f"must not contain invisible or direction-changing characters ({code}, {what})")
    return value


_StrictStr = Annotated[str, Strict()]
_NOT_BLANK = r"^\s*\S"
Text = Annotated[_StrictStr, Say("text")]
Name = Annotated[_StrictStr, Field(max_length=MAX_NAME_LENGTH), AfterValidator(_visible), Say("text")]
PartNumber = Annotated[_StrictStr, Field(pattern=_NOT_BLANK), Say("text")]
Ratio = Annotated[
    _StrictStr,
    # "" reads as absent (the default): the schema takes it too
    Field(pattern=r"^(\d+:\d+)?$", description="downlinks:uplinks, e.g. 2:1; each side 1 to 1,000."),
    AfterValidator(_design_ratio),
    Say("ratio"),
]
SlotName = Annotated[_StrictStr, Field(pattern=_NOT_BLANK), Say("slot")]


_Int = Annotated[int, Strict()]
_Float = Annotated[float, Strict(), Field(allow_inf_nan=False)]
Distance = Annotated[_Float, Field(gt=0, le=MAX_DISTANCE_M), Say("positive")]
Flag = Annotated[bool, Strict(), Say("flag")]


def _again(error: Any) -> InitErrorDetails:
    """An error pydantic reported, to be raised again with others."""
    kind = refuse(error["ctx"]["message"]) if error["type"] == DESIGN_ERROR else error["type"]
    again = InitErrorDetails(type=kind, loc=error["loc"], input=error["input"])
    if "ctx" in error and error["type"] != DESIGN_ERROR:
        again["ctx"] = error["ctx"]
    return again


def _optional(*names: str) -> Any:
    """The schema of a model whose fields ``names`` the parser fills in when absent (not required)."""

    def edit(schema: dict[str, Any]) -> None:
        required = [name for name in schema.get("required", ()) if name not in names]
        schema.pop("required", None)
        if required:
            schema["required"] = required

    return edit


def _no_default(schema: dict[str, Any]) -> None:
    """A default that is no JSON value (the parser's own reading of an absent field)."""
    schema.pop("default", None)


def _no_error_at(errors: list[Any], *loc: str | int) -> bool:
    n = len(loc)
    return not any(tuple(e["loc"][:n]) == loc for e in errors)


def _unknown(key: str, allowed: tuple[str, ...]) -> str:
    same = [name for name in allowed if name.lower() == str(key).lower()]
    hint = f"; did you mean {same[0]}?" if same else ""
    return f"unknown field; expected one of {', '.join(allowed)}{hint}"


class _Part(BaseModel):
    """A part of the document: frozen. A model whose optional fields all default to None reads a null as absent
    without help; the others are ``_In``."""

    model_config = ConfigDict(frozen=True, extra="ignore", regex_engine="python-re", validate_default=False)

    @classmethod
    def unknown_key(cls, key: str) -> str:
        """The message for a key the object does not take (models that refuse extra keys)."""
        return _unknown(key, tuple(f.alias or name for name, f in cls.model_fields.items()))


class _In(_Part):
    """A part whose fields given as null read as absent (their defaults), except where null means something of its
    own (``_nullable``); ``_cross`` adds the refusals that join fields, checked even when other fields are bad."""

    _nullable: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def _prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
        if None in data.values():
            data = {k: v for k, v in data.items() if v is not None or k in cls._nullable}
        return data

    @classmethod
    def _cross(cls, data: dict[str, Any], errors: list[Any]) -> list[InitErrorDetails]:
        """Refusals that join fields, from the raw ``data`` and the errors its fields already have."""
        return []

    @model_validator(mode="wrap")
    @classmethod
    def _read(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if not isinstance(data, dict):
            return handler(data)
        data = cls._prepare(data)
        try:
            result = handler(data)
        except ValidationError as exc:
            errors: list[Any] = exc.errors(include_url=False)
            extra = cls._cross(data, errors)
            if not extra:
                raise
            # the joined rules first: where one names a field that also has its own error, it says more
            raise ValidationError.from_exception_data(cls.__name__, [*extra, *map(_again, errors)]) from None
        if extra := cls._cross(data, []):
            raise ValidationError.from_exception_data(cls.__name__, extra)
        return result


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
    def _cross(cls, data: dict[str, Any], errors: list[Any]) -> list[InitErrorDetails]:
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
    def _prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
        data = super()._prepare(data)
        # kind may be left out when mode says it (mode "inference" is kind inference, every other mode training)
        if "kind" not in data and data.get("mode") in MODES:
            data = {**data, "kind": kind_of(data["mode"])}
        return data

    @classmethod
    def _cross(cls, data: dict[str, Any], errors: list[Any]) -> list[InitErrorDetails]:
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


def _ratio_given(data: dict[str, Any]) -> dict[str, Any]:
    """An empty oversubscription is the default, as if absent."""
    if data.get("oversubscription") == "":
        data = {k: v for k, v in data.items() if k != "oversubscription"}
    return data


class FabricIn(_In):
    @classmethod
    def _prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
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
_NETWORK_FIELDS = {"storage": ("switch", "oversubscription", "system_ports"), "inband": ("switch", "oversubscription")}
_NETWORK_HINT = {"oob": "use switch"}


class NetworkIn(_In):
    """One of the networks besides the compute fabric; every field optional."""

    model_config = ConfigDict(json_schema_extra={"additionalProperties": False})

    @classmethod
    def _prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
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
        "ports each).",
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
    def _prepare(cls, data: dict[str, Any]) -> dict[str, Any]:
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
    def _cross(cls, data: dict[str, Any], errors: list[Any]) -> list[InitErrorDetails]:
        out = [
            _refusal((key,), f"unknown key '{key}'; use storage, inband or oob", data[key])
            for key in data
            if key not in NETWORK_KEYS
        ]
        for key in NETWORK_KEYS:
            value = data.get(key)
            if not isinstance(value, dict):
                continue
            allowed = _NETWORK_FIELDS.get(key, ("switch",))
            for k in value:
                if k in allowed:
                    continue
                if k == "oversubscription":
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
    """A design as the engines read it (design.parse.parse_design returns a DesignDocument, which is one)."""

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

    @property
    def node_count(self) -> int:
        return sum(g.count for g in self.node_groups)

    @classmethod
    def _cross(cls, data: dict[str, Any], errors: list[Any]) -> list[InitErrorDetails]:
        groups = data.get("node_groups")
        if not isinstance(groups, (list, tuple)) or any(e["loc"] == ("node_groups",) for e in errors):
            return []
        total = _total_nodes(groups, errors)
        if total > MAX_NODES:
            message = f"{total:,} nodes in total is an absurd size; the most this tool accepts is {MAX_NODES:,}"
            return [_refusal(("node_groups",), message, groups)]
        return []


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


# --- the fabric-plan request (contract design/v1 "Fabric plan") ----------------------------------------------------


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
    def _cross(cls, data: dict[str, Any], errors: list[Any]) -> list[InitErrorDetails]:
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
