"""Selectors of the web app: what the wizard, the dashboard and the rule catalogue read.

Every selector runs a fixed number of queries whatever the catalogue size (the catalogue itself comes from
configurator.snapshot, cached in memory). Nothing here decides a hardware question: option lists mark what the
catalogue's compatibility data says (Server.accepts), and findings come from configurator.services.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from configurator.bom import BomLine, bom_total, design_bom
from configurator.forms import fabric_switches
from configurator.models import Configuration
from configurator.rules.design import DesignInputError
from configurator.rules.parse import parse_design
from configurator.rules.specs import AdapterSpec, CatalogView, GpuSpec, ServerSpec
from configurator.snapshot import catalog_snapshot, clear_cache
from quotes.selectors import quote_list, quotes_for_configuration

# --- catalogue ---------------------------------------------------------------------------------------------


CATALOG_RECHECK_SECONDS = 2.0  # how stale a price or spec change may be on a wizard page, per process


def configuration_by_token(token: str) -> Configuration | None:
    """The design behind a token, or None. Every wizard request starts here, so it is one plain SELECT rather than
    an ORM query, whose building costs more than the query itself; ``assigned_to`` loads when a page asks."""
    table = Configuration._meta.db_table
    found = list(Configuration.objects.raw(f'SELECT * FROM "{table}" WHERE "token" = %s', [token]))  # noqa: S608
    return found[0] if found else None


def catalog() -> CatalogView:
    """The catalogue as the engines see it. The wizard lets configurator.snapshot check for changes at most every
    CATALOG_RECHECK_SECONDS per process, so a page view usually costs no catalogue query at all."""
    return catalog_snapshot(max_age=CATALOG_RECHECK_SECONDS)


def catalog_forget() -> None:
    """Forget the in-memory catalogue (tests that change the catalogue call this)."""
    clear_cache()


_lead_lock = threading.Lock()
_lead_cache: dict[str, dict[str, int | None]] = {}


def lead_times(view: CatalogView) -> dict[str, int | None]:
    """Lead time in days per part number (not part of the engines' view). One query per catalogue version."""
    cached = _lead_cache.get(view.version)
    if cached is not None:
        return cached
    from catalog.models import Part

    data = dict(Part.objects.values_list("part_number", "lead_time_days"))
    with _lead_lock:
        _lead_cache.clear()
        _lead_cache[view.version] = data
    return data


def part_sets(view: CatalogView) -> tuple[set[str], set[str]]:
    """Part numbers of GPUs and of adapters: how the wizard tells a document's component lines apart."""
    return ({p.part_number for p in view.of_type(GpuSpec)}, {p.part_number for p in view.of_type(AdapterSpec)})


@dataclass(frozen=True)
class Option:
    """One choice on a wizard step, with why it is unavailable (``reason``) when it is."""

    value: str
    spec: Any
    disabled: bool = False
    reason: str = ""
    selected: bool = False
    tags: tuple[str, ...] = ()


def server_options(view: CatalogView, selected: str) -> list[Option]:
    """Every server; none is excluded by itself (the GPUs follow from the server)."""
    out = []
    for s in sorted(view.of_type(ServerSpec), key=lambda s: (s.lifecycle == "eol", s.part_number)):
        tags = []
        if s.cooling is not None:
            tags.append(str(s.cooling))
        if s.height_u:
            tags.append(f"{s.height_u}U")
        out.append(Option(value=s.part_number, spec=s, selected=s.part_number == selected, tags=tuple(tags)))
    return out


def gpu_options(view: CatalogView, server: str, selected: str, reason_template) -> list[Option]:
    """GPUs the chosen server accepts first; those the rules reject greyed out with the reason (the engine's
    gpu_acceptance: a complete list that lacks the GPU, or a board in a PCIe server). GPUs a partial list does not
    name stay selectable; the engine warns about them.

    The selected GPU stays selectable even when the server does not take it, so the engine's finding about it
    (GPU_NOT_ACCEPTED) can be seen and fixed rather than the choice silently disappearing.
    """
    from configurator.rules.gpu import gpu_acceptance

    spec = view.get(server)
    accepts = spec.accepts if isinstance(spec, ServerSpec) else None
    out = []
    for g in view.of_type(GpuSpec):
        ok = not isinstance(spec, ServerSpec) or gpu_acceptance(spec, g) != "rejected"
        reason = ""
        if not ok:
            reason = reason_template(
                server=server, gpu=g.part_number, accepted=", ".join(sorted(accepts)) if accepts else "—"
            )
        out.append(
            Option(
                value=g.part_number,
                spec=g,
                disabled=not ok and g.part_number != selected,
                reason=reason,
                selected=g.part_number == selected,
            )
        )
    out.sort(key=lambda o: (o.disabled, not o.spec.is_board, o.spec.part_number))
    return out


def switch_options(view: CatalogView, selected: str) -> list[Option]:
    """The switches the fabric step offers: forms.fabric_switches (the form's choices), with their tags."""
    out = []
    for s in fabric_switches(view):
        tags = (str(s.protocol), s.generation, f"{s.logical_ports} × {s.port_speed_gbps} Gb/s")
        out.append(Option(value=s.part_number, spec=s, selected=s.part_number == selected, tags=tags))
    return out


# --- validation ------------------------------------------------------------------------------------------

_validation_lock = threading.Lock()
_validations: OrderedDict[tuple, Any] = OrderedDict()
VALIDATION_CACHE_SIZE = 2048


def design_outcome(*, document: dict, language: str, view: CatalogView):
    """The validation service's verdict on a document, memoised per (catalogue version, language, document).

    Validation is a pure function of those three (configurator.validation), so a step that is only looked at
    again costs no validation at all. The result is shared: callers must not mutate it.
    """
    from configurator.services import design_evaluate

    key = (view.version, language, json.dumps(document, sort_keys=True, separators=(",", ":"), default=str))
    hit = _validations.get(key)
    if hit is not None:
        return hit
    outcome = design_evaluate(document=document, language=language)
    with _validation_lock:
        _validations[key] = outcome
        while len(_validations) > VALIDATION_CACHE_SIZE:
            _validations.popitem(last=False)
    return outcome


# --- bill of materials -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bill:
    lines: list[BomLine]
    total: Decimal
    on_request: int

    @property
    def sections(self) -> list[tuple[str, list[BomLine]]]:
        out: dict[str, list[BomLine]] = {}
        for line in self.lines:
            out.setdefault(line.section, []).append(line)
        return list(out.items())


def design_bill(*, document: dict, result: dict | None, catalog: CatalogView | None = None) -> Bill | None:
    """The design's bill of materials with list prices, or None when the document cannot be read yet."""
    try:
        design = parse_design(document)
    except DesignInputError:
        return None
    view = catalog or catalog_snapshot()
    lines = design_bom(design, (result or {}).get("fabric_plan"), view)
    total, missing = bom_total(lines)
    return Bill(lines=lines, total=total, on_request=missing)


# --- fabric diagram ----------------------------------------------------------------------------------------


def fabric_diagram_svg(plan: dict | None) -> str:
    """The planner's topology diagram for the plan in a validation result (``fabric_plan``), or ''.

    The validation result carries the plan as a dict; FabricPlan.from_dict rebuilds the planner's object for the
    diagram. Memoised: the picture is a pure function of the plan.
    """
    if not plan or not plan.get("tiers"):
        return ""
    return _diagram(json.dumps(plan, sort_keys=True, default=str))


def slot_map_svg(placement_group: dict, language: str) -> str:
    """configurator.slotmap's picture of one node group, memoised (a pure function of its input)."""
    return _slot_map(json.dumps(placement_group, sort_keys=True, default=str), language)


@lru_cache(maxsize=512)
def _slot_map(placement_json: str, language: str) -> str:
    from configurator.slotmap import render_slot_map_svg

    return render_slot_map_svg(json.loads(placement_json), language=language)


@lru_cache(maxsize=512)
def _diagram(plan_json: str) -> str:
    from configurator.fabric.diagram import render_svg
    from configurator.fabric.planner import FabricPlan

    fp = FabricPlan.from_dict(json.loads(plan_json))
    try:
        return render_svg(fp)
    except Exception:  # noqa: BLE001 - a picture must never take the step down; the plan table still shows
        return ""


# --- quotes ------------------------------------------------------------------------------------------------


def quotes_for(configuration: Configuration, *, tokens: Collection[str] | None = None) -> list:
    """The configuration's quotes, newest first. With ``tokens`` (a customer's browser): only the quotes with
    those tokens and the other revisions of their numbers (a sales engineer's revision of the customer's quote)."""
    # The frozen snapshot is large and only the newest issued quote's design is ever read (the "changed" banner).
    quotes = list(quotes_for_configuration(configuration).defer("frozen"))
    if tokens is None:
        return quotes
    wanted = set(tokens)
    numbers = {q.base_number for q in quotes if q.token in wanted}
    return [q for q in quotes if q.base_number in numbers]


def quote_requests(
    *,
    status: str | None = None,
    customer: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    limit: int = 100,
) -> list:
    qs = quote_list(status=status or None, customer=customer or None, date_from=date_from, date_to=date_to)
    return list(qs.select_related("configuration")[:limit])


# --- dashboard ---------------------------------------------------------------------------------------------


def _day_start(d: date) -> datetime:
    return timezone.make_aware(datetime.combine(d, time.min))


def configuration_list(
    *,
    status: str | None = None,
    customer: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
) -> QuerySet[Configuration]:
    """Drafts and requests for the sales dashboard, newest first, filtered by status, customer and date."""
    qs = Configuration.objects.select_related("assigned_to").order_by("-updated_at", "-id")
    if status:
        qs = qs.filter(status=status)
    if customer:
        qs = qs.filter(
            Q(customer_name__icontains=customer)
            | Q(customer_company__icontains=customer)
            | Q(crm_reference__icontains=customer)
            | Q(name__icontains=customer)
        )
    if date_from:
        qs = qs.filter(updated_at__gte=_day_start(date_from))
    if date_to:
        qs = qs.filter(updated_at__lt=_day_start(date_to) + timezone.timedelta(days=1))
    return qs


# --- rule catalogue ----------------------------------------------------------------------------------------


def rule_catalogue() -> list[dict]:
    """Every finding code of the node rules and the fabric planner, with both languages and its source."""
    from configurator.messages import rule_entries

    return rule_entries()
