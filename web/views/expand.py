""" "Expand this cluster": the page of a won or issued quote (reached by its token, as its own page) where the
customer or a sales engineer names the node group that grows and by how many nodes, sees what the expansion takes
(the nodes before and after, the lines to buy, the cables kept, moved, added and removed, the devices that move)
and requests the expansion quote. The grown design becomes a draft of its own (this browser's, or the sales
engineer's), quoted for the original's customer like any request, within the same request limits; the browser is
then shown the new quote on that draft's quote step."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from configurator.models import Configuration
from configurator.services import configuration_create
from design.model import DesignInputError
from quotes import selectors as quote_selectors
from quotes.forms import tie_errors
from quotes.models import Quote
from quotes.services import (
    QuoteError,
    expansion_design,
    expansion_name,
    quote_expandable,
    quote_expansion_plan,
    quote_expansion_request,
)
from web.expansion import ExpansionForm, node_groups, summary
from web.views.common import SESSION_QUOTES, _is_staff, _language, _remember, _remember_quote, step_url
from web.views.quote import _release, _reserve


def _original(token: str) -> Quote:
    quote = quote_selectors.quote_with_design(token)
    if quote is None:
        raise Http404("No such quote")
    return quote


def _page(
    request: HttpRequest, original: Quote, form: ExpansionForm, *, plan: dict[str, Any] | None = None, status: int = 200
) -> HttpResponse:
    context = {"quote": original, "form": form, "plan": plan, "expandable": quote_expandable(original)}
    response = render(request, "quotes/expand.html", context, status=status)
    response["X-Robots-Tag"] = "noindex"
    return response


@require_http_methods(["GET", "POST"])
@never_cache
def expand(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the form; POST: the expansion's summary (``action=preview``, the default) or the expansion quote's
    request (``action=request``). A quote neither won nor issued gets the page saying so (409)."""
    original = _original(token)
    bound = request.POST if request.method == "POST" else None
    form = ExpansionForm(bound, groups=node_groups(original.snapshot.design))
    if not quote_expandable(original):
        return _page(request, original, form, status=409)
    if bound is None:
        return _page(request, original, form)
    if not form.is_valid():
        return _page(request, original, form, status=422)
    if request.POST.get("action") == "request":
        return _request(request, original, form)
    plan = _plan(original, form)
    return _page(request, original, form, plan=plan, status=200 if plan is not None else 422)


def _plan(original: Quote, form: ExpansionForm) -> dict[str, Any] | None:
    try:
        return summary(quote_expansion_plan(original=original, growth=form.growth(), language=_language()))
    except DesignInputError as exc:
        tie_errors(form, exc.errors)
        return None


def _request(request: HttpRequest, original: Quote, form: ExpansionForm) -> HttpResponse:
    """Store the grown design and request its expansion quote, counted as a quote request; the same growth sent
    again from this browser while its quote is open shows that quote (a form sent twice gets one quote)."""
    again = _requested_before(request, original, form)
    if again is not None:
        _remember(request, again.configuration)
        return redirect(step_url(again.configuration, "quote"))
    if not _reserve(request):
        form.add_error(
            None,
            _("Too many quote requests from this browser. Please try again in an hour, or call us on %(phone)s.")
            % {"phone": settings.SELLER.get("phone", "")},
        )
        return _page(request, original, form, status=429)
    try:
        configuration, quote = _store_and_request(request, original, form)
    except (QuoteError, DesignInputError) as exc:
        _release(request)
        tie_errors(form, exc.errors)
        return _page(request, original, form, status=422)
    except BaseException:
        _release(request)  # not accepted (an outage, a bug): it does not count
        raise
    _remember(request, configuration)
    _remember_quote(request, quote.token)  # this browser is shown the new quote (and its revisions)
    return redirect(step_url(configuration, "quote"))


def _requested_before(request: HttpRequest, original: Quote, form: ExpansionForm) -> Quote | None:
    try:
        grown = expansion_design(original=original, growth=form.growth())
    except (QuoteError, DesignInputError):
        return None  # refused again below, with the field named
    tokens = request.session.get(SESSION_QUOTES, [])
    return quote_selectors.repeated_expansion(original=original, document=grown, tokens=tokens)


@transaction.atomic
def _store_and_request(request: HttpRequest, original: Quote, form: ExpansionForm) -> tuple[Configuration, Quote]:
    staff = _is_staff(request)
    grown = expansion_design(original=original, growth=form.growth())
    configuration = configuration_create(
        document=grown,
        name=expansion_name(original, grown),
        user=request.user if staff else None,  # type: ignore[arg-type]  # staff: a signed-in User
        channel=Configuration.Channel.STAFF if staff else Configuration.Channel.WEB,
        crm_reference=original.crm_reference,
        language=original.language,
    )
    quote = quote_expansion_request(
        original=original,
        configuration=configuration,
        user=request.user if staff else None,
        channel="staff" if staff else "web",
    )
    return configuration, quote
