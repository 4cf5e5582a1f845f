"""Designs side by side: a workload's recommended design with its alternatives, and any two of a user's drafts.

Computing alternatives validates several designs, so it has its own page (/d/<token>/alternatives/) rather than
slowing the goal step. Starting from an alternative stores it as a new draft of this user through the same
service as the home page's start; comparing drafts shows only the user's own (anyone else's: 404).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, cast

from django import forms
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from configurator import comparison
from configurator.models import Configuration
from configurator.recommend import ALTERNATIVE_KEYS
from configurator.services import configuration_create
from project import ratelimits
from web import selectors
from web.views.common import SESSION_DRAFTS, _config, _input_findings, _is_staff, _language, _remember, step_url

if TYPE_CHECKING:
    from typing import Any

    from django.contrib.auth.models import User

    from configurator.comparison import Alternative
    from engines.catalog_view import CatalogView


def _alternatives(config: Configuration) -> tuple[CatalogView, tuple[Alternative, ...]]:
    view = selectors.catalog()
    alts = comparison.workload_alternatives(config.document, view, _language())
    return view, alts


def _render_alternatives(
    request: HttpRequest,
    config: Configuration,
    view: CatalogView,
    alts: tuple[Alternative, ...],
    *,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    # the draft's own design among them (ranked with the rest), once it has one
    current = (config.document, _draft_column(config)) if config.document.get("node_groups") else None
    context = {
        "config": config,
        "mode": "alternatives",
        "columns": comparison.alternative_columns(alts, view, current=current),
        "draft_url": step_url(config, "platform"),
        "has_workload": comparison.workload_inputs(config.document) is not None,
        "goal_url": step_url(config, "goal"),
        "error": error,
    }
    return render(request, "configurator/compare.html", context, status=status)


@require_GET
def alternatives(request: HttpRequest, token: str) -> HttpResponse:
    """The recommended design for the draft's workload and its alternatives in one table."""
    config = _config(token)
    view, alts = _alternatives(config)
    return _render_alternatives(request, config, view, alts)


@require_POST
def alternative_start(request: HttpRequest, token: str) -> HttpResponse:
    """Start a new draft from one of the alternatives (``key``), owned like a draft started on the home page."""
    config = _config(token)
    key = request.POST.get("key", "")
    view, alts = _alternatives(config)
    chosen = next((a for a in alts if a.key == key), None) if key in ALTERNATIVE_KEYS else None
    if chosen is None:
        error = _("key: choose one of the designs in the table.")
        return _render_alternatives(request, config, view, alts, error=error, status=422)
    staff = _is_staff(request)
    rate = settings.WIZARD_START_RATE
    if not staff and ratelimits.hit(request, group="wizard-start", rate=rate):
        response = HttpResponse(
            _("Too many new designs from this address. Please try again later, or open one you have."),
            status=429,
            content_type="text/plain; charset=utf-8",
        )
        response["Retry-After"] = ratelimits.retry_after(rate)
        return response
    draft = configuration_create(
        document=dict(chosen.document),
        user=cast("User", request.user) if staff else None,  # staff: a signed-in User
        language=_language(),
        channel=Configuration.Channel.STAFF if staff else Configuration.Channel.WEB,
    )
    _remember(request, draft)
    return redirect(step_url(draft, "platform"))


def _draft_column(config: Configuration) -> comparison.Column:
    """A draft's column, from its validation memoised per document and language (web.selectors.design_outcome)."""
    view = selectors.catalog()
    outcome = selectors.design_outcome(document=config.document, language=_language(), view=view)
    return comparison.draft_column(config, outcome, view)


def _readable(column: comparison.Column) -> comparison.Column:
    """A draft that cannot be validated yet says what is missing the way its steps do (no server chosen yet)."""
    if column.readable:
        return column
    top = _input_findings(column.input_errors)[: comparison.TOP_FINDINGS]
    return dataclasses.replace(column, top=top, input_errors={})


class CompareForm(forms.Form):
    """Two of the user's own drafts, by their tokens."""

    a = forms.ChoiceField(label=gettext_lazy("First design"))
    b = forms.ChoiceField(label=gettext_lazy("Second design"))

    def __init__(self, *args: Any, drafts: list[Configuration], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(d.token, d.name or d.token[:8]) for d in drafts]
        for name in ("a", "b"):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)
            field.choices = choices


@require_GET
def compare_drafts(request: HttpRequest) -> HttpResponse:
    """Any two of the user's drafts side by side (?a=<token>&b=<token>); a token that is not theirs: 404."""
    tokens = request.session.get(SESSION_DRAFTS, []) if request.session.session_key else []
    drafts = comparison.own_drafts(user=request.user, session_tokens=tokens)
    own = {d.token: d for d in drafts}
    asked = [request.GET.get(name) for name in ("a", "b") if request.GET.get(name)]
    if any(token not in own for token in asked):
        raise Http404("No such design")
    form = CompareForm(request.GET if asked else None, drafts=drafts)
    columns, status = [], 200
    if form.is_bound:
        if form.is_valid():
            columns = [_readable(_draft_column(own[form.cleaned_data[n]])) for n in "ab"]
        else:
            status = 422
    return render(
        request,
        "configurator/compare.html",
        {
            "mode": "drafts",
            "form": form,
            "drafts": drafts,
            "columns": columns,
            "draft_tokens": [form.cleaned_data[n] for n in ("a", "b")] if columns else [],
        },
        status=status,
    )
