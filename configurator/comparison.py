"""Selectors of the comparison: designs side by side (a workload's alternatives, or two of a user's drafts).

Every figure of a column comes from the validation service's result for that design (totals, fabric plan,
rack plan, findings) and the price from the design's bill of materials (configurator.bom, the review step's
total: per line to the cent, as a quote prices its lines before discounts), so a comparison never shows a second
set of numbers. A figure the result does not know is None here and "not known" on the page.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db.models import Q

from design.specs import GpuSpec, ServerSpec, SwitchSpec
from design.vocabulary import Cooling
from engines.catalog_view import CatalogView
from messages.choices import ChoiceFacts, choice_reason

from .bom import design_bill
from .goal import GoalFit, Limits, goal_fit
from .models import Configuration
from .recommend import Alternative, Recommendation, RecommendParams, alternatives, recommend
from .result import ValidationResult
from .selectors import lead_times, part_sets
from .services import Outcome

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

TOP_FINDINGS = 3  # findings named in a column (errors first); the counts cover all of them
MAX_OWN_DRAFTS = 50  # a sales engineer's drafts offered for comparison, most recently changed first


def workload_inputs(document: dict, limits: Limits | None = None) -> RecommendParams | None:
    """What the recommender needs from a design's workload (and the buyer's ``limits``), or None when the goal is not
    set yet."""
    w = document.get("workload") if isinstance(document, dict) else None
    if not isinstance(w, dict) or not w.get("kind") or not w.get("model_parameters_billion"):
        return None
    inference = w["kind"] == "inference"
    return RecommendParams(
        kind=w["kind"],
        params_billion=float(w["model_parameters_billion"]),
        gpus=w.get("target_gpus"),
        nodes=w.get("target_nodes"),
        mode=w.get("mode") or None,
        precision=w.get("precision") or "bf16",
        context_tokens=w.get("context_tokens") if inference else None,
        concurrency=w.get("concurrency") if inference else None,
        training_tokens_billion=None if inference else w.get("training_tokens_billion"),
        target_days=None if inference else w.get("target_days"),
        limits=limits or Limits(),
    )


def recommendation(document: dict, view: CatalogView, limits: Limits | None = None) -> Recommendation | None:
    """The goal step's proposal for the design's workload (None without a workload or a fitting design)."""
    inputs = workload_inputs(document, limits)
    if inputs is None:
        return None
    try:
        return recommend(inputs, catalog=view, lead_times=lead_times(view))
    except ValueError:  # a workload the sizing cannot take (a mode of the other kind, an unknown precision)
        return None


def workload_alternatives(document: dict, view: CatalogView, language: str) -> tuple[Alternative, ...]:
    """The recommended design and its alternatives for the design's workload (empty without one)."""
    inputs = workload_inputs(document)
    if inputs is None:
        return ()
    try:
        return alternatives(inputs, catalog=view, lead_times=lead_times(view), language=language)
    except ValueError:  # as for the recommendation
        return ()


def goal_choices(
    document: dict,
    view: CatalogView,
    language: str,
    *,
    limits: Limits | None = None,
    current: tuple[dict, ValidationResult | None] | None = None,
) -> list[Choice]:
    """The goal step's ranking: the recommended design and, when it is another design, the cheapest that fits, each
    with its figures (a comparison column, the time to train or the serving estimate beside the price) and the
    reason for it in one sentence, in the active language; with ``current`` (the draft's own design and its
    result) that design too. Designs that meet the goal (configurator.goal) come first, in that order otherwise;
    the API's recommendation door answers the same list."""
    inputs = workload_inputs(document, limits)
    if inputs is None:
        return []
    try:
        alts = alternatives(inputs, catalog=view, lead_times=lead_times(view), language=language, cheapest_only=True)
    except ValueError:  # as for the recommendation
        return []
    columns = alternative_columns(alts, view)
    facts = [_choice_facts(a.document, c, view) for a, c in zip(alts, columns, strict=True)]
    out = []
    for i, (alt, col) in enumerate(zip(alts, columns, strict=True)):
        other = facts[1 - i] if len(facts) == 2 else None
        reason = choice_reason(
            key=alt.key,
            sizing=alt.result.sizing.to_dict() if alt.result.sizing else None,
            nvlink_domain=_nvlink_domain(alt.result, col, view),
            total_gpus=col.gpus or 0,
            nodes=col.nodes or 1,
            other={**other, "self": facts[i]} if other else None,
        )
        out.append(Choice(column=col, reason=reason, document=alt.document, result=alt.result, key=alt.key))
    if current is not None and out:
        out = _with_current(out, current, view)
    return sorted(out, key=lambda c: c.column.fit.order if c.column.fit else 2)


