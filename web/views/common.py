"""What every page of the wizard shares: finding the design, the findings panel, the step frame and saving."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import user_passes_test
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_htmx.middleware import HtmxDetails

from configurator.models import Configuration
from configurator.selectors import part_sets
from configurator.services import (
    FIX_NOT_ACCEPT,
    ConfigurationLocked,
    Outcome,
    configuration_edit_refusal,
    configuration_taken_over,
    configuration_update,
    configuration_validate,
    design_bill_unvalidated,
)
from messages.languages import resolve_language
from quotes import selectors as quote_selectors
from quotes.audience import for_customer
from quotes.services import pending_growth
from web import selectors, wizard
from web.verdicts import design_verdict

if TYPE_CHECKING:
    from django import forms

    from engines.catalog_view import CatalogView
    from quotes.models import Quote

Refusal = ConfigurationLocked | None

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
    """The request's language (LocaleMiddleware activated it), as one of settings.LANGUAGES."""
    return resolve_language(translation.get_language())


def _config(token: str) -> Configuration:
    """The draft behind an unguessable token. The token is the customer's key; there is no listing for them."""
    config = selectors.configuration_by_token(token)
    if config is None:
        raise Http404("No such design")
    return config


def htmx(request: HttpRequest) -> HtmxDetails:
    """What django-htmx's middleware read of the request's htmx headers (false when it is not an htmx request)."""
    return request.htmx  # type: ignore[attr-defined]  # set by django_htmx.middleware.HtmxMiddleware


def _edit_refusal(
    request: HttpRequest, config: Configuration, quotes: list | None = None
) -> ConfigurationLocked | None:
    """configuration_edit_refusal for this request's user, asked once per request (the page and the save);
    ``quotes``: all the design's quotes when the page has loaded them (a sales engineer's)."""
    if not hasattr(config, "_edit_refusal"):
        config._edit_refusal = configuration_edit_refusal(configuration=config, user=request.user, quotes=quotes)
    return config._edit_refusal


def _can_edit(request: HttpRequest, config: Configuration) -> bool:
    return _edit_refusal(request, config) is None


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
        return quote_selectors.quotes_for(config)
    tokens = request.session.get(SESSION_QUOTES, [])
    return quote_selectors.quotes_for(config, tokens=tokens) if tokens else []  # no request from this browser: no query


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

    def __init__(
        self,
        config: Configuration,
        outcome: Outcome,
        view: CatalogView,
        *,
        acks: dict[tuple[str, str], Any],
        staff: bool = True,
        growth: Sequence[dict] = (),
    ):
        gpu_parts, adapter_parts = part_sets(view)
        self.outcome = outcome
        result = self.result = outcome.result
        # The page's context is the result's JSON form, section by section (the templates read the contract's keys),
        # and for an expansion quote's design what its growth crosses (accepted as the design's own warnings).
        raw = [*result.findings_json(), *growth] if result else _input_findings(outcome.input_errors or {})
        if not staff:  # notes for sales and about gaps in the catalogue stay with the sales engineer
            raw = [f for f in raw if for_customer(f["code"], f["severity"])]
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
        self.totals = result.totals.to_json() if result else {}
        self.sizing = result.sizing.to_dict() if result and result.sizing else None
        self.bill = result.bill if result else design_bill_unvalidated(document=config.document, catalog=view)
        self.quotable = outcome.valid
        # What a customer's quote request would get: '' issued at once, or why a sales engineer reviews it first.
        self.review = (
            quote_selectors.online_request_review(
                net=self.bill.total if self.bill else Decimal(0),
                on_request=self.bill.on_request if self.bill else 0,
                findings=result.findings,
            )
            if self.quotable and result
            else ""
        )

    def by_field(self) -> dict[str, list[dict]]:
        out: dict[str, list[dict]] = {}
        for f in self.findings:
            if f["field"] and f["severity"] in ("error", "warning"):
                out.setdefault(f["field"], []).append(f)
        return out


