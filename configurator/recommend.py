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

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from configurator.candidates import Candidate, RecommendParams, candidates, rack_candidates, with_fabric
from configurator.goal import GoalFit, Limits, goal_fit
from configurator.result import ValidationResult
from configurator.services import design_validate
from design.jsontext import JsonObject
from design.model import DesignInputError
from design.specs import GpuSpec
from design.vocabulary import Protocol
from engines.catalog_view import CatalogView
from engines.node.sizing import Sizing

__all__ = [
    "ALTERNATIVE_KEYS",
    "GENERATIONS",
    "Alternative",
    "RecommendParams",
    "Recommendation",
    "alternatives",
    "recommend",
]

MAX_VALIDATED = 8  # candidates judged by the engine per recommendation; bounds the work of one goal step


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


_cache: dict[tuple, Recommendation | None] = {}
_lock = threading.Lock()


def recommend(
    params: RecommendParams, *, catalog: CatalogView, lead_times: dict[str, int | None]
) -> Recommendation | None:
    """The proposed starting design within ``params.limits``, or None when the catalogue holds nothing that can run
    the workload. With a goal (a deadline, a concurrency) a design that meets it comes before one that does not.

    Cached per parameters and catalogue version: the same goal always gets the same proposal, at no cost.
    """
    key = (params, catalog.version)
    if key in _cache:
        return _cache[key]
    ranked = candidates(params, catalog, lead_times)
    p = params
    best = _best_judged(ranked, p.kind, p.params_billion, p.gpus, p.nodes, p.limits)
    rec = None if best is None else _recommendation(best, p.kind, p.params_billion, catalog)
    with _lock:
        if len(_cache) > 512:
            _cache.clear()
        _cache[key] = rec
    return rec


def _best_judged(
    ranked: list[Candidate], kind: str, params: float, gpus: int | None, nodes: int | None, limits: Limits
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


def _no_racks(generation: str) -> list[Candidate]:
    return []


def _generation_index(gpu: GpuSpec) -> int | None:
    return GENERATIONS.index(gpu.generation) if gpu.generation in GENERATIONS else None


def _list_total(c: Candidate) -> Any:
    return c.rank[-1]  # the candidate's list price (servers, GPUs, NICs, one switch): the ranking's last key


_alt_cache: dict[tuple, tuple[Alternative, ...]] = {}


def alternatives(
    params: RecommendParams,
    *,
    catalog: CatalogView,
    lead_times: dict[str, int | None],
    language: str = "en",
    cheapest_only: bool = False,
) -> tuple[Alternative, ...]:
    """The recommended design first, then up to MAX_ALTERNATIVES others that answer the seeds' comparisons: the
    cheapest design that fits (list price, no errors), the same nodes on an Ethernet (RoCE) fabric, the next GPU
    generation, and fewer bigger nodes or more smaller ones. Only what the catalogue holds for the workload: a
    question without a candidate is left out, and a design the engine finds errors in is kept only when no
    other answers its question (its findings then say why it does not fit). Empty when nothing is recommended.

    ``cheapest_only``: the recommended design and the cheapest that fits, the goal step's pair (one design when
    the recommendation is also the cheapest).

    With a goal (configurator.goal), each question is answered by a design that meets it where one does, and within
    ``params.limits`` (GPU families, nodes, budget) only.

    Every design is judged by the one validation service, in ``language``; cached per input and catalogue."""
    key = (params, language, cheapest_only, catalog.version)
    if key in _alt_cache:
        return _alt_cache[key]
    rec = recommend(params, catalog=catalog, lead_times=lead_times)
    out: tuple[Alternative, ...] = ()
    if rec is not None:
        chooser = _Alternatives(params, language)
        chooser.rack_pool = lambda generation: rack_candidates(generation, params, catalog, lead_times)
        pool = candidates(params, catalog, lead_times)
        out = chooser.build(rec, pool, catalog, lead_times, cheapest_only=cheapest_only)
    with _lock:
        if len(_alt_cache) > 256:
            _alt_cache.clear()
        _alt_cache[key] = out
    return out


class _Alternatives:
    """The choosing of one comparison: validates each candidate document once and remembers the verdict."""

    def __init__(self, params: RecommendParams, language: str):
        self.kind, self.params, self.gpus, self.nodes = params.kind, params.params_billion, params.gpus, params.nodes
        self.language, self.limits = language, params.limits
        self.results: dict[str, ValidationResult | None] = {}
        self.chosen: list[Alternative] = []
        # the NVL72 racks of a GPU generation (alternatives() sets it)
        self.rack_pool: Callable[[str], list[Candidate]] = _no_racks

    def doc(self, cand: Candidate) -> dict:
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

    def pick(self, key: str, pool: list[Candidate]) -> None:
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

    def pick_cheapest(self, pool: list[Candidate], catalog: CatalogView) -> None:
        """The design without errors whose bill of materials costs least, among the recommendation and the
        MAX_VALIDATED candidates cheapest by their main parts (the bill adds switches, cables and racks, so the
        order of the estimate is not the order of the bills)."""
        judged: list[tuple[JsonObject, ValidationResult | None]] = [(self.chosen[0].document, self.chosen[0].result)]
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
        pool: list[Candidate],
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
        ethernet: list[Candidate] = []
        if base.switch is not None:
            ethernet = [
                replace(c, asked=base.asked, deadline_nodes=base.deadline_nodes)
                for c in with_fabric(
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
            following = min(i for c in later if (i := _generation_index(c.gpu)) is not None)
            same_form = sorted(
                (c for c in later if _generation_index(c.gpu) == following),
                key=lambda c: (c.gpu.is_board != base.gpu.is_board, c.rank),  # a board for a board, a card for a card
            )
            self.pick("next_generation", same_form)
        fewer = [c for c in pool if c.nodes < base.nodes]
        base_memory = base.gpu.memory_gb
        more = [c for c in pool if c.nodes > base.nodes and c.gpu.memory_gb and base_memory]
        self.pick("fewer_nodes", fewer)
        self.pick("more_nodes", [c for c in more if (c.gpu.memory_gb or 0) <= (base_memory or 0)])
        return tuple(self.chosen[: MAX_ALTERNATIVES + 1])
