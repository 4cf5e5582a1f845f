"""A starting design for a workload: which platform, GPUs, nodes and fabric to propose on the goal step.

No hardware rule lives here. The recommender *enumerates* candidates from the catalogue (every active GPU with
every active server that accepts it; for clusters, every InfiniBand-capable single-port compute adapter with
the switches of the same port speed), sizes each with configurator.rules.sizing, ranks them, and lets the one
validation service judge the best few. It proposes the best-ranked candidate the engine finds no error in,
preferring fewer warnings. So a rule added to the engine changes the recommendation without a change here.

Ranking, the distributor's selling order (NCS articles: NVLink inside the node, InfiniBand NDR between nodes):
0. the fewest nodes that hold the workload (sizing.py, advised memory): one HGX H200 node for 405B inference in
   BF16 before two HGX H100 nodes plus an InfiniBand fabric at about twice the price;
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

from configurator.bom import design_bill
from configurator.rules.design import DesignInputError
from configurator.rules.sizing import Sizing, size_workload
from configurator.rules.specs import AdapterSpec, CatalogView, Cooling, GpuSpec, Protocol, ServerSpec, SwitchSpec
from configurator.services import design_validate

MAX_VALIDATED = 8  # candidates judged by the engine per recommendation; bounds the work of one goal step
_TP_DEGREES = (1, 2, 4, 8, 16)  # tensor-parallel degrees: PCIe cards are proposed in these counts


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
    asked: dict = field(default_factory=dict)  # the goal's inference inputs (context_tokens, concurrency) as given

    @property
    def gpus_per_node(self) -> int:
        return self.gpu_quantity * self.gpu.gpu_count

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
        for key in ("context_tokens", "concurrency"):
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
    """The smallest tensor-parallel degree that holds the model, within the server's card count."""
    for degree in _TP_DEGREES:
        if min_gpus <= degree <= cap:
            return degree
    return min_gpus


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
) -> list[_Candidate]:
    """Every catalogue combination worth judging, best-ranked first."""
    servers = [s for s in catalog.of_type(ServerSpec) if _active(s)]
    out: list[_Candidate] = []
    for gpu in catalog.of_type(GpuSpec):
        if not _active(gpu) or not gpu.memory_gb:
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
            out.extend(_with_fabric(server, gpu, quantity, n, sizing, catalog, lead_times))
    out.sort(key=lambda c: c.rank)
    asked = {"context_tokens": context_tokens, "concurrency": concurrency}
    return [replace(c, asked=asked) for c in out] if context_tokens or concurrency else out


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
) -> list[_Candidate]:
    gpus_per_node = quantity * gpu.gpu_count
    liquid = server.cooling == Cooling.LIQUID

    def make(nic: AdapterSpec | None, nic_qty: int, switch: SwitchSpec | None) -> _Candidate:
        per_node = (
            (server.price_eur or 0) + (gpu.price_eur or 0) * quantity + ((nic.price_eur or 0) * nic_qty if nic else 0)
        )
        total = per_node * nodes + ((switch.price_eur or 0) if switch else 0)
        memory = float(gpu.memory_gb or 0) * gpus_per_node * nodes
        per_gb = float(total) / memory if memory else math.inf
        rank = (
            nodes,  # the fewest nodes that fit before scaling out (no fabric, no second chassis)
            liquid,
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

    if nodes < 2:
        return [make(None, 0, None)]
    switches = [
        s for s in catalog.of_type(SwitchSpec) if _active(s) and not s.management and s.protocol == Protocol.INFINIBAND
    ]
    out: list[_Candidate] = []
    if server.integrated_nics >= gpus_per_node and server.integrated_nic_speed_gbps:
        for sw in switches:
            if sw.port_speed_gbps == server.integrated_nic_speed_gbps:
                out.append(make(None, 0, sw))
        return out
    nics = [
        a
        for a in catalog.of_type(AdapterSpec)
        if _active(a)
        and not a.is_dpu
        and a.ports == 1
        and a.speed_gbps
        and a.protocol in (Protocol.INFINIBAND, Protocol.VPI)
    ]
    for nic in nics:
        for sw in switches:
            if sw.port_speed_gbps == nic.speed_gbps:
                out.append(make(nic, gpus_per_node, sw))  # one compute NIC per GPU (rail-optimized)
    return out


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
) -> Recommendation | None:
    """The proposed starting design, or None when the catalogue holds nothing that can run the workload.

    Cached per input and catalogue version: the same goal always gets the same proposal, at no cost.
    """

    key = (kind, float(params_billion), gpus, nodes, mode, precision, context_tokens, concurrency, catalog.version)
    if key in _cache:
        return _cache[key]
    best: tuple | None = None
    judged = 0
    for index, cand in enumerate(
        candidates(
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
        )
    ):
        if judged >= MAX_VALIDATED and best is not None:
            break
        judged += 1
        doc = cand.document(kind, float(params_billion), gpus, nodes)
        try:
            result = design_validate(document=doc, language="en")
        except DesignInputError:  # a candidate the contract cannot express is simply not proposed
            continue
        errors = sum(1 for f in result["findings"] if f["severity"] == "error")
        warnings = sum(1 for f in result["findings"] if f["severity"] == "warning")
        score = (errors > 0, errors, warnings, index)
        if best is None or score < best[0]:
            best = (score, cand, doc, result)
        if errors == 0 and warnings == 0:
            break
    rec = None
    if best is not None:
        (_, errors, warnings, _), cand, doc, result = best
        bill = design_bill(document=doc, result=result, catalog=catalog)
        rec = Recommendation(
            document=doc,
            kind=kind,
            params_billion=float(params_billion),
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
        )
    with _lock:
        if len(_cache) > 512:
            _cache.clear()
        _cache[key] = rec
    return rec