def _evaluate(request: HttpRequest, config: Configuration, view: CatalogView) -> Evaluation:
    outcome = selectors.design_outcome(document=config.document, language=_language(), view=view)
    stale = outcome.verdict != (config.valid, config.error_count, config.warning_count)
    if stale and request.method == "POST":
        # The catalogue changed since the row's verdict was stored (or it never was): store the new one. Only a
        # POST writes; a GET shows the computed outcome and leaves the row alone.
        outcome = configuration_validate(configuration=config, language=_language())
    # An expansion quote's design: its plan grown from the installed racks (as quoted), and what the growth crosses.
    growth = pending_growth(configuration=config, language=_language()) if outcome.result else None
    if growth is not None:
        outcome = replace(outcome, result=growth.result)
    crossed = growth.findings if growth is not None else ()
    acks = {}
    if outcome.result and (outcome.result.warnings or crossed):
        acks = {(a.code, a.subject): a for a in config.acknowledgements.select_related("user")}
    growth_json = [f.to_json() for f in crossed]
    return Evaluation(config, outcome, view, acks=acks, staff=_is_staff(request), growth=growth_json)


def _context(
    request: HttpRequest, config: Configuration, slug: str, view: CatalogView, ev: Evaluation, **extra: Any
) -> dict[str, Any]:
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
    design_quote = _design_quote(config, extra["quotes"])
    known = design_quote is not None and design_quote in extra["quotes"]
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
        "can_edit": _edit_refusal(request, config, extra["quotes"] if _is_staff(request) else None) is None,
        "taken_over": configuration_taken_over(config),
        "catalog": view,
        "changed_quote": quote_selectors.quote_outdated(extra["quotes"], config.document),
        "design_quote": design_quote,
        "fix_not_accept": FIX_NOT_ACCEPT,
        "verdict": design_verdict(ev, staff=_is_staff(request), quote=design_quote, known=known),
        **extra,
    }


def _design_quote(config: Configuration, visible: list[Quote]) -> Quote | None:
    """The design's newest quote that is not superseded: of those this visitor sees, or (a customer back on another
    device, or from a bookmark) the design's own, so the page says it is quoted rather than invite a new request
    (its status only: whoever holds the design link is not shown whose quote it is or its number). A draft has none
    and costs no query."""
    current = [q for q in visible if q.status != "superseded"]
    if current or visible or config.status == Configuration.Status.DRAFT:
        return current[0] if current else None
    return quote_selectors.design_quote(config)


def _describe(form: forms.Form | None, field_findings: dict[str, list[dict]]) -> None:
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
    if htmx(request) and not htmx(request).boosted:
        template = f"configurator/steps/{slug}.html"  # the step body alone, swapped into #step-body
        status = 200  # htmx swaps only 2xx responses; the form errors are in the body
    return render(request, template, context, status=status)


def _save(request: HttpRequest, config: Configuration, document: dict) -> None:
    """Store the step's change, passing the page's own validation along so the save does not validate again."""
    if document == config.document:
        return
    outcome = selectors.design_outcome(document=document, language=_language(), view=selectors.catalog())
    try:
        configuration_update(configuration=config, user=request.user, document=document, outcome=outcome)
    except ConfigurationLocked as exc:  # the state changed since the step checked (another tab, a quote request)
        messages.info(request, exc.message)


def _after_save(request: HttpRequest, config: Configuration, slug: str) -> HttpResponse | None:
    """Without htmx, a submit moves on (the "next" button) or comes back to the step (post/redirect/get)."""
    if htmx(request):
        return None
    # every step that saves has a next one (wizard.next_step is None only after the last)
    target = (wizard.next_step(slug) or slug) if "next" in request.POST else slug
    if "back" in request.POST:
        target = wizard.previous_step(slug) or slug
    return redirect(step_url(config, target))


def _read_only(request: HttpRequest, config: Configuration, slug: str = "review") -> HttpResponse:
    """Refuse a change this user may not make (configuration_edit_refusal says why) and show the design."""
    refusal = _edit_refusal(request, config)
    fallback = _("This design is with our sales engineers now. Make a copy to change it.")
    messages.info(request, refusal.message if refusal else fallback)
    return redirect(step_url(config, slug))
