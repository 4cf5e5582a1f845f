"""A starting design for a workload: which platform, GPUs, nodes and fabric to propose on the goal step.

No hardware rule lives here. The recommender *enumerates* candidates from the catalogue (every active GPU with
every active server that accepts it; for clusters, every InfiniBand-capable single-port compute adapter with
the switches of the same port speed), sizes each with engines.node.sizing, ranks them, and lets the one
validation service judge the best few. It proposes the best-ranked candidate the engine finds no error in,
preferring fewer warnings. So a rule added to the engine changes the recommendation without a change here.

Ranking, the distributor's selling order (NCS articles: NVLink inside the node, InfiniBand NDR between nodes):
0. the fewest nodes that hold the workload (sizing.py, advised memory): one HGX H200 node for 405B inference in
   BF16 before two HGX H100 nodes plus an InfiniBand fabric at about twice the price; for inference at a given
   node count, replicas that each fit one node (no compute fabric between them) before a model split across nodes.
   Inference with a concurrency (and no GPU or node count in the goal) on a board the engine has a sourced serving
   benchmark for (engines.node.serving) counts the nodes whose GPUs hold the replicas that concurrency needs, when
   that is more than the memory asks: 70B in FP8 for 300 requests on HGX H100 is 6 replicas of 2 GPUs, 2 nodes of
   8 (replicas, no fabric between them); on any other GPU the throughput is unknown and the memory alone sizes the
   nodes (PCIe cards, in one server, are sized by the memory too: no benchmark names one);
1. air-cooled before liquid-cooled (liquid needs facility work most buyers do not have);
2. the shortest lead time of the parts (what can ship soonest);
3. a server whose slot list is sourced (so the engine can verify the card placement);
4. the fastest compute NIC (bandwidth per GPU between nodes), a managed switch (embedded subnet manager);
5. the lowest list price per GB of GPU memory (memory is what sizing needs), then the lowest total.
For a 70B training job this proposes 2 × SYS-821GE-TNHR with HGX H200 and one ConnectX-7 NDR per GPU on a
Quantum-2 QM9700; a 70B inference job fits in one PCIe GPU server.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from configurator.goal import GoalFit, Limits, goal_fit, goal_of
from configurator.result import ValidationResult
from configurator.services import design_validate
from design.contract import MAX_NODES
from design.model import DesignInputError
from design.specs import AdapterSpec, CatalogView, GpuSpec, ServerSpec, SwitchSpec
from design.vocabulary import Cooling, Protocol
from engines.node.serving import serving_point, size_replicas
from engines.node.sizing import Sizing, size_workload

MAX_VALIDATED = 8  # candidates judged by the engine per recommendation; bounds the work of one goal step
_TP_DEGREES = (1, 2, 4, 8, 16)  # PCIe cards are proposed in these counts
# The goal's inputs a candidate's document carries as given: the KV cache's for inference, the time to train's for
# training (the validation result then estimates the training days).
ASKED = ("context_tokens", "concurrency", "training_tokens_billion", "target_days")


@dataclass(frozen=True)
class Recommendation:
    document: dict
    kind: str
    params_billion: float
    server: str
    gpu: str
    gpu_is_board: bool
    gpu_quantity: int
    gpus_per_node: int
    nodes: int
    nic: str | None
    nic_quantity: int
    switch: str | None
    sizing: Sizing
    errors: int
    warnings: int
    price_eur: Decimal | None = None
    priced_lines_missing: int = 0
    alternatives: tuple[str, ...] = field(default_factory=tuple)
    node_parts: tuple[dict, ...] = ()  # the complete node: CPUs, memory, boot drive ({"part", "quantity", "role"})
    fit: GoalFit | None = None  # the judged design against the goal (configurator.goal)

    @property
    def total_gpus(self) -> int:
        return self.gpus_per_node * self.nodes


@dataclass(frozen=True)
class _Candidate:
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

    def document(self, kind: str, params: float, gpus: int | None, nodes: int | None) -> dict:
        workload: dict[str, Any] = {"kind": kind, "model_parameters_billion": _json_number(params)}
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
        doc: dict[str, Any] = {
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


def _active(spec) -> bool:
    return spec.lifecycle != "eol"


def _lead(lead_times: dict[str, int | None], *parts) -> int:
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


def candidates(
    *,
    kind: str,
    params_billion: float,
    gpus: int | None,
    nodes: int | None,
    catalog: CatalogView,
    lead_times: dict[str, int | None],
    mode: str | None = None,
    precision: str = "bf16",
    context_tokens: int | None = None,
    concurrency: int | None = None,
    training_tokens_billion: float | None = None,
    target_days: float | None = None,
    limits: Limits | None = None,
) -> list[_Candidate]:
    """Every catalogue combination worth judging within ``limits``, best-ranked first; with a deadline (tokens and
    target days, no GPU or node count in the goal) each HGX shape sized to the nodes that meet it
    (_deadline_sized)."""
    limits = limits or Limits()
    # Rack-scale systems are proposed beside the HGX nodes of their generation (alternatives, "rack_scale"), not as
    # the recommendation: a rack is one "node" whatever its 72 GPUs, and it is priced on request.
    servers = [s for s in catalog.of_type(ServerSpec) if _active(s) and not s.rack_scale]
    out: list[_Candidate] = []
    for gpu in catalog.of_type(GpuSpec):
        if not _active(gpu) or not gpu.memory_gb or not limits.allows_gpu(gpu):
            continue
        for server in servers:
            if gpu.part_number not in server.accepts:
                continue
            if gpu.is_board:
                per_node_cap, quantity = gpu.gpu_count, 1
            else:
                per_node_cap = server.max_gpu_cards or 0
                if per_node_cap < 1:
                    continue
            sizing = size_workload(
                kind,
                params_billion,
                float(gpu.memory_gb),
                per_node_cap,
                mode=mode,
                precision=precision,
                context_tokens=context_tokens,
                concurrency=concurrency,
            )
            if not gpu.is_board:
                # PCIe cards only where the model fits one server: across servers, cards lack the NVLink domain.
                if nodes and nodes > 1:
                    continue
                if not sizing.fits_one_node and not (gpus and gpus <= per_node_cap):
                    continue
                quantity = min(gpus, per_node_cap) if gpus else _cards_for(sizing.min_gpus, per_node_cap)
                n = 1
            else:
                n = nodes or (math.ceil(gpus / gpu.gpu_count) if gpus else sizing.min_nodes)
                if not (nodes or gpus):  # the goal leaves the count to us: the replicas' GPUs, when sourced
                    served = _gpus_for_concurrency(server, gpu, params_billion, sizing, concurrency)
                    n = max(n, math.ceil(served / gpu.gpu_count))
            if limits.max_nodes and n > limits.max_nodes:
                continue
            # Inference that fits one node is served by replicas that exchange nothing: no compute fabric for them.
            replicas = kind == "inference" and sizing.fits_one_node
            out.extend(_with_fabric(server, gpu, quantity, n, sizing, catalog, lead_times, fabric=not replicas))
    out.sort(key=lambda c: c.rank)
    asked = {
        "context_tokens": context_tokens,
        "concurrency": concurrency,
        "training_tokens_billion": training_tokens_billion,
        "target_days": target_days,
    }
    out = [replace(c, asked=asked) for c in out] if any(asked.values()) else out
    return _deadline_sized(out, kind, float(params_billion), catalog, lead_times, limits, resize=not (gpus or nodes))


def _deadline_sized(
    pool: list[_Candidate],
    kind: str,
    params: float,
    catalog: CatalogView,
    lead_times: dict[str, int | None],
    limits: Limits,
    *,
    resize: bool = True,
) -> list[_Candidate]:
    """With a deadline, each node shape (server, GPUs) at the nodes the validation says meet it: the shape's
    best-ranked candidate is judged as sized by memory, and when its ``sizing.deadline_nodes`` are more, the shape's
    candidates are made again at that count (with a compute fabric), at most the limit's node count or the most a
    design may have. The time estimate is the engine's own, whatever GPU it is for; a shape without an estimate
    stays as it is. PCIe cards stay in one server (across servers they lack the NVLink domain). Without ``resize``
    (the goal names the GPU or node count) the counts stay. Shapes that miss the deadline rank after those that
    meet it."""
    if not pool or goal_of(pool[0].document(kind, params, None, None)["workload"]) != "deadline":
        return pool
    shapes: dict[tuple[str, str, int], list[_Candidate]] = {}
    for cand in pool:
        shapes.setdefault((cand.server.part_number, cand.gpu.part_number, cand.gpu_quantity), []).append(cand)
    out: list[_Candidate] = []
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
            group = _with_fabric(
                first.server, first.gpu, first.gpu_quantity, n, first.sizing, catalog, lead_times
            )  # fmt: skip
        out.extend(replace(c, asked=first.asked, deadline_nodes=needed) for c in group)
    return sorted(out, key=lambda c: (c.misses_deadline, c.rank))


def _with_fabric(
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
) -> list[_Candidate]:
    """The candidate with each compute fabric of ``protocol`` the node can reach: a NIC per GPU of the switch's
    port speed (InfiniBand adapters, or VPI ones that also run Ethernet), or the server's integrated NICs. Without
    ``fabric`` (independent inference replicas) the nodes get neither NICs nor a fabric."""
    gpus_per_node = quantity * gpu.gpu_count

    def make(nic: AdapterSpec | None, nic_qty: int, switch: SwitchSpec | None) -> _Candidate:
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
    generation: str,
    *,
    kind: str,
    params_billion: float,
    catalog: CatalogView,
    lead_times: dict[str, int | None],
    racks: int | None = None,
    sizing_args: dict | None = None,
    limits: Limits | None = None,
) -> list[_Candidate]:
    """The rack-scale NVLink systems (NVL72) whose built-in GPUs are of ``generation``, each with the fewest racks
    that hold the workload (``racks`` when the goal names a count; with a deadline, the racks that meet it) and,
    from two racks, the compute fabric their tray NICs reach; best-ranked first."""
    limits = limits or Limits()
    args = dict(sizing_args or {})
    asked = {key: args.pop(key, None) for key in ASKED}
    for key in ("context_tokens", "concurrency"):  # the memory's KV cache takes them too
        if asked[key] is not None:
            args[key] = asked[key]
    out: list[_Candidate] = []
    for server in catalog.of_type(ServerSpec):
        if not server.rack_scale or not _active(server):
            continue
        for pn in sorted(server.accepts):
            gpu = catalog.get(pn)
            if not isinstance(gpu, GpuSpec) or gpu.generation != generation or not gpu.memory_gb:
                continue
            if not limits.allows_gpu(gpu):
                continue
            sizing = size_workload(kind, params_billion, float(gpu.memory_gb), gpu.gpu_count, **args)
            n = racks or sizing.min_nodes
            if limits.max_nodes and n > limits.max_nodes:
                continue
            out.extend(_with_fabric(server, gpu, 1, n, sizing, catalog, lead_times))
    out = [replace(c, asked=asked) for c in out] if any(asked.values()) else out
    if not racks:
        out = _deadline_sized(sorted(out, key=lambda c: c.rank), kind, params_billion, catalog, lead_times, limits)
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
) -> _Candidate:
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
    return _Candidate(
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


_cache: dict[tuple, Recommendation | None] = {}
_lock = threading.Lock()


def recommend(
    *,
    kind: str,
    params_billion: float,
    gpus: int | None = None,
    nodes: int | None = None,
    catalog: CatalogView,
    lead_times: dict[str, int | None],
    mode: str | None = None,
    precision: str = "bf16",
    context_tokens: int | None = None,
    concurrency: int | None = None,
    training_tokens_billion: float | None = None,
    target_days: float | None = None,
    limits: Limits | None = None,
) -> Recommendation | None:
    """The proposed starting design within ``limits``, or None when the catalogue holds nothing that can run the
    workload. With a goal (a deadline, a concurrency) a design that meets it comes before one that does not.

    Cached per input and catalogue version: the same goal always gets the same proposal, at no cost.
    """

    asked = (context_tokens, concurrency, training_tokens_billion, target_days)
    key = (kind, float(params_billion), gpus, nodes, mode, precision, *asked, limits, catalog.version)
    if key in _cache:
        return _cache[key]
    ranked = candidates(
        kind=kind,
        params_billion=float(params_billion),
        gpus=gpus,
        nodes=nodes,
        catalog=catalog,
        lead_times=lead_times,
        mode=mode,
        precision=precision,
        context_tokens=context_tokens,
        concurrency=concurrency,
        training_tokens_billion=training_tokens_billion,
        target_days=target_days,
        limits=limits,
    )
    best = _best_judged(ranked, kind, float(params_billion), gpus, nodes, limits or Limits())
    rec = None if best is None else _recommendation(best, kind, float(params_billion), catalog)
    with _lock:
        if len(_cache) > 512:
            _cache.clear()
        _cache[key] = rec
    return rec


def _best_judged(
    ranked: list[_Candidate], kind: str, params: float, gpus: int | None, nodes: int | None, limits: Limits
) -> tuple | None:
    """The best candidate the engine judged within the budget, as (score, candidate, document, result), or None.

    Judges candidates in rank order: at most MAX_VALIDATED once one was judged, stopping at the first without
    errors or warnings that does not miss the goal; the score prefers no errors, then meeting the goal (configurator.
    goal: met, not known, missed), fewer errors, fewer warnings, the better rank.
    """
    best: tuple | None = None
    judged = 0
    for index, cand in enumerate(ranked):
        if judged >= MAX_VALIDATED and best is not None:
            break
        judged += 1
        doc = cand.document(kind, params, gpus, nodes)
        try:
            result = design_validate(document=doc, language="en")
        except DesignInputError:  # a candidate the contract cannot express is simply not proposed
            continue
        if not limits.within_budget(result):
            continue
        errors, warnings = len(result.errors), len(result.warnings)
        fit = goal_fit(result, doc["workload"])
        score = (errors > 0, fit.order, errors, warnings, index)
        if best is None or score < best[0]:
            best = (score, cand, doc, result)
        if errors == 0 and warnings == 0 and fit.meets is not False:
            break
    return best


def _recommendation(best: tuple, kind: str, params: float, catalog: CatalogView) -> Recommendation:
    """The proposal for the judged candidate, priced from its bill of materials."""
    (_, _, errors, warnings, _), cand, doc, result = best
    bill = result.bill
    return Recommendation(
        document=doc,
        kind=kind,
        params_billion=params,
        server=cand.server.part_number,
        gpu=cand.gpu.part_number,
        gpu_is_board=cand.gpu.is_board,
        gpu_quantity=cand.gpu_quantity,
        gpus_per_node=cand.gpus_per_node,
        nodes=cand.nodes,
        nic=cand.nic.part_number if cand.nic else None,
        nic_quantity=cand.nic_quantity,
        switch=cand.switch.part_number if cand.switch else None,
        sizing=cand.sizing,
        errors=errors,
        warnings=warnings,
        price_eur=bill.total if bill else None,
        priced_lines_missing=bill.on_request if bill else 0,
        node_parts=tuple(cand.node_parts()),
        fit=goal_fit(result, doc["workload"]),
    )


# --- alternatives side by side -------------------------------------------------------------------------------

# NVIDIA's data-centre GPU generations, oldest first: "the next generation" is the next one in this order. A GPU
# whose generation is not listed (or not known) is never proposed as a next generation. Blackwell follows Hopper;
# Blackwell Ultra (B300) is the later member of the Blackwell family with 50 % more HBM per GPU, which the catalogue
# lists as its own generation. Source: NVIDIA, "Inside NVIDIA Blackwell Ultra",
# https://developer.nvidia.com/blog/inside-nvidia-blackwell-ultra-the-chip-powering-the-ai-factory-era
GENERATIONS = ("Ampere", "Hopper", "Blackwell", "Blackwell Ultra")
MAX_ALTERNATIVES = 3  # beside the recommended design
ALTERNATIVE_KEYS = (
    "recommended",
    "rack_scale",
    "cheapest",
    "ethernet",
    "next_generation",
    "fewer_nodes",
    "more_nodes",
)


@dataclass(frozen=True)
class Alternative:
    """One design of the comparison: which question it answers (``key``, one of ALTERNATIVE_KEYS; ``also``: other
    questions the same design answers, e.g. the recommendation that is also the cheapest) and the validation
    service's result for it, in the reader's language: every figure the comparison shows comes from ``result``."""

    key: str
    document: dict
    result: ValidationResult
    also: tuple[str, ...] = ()

    @property
    def errors(self) -> int:
        return len(self.result.errors)


def _generation_index(gpu: GpuSpec) -> int | None:
    return GENERATIONS.index(gpu.generation) if gpu.generation in GENERATIONS else None


def _list_total(c: _Candidate) -> Any:
    return c.rank[-1]  # the candidate's list price (servers, GPUs, NICs, one switch): the ranking's last key


_alt_cache: dict[tuple, tuple[Alternative, ...]] = {}


def alternatives(
    *,
    kind: str,
    params_billion: float,
    gpus: int | None = None,
    nodes: int | None = None,
    catalog: CatalogView,
    lead_times: dict[str, int | None],
    mode: str | None = None,
    precision: str = "bf16",
    context_tokens: int | None = None,
    concurrency: int | None = None,
    training_tokens_billion: float | None = None,
    target_days: float | None = None,
    language: str = "en",
    cheapest_only: bool = False,
    limits: Limits | None = None,
) -> tuple[Alternative, ...]:
    """The recommended design first, then up to MAX_ALTERNATIVES others that answer the seeds' comparisons: the
    cheapest design that fits (list price, no errors), the same nodes on an Ethernet (RoCE) fabric, the next GPU
    generation, and fewer bigger nodes or more smaller ones. Only what the catalogue holds for the workload: a
    question without a candidate is left out, and a design the engine finds errors in is kept only when no
    other answers its question (its findings then say why it does not fit). Empty when nothing is recommended.

    ``cheapest_only``: the recommended design and the cheapest that fits, the goal step's pair (one design when
    the recommendation is also the cheapest).

    With a goal (configurator.goal), each question is answered by a design that meets it where one does, and within
    ``limits`` (GPU families, nodes, budget) only.

    Every design is judged by the one validation service, in ``language``; cached per input and catalogue."""
    params = float(params_billion)
    asked = (context_tokens, concurrency, training_tokens_billion, target_days)
    key = (kind, params, gpus, nodes, mode, precision, *asked, language, cheapest_only, limits, catalog.version)
    if key in _alt_cache:
        return _alt_cache[key]
    limits = limits or Limits()
    args = {"kind": kind, "params_billion": params, "gpus": gpus, "nodes": nodes, "catalog": catalog, "limits": limits}
    sizing = {"mode": mode, "precision": precision, **dict(zip(ASKED, asked, strict=True))}
    rec = recommend(**args, lead_times=lead_times, **sizing)
    out: tuple[Alternative, ...] = ()
    if rec is not None:
        chooser = _Alternatives(kind, params, gpus, nodes, language, limits)
        chooser.rack_pool = lambda generation: rack_candidates(
            generation,
            kind=kind,
            params_billion=params,
            catalog=catalog,
            lead_times=lead_times,
            racks=nodes,
            sizing_args={k: v for k, v in sizing.items() if v is not None},
            limits=limits,
        )
        out = chooser.build(
            rec, candidates(**args, lead_times=lead_times, **sizing), catalog, lead_times, cheapest_only=cheapest_only
        )
    with _lock:
        if len(_alt_cache) > 256:
            _alt_cache.clear()
        _alt_cache[key] = out
    return out


class _Alternatives:
    """The choosing of one comparison: validates each candidate document once and remembers the verdict."""

    def __init__(self, kind: str, params: float, gpus: int | None, nodes: int | None, language: str, limits: Limits):
        self.kind, self.params, self.gpus, self.nodes, self.language = kind, params, gpus, nodes, language
        self.limits = limits
        self.results: dict[str, ValidationResult | None] = {}
        self.chosen: list[Alternative] = []
        self.rack_pool = lambda generation: []  # the NVL72 racks of a GPU generation (alternatives() sets it)

    def doc(self, cand: _Candidate) -> dict:
        return cand.document(self.kind, self.params, self.gpus, self.nodes)

    def judge(self, doc: dict) -> ValidationResult | None:
        """The validation of ``doc``, None when the contract cannot express it or its bill is over the budget."""
        name = repr(sorted(doc.items()))
        if name not in self.results:
            try:
                result: ValidationResult | None = design_validate(document=doc, language=self.language)
            except DesignInputError:
                result = None
            self.results[name] = result if result is not None and self.limits.within_budget(result) else None
        return self.results[name]

    def pick(self, key: str, pool: list[_Candidate]) -> None:
        """The first of ``pool`` (in its order) the engine finds no error in and that does not miss the goal, else
        the best by (errors or not, the goal met, not known or missed, fewer errors), judging at most MAX_VALIDATED; a
        design already in the comparison only gains ``key`` in ``also``."""
        if len(self.chosen) > MAX_ALTERNATIVES or not pool:
            return
        best: tuple[tuple[bool, int, int], dict, ValidationResult] | None = None
        for cand in pool[:MAX_VALIDATED]:
            doc = self.doc(cand)
            result = self.judge(doc)
            if result is None:
                continue
            errors = len(result.errors)
            fit = goal_fit(result, doc["workload"])
            score = (errors > 0, fit.order, errors)
            if best is None or score < best[0]:
                best = (score, doc, result)
            if errors == 0 and fit.meets is not False:
                break
        if best is None:
            return
        _errors, doc, result = best
        self.add(key, doc, result)

    def pick_cheapest(self, pool: list[_Candidate], catalog: CatalogView) -> None:
        """The design without errors whose bill of materials costs least, among the recommendation and the
        MAX_VALIDATED candidates cheapest by their main parts (the bill adds switches, cables and racks, so the
        order of the estimate is not the order of the bills)."""
        judged = [(self.chosen[0].document, self.chosen[0].result)]
        judged += [(doc, self.judge(doc)) for doc in (self.doc(c) for c in pool[:MAX_VALIDATED])]
        priced = []
        for doc, result in judged:
            if result is None or not result.valid:
                continue
            bill = result.bill
            priced.append((goal_fit(result, doc["workload"]).order, bill.total, bill.on_request, doc, result))
        if priced:
            _order, _total, _missing, doc, result = min(priced, key=lambda p: (p[0], p[1], p[2]))
            self.add("cheapest", doc, result)

    def add(self, key: str, doc: dict, result: ValidationResult) -> None:
        for i, alt in enumerate(self.chosen):
            if alt.document == doc:
                self.chosen[i] = Alternative(alt.key, alt.document, alt.result, (*alt.also, key))
                return
        self.chosen.append(Alternative(key, doc, result))

    def build(
        self,
        rec: Recommendation,
        pool: list[_Candidate],
        catalog: CatalogView,
        lead_times: dict[str, int | None],
        *,
        cheapest_only: bool = False,
    ) -> tuple[Alternative, ...]:
        base = next((c for c in pool if self.doc(c) == rec.document), None)
        result = self.judge(rec.document)
        if base is None or result is None:
            return ()
        self.chosen.append(Alternative("recommended", rec.document, result))
        if not cheapest_only:
            # An NVL72 rack beside the HGX nodes of the same GPU generation (issue #20): the rack-scale answer first;
            # the goal step's pair (``cheapest_only``) is the recommendation and the cheapest HGX design only.
            self.pick("rack_scale", self.rack_pool(base.gpu.generation))
        ethernet: list[_Candidate] = []
        if base.switch is not None:
            ethernet = [
                replace(c, asked=base.asked, deadline_nodes=base.deadline_nodes)
                for c in _with_fabric(
                    base.server, base.gpu, base.gpu_quantity, base.nodes, base.sizing, catalog, lead_times,
                    protocol=Protocol.ETHERNET,
                )
            ]  # fmt: skip
        self.pick_cheapest(sorted(pool + ethernet, key=lambda c: (c.misses_deadline, _list_total(c))), catalog)
        if cheapest_only:
            return tuple(self.chosen)
        self.pick("ethernet", sorted(ethernet, key=lambda c: c.rank))
        here = _generation_index(base.gpu)
        later = [c for c in pool if here is not None and (_generation_index(c.gpu) or -1) > here]
        if later:
            following = min(_generation_index(c.gpu) for c in later)
            same_form = sorted(
                (c for c in later if _generation_index(c.gpu) == following),
                key=lambda c: (c.gpu.is_board != base.gpu.is_board, c.rank),  # a board for a board, a card for a card
            )
            self.pick("next_generation", same_form)
        fewer = [c for c in pool if c.nodes < base.nodes]
        more = [c for c in pool if c.nodes > base.nodes and c.gpu.memory_gb and base.gpu.memory_gb]
        self.pick("fewer_nodes", fewer)
        self.pick("more_nodes", [c for c in more if c.gpu.memory_gb <= base.gpu.memory_gb])
        return tuple(self.chosen[: MAX_ALTERNATIVES + 1])
