"""The goal step's one-sentence reason for each proposed design (the recommended one and the cheapest that fits).

Every figure comes from the design's validation result (its sizing, totals and, when the time to train is
estimated, ``sizing.training_days``; when the replicas are, ``sizing.tokens_per_second``) and its bill of
materials; nothing is said that the result does not know.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from design.jsontext import JsonObject

from .base import duration, num


class ChoiceFacts(TypedDict):
    """What the recommender ranks a design of the pair by (configurator.comparison): its servers, whether they are
    liquid-cooled, its longest lead time in days (None: not known), its priced net (None: nothing priced), its
    warnings, and whether its server's slot list is sourced."""

    nodes: int
    liquid: bool
    lead_days: int | None
    net_eur: Decimal | None
    warnings: int
    slots_known: bool


class ChoicePair(ChoiceFacts):
    """The other design's facts, with this design's own under ``self``."""

    self: ChoiceFacts


def _money(amount: Decimal) -> str:
    return "€ " + num(float(amount))


def choice_reason(
    *,
    key: str,
    sizing: JsonObject | None,
    nvlink_domain: int | None,
    total_gpus: int,
    nodes: int = 1,
    other: ChoicePair | None = None,
) -> str:
    """One sentence: why this design (``key`` "recommended" or "cheapest") holds the workload.

    ``sizing``: the validation result's ``sizing`` as JSON (None without one).
    ``nvlink_domain``: the GPUs one NVLink domain joins (0: none; None: not known). ``other``: the facts of the
    other design of the pair (comparison._choice_facts) with this design's own under "self", for the contrast:
    what the recommendation gains, what the cheapest saves."""
    sizing = sizing or {}
    clauses = _memory_clauses(sizing, total_gpus)
    clauses += _parallel_clauses(sizing, nvlink_domain, nodes)
    clauses += _serving_clauses(sizing, total_gpus, nodes)
    days = sizing.get("training_days")
    if days:
        clauses.append(_("training takes about %(time)s") % {"time": duration(float(days))})
    clauses += _contrast(key, other)
    if not clauses:
        return ""
    sentence = "; ".join(clauses)
    return sentence[:1].upper() + sentence[1:] + "."


def _memory_clauses(sizing: JsonObject, total_gpus: int) -> list[str]:
    """The memory the GPUs hold for what the model needs, with the headroom."""
    clauses: list[str] = []
    needed = float(sizing.get("memory_needed_gb") or 0)
    usable = float(sizing.get("usable_gb_per_gpu") or 0) * total_gpus
    if needed and usable:
        clauses.append(
            ngettext(
                "%(gpus)s GPU holds %(usable)s GB of usable memory for the %(needed)s GB needed"
                " (%(headroom)s%% headroom)",
                "%(gpus)s GPUs hold %(usable)s GB of usable memory for the %(needed)s GB needed"
                " (%(headroom)s%% headroom)",
                total_gpus,
            )
            % {
                "gpus": num(total_gpus),
                "usable": num(usable),
                "needed": num(needed),
                "headroom": num(max(usable / needed - 1, 0) * 100),
            }
        )
    return clauses


def _parallel_clauses(sizing: JsonObject, nvlink_domain: int | None, nodes: int) -> list[str]:
    """Where the model's split runs: inside an NVLink domain, or over PCIe."""
    clauses: list[str] = []
    plan = sizing.get("parallelism") or {}
    tensor = int(plan.get("tensor") or 0)
    # the GPUs one copy of the model is split over: the plan's tensor x pipeline, else the memory's minimum
    split = tensor * int(plan.get("pipeline") or 1) if tensor else int(sizing.get("min_gpus") or 1)
    # a domain of one GPU (the result's nvlink_domain_gpus without NVLink) is no NVLink at all
    linked = nvlink_domain if nvlink_domain and nvlink_domain > 1 else (0 if nvlink_domain is not None else None)
    if linked and tensor > 1 and nodes > 1:
        clauses.append(
            _(
                "tensor parallelism stays inside each server's NVLink domain of %(domain)s GPUs"
                " and the fabric joins the %(nodes)s servers"
            )
            % {"domain": num(linked), "nodes": num(nodes)}
        )
    elif linked and split > 1 and linked >= (tensor or split):
        clauses.append(
            _("its %(tp)s-way tensor parallelism stays inside one NVLink domain of %(domain)s GPUs")
            % {"tp": num(tensor or split), "domain": num(linked)}
        )
    elif linked == 0 and split > 1:
        clauses.append(
            _("the model is split over %(tp)s GPUs that talk over PCIe, without NVLink") % {"tp": num(split)}
        )
    return clauses


