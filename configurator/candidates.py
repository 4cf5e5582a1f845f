"""The recommender's candidates: every catalogue combination worth judging for a workload, sized by the engine
and ranked in the distributor's selling order (configurator.recommend's docstring), and the parameters of a
recommendation (RecommendParams), the one object the API door, the wizard and the comparison pass.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from configurator.goal import Limits, goal_of
from configurator.services import design_validate
from design.contract import MAX_NODES
from design.jsontext import JsonObject
from design.model import DesignInputError
from design.specs import AdapterSpec, GpuSpec, PartBase, ServerSpec, SwitchSpec
from design.vocabulary import Cooling, Protocol
from engines.catalog_view import CatalogView
from engines.node.serving import serving_point, size_replicas
from engines.node.sizing import Sizing, size_workload

_TP_DEGREES = (1, 2, 4, 8, 16)  # PCIe cards are proposed in these counts
# The goal's inputs a candidate's document carries as given: the KV cache's for inference, the time to train's for
# training (the validation result then estimates the training days).
ASKED = ("context_tokens", "concurrency", "training_tokens_billion", "target_days")


@dataclass(frozen=True)
class RecommendParams:
    """What a recommendation is for: the workload (its kind, model size, mode and precision, the goal's inputs of
    ASKED, a GPU or node count the goal names) and the buyer's limits. Frozen and hashable: the recommender caches
    per parameters and catalogue version."""

    kind: str
    params_billion: float
    gpus: int | None = None
    nodes: int | None = None
    mode: str | None = None
    precision: str = "bf16"
    context_tokens: int | None = None
    concurrency: int | None = None
    training_tokens_billion: float | None = None
    target_days: float | None = None
    limits: Limits = field(default_factory=Limits)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params_billion", float(self.params_billion))
        object.__setattr__(self, "limits", self.limits or Limits())

    @property
    def asked(self) -> dict[str, Any]:
        """The goal's inputs of ASKED as given (None where not)."""
        return {key: getattr(self, key) for key in ASKED}

    @property
    def count_given(self) -> bool:
        """The goal names the GPU or node count (the recommender does not resize it)."""
        return bool(self.gpus or self.nodes)


@dataclass(frozen=True)
class Candidate:
    rank: tuple
    server: ServerSpec
    gpu: GpuSpec
    gpu_quantity: int
    nodes: int
    sizing: Sizing
    nic: AdapterSpec | None
    nic_quantity: int
    switch: SwitchSpec | None
    asked: dict = field(default_factory=dict)  # the goal's inputs of ASKED as given (KV cache, tokens, deadline)
    # the nodes of this node shape whose estimated time meets the deadline (the validation's sizing.deadline_nodes)
    deadline_nodes: int | None = None

    @property
    def gpus_per_node(self) -> int:
        return self.gpu_quantity * self.gpu.gpu_count

    @property
    def misses_deadline(self) -> bool:
        """The validation said this shape needs more nodes than the candidate has to meet the deadline."""
        return self.deadline_nodes is not None and self.deadline_nodes > self.nodes

    def node_parts(self) -> list[dict]:
        """The server's default node set (CPUs, memory, boot drive), named in the proposal so the node is complete
        and changeable on the platform step."""
        order = {"cpu": 0, "memory": 1, "boot": 2}
        return [
            {"part": d.part_number, "quantity": d.quantity, "role": d.role}
            for d in sorted(self.server.default_parts, key=lambda d: order.get(d.role, 9))
        ]

    def document(self, kind: str, params: float, gpus: int | None, nodes: int | None) -> JsonObject:
        workload: JsonObject = {"kind": kind, "model_parameters_billion": _json_number(params)}
        workload["mode"] = self.sizing.mode
        workload["precision"] = self.sizing.precision
        for key in ASKED:
            if self.asked.get(key):
                workload[key] = self.asked[key]
        if gpus:
            workload["target_gpus"] = gpus
        if nodes:
            workload["target_nodes"] = nodes
        comps: list[dict] = [{"part": self.gpu.part_number, "quantity": self.gpu_quantity}]
        if self.nic is not None and self.nic_quantity:
            comps.append({"part": self.nic.part_number, "quantity": self.nic_quantity, "role": "compute"})
        comps += self.node_parts()
        if self.server.rack_scale:
            comps = []  # a rack-scale system comes complete: its GPUs, NICs and trays are in the rack
        doc: JsonObject = {
            "schema": "design/v1",
            "name": f"{self.nodes} × {self.server.part_number}, {self.gpu.part_number}",
            "workload": workload,
            "node_groups": [
                {"name": "gpu", "count": self.nodes, "server": self.server.part_number, "components": comps}
            ],
        }
        if self.switch is not None:
            doc["fabric"] = {"switch": self.switch.part_number, "oversubscription": "1:1", "topology": "rail-optimized"}
        return doc


