"""Home, start, the draft link, the cabling download and the rule catalogue."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from configurator.models import Configuration
from configurator.services import configuration_create
from messages.languages import language_choices
from outputs.services import (
    HANDOVER_EXPORTS,
    OutputUnavailable,
    UnknownOutput,
    configuration_export,
    configuration_output,
)
from project import ratelimits
from quotes import selectors as quote_selectors
from web import selectors, wizard
from web.forms import GoalForm

if TYPE_CHECKING:
    from django.contrib.auth.models import User

from web.views.common import (
    SESSION_QUOTES,
    _config,
    _is_staff,
    _language,
    _remember,
    _session_drafts,
    step_url,
)

# --- home and start ----------------------------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", _home(request, GoalForm()))


def _home(request: HttpRequest, form: GoalForm) -> dict:
    """The home page's context: the goal form, this browser's drafts and its won or issued quotes to expand."""
    tokens = request.session.get(SESSION_QUOTES, []) if request.session.session_key else []
    return {"form": form, "drafts": _session_drafts(request), "expandable": quote_selectors.expandable_quotes(tokens)}


@require_POST
def start(request: HttpRequest) -> HttpResponse:
    """Create a draft from the goal form on the home page (or a blank one) and open its goal step. Anonymous
    visitors create at most WIZARD_START_RATE drafts per address (429 with the home page and a message)."""
    blank = "blank" in request.POST
    form = GoalForm(request.POST)
    rate = settings.WIZARD_START_RATE
    if not _is_staff(request) and ratelimits.hit(request, group="wizard-start", rate=rate):
        form.add_error(None, _("Too many new designs from this address. Please try again later, or open one you have."))
        response = render(request, "home.html", _home(request, form), status=429)
        response["Retry-After"] = ratelimits.retry_after(rate)
        return response
    if not blank and not form.is_valid():
        return render(request, "home.html", _home(request, form), status=422)
    doc = wizard.blank_document()
    if not blank:
        d = form.cleaned_data
        doc = wizard.apply_goal(
            doc, kind=d["kind"], params_billion=d["params_billion"], gpus=d["gpus"], nodes=d["nodes"]
        )
    staff = _is_staff(request)
    config = configuration_create(
        document=doc,
        user=cast("User", request.user) if staff else None,  # staff: a signed-in User
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


# --- cabling plan and rules --------------------------------------------------------------------


@require_GET
def cabling_csv(request: HttpRequest, token: str) -> HttpResponseBase:
    """The per-port cabling plan of the draft's fabric (A end, Z end, port, cable part, length), streamed row by
    row so that a 2,000-node plan never sits in memory."""
    config = _config(token)
    if (refused := _too_many(request, config)) is not None:
        return refused
    outcome = selectors.design_outcome(document=config.document, language=_language(), view=selectors.catalog())
    try:
        output = configuration_output(configuration=config, name="cabling.csv", outcome=outcome)
    except OutputUnavailable as exc:
        raise Http404(exc.message) from None
    response = StreamingHttpResponse(output.body, content_type=output.media_type)
    response["Content-Disposition"] = f'attachment; filename="cabling-{token[:8]}.csv"'
    return response


def _too_many(request: HttpRequest, config: Configuration) -> HttpResponse | None:
    """The 429 for an address that asked for too many files of large designs (staff are not counted)."""
    rate = settings.CABLING_CSV_LARGE_RATE
    if (
        not _is_staff(request)
        and _node_count(config.document) > settings.CABLING_CSV_LARGE_NODES
        and ratelimits.hit(request, group="cabling-csv-large", rate=rate)
    ):
        response = HttpResponse(
            _("Too many cabling plans of large designs from this address. Please try again later."),
            status=429,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = ratelimits.retry_after(rate)
        return response
    return None


@require_GET
def export_file(request: HttpRequest, token: str, name: str) -> StreamingHttpResponse | HttpResponse:
    """A hand-over export of the draft (outputs.registry's file name: topology.conf, fabric.topo, …), streamed;
    404 for an unknown name, a design with errors or without a cabled fabric. Counted with the cabling plans."""
    config = _config(token)
    if name not in HANDOVER_EXPORTS:
        raise Http404(name)
    if (refused := _too_many(request, config)) is not None:
        return refused
    try:
        output = configuration_export(configuration=config, name=name)
    except (UnknownOutput, OutputUnavailable) as exc:
        raise Http404(str(exc)) from None
    response = StreamingHttpResponse(output.body, content_type=output.media_type)
    response["Content-Disposition"] = f'attachment; filename="{output.name}"'
    return response


def _node_count(document: dict) -> int:
    groups = document.get("node_groups") if isinstance(document, dict) else None
    return sum(g.get("count", 0) for g in groups or [] if isinstance(g, dict) and isinstance(g.get("count"), int))


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    lang = _language()
    entries = selectors.rule_catalogue()
    # The reader's language first, then every other language of settings.LANGUAGES.
    languages = sorted(language_choices(), key=lambda choice: choice[0] != lang)
    return render(request, "configurator/rules.html", {"rules": entries, "lang": lang, "languages": languages})
