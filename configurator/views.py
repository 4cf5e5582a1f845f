"""Views of the web app: home, the six wizard steps, staff actions, the dashboard and the rule catalogue.

Thin: parse the request, call one service or selector, render. Every step is one URL (/d/<token>/<step>/) that
works by full-page GET/POST without JavaScript; with htmx, a changed field posts the form, the draft is saved,
re-validated, and the step's body (``configurator/steps/<step>.html``, swapped into ``#step-body``) comes back with
the findings and the price.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import user_passes_test
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from configurator import selectors, wizard
from configurator.clientip import client_ip
from configurator.counters import count_hit
from configurator.forms import (
    AcknowledgeForm,
    AdaptersForm,
    DashboardFilterForm,
    DiscountForm,
    FabricForm,
    GoalForm,
    PlatformForm,
    QuoteRequestForm,
)
from configurator.models import Configuration
from configurator.recommend import recommend
from configurator.services import (
    Outcome,
    configuration_clone,
    configuration_create,
    configuration_take_over,
    configuration_update,
    configuration_validate,
    warning_acknowledge,
)

SESSION_DRAFTS = "configurator.drafts"  # tokens of the drafts this browser started ("continue where you left off")
MAX_SESSION_DRAFTS = 10
SESSION_QUOTES = "configurator.quotes"  # tokens of the quotes this browser requested (the only ones it is shown)
MAX_SESSION_QUOTES = 50
SEVERITIES = (("error", gettext_lazy("Errors")), ("warning", gettext_lazy("Warnings")), ("info", gettext_lazy("Notes")))


# --- helpers -----------------------------------------------------------------------------------------------


def _is_staff(request: HttpRequest) -> bool:
    return bool(request.user.is_authenticated and request.user.is_staff)


staff_required = user_passes_test(lambda u: u.is_authenticated and u.is_active and u.is_staff)


def _language() -> str:
    return (translation.get_language() or "en")[:2]


def _config(token: str) -> Configuration:
    """The draft behind an unguessable token. The token is the customer's key; there is no listing for them."""
    config = selectors.configuration_by_token(token)
    if config is None:
        raise Http404("No such design")
    return config


def _taken_over(config: Configuration) -> bool:
    """A sales engineer took a customer's (web) design into their queue: from then on they own it."""
    return config.assigned_to_id is not None and config.channel == Configuration.Channel.WEB


def _can_edit(request: HttpRequest, config: Configuration) -> bool:
    """Customers edit their draft until they request a quote or a sales engineer takes it over; then a sales
    engineer owns the design (the customer can edit a copy)."""
    return _is_staff(request) or (config.status == Configuration.Status.DRAFT and not _taken_over(config))


def step_url(config: Configuration, slug: str) -> str:
    """/d/<token>/<slug>/. A page links every step and every finding's step: the URL is reversed once per
    design object (a request loads its own) and the slug appended."""
    prefix = getattr(config, "_step_url_prefix", None)
    if prefix is None:
        first = wizard.STEPS[0].slug
        prefix = reverse("configurator:step", kwargs={"token": config.token, "step": first})[: -len(first) - 1]
        config._step_url_prefix = prefix
    return f"{prefix}{slug}/"


def _remember(request: HttpRequest, config: Configuration) -> None:
    current = request.session.get(SESSION_DRAFTS, [])
    if current[:1] == [config.token]:
        return  # already the latest: leave the session untouched, so it is not written back
    tokens = [t for t in current if t != config.token]
    request.session[SESSION_DRAFTS] = [config.token, *tokens][:MAX_SESSION_DRAFTS]


def _session_drafts(request: HttpRequest) -> list[Configuration]:
    """The drafts this browser started, most recently changed first (the home page's "continue" list)."""
    tokens = request.session.get(SESSION_DRAFTS, []) if request.session.session_key else []
    if not tokens:
        return []
    drafts = Configuration.objects.filter(token__in=tokens).only("token", "name", "updated_at")  # not the designs
    return list(drafts.order_by("-updated_at")[:MAX_SESSION_DRAFTS])