def _with_current(
    choices: list[Choice], current: tuple[dict, ValidationResult | None], view: CatalogView
) -> list[Choice]:
    """The draft's own design beside the proposals: a choice of its own, or ``also`` of the proposal it equals."""
    doc, result = current
    for i, c in enumerate(choices):
        if _same_design(c.document, doc):
            choices[i] = dataclasses.replace(c, column=dataclasses.replace(c.column, also=(*c.column.also, "current")))
            return choices
    col = column("current", doc, result, view)
    return [*choices, Choice(column=col, reason="", document=doc, result=result, key="current")]


def _same_design(a: dict, b: dict) -> bool:
    """The same hardware and workload, whatever the design's name."""
    return {k: v for k, v in a.items() if k != "name"} == {k: v for k, v in b.items() if k != "name"}


@dataclass(frozen=True)
class Choice:
    """One design of the goal step's ranking: its figures and why it is proposed (``key``: "recommended",
    "cheapest" or "current", the draft's own design)."""

    column: Column
    reason: str
    document: dict
    result: ValidationResult | None = None
    key: str = ""


def nothing_meets(choices: list[Choice]) -> Choice | None:
    """When a goal is set and no proposed design meets it (the recommendation, the catalogue's best within the
    limits, misses it by its estimate): that proposal, whose ``fit.deadline_nodes`` is the size that would. None
    otherwise."""
    proposed = [c for c in choices if c.key != "current"]
    rec = next((c for c in proposed if c.key == "recommended"), None)
    if rec is None or rec.column.fit is None or rec.column.fit.meets is not False:
        return None
    if any(c.column.fit is not None and c.column.fit.meets for c in proposed):
        return None
    return rec


def _choice_facts(document: dict, col: Column, view: CatalogView) -> ChoiceFacts:
    """What the recommender ranks the pair by: warnings, servers, cooling, lead time (the longest of its parts), a
    sourced slot list, price."""
    times = lead_times(view)
    parts = [col.server, *(c.get("part") for g in document.get("node_groups") or [] for c in g.get("components") or [])]
    if col.fabric:
        parts.append(col.fabric)
    known = [times.get(p) for p in parts if p]
    server = view.get(col.server)
    return {
        "nodes": col.nodes or 0,
        "liquid": isinstance(server, ServerSpec) and server.cooling == Cooling.LIQUID,
        "lead_days": max((t or 0 for t in known), default=None) if known else None,
        "net_eur": col.net_eur,
        "warnings": col.counts.get("warning", 0),
        "slots_known": isinstance(server, ServerSpec) and server.slots_known,
    }


def _nvlink_domain(result: ValidationResult, col: Column, view: CatalogView) -> int | None:
    """The GPUs one NVLink domain joins: the result's own figure when it gives one, an HGX board's GPUs, 0 without
    NVLink, None when not known (NVLink-bridged PCIe cards)."""
    groups = [g for g in result.totals.groups if g.get("gpus_per_node")]
    if groups and all(g.get("nvlink_domain_gpus") is not None for g in groups):
        return min(int(g["nvlink_domain_gpus"]) for g in groups)
    if col.nvlink_gbps_per_gpu == 0:
        return 0
    gpu = view.get(col.gpu)
    if isinstance(gpu, GpuSpec) and gpu.is_board and col.nvlink_gbps_per_gpu:
        return gpu.gpu_count
    return None


@dataclass(frozen=True)
class Column:
    """One design of a comparison table, as the page shows it."""

    key: str  # which question it answers ("recommended", "cheapest", ... or "draft")
    name: str
    also: tuple[str, ...]
    nodes: int | None
    server: str
    gpu: str
    gpus: int | None
    gpu_memory_gb: float | None
    nvlink_gbps_per_gpu: float | None  # GB/s; 0: no NVLink
    fabric: str | None  # the compute switch's part number; None: no compute fabric
    fabric_protocol: str | None
    compute_gbps_per_gpu: float | None  # Gb/s; 0: no compute NICs
    net_eur: Decimal | None  # the priced lines' net; None: nothing could be priced
    on_request: int  # lines priced on request: the net is then a lower bound
    power_w: int | None
    power_at_least: bool
    racks: int | None
    counts: dict[str, int]
    top: list[dict] = field(default_factory=list)
    readable: bool = True  # False: the document cannot be validated yet (input errors instead of a result)
    input_errors: dict[str, str] = field(default_factory=dict)
    fit: GoalFit | None = None  # the design against its workload's goal (time to train, serving); None: no result

    @property
    def has_goal(self) -> bool:
        return self.fit is not None and bool(self.fit.goal)


def net_price(document: dict, result: ValidationResult | None, view: CatalogView) -> tuple[Decimal | None, int]:
    """The design's net price without discounts (the bill's total of its priced lines, each to the cent), and how
    many lines are priced on request (the amount is then at least this); None when nothing is priced."""
    bill = result.bill if result is not None else design_bill(document=document, result=None, catalog=view)
    if bill is None:
        return None, 0
    priced = any(line.unit_price_eur is not None for line in bill.lines)
    return (bill.total if priced else None), bill.on_request


