"""Selectors of the web door: what the wizard, the dashboard and the rule catalogue read.

Every selector runs a fixed number of queries whatever the catalogue size (the catalogue itself comes from
configurator.snapshot, cached in memory). Nothing here decides a hardware question: option lists mark what the
catalogue's compatibility data says (Server.accepts), and findings come from configurator.services.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from configurator.models import Configuration
from configurator.selectors import catalog_forget as _catalog_forget
from configurator.selectors import catalog_view, fabric_switches, gpu_verdict, node_part_fit
from configurator.services import Outcome, design_evaluate
from design.specs import GpuSpec, ServerSpec
from messages import rule_entries
from quotes.selectors import UNASSIGNED

if TYPE_CHECKING:
    from engines.catalog_view import CatalogView  # a view the services hand over

# --- catalogue ---------------------------------------------------------------------------------------------


CATALOG_RECHECK_SECONDS = 2.0  # how stale a price or spec change may be on a wizard page, per process


def configuration_by_token(token: str) -> Configuration | None:
    """The design behind a token, or None. Every wizard request starts here, so it is one plain SELECT rather than
    an ORM query, whose building costs more than the query itself; ``assigned_to`` loads when a page asks.
    bench/sessions.py times it on whole wizard requests: with the raw session read, it saved 9 to 20 % of a page's
    median time against Django's session store and an ORM lookup."""
    table = Configuration._meta.db_table
    found = list(Configuration.objects.raw(f'SELECT * FROM "{table}" WHERE "token" = %s', [token]))  # noqa: S608
    return found[0] if found else None


def catalog() -> CatalogView:
    """The catalogue as the engines see it. The wizard lets configurator.selectors check for changes at most every
    CATALOG_RECHECK_SECONDS per process, so a page view usually costs no catalogue query at all."""
    return catalog_view(max_age=CATALOG_RECHECK_SECONDS)


def catalog_forget() -> None:
    """Forget the in-memory catalogue (tests that change the catalogue call this)."""
    _catalog_forget()


def node_part_choices(view: CatalogView, server_pn: str, current: dict[str, str]) -> list[dict[str, Any]]:
    """The platform step's CPU, memory and boot-drive choices: configurator.selectors.node_part_fit (the parts the
    server takes per role, and the one chosen) as options."""
    return [
        {
            "role": row.role,
            "options": [Option(value=p.part_number, spec=p, selected=p.part_number == row.chosen) for p in row.parts],
            "chosen": row.chosen,
            "quantity": row.quantity,
        }
        for row in node_part_fit(view, server_pn, current)
    ]


@dataclass(frozen=True)
class Option:
    """One choice on a wizard step, with why it is unavailable (``reason``) when it is."""

    value: str
    spec: Any
    disabled: bool = False
    reason: str = ""
    selected: bool = False
    tags: tuple[str, ...] = ()


# The words for catalogue values that a page shows as tags (the catalogue stores the vocabulary's codes).
COOLING_TAGS = {"air": pgettext_lazy("cooling", "air-cooled"), "liquid": pgettext_lazy("cooling", "liquid-cooled")}
PROTOCOL_TAGS = {
    "infiniband": pgettext_lazy("protocol", "InfiniBand"),
    "ethernet": pgettext_lazy("protocol", "Ethernet"),
    "vpi": pgettext_lazy("protocol", "InfiniBand or Ethernet (VPI)"),
}


RACK_SCALE_TAG = pgettext_lazy("server", "rack-scale: one rack, %(gpus)s GPUs in one NVLink domain")


def is_rack_system(view: CatalogView, server_pn: str) -> bool:
    """Whether ``server_pn`` is a rack-scale NVLink system (one part is one rack; the wizard's count is racks)."""
    spec = view.get(server_pn) if server_pn else None
    return isinstance(spec, ServerSpec) and spec.rack_scale


def rack_system_gpus(view: CatalogView) -> set[str]:
    """The GPU sets built into rack-scale systems: not a choice for any other server (they are not sold alone)."""
    systems = [s for s in view.of_type(ServerSpec) if s.rack_scale]
    others = [s for s in view.of_type(ServerSpec) if not s.rack_scale]
    return {pn for s in systems for pn in s.accepts} - {pn for s in others for pn in s.accepts}