def _remember_quote(request: HttpRequest, token: str) -> None:
    tokens = [t for t in request.session.get(SESSION_QUOTES, []) if t != token]
    request.session[SESSION_QUOTES] = [token, *tokens][:MAX_SESSION_QUOTES]


def _visible_quotes(request: HttpRequest, config: Configuration) -> list:
    """The design's quotes this user may see, newest first: all of them for staff; for a customer only those
    this browser requested (and their revisions), never another customer's quote of the same design."""
    if _is_staff(request):
        return selectors.quotes_for(config)
    tokens = request.session.get(SESSION_QUOTES, [])
    return selectors.quotes_for(config, tokens=tokens) if tokens else []  # no request from this browser: no query


INPUT_MESSAGES = {
    "node_groups": (
        gettext_lazy("No server has been chosen yet."),
        gettext_lazy("Choose the number of servers, a server and its GPUs on the Platform step."),
    ),
}


def _input_findings(errors: dict[str, str]) -> list[dict]:
    """A draft the contract cannot read yet (no server, a bad number) reported like the engine's findings."""
    out = []
    for path, message in errors.items():
        friendly = INPUT_MESSAGES.get(path)
        if friendly:
            msg, fix = str(friendly[0]), str(friendly[1])
        else:
            msg = _("%(field)s: %(message)s") % {"field": path, "message": message}
            fix = _("Correct this value on the step that sets it.")
        out.append({"code": "DESIGN_INCOMPLETE", "severity": "error", "subject": path, "message": msg, "fix": fix})
    return out


class Evaluation:
    """Everything a step shows about the stored design: findings (decorated for the page), totals and price."""

    def __init__(self, config: Configuration, outcome: Outcome, view, *, acks: dict[tuple[str, str], Any]):
        gpu_parts, adapter_parts = selectors.part_sets(view)
        self.outcome = outcome
        self.result = outcome.result
        raw = outcome.result["findings"] if outcome.result else _input_findings(outcome.input_errors or {})
        self.findings: list[dict] = []
        for i, f in enumerate(raw):
            field = wizard.field_for_subject(
                config.document, f["subject"], gpu_parts=gpu_parts, adapter_parts=adapter_parts
            )
            ack = acks.get((f["code"], f["subject"])) if f["severity"] == "warning" else None
            fix_step = wizard.step_for_field(field, f["subject"])
            self.findings.append(
                {
                    **f,
                    "id": f"finding-{i}",
                    "field": field,
                    "step": fix_step,
                    "step_url": step_url(config, fix_step),
                    "step_title": wizard.STEPS[wizard.step_index(fix_step)].title,
                    "ack": ack,
                }
            )
        self.errors = [f for f in self.findings if f["severity"] == "error"]
        self.warnings = [f for f in self.findings if f["severity"] == "warning"]
        self.unacknowledged = [f for f in self.warnings if f["ack"] is None]
        self.grouped = [(sev, label, [f for f in self.findings if f["severity"] == sev]) for sev, label in SEVERITIES]
        self.totals = (outcome.result or {}).get("totals") or {}
        self.sizing = (outcome.result or {}).get("sizing")
        self.bill = selectors.design_bill(document=config.document, result=outcome.result, catalog=view)
        self.quotable = outcome.valid

    def by_field(self) -> dict[str, list[dict]]:
        out: dict[str, list[dict]] = {}
        for f in self.findings:
            if f["field"] and f["severity"] in ("error", "warning"):
                out.setdefault(f["field"], []).append(f)
        return out


def _evaluate(request: HttpRequest, config: Configuration, view) -> Evaluation:
    outcome = selectors.design_outcome(document=config.document, language=_language(), view=view)
    stale = selectors.verdict(outcome) != (config.valid, config.error_count, config.warning_count)
    if stale and request.method == "POST":
        # The catalogue changed since the row's verdict was stored (or it never was): store the new one. Only a
        # POST writes; a GET shows the computed outcome and leaves the row alone.
        outcome = configuration_validate(configuration=config, language=_language())
    acks = {}
    if outcome.result and any(f["severity"] == "warning" for f in outcome.result["findings"]):
        acks = {(a.code, a.subject): a for a in config.acknowledgements.select_related("user")}
    return Evaluation(config, outcome, view, acks=acks)