def _least(values: list[Any]) -> Any:
    """The smallest of the GPU groups' figures (what every GPU gets at least); None when any is unknown."""
    if not values or any(v is None for v in values):
        return None
    return min(values)


def column(
    key: str,
    document: dict,
    result: ValidationResult | None,
    view: CatalogView,
    *,
    name: str = "",
    also: tuple[str, ...] = (),
    input_errors: dict[str, str] | None = None,
) -> Column:
    """A comparison column from the validation service's result for ``document``."""
    group = next((g for g in document.get("node_groups") or [] if isinstance(g, dict)), {})
    gpu = next(
        (c.get("part", "") for c in group.get("components") or [] if isinstance(c, dict) and _is_gpu(view, c)), ""
    )
    name = name or str(document.get("name") or "")
    if result is None:
        return Column(
            key=key, name=name, also=tuple(also), nodes=None, server=str(group.get("server") or ""), gpu=gpu,
            gpus=None, gpu_memory_gb=None, nvlink_gbps_per_gpu=None, fabric=None, fabric_protocol=None,
            compute_gbps_per_gpu=None, net_eur=None, on_request=0, power_w=None, power_at_least=False, racks=None,
            counts={"error": len(input_errors or {}), "warning": 0, "info": 0}, readable=False,
            input_errors=dict(input_errors or {}),
        )  # fmt: skip
    totals = result.totals.to_json()  # the page's figures, under the contract's names
    gpu_groups = [g for g in totals.get("groups", []) if g.get("gpus_per_node")]
    plan = result.fabric_plan
    fabric = (document.get("fabric") or {}).get("switch") if plan else None
    switch = view.get(fabric) if fabric else None
    net, on_request = net_price(document, result, view)
    findings = result.findings_json()
    counts = {sev: sum(1 for f in findings if f["severity"] == sev) for sev in ("error", "warning", "info")}
    power = totals.get("cluster_power_w")
    return Column(
        key=key,
        name=name,
        also=tuple(also),
        nodes=totals.get("nodes"),
        server=str(group.get("server") or ""),
        gpu=gpu,
        gpus=totals.get("gpus"),
        gpu_memory_gb=totals.get("gpu_memory_gb"),
        nvlink_gbps_per_gpu=_least([g.get("nvlink_gbps_per_gpu") for g in gpu_groups]),
        fabric=fabric,
        fabric_protocol=str(switch.protocol) if isinstance(switch, SwitchSpec) and switch.protocol else None,
        compute_gbps_per_gpu=_least([g.get("compute_gbps_per_gpu") for g in gpu_groups]) if plan else None,
        net_eur=net,
        on_request=on_request,
        power_w=power if power is not None else totals.get("peak_power_w"),
        power_at_least=bool(totals.get("cluster_power_at_least")) and power is not None,
        racks=totals.get("racks"),
        counts=counts,
        top=[f for f in findings if f["severity"] in ("error", "warning")][:TOP_FINDINGS],
        fit=goal_fit(result, document.get("workload")),
    )


def _is_gpu(view: CatalogView, component: dict) -> bool:
    gpus, _adapters = part_sets(view)
    return component.get("part") in gpus


def alternative_columns(
    alts: tuple[Alternative, ...], view: CatalogView, current: tuple[dict, Column] | None = None
) -> list[Column]:
    """The comparison's columns; with ``current`` (the draft's design and its column) that design too, as a column
    of its own or named in ``also`` of the alternative it equals. With a goal, the designs that meet it first."""
    columns = [column(a.key, a.document, a.result, view, also=a.also) for a in alts]
    if current is not None and columns:
        doc, own = current
        same = next((i for i, a in enumerate(alts) if _same_design(a.document, doc)), None)
        if same is not None:
            columns[same] = dataclasses.replace(columns[same], also=(*columns[same].also, "current"))
        else:
            columns.append(dataclasses.replace(own, key="current"))
    return sorted(columns, key=lambda c: c.fit.order if c.fit else 2)


def draft_column(config: Configuration, outcome: Outcome, view: CatalogView) -> Column:
    """A stored draft as a column, from the validation service's ``outcome`` for its design."""
    return column(
        "draft",
        config.document,
        outcome.result,
        view,
        name=config.name or config.token[:8],
        input_errors=outcome.input_errors,
    )


# --- whose drafts ------------------------------------------------------------------------------------------


def own_drafts(*, user: User | AnonymousUser, session_tokens: list[str]) -> list[Configuration]:
    """The drafts ``user`` may compare, most recently changed first: a sales engineer's own (created by them or
    in their queue); a customer's those their browser started (``session_tokens``). Never anyone else's."""
    if user.is_authenticated and user.is_active and user.is_staff:
        qs = Configuration.objects.filter(Q(created_by=user) | Q(assigned_to=user))
    elif session_tokens:
        qs = Configuration.objects.filter(token__in=session_tokens)
    else:
        return []
    return list(qs.only("token", "name", "updated_at", "document").order_by("-updated_at", "-id")[:MAX_OWN_DRAFTS])
