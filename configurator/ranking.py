"""Selector of the recommendation door: a workload (and optional limits) in, the ranked designs out.

The ranking is the goal step's own (comparison.goal_choices): the recommended design and the cheapest that fits,
those that meet the goal first, each with its design document, list price (the bill's), the time to train or the
serving estimate of its validation result, and whether it meets the goal. When none meets it the answer says so
in a sentence, with the size that would.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from design.jsontext import JsonObject
from design.model import DesignInputError, RecommendRequestIn
from design.specs import GpuSpec
from engines.catalog_view import CatalogView
from engines.intake.parse import parse_recommend_request
from messages.base import num

from .comparison import Choice, goal_choices, nothing_meets
from .goal import Limits, goal_of, gpu_family
from .selectors import catalog_view


@dataclass(frozen=True)
class Ranking:
    """The ranked designs for one request, and the goal's verdict over them."""

    goal: str  # "deadline", "serving" or "" (configurator.goal.goal_of)
    choices: list[Choice]
    missed: Choice | None  # the closest design when none meets the goal
    message: str  # one sentence, in the request's language

    @property
    def met(self) -> bool | None:
        """True when a design meets the goal, False when none does, None without a goal or an estimate."""
        if not self.choices:
            return False
        fits = [c.column.fit.meets for c in self.choices if c.column.fit is not None]
        if any(fits):
            return True
        return False if self.missed is not None else None

    def to_json(self) -> JsonObject:
        return {
            "goal": self.goal or None,
            "met": self.met,
            "message": self.message,
            "designs": [_design_json(rank, c) for rank, c in enumerate(self.choices, start=1)],
        }


def _design_json(rank: int, choice: Choice) -> JsonObject:
    col = choice.column
    result = choice.result
    return {
        "rank": rank,
        "key": choice.key,
        "also": list(col.also),
        "name": col.name,
        "reason": choice.reason,
        "document": choice.document,
        "list_price_eur": str(result.totals.list_price_eur) if result is not None else None,
        "list_price_at_least": result.totals.list_price_at_least if result is not None else False,
        "valid": result.valid if result is not None else False,
        "errors": col.counts.get("error", 0),
        "warnings": col.counts.get("warning", 0),
        **(col.fit.to_json() if col.fit is not None else {}),
    }


def design_recommendations(*, request: Any, language: str) -> Ranking:
    """The ranked designs for ``request`` (``{"workload": {...}, "limits": {...}}``), said in ``language``.

    Raises DesignInputError naming the field when the request is malformed or names a GPU family the catalogue
    does not hold."""
    parsed = parse_recommend_request(request)
    view = catalog_view()
    limits = _limits(parsed, view)
    workload = _workload(parsed)
    document = {"schema": "design/v1", "workload": workload, "node_groups": []}
    with translation.override(language):
        choices = goal_choices(document, view, language, limits=limits)
        missed = nothing_meets(choices)
        goal = goal_of(workload)
        return Ranking(goal=goal, choices=choices, missed=missed, message=_message(goal, choices, missed))


def _workload(parsed: RecommendRequestIn) -> JsonObject:
    """The request's workload as a design's, without the defaults it left out."""
    data = parsed.workload.model_dump(exclude_none=True, exclude_defaults=True)
    data["kind"] = parsed.workload.kind
    data["model_parameters_billion"] = parsed.workload.model_parameters_billion
    return data


def _limits(parsed: RecommendRequestIn, view: CatalogView) -> Limits:
    """The request's limits; a GPU family the catalogue does not sell is refused at its place in the list."""
    given = parsed.limits
    known = {name.lower(): name for gpu in view.of_type(GpuSpec) for name in (gpu_family(gpu), gpu.generation) if name}
    for i, family in enumerate(given.gpu_families):
        if family.lower() not in known:
            choices = ", ".join(sorted(set(known.values())))
            raise DesignInputError(
                {f"limits.gpu_families[{i}]": f"no GPU family {family!r} in the catalogue; one of {choices}"}
            )
    budget = Decimal(str(given.budget_eur)) if given.budget_eur is not None else None
    return Limits(gpu_families=tuple(given.gpu_families), budget_eur=budget, max_nodes=given.max_nodes)


def _message(goal: str, choices: list[Choice], missed: Choice | None) -> str:
    """The answer in one sentence: what meets the goal, or plainly that nothing does and what size would."""
    if not choices:
        return _("Nothing in our catalogue runs this workload within the limits given.")
    if missed is not None and missed.column.fit is not None:
        fit = missed.column.fit
        if goal == "deadline":
            text = ngettext(
                "Nothing in our catalogue meets %(days)s day as asked.",
                "Nothing in our catalogue meets %(days)s days as asked.",
                1 if fit.target_days == 1 else 2,  # the plural form of a number of days that may be fractional
            ) % {"days": num(fit.target_days or 0, 1)}
            if fit.beyond_quotes:
                text += " " + _(
                    "The closest design takes about %(taken)s days; not even %(most)s servers, the most one design "
                    "may have, would meet it."
                ) % {"taken": num(fit.training_days or 0, 1), "most": num(fit.max_nodes)}
            elif fit.deadline_nodes:
                text += " " + _(
                    "The closest design takes about %(taken)s days; %(nodes)s × %(server)s (%(gpus)s GPUs) would "
                    "meet it."
                ) % {
                    "taken": num(fit.training_days or 0, 1),
                    "nodes": num(fit.deadline_nodes),
                    "server": missed.column.server,
                    "gpus": num(fit.deadline_gpus or 0),
                }
            return text
        text = _("Nothing in our catalogue serves %(concurrency)s concurrent requests as asked.") % {
            "concurrency": num(fit.concurrency or 0)
        }
        if fit.gpus_needed:
            text += " " + _("%(gpus)s GPUs of the closest design would.") % {"gpus": num(fit.gpus_needed)}
        return text
    first = choices[0].column
    if first.fit is not None and first.fit.meets:
        return _("The first design meets the goal.")
    return (
        _("The designs are ranked by the recommender's order; the goal cannot be judged without an estimate.")
        if goal
        else _("The designs are ranked by the recommender's order.")
    )