def _context(request: HttpRequest, config: Configuration, slug: str, view, ev: Evaluation, **extra) -> dict:
    index = wizard.step_index(slug)
    steps = [
        {
            "slug": s.slug,
            "title": s.title,
            "summary": s.summary,
            "url": step_url(config, s.slug),
            "current": s.slug == slug,
            "done": i < index,
            "number": i + 1,
        }
        for i, s in enumerate(wizard.STEPS)
    ]
    prev_slug, next_slug = wizard.previous_step(slug), wizard.next_step(slug)
    if "quotes" not in extra:
        extra["quotes"] = _visible_quotes(request, config)
    return {
        "config": config,
        "step": slug,
        "step_title": wizard.STEPS[index].title,
        "steps": steps,
        "prev_url": step_url(config, prev_slug) if prev_slug else None,
        "next_url": step_url(config, next_slug) if next_slug else None,
        "action": step_url(config, slug),
        "ev": ev,
        "field_findings": ev.by_field(),
        "is_staff": _is_staff(request),
        "can_edit": _can_edit(request, config),
        "taken_over": _taken_over(config),
        "catalog": view,
        "changed_quote": _changed_since_issue(config, extra["quotes"]),
        **extra,
    }


def _changed_since_issue(config: Configuration, quotes: list):
    """The newest quote of the design when it is issued and the design was changed since (staff edit a quoted
    design in place): the steps then say that the quote no longer matches the design shown."""
    latest = quotes[0] if quotes else None
    if latest is None or latest.status != "issued":
        return None
    return latest if (latest.frozen or {}).get("design") != config.document else None


def _describe(form, field_findings: dict[str, list[dict]]) -> None:
    """Tie each field to its help text, its errors and the engine's findings about it (aria-describedby)."""
    if form is None:
        return
    for name, findings in field_findings.items():
        if name not in form.fields:
            continue
        bound = form[name]
        ids = [f"{bound.auto_id}_helptext"] if bound.help_text else []
        if bound.errors:
            ids.append(f"{bound.auto_id}_error")
        ids += [f"{f['id']}-at-field" for f in findings]
        form.fields[name].widget.attrs["aria-describedby"] = " ".join(ids)


def _render_step(request: HttpRequest, slug: str, context: dict, *, status: int = 200) -> HttpResponse:
    _describe(context.get("form"), context.get("field_findings") or {})
    template = "configurator/step.html"  # the whole page; it includes configurator/steps/<slug>.html
    if request.htmx and not request.htmx.boosted:
        template = f"configurator/steps/{slug}.html"  # the step body alone, swapped into #step-body
        status = 200  # htmx swaps only 2xx responses; the form errors are in the body
    return render(request, template, context, status=status)


def _save(request: HttpRequest, config: Configuration, document: dict) -> None:
    if document != config.document:
        configuration_update(configuration=config, document=document)


def _after_save(request: HttpRequest, config: Configuration, slug: str) -> HttpResponse | None:
    """Without htmx, a submit moves on (the "next" button) or comes back to the step (post/redirect/get)."""
    if request.htmx:
        return None
    target = wizard.next_step(slug) if "next" in request.POST else slug
    if "back" in request.POST:
        target = wizard.previous_step(slug) or slug
    return redirect(step_url(config, target))


def _read_only(request: HttpRequest, config: Configuration, slug: str = "review") -> HttpResponse:
    messages.info(request, _("This design is with our sales engineers now. Make a copy to change it."))
    return redirect(step_url(config, slug))


# --- home and start ----------------------------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"form": GoalForm(), "drafts": _session_drafts(request)})


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """Create a draft from the goal form on the home page (or a blank one) and open its goal step."""
    blank = "blank" in request.POST
    form = GoalForm(request.POST)
    if not blank and not form.is_valid():
        return render(request, "home.html", {"form": form, "drafts": _session_drafts(request)}, status=422)
    doc = wizard.blank_document()
    if not blank:
        d = form.cleaned_data
        doc = wizard.apply_goal(
            doc, kind=d["kind"], params_billion=d["params_billion"], gpus=d["gpus"], nodes=d["nodes"]
        )
    staff = _is_staff(request)
    config = configuration_create(
        document=doc,
        user=request.user if staff else None,
        language=_language(),
        channel=Configuration.Channel.STAFF if staff else Configuration.Channel.WEB,
    )
    _remember(request, config)
    return redirect(step_url(config, "platform" if blank else "goal"))