def server_options(view: CatalogView, selected: str) -> list[Option]:
    """Every server; none is excluded by itself (the GPUs follow from the server). The rack-scale NVLink systems
    (NVL72) come last, as a group of their own, tagged as one rack of N GPUs in one NVLink domain."""
    out = []
    order = sorted(view.of_type(ServerSpec), key=lambda s: (s.rack_scale, s.lifecycle == "eol", s.part_number))
    for s in order:
        tags = []
        if s.rack_scale:
            tags.append(str(RACK_SCALE_TAG) % {"gpus": s.nvlink_domain_gpus or "?"})
        if s.cooling is not None:
            tags.append(str(COOLING_TAGS.get(str(s.cooling), s.cooling)))
        if s.height_u:
            tags.append(f"{s.height_u}U")
        out.append(Option(value=s.part_number, spec=s, selected=s.part_number == selected, tags=tuple(tags)))
    return out


def gpu_options(view: CatalogView, server: str, selected: str, reason_template: Callable[..., str]) -> list[Option]:
    """GPUs the chosen server accepts first; those the rules reject greyed out with the reason (the engine's
    gpu_acceptance: a complete list that lacks the GPU, or a board in a PCIe server). GPUs a partial list does not
    name stay selectable; the engine warns about them.

    The selected GPU stays selectable even when the server does not take it, so the engine's finding about it
    (GPU_NOT_ACCEPTED) can be seen and fixed rather than the choice silently disappearing.
    """
    spec = view.get(server)
    accepts = spec.accepts if isinstance(spec, ServerSpec) else None
    if isinstance(spec, ServerSpec) and spec.rack_scale:
        return []  # the rack's GPUs are built in: no GPU to choose
    built_in = rack_system_gpus(view) - {selected}
    out = []
    for g in view.of_type(GpuSpec):
        if g.part_number in built_in:
            continue
        ok = not isinstance(spec, ServerSpec) or gpu_verdict(spec, g) != "rejected"
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
        protocol = str(PROTOCOL_TAGS.get(str(s.protocol), s.protocol))
        tags = (protocol, s.generation, f"{s.logical_ports} × {s.port_speed_gbps} Gb/s")
        out.append(Option(value=s.part_number, spec=s, selected=s.part_number == selected, tags=tags))
    return out


# --- validation ------------------------------------------------------------------------------------------

_validation_lock = threading.Lock()
_validations: OrderedDict[tuple, Any] = OrderedDict()
VALIDATION_CACHE_SIZE = 2048


def design_outcome(*, document: dict, language: str, view: CatalogView) -> Outcome:
    """The validation service's verdict on a document, memoised per (catalogue version, language, document).

    Validation is a pure function of those three (configurator.validation), so a step that is only looked at
    again costs no validation at all. The result is shared: callers must not mutate it.
    """
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


# --- dashboard ---------------------------------------------------------------------------------------------


def _day_start(d: date) -> datetime:
    return timezone.make_aware(datetime.combine(d, time.min))


def configuration_list(
    *,
    status: str | None = None,
    customer: str | None = None,
    date_from: date | None = None,
    date_to: date | None = None,
    owner: int | str | None = None,
) -> QuerySet[Configuration]:
    """Drafts and requests for the sales dashboard, newest first, filtered by status, customer, date and who
    handles them (``owner``: a user id, or quotes.selectors.UNASSIGNED for nobody yet)."""
    qs = Configuration.objects.select_related("assigned_to").order_by("-updated_at", "-id")
    if owner == UNASSIGNED:
        qs = qs.filter(assigned_to__isnull=True)
    elif owner:
        qs = qs.filter(assigned_to_id=owner)  # type: ignore[misc]  # a user's pk as the filter form sends it
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
        qs = qs.filter(updated_at__lt=_day_start(date_to) + timedelta(days=1))
    return qs


# --- rule catalogue ----------------------------------------------------------------------------------------


def rule_catalogue() -> list[dict]:
    """Every finding code of the node rules and the fabric planner, with both languages and its source."""
    return rule_entries()
