"""The design document (contract design/v1), parsed into frozen dataclasses.

design.parse turns the JSON into these, naming the field path of every bad field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

SCHEMA = "design/v1"


class DesignInputError(Exception):
    """A malformed design or fabric request. ``errors`` maps field paths to messages (English)."""

    def __init__(self, errors: dict[str, str]):
        self.errors = dict(errors)
        super().__init__("; ".join(f"{path}: {msg}" for path, msg in self.errors.items()))


@dataclass(frozen=True, kw_only=True)
class ComponentIn:
    part: str
    quantity: int
    role: str | None = None  # compute, storage, management; None: the engine infers it
    slots: tuple[str, ...] | None = None  # explicit placement by slot name
    ports_used: int | None = None  # adapters: ports cabled per card; None: every port


@dataclass(frozen=True, kw_only=True)
class NodeGroupIn:
    name: str
    count: int
    server: str
    components: tuple[ComponentIn, ...] = ()


@dataclass(frozen=True, kw_only=True)
class WorkloadIn:
    kind: str  # training or inference
    model_parameters_billion: float
    mode: str = ""  # pretraining, full-finetune, lora, inference; "" = the kind's default (sizing.default_mode)
    precision: str = "bf16"  # bf16, fp8, int4
    context_tokens: int | None = None  # inference: tokens per sequence held in the KV cache
    concurrency: int | None = None  # inference: sequences served at once
    independent_jobs: bool = False  # the nodes run separate jobs (no job spans nodes): no compute fabric advised


@dataclass(frozen=True, kw_only=True)
class RackIn:
    """Overrides of the documented rack model (all optional)."""

    nodes_per_rack: int | None = None
    in_rack_m: float | None = None  # node to leaf when the leaf is in the same rack
    node_to_leaf_m: float | None = None  # row run from a node rack to the middle-of-row leaf rack
    leaf_to_spine_m: float | None = None
    spine_to_core_m: float | None = None


@dataclass(frozen=True, kw_only=True)
class FabricIn:
    switch: str
    oversubscription: str = "1:1"
    topology: str = "rail-optimized"  # or fat-tree
    hca: str | None = None
    rails: int | None = None  # default: compute NICs per node
    rack: RackIn = field(default_factory=RackIn)


@dataclass(frozen=True, kw_only=True)
class FacilityIn:
    """The design's ``facility`` (contract design/v1, "Additions"): the racks and power the site offers.

    ``None`` means not given: the rack planner then uses its stated default (per cooling type for the power).
    """

    rack_units: int = 42
    rack_power_kw: float | None = None  # the most one rack may draw
    cooling: str | None = None  # air or liquid
    pdu_feeds: str = "A+B"  # A or A+B


class Default(Enum):
    """The sentinel of a ``networks`` key that is absent: the service plans that network by its default."""

    DEFAULT = "default"


DEFAULT = Default.DEFAULT


@dataclass(frozen=True, kw_only=True)
class NetworkIn:
    """One of the design's other networks (contract design/v1, "Additions, round 3"): the switch to build it of
    (None: the service's default), its node-side oversubscription (storage and in-band only) and, for storage,
    the switch ports the customer's storage systems need."""

    switch: str | None = None
    oversubscription: str | None = None
    system_ports: int | None = None


@dataclass(frozen=True, kw_only=True)
class NetworksIn:
    """``networks``: each key is DEFAULT (absent: planned by default), None (the customer supplies it) or a
    NetworkIn."""

    storage: NetworkIn | None | Default = DEFAULT
    inband: NetworkIn | None | Default = DEFAULT
    oob: NetworkIn | None | Default = DEFAULT


@dataclass(frozen=True, kw_only=True)
class DesignIn:
    name: str = ""
    workload: WorkloadIn | None = None
    node_groups: tuple[NodeGroupIn, ...] = ()
    fabric: FabricIn | None = None
    facility: FacilityIn = field(default_factory=FacilityIn)
    networks: NetworksIn | None = None  # None: every network gets the service's default

    @property
    def node_count(self) -> int:
        return sum(g.count for g in self.node_groups)