def _serving_clauses(sizing: JsonObject, total_gpus: int, nodes: int) -> list[str]:
    """The copies of the model served side by side, and the concurrency the GPUs serve (NVIDIA's benchmark)."""
    clauses: list[str] = []
    served, rate = int(sizing.get("gpus_needed") or 0), float(sizing.get("tokens_per_second") or 0)
    replicas_needed = int(sizing.get("replicas_needed") or 0)
    estimated = bool(served and rate and served <= total_gpus)
    min_gpus = int(sizing.get("min_gpus") or 0)
    # the memory's copies of the model, unless the benchmark's replicas (of another size) are said instead
    copies = not (estimated and replicas_needed) or served // replicas_needed == min_gpus
    if (
        sizing.get("kind") == "inference"
        and sizing.get("fits_one_node")
        and min_gpus
        and total_gpus >= 2 * min_gpus
        and copies
    ):
        replicas = total_gpus // min_gpus
        clauses.append(
            _("its %(gpus)s GPUs serve %(replicas)s copies of the model side by side")
            % {"gpus": num(total_gpus), "replicas": num(replicas)}
        )
    memory_nodes = int(sizing.get("min_nodes") or 1)
    if estimated and replicas_needed and nodes > memory_nodes and served > total_gpus // nodes * memory_nodes:
        # the servers the memory alone asks would not hold the replicas: the design has more for the concurrency
        clauses.append(
            _(
                "its %(nodes)s servers are sized for the concurrency, not only the memory: %(replicas)s replicas of"
                " %(tp)s GPUs serve the %(concurrency)s concurrent requests at about %(rate)s tokens per second (an"
                " estimate from NVIDIA's benchmark)"
            )
            % {
                "nodes": num(nodes),
                "replicas": num(replicas_needed),
                "tp": num(served // replicas_needed),
                "concurrency": num(int(sizing["concurrency"])),
                "rate": num(round(rate, -1)),
            }
        )
    elif estimated:
        clauses.append(
            _(
                "%(gpus)s of its GPUs serve the %(concurrency)s concurrent requests at about %(rate)s tokens per"
                " second (an estimate from NVIDIA's benchmark)"
            )
            % {"gpus": num(served), "concurrency": num(int(sizing["concurrency"])), "rate": num(round(rate, -1))}
        )
    return clauses


def _contrast(key: str, other: ChoicePair | None) -> list[str]:
    """What sets this design apart from the other of the pair, by the recommender's selling order."""
    if not other:
        return []
    mine = other["self"]
    if key == "cheapest":
        if mine["net_eur"] is not None and other["net_eur"] is not None and other["net_eur"] > mine["net_eur"]:
            return [
                _("it costs %(saving)s less than the recommendation")
                % {"saving": _money(other["net_eur"] - mine["net_eur"])}
            ]
        return []
    if mine["warnings"] < other["warnings"]:
        return [
            _("it passes with fewer warnings than the cheapest design (%(n)s against %(other)s)")
            % {"n": num(mine["warnings"]), "other": num(other["warnings"])}
        ]
    if mine["nodes"] < other["nodes"]:
        return [_("it needs fewer servers than the cheapest design")]
    if other["liquid"] and not mine["liquid"]:
        return [_("it is air-cooled, where the cheapest design needs liquid cooling")]
    if mine["lead_days"] is not None and other["lead_days"] is not None and mine["lead_days"] < other["lead_days"]:
        return [
            _("it ships sooner than the cheapest design (%(days)s days against %(other)s)")
            % {"days": num(mine["lead_days"]), "other": num(other["lead_days"])}
        ]
    if mine["slots_known"] and not other["slots_known"]:
        return [_("its server's slot list is sourced, so the placement of every card is checked")]
    return []
