"""The wizard's steps: one URL each (/d/<token>/<step>/), goal to review; the quote step is in views.quote."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from configurator.comparison import goal_choices, nothing_meets, recommendation
from configurator.models import Configuration
from configurator.selectors import (
    NODE_ROLES,
    node_part_sets,
    node_parts_chosen,
    part_sets,
    site_has,
    size_default_supplied,
)
from design.jsontext import JsonObject
from design.specs import AdapterSpec
from messages.cluster import left_out_items
from messages.diagram import LINK_CLASSES
from outputs.services import HANDOVER_EXPORTS, picture_set, result_pictures
from web import selectors, wizard
from web.forms import (
    AcknowledgeForm,
    AdaptersForm,
    FabricForm,
    GoalForm,
    PlatformForm,
    SiteForm,
)
from web.views.common import (
    _after_save,
    _can_edit,
    _config,
    _context,
    _evaluate,
    _language,
    _read_only,
    _render_step,
    _save,
    htmx,
    step_url,
)
from web.views.quote import _quote

if TYPE_CHECKING:
    from typing import Any

    from engines.catalog_view import CatalogView

# --- the steps ---------------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def step(request: HttpRequest, token: str, step: str) -> HttpResponse:
    handler = STEP_VIEWS.get(step)
    if handler is None:
        raise Http404
    config = _config(token)
    if request.method == "POST" and not _can_edit(request, config) and step != "quote":
        return _read_only(request, config)
    return handler(request, config)


def _goal(request: HttpRequest, config: Configuration) -> HttpResponse:
    view = selectors.catalog()
    status = 200
    if request.method == "POST":
        form = GoalForm(request.POST)
        if form.is_valid():
            answer = _goal_saved(request, config, view, form.cleaned_data)
            if answer is not None:
                return answer
        else:
            status = 422
    else:
        form = GoalForm(initial=wizard.workload_initial(config.document))
    ev = _evaluate(request, config, view)
    refused = status == 422  # the panel follows the form: after an error no design of the older answers is offered
    rec = None if refused else recommendation(config.document, view)
    # the draft's own design is ranked beside the proposals, once it has one
    current = (config.document, ev.outcome.result) if wizard.group(config.document) else None
    choices = goal_choices(config.document, view, _language(), current=current) if rec is not None else []
    ctx = _context(
        request,
        config,
        "goal",
        view,
        ev,
        form=form,
        rec=rec,
        choices=choices,
        missed=nothing_meets(choices),
        goal_error=refused,
        has_design=bool(wizard.group(config.document)),
    )
    return _render_step(request, "goal", ctx, status=status)


def _goal_saved(request: HttpRequest, config: Configuration, view: CatalogView, d: JsonObject) -> HttpResponse | None:
    """Saves the goal the form gives; the step to go to after "accept", "accept_cheapest" or "blank" (the platform
    step) or without htmx (the goal step again), None to answer the goal step in place."""
    action = request.POST.get("action", "update")
    doc = wizard.apply_goal(
        config.document,
        kind=d["kind"],
        params_billion=d["params_billion"],
        gpus=d["gpus"],
        nodes=d["nodes"],
        mode=d["mode"],
        precision=d["precision"],
        context_tokens=d["context_tokens"],
        concurrency=d["concurrency"],
        training_tokens_billion=d["training_tokens_billion"],
        target_days=d["target_days"],
    )
    if action in ("accept", "accept_cheapest"):
        proposed = _proposed(doc, view, cheapest=action == "accept_cheapest")
        if proposed is not None:
            doc = {**proposed, "name": config.document.get("name") or proposed["name"]}
            if wizard.AUTO_NAME.match(str(config.document.get("name", ""))):
                doc["name"] = proposed["name"]
        _save(request, config, doc)
        return redirect(step_url(config, "platform"))
    if action == "blank":
        doc = {k: v for k, v in doc.items() if k not in ("fabric",)}
        doc["node_groups"] = []
        _save(request, config, doc)
        return redirect(step_url(config, "platform"))
    _save(request, config, doc)
    if not htmx(request):
        return redirect(step_url(config, "goal"))
    return None


def _proposed(doc: JsonObject, view: CatalogView, *, cheapest: bool) -> JsonObject | None:
    """The design the goal step proposes for ``doc``'s workload: the recommendation, or the cheapest that fits."""
    if cheapest:
        cheapest_doc = next((c.document for c in goal_choices(doc, view, _language()) if c.key == "cheapest"), None)
        if cheapest_doc is not None:
            return cheapest_doc
    rec = recommendation(doc, view)
    return rec.document if rec is not None else None


def _platform(request: HttpRequest, config: Configuration) -> HttpResponse:
    view = selectors.catalog()
    gpu_parts, _adapters = part_sets(view)
    status = 200
    if request.method == "POST":
        form = PlatformForm(request.POST, catalog=view)
        if form.is_valid():
            d = form.cleaned_data
            rack_system = selectors.is_rack_system(view, d["server"])  # the rack comes complete: no lines
            doc = wizard.apply_platform(
                config.document,
                nodes=d["nodes"],
                server=d["server"],
                gpu=d["gpu"],
                gpu_quantity=d["gpu_quantity"] or 1,
                gpu_parts=gpu_parts,
                node_parts=node_parts_chosen(view, d["server"], {r: d.get(r) or "" for r in NODE_ROLES}),
                node_sets=node_part_sets(view),
                complete_system=rack_system,
            )
            site = {k: d.get(k) for k in ("rack_power_kw", "cooling", "pdu_feeds") if k in request.POST}
            doc = wizard.apply_facility(doc, site)
            _save(request, config, doc)
            if (response := _after_save(request, config, "platform")) is not None:
                return response
        else:
            status = 422
    else:
        form = PlatformForm(initial=wizard.platform_initial(config.document, gpu_parts), catalog=view)
    server = form["server"].value() or ""
    gpu = form["gpu"].value() or ""
    ev = _evaluate(request, config, view)
    reason = lambda **kw: _("%(server)s does not take %(gpu)s; it takes %(accepted)s.") % kw  # noqa: E731
    ctx = _context(
        request,
        config,
        "platform",
        view,
        ev,
        form=form,
        servers=selectors.server_options(view, server),
        rack_system=view.get(server) if selectors.is_rack_system(view, server) else None,
        gpus=selectors.gpu_options(view, server, gpu, reason) if server else [],
        selected_gpu=view.get(gpu) if gpu else None,
        node_roles=selectors.node_part_choices(
            view, server, wizard.node_parts_initial(config.document, node_part_sets(view))
        ),
    )
    return _render_step(request, "platform", ctx, status=status)


