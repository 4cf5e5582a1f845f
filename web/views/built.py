"""An installed cluster that was not sold as a quote here: a sales engineer marks a valid design as built (its stored
design is the installed cluster from then on, configurator.services.configuration_mark_built), and then expands
it: names the node group that grows, by how many nodes, and the customer; sees what the expansion takes; and
requests the expansion quote, which refers to the built design (quotes.services.quote_built_expansion_request).
The grown design becomes a draft of the sales engineer's, and the browser is shown the new quote on its quote
step. The API's doors are ``POST /api/v1/configurations/{id}/built/`` and ``.../expansion-quotes/``."""

from __future__ import annotations

from typing import Any, cast

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from configurator.models import Configuration
from configurator.services import ConfigurationLocked, configuration_create, configuration_mark_built
from design.model import DesignInputError
from quotes.forms import tie_errors
from quotes.models import Quote
from quotes.services import QuoteError, built_expansion_design, built_expansion_name, quote_built_expansion_request
from quotes.services.expansion import expansion_plan
from web.expansion import ExpansionForm, node_groups, summary
from web.forms import QuoteRequestForm
from web.views.common import _config, _language, _remember, staff_required, step_url
from web.views.quote import QUOTE_FIELDS


@staff_required
@require_POST
def mark_built(request: HttpRequest, token: str) -> HttpResponse:
    """A sales engineer marks the design as built: the installed cluster, kept as it stands from now on."""
    config = _config(token)
    try:
        configuration_mark_built(configuration=config, user=request.user)
    except ConfigurationLocked as exc:
        messages.error(request, str(exc.message))
    else:
        messages.success(request, _("Marked as built: this design is the installed cluster from now on."))
    return redirect(step_url(config, "quote"))


@staff_required
@require_http_methods(["GET", "POST"])
@never_cache
def expand_built(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the form; POST: the expansion's summary (``action=preview``, the default) or the expansion quote's
    request (``action=request``). A design not marked as built gets the page saying so (409)."""
    built = _config(token)
    bound = request.POST if request.method == "POST" else None
    form = ExpansionForm(bound, groups=node_groups(built.document))
    customer = QuoteRequestForm(bound, for_staff=True, initial=_known_customer(built))
    if built.built_at is None:
        return _page(request, built, form, customer, status=409)
    if bound is None:
        return _page(request, built, form, customer)
    if not form.is_valid():
        return _page(request, built, form, customer, status=422)
    if request.POST.get("action") != "request":
        plan = _plan(built, form)
        return _page(request, built, form, customer, plan=plan, status=200 if plan is not None else 422)
    if not customer.is_valid():
        return _page(request, built, form, customer, status=422)
    try:
        grown, quote = _store_and_request(request, built, form, customer)
    except (QuoteError, DesignInputError) as exc:
        _tie(form, customer, exc.errors)
        return _page(request, built, form, customer, status=422)
    _remember(request, grown)
    messages.success(request, _("Expansion quote %(number)s requested.") % {"number": quote.number})
    return redirect(step_url(grown, "quote"))


def _page(
    request: HttpRequest,
    built: Configuration,
    form: ExpansionForm,
    customer: QuoteRequestForm,
    *,
    plan: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {"config": built, "form": form, "customer_form": customer, "plan": plan}
    response = render(request, "configurator/expand_built.html", context, status=status)
    response["X-Robots-Tag"] = "noindex"
    return response


def _known_customer(built: Configuration) -> dict[str, str]:
    """The customer the built design's newest quote was made for, if it has one: the form starts from it."""
    quote = Quote.objects.filter(configuration=built).order_by("-created_at", "-id").first()
    if quote is None:
        return {"company": built.customer_company, "name": built.customer_name}
    return QuoteRequestForm.initial_of(quote)


def _plan(built: Configuration, form: ExpansionForm) -> dict[str, Any] | None:
    try:
        return summary(expansion_plan(installed=built.document, growth=form.growth(), language=_language()))
    except DesignInputError as exc:
        tie_errors(form, exc.errors)
        return None


def _tie(form: ExpansionForm, customer: QuoteRequestForm, errors: dict[str, str]) -> None:
    """Each refusal at its field: the growth's on the growth form, the customer's on the customer form."""
    for key, message in errors.items():
        field = QUOTE_FIELDS.get(key)
        if field is not None:
            customer.add_error(field, message)
        else:
            tie_errors(form, {key: message})


@transaction.atomic
def _store_and_request(
    request: HttpRequest, built: Configuration, form: ExpansionForm, customer: QuoteRequestForm
) -> tuple[Configuration, Quote]:
    grown = built_expansion_design(built=built, growth=form.growth())
    user = cast(Any, request.user)  # staff_required: a signed-in User
    configuration = configuration_create(
        document=grown,
        name=built_expansion_name(built, grown),
        user=user,
        channel=Configuration.Channel.STAFF,
        crm_reference=built.crm_reference,
        language=built.language,
    )
    quote = quote_built_expansion_request(
        built=built,
        configuration=configuration,
        customer=customer.customer(),
        user=user,
        channel="staff",
    )
    return configuration, quote