@require_GET
def draft(request: HttpRequest, token: str) -> HttpResponse:
    config = _config(token)
    slug = "goal" if not wizard.group(config.document) else "review"
    return redirect(step_url(config, slug))


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
        action = request.POST.get("action", "update")
        if form.is_valid():
            d = form.cleaned_data
            doc = wizard.apply_goal(
                config.document, kind=d["kind"], params_billion=d["params_billion"], gpus=d["gpus"], nodes=d["nodes"]
            )
            if action == "accept":
                rec = _recommendation(doc, view)
                if rec is not None:
                    doc = {**rec.document, "name": config.document.get("name") or rec.document["name"]}
                    if wizard.AUTO_NAME.match(str(config.document.get("name", ""))):
                        doc["name"] = rec.document["name"]
                _save(request, config, doc)
                return redirect(step_url(config, "platform"))
            if action == "blank":
                doc = {k: v for k, v in doc.items() if k not in ("fabric",)}
                doc["node_groups"] = []
                _save(request, config, doc)
                return redirect(step_url(config, "platform"))
            _save(request, config, doc)
            if not request.htmx:
                return redirect(step_url(config, "goal"))
        else:
            status = 422
    else:
        form = GoalForm(initial=wizard.workload_initial(config.document))
    ev = _evaluate(request, config, view)
    rec = _recommendation(config.document, view)
    return _render_step(
        request,
        "goal",
        _context(request, config, "goal", view, ev, form=form, rec=rec, has_design=bool(wizard.group(config.document))),
        status=status,
    )


def _recommendation(doc: dict, view):
    w = doc.get("workload") if isinstance(doc.get("workload"), dict) else None
    if not w or not w.get("kind") or not w.get("model_parameters_billion"):
        return None
    return recommend(
        kind=w["kind"],
        params_billion=float(w["model_parameters_billion"]),
        gpus=w.get("target_gpus"),
        nodes=w.get("target_nodes"),
        catalog=view,
        lead_times=selectors.lead_times(view),
    )


def _platform(request: HttpRequest, config: Configuration) -> HttpResponse:
    view = selectors.catalog()
    gpu_parts, _adapters = selectors.part_sets(view)
    status = 200
    if request.method == "POST":
        form = PlatformForm(request.POST, catalog=view)
        if form.is_valid():
            d = form.cleaned_data
            doc = wizard.apply_platform(
                config.document,
                nodes=d["nodes"],
                server=d["server"],
                gpu=d["gpu"],
                gpu_quantity=d["gpu_quantity"] or 1,
                gpu_parts=gpu_parts,
            )
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
        gpus=selectors.gpu_options(view, server, gpu, reason) if server else [],
        selected_gpu=view.get(gpu) if gpu else None,
    )
    return _render_step(request, "platform", ctx, status=status)


def _adapters(request: HttpRequest, config: Configuration) -> HttpResponse:
    view = selectors.catalog()
    _gpus, adapter_parts = selectors.part_sets(view)
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
    placement = (ev.result or {}).get("placement") or []
    slot_map = selectors.slot_map_svg(placement[0], _language()) if placement else ""
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
        adapters=sorted(view.of_type(selectors.AdapterSpec), key=lambda a: a.part_number),
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
    plan = (ev.result or {}).get("fabric_plan")
    ctx = _context(
        request,
        config,
        "fabric",
        view,
        ev,
        form=form,
        plan=plan,
        switches=selectors.switch_options(view, form["switch"].value() or ""),
        diagram=selectors.fabric_diagram_svg(plan),
        plan_parts=_plan_parts(plan, view),
    )
    return _render_step(request, "fabric", ctx, status=status)


def _plan_parts(plan: dict | None, view) -> list[dict]:
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
    ev = _evaluate(request, config, view)
    ctx = _context(request, config, "review", view, ev, ack_form=AcknowledgeForm(), show_ack=True, full=True)
    return _render_step(request, "review", ctx)