def _json_number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else float(x)


def _active(spec: PartBase) -> bool:
    return spec.lifecycle != "eol"


def _lead(lead_times: dict[str, int | None], *parts: PartBase | None) -> int:
    return max((lead_times.get(p.part_number) or 0) for p in parts if p is not None)


def _cards_for(min_gpus: int, cap: int) -> int:
    """The smallest proposed card count (a power of two) that holds the model, within the server's card count; the
    validation's plan then keeps tensor parallelism inside the cards' NVLink domain."""
    for degree in _TP_DEGREES:
        if min_gpus <= degree <= cap:
            return degree
    return min_gpus


def _nvlink_domain(server: ServerSpec, gpu: GpuSpec) -> int:
    """The GPUs one NVLink domain of the proposed node joins, as the validation counts them: the system's own
    figure, an NVLink board's GPUs, else 1 (the proposal fits no NVLink bridges to PCIe cards)."""
    if server.nvlink_domain_gpus:
        return int(server.nvlink_domain_gpus)
    return gpu.gpu_count if gpu.is_board and gpu.has_nvlink else 1


def _gpus_for_concurrency(
    server: ServerSpec, gpu: GpuSpec, params_billion: float, sizing: Sizing, concurrency: int | None
) -> int:
    """The GPUs of the replicas that serve ``concurrency`` requests by the engine's sourced serving benchmark
    (engines.node.serving) for this GPU, precision, model size and context; 0 without a concurrency or without a
    benchmark that matches (the throughput is unknown: the memory alone sizes the design)."""
    if sizing.kind != "inference" or not concurrency:
        return 0
    domain = _nvlink_domain(server, gpu)
    point = serving_point({gpu.part_number}, sizing.precision, params_billion, domain, sizing.context_tokens)
    if point is None:
        return 0
    return size_replicas(point, concurrency, 0).gpus


def candidates(params: RecommendParams, catalog: CatalogView, lead_times: dict[str, int | None]) -> list[Candidate]:
    """Every catalogue combination worth judging within the limits, best-ranked first; with a deadline (tokens and
    target days, no GPU or node count in the goal) each HGX shape sized to the nodes that meet it
    (_deadline_sized)."""
    limits = params.limits
    # Rack-scale systems are proposed beside the HGX nodes of their generation (alternatives, "rack_scale"), not as
    # the recommendation: a rack is one "node" whatever its 72 GPUs, and it is priced on request.
    servers = [s for s in catalog.of_type(ServerSpec) if _active(s) and not s.rack_scale]
    out: list[Candidate] = []
    for gpu in catalog.of_type(GpuSpec):
        if not _active(gpu) or not gpu.memory_gb or not limits.allows_gpu(gpu):
            continue
        for server in servers:
            shape = _node_shape(params, server, gpu)
            if shape is None:
                continue
            quantity, n, sizing = shape
            if limits.max_nodes and n > limits.max_nodes:
                continue
            # Inference that fits one node is served by replicas that exchange nothing: no compute fabric for them.
            replicas = params.kind == "inference" and sizing.fits_one_node
            out.extend(with_fabric(server, gpu, quantity, n, sizing, catalog, lead_times, fabric=not replicas))
    out.sort(key=lambda c: c.rank)
    asked = params.asked
    out = [replace(c, asked=asked) for c in out] if any(asked.values()) else out
    return _deadline_sized(
        out, params.kind, params.params_billion, catalog, lead_times, limits, resize=not params.count_given
    )


