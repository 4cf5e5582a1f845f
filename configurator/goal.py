"""The buyer's goal for a workload, and whether a validated design meets it.

A training run with ``training_tokens_billion`` and ``target_days`` has a deadline: a design meets it when the
validation's own time-to-train estimate (``sizing.training_days``, engines.node.workload) is within the days asked.
Inference with a ``concurrency`` has a load: a design meets it when the validation's serving estimate names the GPUs
that serve it (``sizing.gpus_needed``) and the design has at least those. Every figure is the validation result's;
where it has none the verdict is unknown (None), never guessed.

The limits a buyer may add to a recommendation (GPU families, a budget, a node count) live here too: the
recommender keeps to them, and the doors parse them into ``Limits``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from design.contract import MAX_NODES
from design.jsontext import JsonObject
from design.specs import GpuSpec

from .result import ValidationResult


@dataclass(frozen=True)
class Limits:
    """What the buyer allows: GPU families (``gpu_families``: the first word of the GPU model, "H200", or a
    generation, "Blackwell"; empty: any), a budget (the bill's list price, at most), a node count (at most)."""

    gpu_families: tuple[str, ...] = ()
    budget_eur: Decimal | None = None
    max_nodes: int | None = None

    def allows_gpu(self, gpu: GpuSpec) -> bool:
        if not self.gpu_families:
            return True
        return bool({gpu_family(gpu).lower(), gpu.generation.lower()} & {f.lower() for f in self.gpu_families})

    def within_budget(self, result: ValidationResult) -> bool:
        """The design's bill within the budget; a bill with lines on request is within it only if its priced lines
        leave room (the amount is then at least the total)."""
        return self.budget_eur is None or result.totals.list_price_eur <= self.budget_eur


def gpu_family(gpu: GpuSpec) -> str:
    """The GPU's family as buyers name it: the first word of its model ("H200" of "H200 SXM 141GB")."""
    return (gpu.gpu_model or gpu.part_number).split()[0]


@dataclass(frozen=True)
class GoalFit:
    """How one validated design stands against the goal. ``goal``: "deadline" (training tokens and target days),
    "serving" (inference with a concurrency) or "" (no goal beyond the memory). ``meets``: True or False, None when
    the result has no estimate to judge by."""

    goal: str
    meets: bool | None
    target_days: float | None = None
    training_days: float | None = None
    training_days_range: tuple[float, float] | None = None
    gpu_hours: float | None = None
    deadline_gpus: int | None = None
    deadline_nodes: int | None = None
    concurrency: int | None = None
    tokens_per_second: float | None = None
    gpus_needed: int | None = None
    gpus: int | None = None

    @property
    def beyond_quotes(self) -> bool:
        """The deadline needs more nodes than one design may have (design.contract.MAX_NODES)."""
        return self.deadline_nodes is not None and self.deadline_nodes > MAX_NODES

    @property
    def max_nodes(self) -> int:
        return MAX_NODES

    @property
    def order(self) -> int:
        """Ranking key: designs that meet the goal first, then those that miss it by an estimate (which says by how
        much, and what size would meet it), then those whose standing is not known (no estimate for their GPU)."""
        return {True: 0, False: 1, None: 2}[self.meets]

    def to_json(self) -> JsonObject:
        return {
            "goal": self.goal or None,
            "meets_goal": self.meets,
            "target_days": self.target_days,
            "training_days": _round(self.training_days, 1),
            "training_days_range": [_round(v, 1) for v in self.training_days_range]
            if self.training_days_range
            else None,
            "gpu_hours": _round(self.gpu_hours, 0),
            "deadline_gpus": self.deadline_gpus,
            "deadline_nodes": self.deadline_nodes,
            "concurrency": self.concurrency,
            "tokens_per_second": _round(self.tokens_per_second, 0),
            "gpus_needed": self.gpus_needed,
            "gpus": self.gpus,
        }


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def goal_of(workload: JsonObject | None) -> str:
    """The goal a design's workload sets: "deadline", "serving" or ""."""
    w = workload if isinstance(workload, dict) else {}
    if w.get("kind") == "training" and w.get("target_days") and w.get("training_tokens_billion"):
        return "deadline"
    if w.get("kind") == "inference" and w.get("concurrency"):
        return "serving"
    return ""


def goal_fit(result: ValidationResult, workload: JsonObject | None) -> GoalFit:
    """The design's standing against its workload's goal, read from its validation result."""
    goal = goal_of(workload)
    s = result.sizing
    gpus = result.totals.nodes.get("gpus")
    if s is None:
        return GoalFit(goal=goal, meets=None, gpus=gpus)
    w = workload or {}
    meets: bool | None = None
    if goal == "deadline" and s.training_days is not None:
        meets = s.training_days <= float(w["target_days"])
    elif goal == "serving" and s.gpus_needed is not None and gpus is not None:
        meets = gpus >= s.gpus_needed
    return GoalFit(
        goal=goal,
        meets=meets,
        target_days=float(w["target_days"]) if goal == "deadline" else None,
        training_days=s.training_days,
        training_days_range=s.training_days_range,
        gpu_hours=s.gpu_hours,
        deadline_gpus=s.deadline_gpus,
        deadline_nodes=s.deadline_nodes,
        concurrency=s.concurrency if s.kind == "inference" else None,
        tokens_per_second=s.tokens_per_second,
        gpus_needed=s.gpus_needed,
        gpus=gpus,
    )