def _adapters(request: HttpRequest, config: Configuration) -> HttpResponse:
    view = selectors.catalog()
    _gpus, adapter_parts = part_sets(view)
    status = 200
    if request.method == "POST":
        form = AdaptersForm(request.POST, catalog=view)
        if form.is_valid():
            doc = wizard.apply_adapters(config.document, adapter_parts=adapter_parts, **form.cleaned_data)
            _save(request, config, doc)
            if (response := _after_save(request, config, "adapters")) is not None:
                return response
        else:
            status = 422
    else:
        form = AdaptersForm(initial=wizard.adapters_initial(config.document, adapter_parts), catalog=view)
    ev = _evaluate(request, config, view)
    slot_maps = result_pictures(result=ev.result, language=_language()).slot_maps(limit=1) if ev.result else []
    slot_map = slot_maps[0].svg if slot_maps else ""
    g = wizard.group(config.document) or {}
    ctx = _context(
        request,
        config,
        "adapters",
        view,
        ev,
        form=form,
        slot_map=slot_map,
        server=view.get(g.get("server", "")) if g else None,
        adapters=sorted(view.of_type(AdapterSpec), key=lambda a: a.part_number),
    )
    return _render_step(request, "adapters", ctx, status=status)


def _fabric(request: HttpRequest, config: Configuration) -> HttpResponse:
    view = selectors.catalog()
    status = 200
    if request.method == "POST":
        form = FabricForm(request.POST, catalog=view)
        if form.is_valid():
            doc = wizard.apply_fabric(config.document, **form.cleaned_data)
            _save(request, config, doc)
            if (response := _after_save(request, config, "fabric")) is not None:
                return response
        else:
            status = 422
    else:
        form = FabricForm(initial=wizard.fabric_initial(config.document), catalog=view)
    ev = _evaluate(request, config, view)
    plan = ev.result.fabric_plan.to_json() if ev.result and ev.result.fabric_plan else None
    rack_plan = ev.result.rack_plan.to_json() if ev.result else None
    pictures = picture_set(fabric_plan=plan, rack_plan=rack_plan, placement=None, language=_language())
    ctx = _context(
        request,
        config,
        "fabric",
        view,
        ev,
        form=form,
        plan=plan,
        switches=selectors.switch_options(view, form["switch"].value() or ""),
        diagram=pictures.diagram(),
        link_classes=LINK_CLASSES,
        plan_parts=_plan_parts(plan, view),
        rack_plan=rack_plan,
        rack_count=pictures.rack_count(),
        rack_heights=pictures.rack_heights(),
        # The distinct racks at their own size (labels of 11 px and more), two to a line: 608 px, within the step's
        # column on a 1,280 or 1,440 px screen; a phone scrolls it sideways.
        elevation="".join(pictures.elevations()),
    )
    return _render_step(request, "fabric", ctx, status=status)


def _plan_parts(plan: JsonObject | None, view: CatalogView) -> list[dict[str, Any]]:
    """The cable and optics list of the plan, with descriptions from the catalogue."""
    if not plan:
        return []
    out = []
    for item in plan.get("bom", []):
        spec = view.get(item["part"])
        out.append(
            {
                "part": item["part"],
                "quantity": item["quantity"],
                "name": spec.name if spec else "",
                "category": str(spec.category) if spec else "",
            }
        )
    return out


def _review(request: HttpRequest, config: Configuration) -> HttpResponse:
    view = selectors.catalog()
    status = 200
    if request.method == "POST":
        site_form = SiteForm(request.POST)
        if site_form.is_valid():
            default = size_default_supplied(document=config.document, view=view)
            doc = wizard.apply_site(config.document, size_default=default, **site_form.cleaned_data)
            _save(request, config, doc)
            if (response := _after_save(request, config, "review")) is not None:
                return response
            site_form = _site_form(config, view)
        else:
            status = 422
    else:
        site_form = _site_form(config, view)
    ev = _evaluate(request, config, view)
    ctx = _context(
        request,
        config,
        "review",
        view,
        ev,
        ack_form=AcknowledgeForm(),
        show_ack=True,
        full=True,
        site_form=site_form,
        left_out=left_out_items(ev.result.left_out.to_json()["items"]) if ev.result else "",
        exports=HANDOVER_EXPORTS if ev.result and ev.result.valid and ev.result.fabric_plan else (),
    )
    return _render_step(request, "review", ctx, status=status)


def _site_form(config: Configuration, view: CatalogView) -> SiteForm:
    """The review step's site and services questions as the design answers them now."""
    supplied, _by_size = site_has(document=config.document, view=view)
    return SiteForm(initial=wizard.site_initial(config.document, supplied))


STEP_VIEWS = {
    "goal": _goal,
    "platform": _platform,
    "adapters": _adapters,
    "fabric": _fabric,
    "review": _review,
    "quote": _quote,
}