def _node_shape(params: RecommendParams, server: ServerSpec, gpu: GpuSpec) -> tuple[int, int, Sizing] | None:
    """(GPUs or boards per node, nodes, sizing) of ``gpu`` in ``server`` for the workload, or None when the server
    does not take the GPU or PCIe cards would have to span servers (across servers they lack the NVLink domain)."""
    if gpu.part_number not in server.accepts:
        return None
    gpus, nodes = params.gpus, params.nodes
    if gpu.is_board:
        per_node_cap, quantity = gpu.gpu_count, 1
    else:
        per_node_cap = server.max_gpu_cards or 0
        if per_node_cap < 1:
            return None
    sizing = size_workload(
        params.kind,
        params.params_billion,
        float(gpu.memory_gb or 0),
        per_node_cap,
        mode=params.mode,
        precision=params.precision,
        context_tokens=params.context_tokens,
        concurrency=params.concurrency,
    )
    if not gpu.is_board:
        # PCIe cards only where the model fits one server: across servers, cards lack the NVLink domain.
        if nodes and nodes > 1:
            return None
        if not sizing.fits_one_node and not (gpus and gpus <= per_node_cap):
            return None
        return (min(gpus, per_node_cap) if gpus else _cards_for(sizing.min_gpus, per_node_cap)), 1, sizing
    n = nodes or (math.ceil(gpus / gpu.gpu_count) if gpus else sizing.min_nodes)
    if not (nodes or gpus):  # the goal leaves the count to us: the replicas' GPUs, when sourced
        served = _gpus_for_concurrency(server, gpu, params.params_billion, sizing, params.concurrency)
        n = max(n, math.ceil(served / gpu.gpu_count))
    return quantity, n, sizing


def _deadline_sized(
    pool: list[Candidate],
    kind: str,
    params: float,
    catalog: CatalogView,
    lead_times: dict[str, int | None],
    limits: Limits,
    *,
    resize: bool = True,
) -> list[Candidate]:
    """With a deadline, each node shape (server, GPUs) at the nodes the validation says meet it: the shape's
    best-ranked candidate is judged as sized by memory, and when its ``sizing.deadline_nodes`` are more, the shape's
    candidates are made again at that count (with a compute fabric), at most the limit's node count or the most a
    design may have. The time estimate is the engine's own, whatever GPU it is for; a shape without an estimate
    stays as it is. PCIe cards stay in one server (across servers they lack the NVLink domain). Without ``resize``
    (the goal names the GPU or node count) the counts stay. Shapes that miss the deadline rank after those that
    meet it."""
    if not pool or goal_of(pool[0].document(kind, params, None, None)["workload"]) != "deadline":
        return pool
    shapes: dict[tuple[str, str, int], list[Candidate]] = {}
    for cand in pool:
        shapes.setdefault((cand.server.part_number, cand.gpu.part_number, cand.gpu_quantity), []).append(cand)
    out: list[Candidate] = []
    for group in shapes.values():
        first = group[0]
        try:
            sizing = design_validate(document=first.document(kind, params, None, None), language="en").sizing
        except DesignInputError:
            sizing = None
        needed = sizing.deadline_nodes if sizing is not None else None
        # beyond the most a design may have, the shape stays as the memory sizes it (and says what would meet it)
        n = min(needed or 0, limits.max_nodes) if limits.max_nodes else (needed or 0)
        if resize and first.nodes < n <= MAX_NODES and (first.gpu.is_board or first.server.rack_scale):
            group = with_fabric(
                first.server, first.gpu, first.gpu_quantity, n, first.sizing, catalog, lead_times
            )  # fmt: skip
        out.extend(replace(c, asked=first.asked, deadline_nodes=needed) for c in group)
    return sorted(out, key=lambda c: (c.misses_deadline, c.rank))


def with_fabric(
    server: ServerSpec,
    gpu: GpuSpec,
    quantity: int,
    nodes: int,
    sizing: Sizing,
    catalog: CatalogView,
    lead_times: dict[str, int | None],
    mode: str | None = None,
    precision: str = "bf16",
    protocol: Protocol = Protocol.INFINIBAND,
    fabric: bool = True,
) -> list[Candidate]:
    """The candidate with each compute fabric of ``protocol`` the node can reach: a NIC per GPU of the switch's
    port speed (InfiniBand adapters, or VPI ones that also run Ethernet), or the server's integrated NICs. Without
    ``fabric`` (independent inference replicas) the nodes get neither NICs nor a fabric."""
    gpus_per_node = quantity * gpu.gpu_count

    def make(nic: AdapterSpec | None, nic_qty: int, switch: SwitchSpec | None) -> Candidate:
        return _ranked_candidate(server, gpu, quantity, nodes, sizing, lead_times, nic, nic_qty, switch)

    if nodes < 2 or not fabric:
        return [make(None, 0, None)]
    switches = [s for s in catalog.of_type(SwitchSpec) if _active(s) and not s.management and s.protocol == protocol]
    if server.integrated_nics >= gpus_per_node and server.integrated_nic_speed_gbps:
        return [make(None, 0, sw) for sw in switches if sw.port_speed_gbps == server.integrated_nic_speed_gbps]
    return [
        make(nic, gpus_per_node, sw)  # one compute NIC per GPU (rail-optimized)
        for nic in _compute_nics(catalog, protocol)
        for sw in switches
        if sw.port_speed_gbps == nic.speed_gbps
    ]