def _rate_limit_exceeded(request: HttpRequest) -> bool:
    """Quote requests per client: per address and per browser session, in a cache window (configurable).

    Settings: QUOTE_REQUEST_LIMIT (per session, default 5), QUOTE_REQUEST_LIMIT_PER_IP (default 20),
    QUOTE_REQUEST_WINDOW_SECONDS (default 3600). Uses the default cache; production configures a shared one.
    The address is configurator.clientip.client_ip's (X-Forwarded-For only behind TRUSTED_PROXY_COUNT proxies).
    """
    window = int(getattr(settings, "QUOTE_REQUEST_WINDOW_SECONDS", 3600))
    limits = {
        f"quote-rl:ip:{client_ip(request)}": int(getattr(settings, "QUOTE_REQUEST_LIMIT_PER_IP", 20)),
    }
    if not request.session.session_key:
        request.session.save()
    limits[f"quote-rl:session:{request.session.session_key}"] = int(getattr(settings, "QUOTE_REQUEST_LIMIT", 5))
    bucket = int(time.time() // window)
    exceeded = False
    for key, limit in limits.items():
        exceeded = count_hit(f"{key}:{bucket}", window) > limit or exceeded
    return exceeded


def _quote(request: HttpRequest, config: Configuration) -> HttpResponse:
    view = selectors.catalog()
    status = 200
    staff = _is_staff(request)
    form = QuoteRequestForm(initial={"name": config.customer_name, "company": config.customer_company})
    discount_form = revise_form = None
    ev = _evaluate(request, config, view) if staff else None
    if request.method == "POST":
        action = request.POST.get("action", "request")
        if action in ("issue", "approve"):
            return _quote_staff_action(request, config, action)
        if action == "revise":
            if not staff:
                raise PermissionDenied
            revise_form = _discount_form(ev, request.POST, prefix="revise")
            if (response := _quote_revise(request, config, revise_form)) is not None:
                return response
            status = 422
        elif not staff and _taken_over(config):
            # A sales engineer handles this design: the customer edits a copy rather than request again.
            return _read_only(request, config, "quote")
        else:
            form = QuoteRequestForm(request.POST)
            # Only sales engineers give discounts; a customer's POST carrying discount fields is not read.
            discount_form = _discount_form(ev, request.POST) if staff else None
            if _rate_limit_exceeded(request):
                form.add_error(
                    None,
                    _(
                        "Too many quote requests from this browser. Please try again in an hour, or call us on "
                        "%(phone)s."
                    )
                    % {"phone": settings.SELLER.get("phone", "")},
                )
                status = 429
            elif all([form.is_valid(), discount_form is None or discount_form.is_valid()]):
                if (response := _quote_request(request, config, form, discount_form)) is not None:
                    return response
                status = 422
            else:
                status = 422
    if ev is None:
        ev = _evaluate(request, config, view)
    quotes = _visible_quotes(request, config)
    latest = quotes[0] if quotes else None
    if staff:
        discount_form = discount_form or _discount_form(ev)
        if revise_form is None and latest is not None:
            revise_form = _discount_form(
                ev,
                prefix="revise",
                initial={
                    "discount_percent": latest.discount_percent or "",
                    **{f"{DiscountForm.LINE_PREFIX}{k}": v for k, v in latest.line_discounts.items()},
                },
            )
    ctx = _context(
        request,
        config,
        "quote",
        view,
        ev,
        form=form,
        discount_form=discount_form,
        revise_form=revise_form,
        quotes=quotes,
        latest=latest,
        ack_form=AcknowledgeForm(),
        show_ack=staff,
    )
    return _render_step(request, "quote", ctx, status=status)


def _discount_form(ev: Evaluation, data=None, *, prefix: str | None = None, initial=None) -> DiscountForm:
    """The staff discount form: a quote discount and one input per part number of the bill of materials."""
    parts: dict[str, str] = {}
    for line in ev.bill.lines if ev.bill else []:
        parts.setdefault(line.part_number, line.description)
    return DiscountForm(
        data,
        parts=list(parts.items()),
        threshold=settings.QUOTE_DISCOUNT_APPROVAL_THRESHOLD,
        prefix=prefix,
        initial=initial,
    )


def _discount_errors(form: DiscountForm, errors: dict[str, str]) -> dict[str, str]:
    """Tie the discount errors of a QuoteError to the fields; return the other errors."""
    rest = {}
    for key, message in errors.items():
        if key in form.fields:
            form.add_error(key, message)
        elif key == "line_discounts" or key.startswith(DiscountForm.LINE_PREFIX):
            form.add_error(None, message)
        else:
            rest[key] = message
    return rest


QUOTE_FIELDS = {
    "customer.name": "name",
    "customer.company": "company",
    "customer.email": "email",
    "customer.country": "country",
    "customer.vat_number": "vat_number",
}


def _quote_request(
    request: HttpRequest, config: Configuration, form: QuoteRequestForm, discount_form: DiscountForm | None
) -> HttpResponse | None:
    from quotes.services import QuoteError, quote_request

    d = form.cleaned_data
    staff = _is_staff(request)
    percent, lines = discount_form.discounts() if discount_form is not None else (None, None)
    try:
        quote = quote_request(
            configuration=config,
            customer={k: d[k] for k in ("name", "company", "email", "country", "vat_number")},
            user=request.user if staff else None,
            channel="staff" if staff else "web",
            crm_reference=config.crm_reference,
            language=_language(),
            discount_percent=percent,
            line_discounts=lines,
        )
    except QuoteError as exc:
        errors = _discount_errors(discount_form, exc.errors) if discount_form is not None else exc.errors
        for key, message in errors.items():
            field = QUOTE_FIELDS.get(key)
            form.add_error(field if field in form.fields else None, message)
        return None
    if not staff:
        _remember_quote(request, quote.token)  # this browser is shown this quote (and its revisions) from now on
    Configuration.objects.filter(pk=config.pk).update(customer_name=d["name"], customer_company=d["company"])
    return redirect(step_url(config, "quote"))


def _quote_revise(request: HttpRequest, config: Configuration, form: DiscountForm) -> HttpResponse | None:
    """A new revision from the current design, with the discounts of the form (the earlier revision's when the
    form was not sent). None when the discounts are wrong: the page shows the form with its errors."""
    from quotes.services import QuoteError, quote_revise

    quote = _posted_quote(request, config)
    if not form.is_valid():
        return None
    percent, lines = form.discounts()
    sent = {form.add_prefix(name) for name in form.fields} & set(request.POST)
    try:
        quote = quote_revise(
            quote=quote,
            user=request.user,
            discount_percent=percent if form.add_prefix("discount_percent") in sent else None,
            line_discounts=lines if sent - {form.add_prefix("discount_percent")} else None,
        )
    except QuoteError as exc:
        rest = _discount_errors(form, exc.errors)
        if form.errors:
            for message in rest.values():
                form.add_error(None, message)
            return None
        for message in rest.values():
            messages.error(request, message)
    else:
        messages.success(
            request, _("Quote %(number)s: %(status)s.") % {"number": quote.number, "status": quote.display_status}
        )
    return redirect(step_url(config, "quote"))


def _posted_quote(request: HttpRequest, config: Configuration):
    quote = next((q for q in selectors.quotes_for(config) if q.token == request.POST.get("quote")), None)
    if quote is None:
        raise Http404
    return quote


def _quote_staff_action(request: HttpRequest, config: Configuration, action: str) -> HttpResponse:
    if not _is_staff(request):
        raise PermissionDenied
    from quotes.services import QuoteError, quote_approve, quote_issue

    quote = _posted_quote(request, config)
    try:
        if action == "issue":
            quote = quote_issue(quote=quote, user=request.user)
        else:
            quote = quote_approve(quote=quote, user=request.user)
    except QuoteError as exc:
        for message in exc.errors.values():
            messages.error(request, message)
    except PermissionDenied as exc:
        if action == "issue":
            messages.error(request, str(exc) or _("You do not have the permission to issue quotes."))
        else:  # no permission, or the user set the discount themselves (four eyes): the service says which
            messages.error(request, str(exc) or _("Only a user with the approve permission can approve this discount."))
    else:
        messages.success(
            request, _("Quote %(number)s: %(status)s.") % {"number": quote.number, "status": quote.display_status}
        )
    return redirect(step_url(config, "quote"))


STEP_VIEWS = {
    "goal": _goal,
    "platform": _platform,
    "adapters": _adapters,
    "fabric": _fabric,
    "review": _review,
    "quote": _quote,
}


# --- staff actions -----------------------------------------------------------------------------------------


@staff_required
@require_POST
def acknowledge(request: HttpRequest, token: str) -> HttpResponse:
    """A sales engineer accepts a warning with a reason (printed on the quote)."""
    config = _config(token)
    form = AcknowledgeForm(request.POST)
    back = request.POST.get("next_step") if request.POST.get("next_step") in wizard.STEP_SLUGS else "review"
    if form.is_valid():
        try:
            warning_acknowledge(configuration=config, user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, _("Warning %(code)s accepted.") % {"code": form.cleaned_data["code"]})
    else:
        messages.error(request, _("Give a reason for accepting this warning."))
    if request.htmx:
        request.method = "GET"
        return STEP_VIEWS[back](request, config)
    return redirect(step_url(config, back) + "#findings")


@staff_required
@require_POST
def clone(request: HttpRequest, token: str) -> HttpResponse:
    config = _config(token)
    copy = configuration_clone(configuration=config, user=request.user)
    messages.success(request, _("This is a copy of “%(name)s”.") % {"name": config.name or config.token[:8]})
    return redirect(step_url(copy, "platform"))


@require_POST
def customer_copy(request: HttpRequest, token: str) -> HttpResponse:
    """A customer whose draft is with sales makes their own editable copy (same token rules: a new secret link)."""
    config = _config(token)
    copy = configuration_clone(configuration=config, user=None)
    _remember(request, copy)
    return redirect(step_url(copy, "platform"))


TAKE_OVER_PERMISSION = "configurator.take_over_configuration"


@staff_required
@require_POST
def take_over(request: HttpRequest, token: str) -> HttpResponse:
    config = _config(token)
    if not request.user.has_perm(TAKE_OVER_PERMISSION):
        messages.error(request, _("You do not have the permission to take over designs."))
        return redirect(step_url(config, "review"))
    configuration_take_over(configuration=config, user=request.user)
    messages.success(request, _("You now handle this request."))
    return redirect(step_url(config, "review"))


# --- dashboard and rules -----------------------------------------------------------------------------------


@require_GET
def cabling_csv(request: HttpRequest, token: str) -> StreamingHttpResponse:
    """The per-port cabling plan of the draft's fabric (A end, Z end, port, cable part, length), streamed row by
    row so that a 2,000-node plan never sits in memory."""
    from configurator.fabric.cabling import iter_cabling_csv
    from configurator.fabric.planner import FabricPlan

    config = _config(token)
    outcome = selectors.design_outcome(document=config.document, language=_language(), view=selectors.catalog())
    plan = outcome.result and outcome.result.get("fabric_plan")
    if not plan or not plan.get("tiers"):
        raise Http404(_("This design has no fabric plan to cable."))
    response = StreamingHttpResponse(iter_cabling_csv(FabricPlan.from_dict(plan)), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="cabling-{token[:8]}.csv"'
    return response


@staff_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    form = DashboardFilterForm(request.GET or None)
    filters: dict[str, Any] = {}
    if form.is_bound:
        form.is_valid()  # a field with a bad value (e.g. quote_status=%00) shows its error and filters nothing
        filters = {k: v for k, v in form.cleaned_data.items() if v}
    quote_status = filters.pop("quote_status", None)
    configs = list(selectors.configuration_list(**filters)[:100])
    quotes = selectors.quote_requests(
        status=quote_status,
        customer=filters.get("customer"),
        date_from=filters.get("date_from"),
        date_to=filters.get("date_to"),
    )
    return render(request, "configurator/dashboard.html", {"form": form, "configs": configs, "quotes": quotes})


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    lang = _language()
    entries = selectors.rule_catalogue()
    return render(
        request, "configurator/rules.html", {"rules": entries, "lang": lang, "other": "nl" if lang == "en" else "en"}
    )