def rack_candidates(
    generation: str, params: RecommendParams, catalog: CatalogView, lead_times: dict[str, int | None]
) -> list[Candidate]:
    """The rack-scale NVLink systems (NVL72) whose built-in GPUs are of ``generation``, each with the fewest racks
    that hold the workload (``params.nodes`` when the goal names a count; with a deadline, the racks that meet it)
    and, from two racks, the compute fabric their tray NICs reach; best-ranked first."""
    limits, racks = params.limits, params.nodes
    out: list[Candidate] = []
    for server in catalog.of_type(ServerSpec):
        if not server.rack_scale or not _active(server):
            continue
        for pn in sorted(server.accepts):
            gpu = catalog.get(pn)
            if not isinstance(gpu, GpuSpec) or gpu.generation != generation or not gpu.memory_gb:
                continue
            if not limits.allows_gpu(gpu):
                continue
            sizing = size_workload(
                params.kind,
                params.params_billion,
                float(gpu.memory_gb),
                gpu.gpu_count,
                mode=params.mode,
                precision=params.precision,
                context_tokens=params.context_tokens,  # the memory's KV cache takes them too
                concurrency=params.concurrency,
            )
            n = racks or sizing.min_nodes
            if limits.max_nodes and n > limits.max_nodes:
                continue
            out.extend(with_fabric(server, gpu, 1, n, sizing, catalog, lead_times))
    asked = params.asked
    out = [replace(c, asked=asked) for c in out] if any(asked.values()) else out
    if not racks:
        out = _deadline_sized(
            sorted(out, key=lambda c: c.rank), params.kind, params.params_billion, catalog, lead_times, limits
        )
    return sorted(out, key=lambda c: (c.misses_deadline, c.rank))


def _compute_nics(catalog: CatalogView, protocol: Protocol) -> list[AdapterSpec]:
    """The active single-port compute adapters (no DPUs) with a known speed that run ``protocol``."""
    return [
        a
        for a in catalog.of_type(AdapterSpec)
        if _active(a) and not a.is_dpu and a.ports == 1 and a.speed_gbps and a.protocol in (protocol, Protocol.VPI)
    ]


def _ranked_candidate(
    server: ServerSpec,
    gpu: GpuSpec,
    quantity: int,
    nodes: int,
    sizing: Sizing,
    lead_times: dict[str, int | None],
    nic: AdapterSpec | None,
    nic_qty: int,
    switch: SwitchSpec | None,
) -> Candidate:
    """One candidate with its rank in the selling order of the module docstring."""
    gpus_per_node = quantity * gpu.gpu_count
    nic_price = (nic.price_eur or 0) * nic_qty if nic else 0
    per_node = (server.price_eur or 0) + (gpu.price_eur or 0) * quantity + nic_price
    total = per_node * nodes + ((switch.price_eur or 0) if switch else 0)
    memory = float(gpu.memory_gb or 0) * gpus_per_node * nodes
    per_gb = float(total) / memory if memory else math.inf
    rank = (
        nodes,  # the fewest nodes that fit before scaling out (no fabric, no second chassis)
        # inference: replicas that each fit one node (no fabric) before a model split across nodes over a fabric
        sizing.kind == "inference" and not sizing.fits_one_node,
        server.cooling == Cooling.LIQUID,
        _lead(lead_times, server, gpu, nic, switch),
        not server.slots_known,
        -(nic.speed_gbps or 0 if nic else server.integrated_nic_speed_gbps or 0),
        bool(switch is not None and not switch.managed),
        round(per_gb, 1),
        total,
    )
    return Candidate(
        rank=rank,
        server=server,
        gpu=gpu,
        gpu_quantity=quantity,
        nodes=nodes,
        sizing=sizing,
        nic=nic,
        nic_quantity=nic_qty,
        switch=switch,
    )
