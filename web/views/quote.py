"""The quote step: customers request a quote (rate-limited), sales engineers discount, issue, approve and revise."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from configurator.models import Configuration
from configurator.services import configuration_name_customer, configuration_taken_over
from project import ratelimits
from quotes import selectors as quote_selectors
from quotes.forms import AcceptForm, DeclineForm, tie_errors
from quotes.models import Quote
from quotes.services import (
    DownloadLinkError,
    QuoteError,
    QuoteStateError,
    quote_accept,
    quote_approve,
    quote_decline,
    quote_issue,
    quote_may_answer,
    quote_may_approve,
    quote_open_link_open,
    quote_request,
    quote_revise,
    quote_send_open_link,
)
from web import selectors
from web.forms import (
    AcknowledgeForm,
    DiscountForm,
    QuoteFindForm,
    QuoteRequestForm,
)
from web.views.common import (
    Evaluation,
    _config,
    _context,
    _evaluate,
    _is_staff,
    _language,
    _read_only,
    _remember_quote,
    _render_step,
    _visible_quotes,
    step_url,
)
from web.views.quote_exports import quote_exports
from web.views.quote_preview import PREVIEW_FORMS, PricePreview, discount_preview, vat_inputs


def _quote_limits(request: HttpRequest) -> list[tuple[str, tuple[int, int], ratelimits.RateKey]]:
    """The limits a quote request counts against: (group, (count, window seconds), key).

    Customers: QUOTE_REQUEST_LIMIT per browser session (default 5) and QUOTE_REQUEST_LIMIT_PER_IP per address
    (default 20), the address project.clientip.client_ip's (X-Forwarded-For only behind TRUSTED_PROXY_COUNT
    proxies). Sales engineers: QUOTE_REQUEST_STAFF_LIMIT per signed-in user (default 200), not per address (a sales
    office shares one) and not against the customers' counts. Every window is QUOTE_REQUEST_WINDOW_SECONDS (default
    3600). Counted by django-ratelimit (project.ratelimits) in the default cache; production configures a
    shared one. Only accepted requests count: each takes its place first (``_reserve``, one atomic increment, so
    requests sent at the same instant cannot overrun a limit), and gives it back when it is refused.
    """
    window = int(getattr(settings, "QUOTE_REQUEST_WINDOW_SECONDS", 3600))
    if _is_staff(request):
        per_user = (int(getattr(settings, "QUOTE_REQUEST_STAFF_LIMIT", 200)), window)
        return [("quote-request:staff", per_user, ratelimits.by_user)]
    per_ip = (int(getattr(settings, "QUOTE_REQUEST_LIMIT_PER_IP", 20)), window)
    per_session = (int(getattr(settings, "QUOTE_REQUEST_LIMIT", 5)), window)
    return [
        ("quote-request:ip", per_ip, ratelimits.by_address),
        ("quote-request:session", per_session, ratelimits.by_session),
    ]


def _reserve(request: HttpRequest) -> bool:
    """Take this request's place in each of its limits; False (and nothing taken) when one is used up."""
    limits = _quote_limits(request)
    within = [ratelimits.reserve(request, group=g, rate=rate, key=key) for g, rate, key in limits]
    if not all(within):
        _release(request)
    return all(within)


def _release(request: HttpRequest) -> None:
    for group, rate, key in _quote_limits(request):
        ratelimits.release(request, group=group, rate=rate, key=key)


CUSTOMER_SESSION_KEY = "quote_customer"


def _own_details(request: HttpRequest) -> dict[str, str]:
    """What the request form is prefilled with: the visitor's own details only, from this browser's session (her
    last quote request) or her account, never from the draft, which anyone holding its link can open."""
    own = request.session.get(CUSTOMER_SESSION_KEY)
    if isinstance(own, dict):
        return {k: str(own.get(k) or "") for k in ("name", "company")}
    user = request.user
    if user.is_authenticated and not user.is_staff:
        return {"name": user.get_full_name()}
    return {}


def _quote(request: HttpRequest, config: Configuration) -> HttpResponse:
    """The quote step: GET shows it; a POST names what it does in ``action`` (one handler each, QUOTE_ACTIONS)."""
    if request.method != "POST":
        return _quote_page(request, config)
    handler = QUOTE_ACTIONS.get(request.POST.get("action", "request"), request_quote)
    return handler(request, config)


def _quote_page(
    request: HttpRequest,
    config: Configuration,
    *,
    ev: Evaluation | None = None,
    form: QuoteRequestForm | None = None,
    find_form: QuoteFindForm | None = None,
    discount_form: DiscountForm | None = None,
    revise_form: DiscountForm | None = None,
    previews: dict[str, PricePreview] | None = None,
    accept_form: AcceptForm | None = None,
    decline_form: DeclineForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The quote step with the request form, and for sales engineers the discount and revision forms (each the
    one a refused POST brings back with its errors, or a fresh one) and, while the latest quote can be answered,
    the forms that record the customer's acceptance or decline on their behalf."""
    view = selectors.catalog()
    staff = _is_staff(request)
    if ev is None:
        ev = _evaluate(request, config, view)
    if form is None:
        form = QuoteRequestForm(initial=_own_details(request), for_staff=staff)
    quotes = _visible_quotes(request, config)
    latest = quotes[0] if quotes else None
    previews = dict(previews or {})
    if staff:
        discount_form, revise_form = _staff_forms(ev, latest, discount_form, revise_form)
        for which, dform in (("request", discount_form), ("revise", revise_form)):
            if dform is not None and which not in previews:
                previews[which] = discount_preview(ev, dform, which=which, **vat_inputs(which, form, latest))
    ctx = _context(
        request,
        config,
        "quote",
        view,
        ev,
        form=form,
        find_form=find_form or QuoteFindForm(),
        previews=previews,
        discount_form=discount_form,
        revise_form=revise_form,
        quotes=quotes,
        latest=latest,
        ack_form=AcknowledgeForm(),
        show_ack=staff,
        may_approve=staff and latest is not None and quote_may_approve(quote=latest, user=request.user),
        **_answer_forms(staff, latest, accept_form, decline_form),
        quote_margin_floor=settings.QUOTE_MARGIN_APPROVAL_FLOOR_PERCENT if staff else None,
        quote_exports=quote_exports(latest, staff),
        **(_revision_diff(request, latest) if staff else {}),
    )
    return _render_step(request, "quote", ctx, status=status)


def _staff_forms(
    ev: Evaluation, latest: Quote | None, discount_form: DiscountForm | None, revise_form: DiscountForm | None
) -> tuple[DiscountForm, DiscountForm | None]:
    """The discount form and, with a latest quote, its revision form: the ones a refused POST brought back, else
    fresh ones (the revision's with the latest quote's discounts)."""
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
    return discount_form, revise_form


def _revision_diff(request: HttpRequest, latest: Quote | None) -> dict[str, object]:
    """Staff only: what changed between two revisions of the latest quote's number (``?diff_a=&diff_b=``, by default
    the revision before the latest and the latest), by quotes.selectors.quote_revision_diff."""
    if latest is None or latest.revision < 2:
        return {}
    revisions = list(range(1, latest.revision + 1))

    def revision(name: str, default: int) -> int:
        value = request.GET.get(name, "")
        return int(value) if value.isdigit() and int(value) in revisions else default

    a, b = revision("diff_a", latest.revision - 1), revision("diff_b", latest.revision)
    return {
        "revision_diff": quote_selectors.quote_revision_diff(latest, a, b),
        "revisions": revisions,
        "diff_label": _diff_label,
    }


def _diff_label(name: str) -> str:
    """A changed field of a revision diff as the page names it."""
    if name.startswith("line_discounts."):
        return _("Line discount %(part)s") % {"part": name.removeprefix("line_discounts.")}
    labels = {
        "quantity": _("Quantity"),
        "unit_price": _("Unit price"),
        "line_discount_percent": _("Line discount (%)"),
        "quote_discount_percent": _("Quote discount (%)"),
        "discount_percent": _("Quote discount (%)"),
        "net": _("Net"),
        "subtotal": _("List value"),
        "discount": _("Discount"),
        "vat_amount": _("VAT"),
        "total": _("Total, incl. VAT"),
    }
    return str(labels.get(name, name))


def _answer_forms(
    staff: bool, latest: Quote | None, accept_form: AcceptForm | None, decline_form: DeclineForm | None
) -> dict[str, object]:
    """Staff only: the latest quote's answer (its decision), and while it can be answered the on-behalf forms."""
    if not staff or latest is None:
        return {}
    decision = getattr(latest, "decision", None) if latest.status in ("accepted", "declined") else None
    if decision is not None or not quote_may_answer(latest):
        return {"decision": decision}
    initial = {"name": latest.customer_name, "email": latest.customer_email}
    return {
        "accept_form": accept_form or AcceptForm(initial=initial, on_behalf=True),
        "decline_form": decline_form or DeclineForm(),
    }


def accept_quote(request: HttpRequest, config: Configuration) -> HttpResponse:
    """A sales engineer records the customer's acceptance (with the purchase order and a note) on their behalf."""
    if not _is_staff(request):
        raise PermissionDenied
    quote = _posted_quote(request, config)
    form = AcceptForm(request.POST, on_behalf=True)
    if form.is_valid():
        try:
            quote = quote_accept(quote=quote, channel="staff", user=request.user, **form.answer())
        except QuoteStateError as exc:
            messages.error(request, exc.errors["status"])
        except QuoteError as exc:
            tie_errors(form, exc.errors)
            return _quote_page(request, config, accept_form=form, status=422)
        else:
            messages.success(
                request,
                _("Quote %(number)s accepted on the customer's behalf; the order confirmation follows by e-mail.")
                % {"number": quote.number},
            )
        return redirect(step_url(config, "quote"))
    return _quote_page(request, config, accept_form=form, status=422)


def decline_quote(request: HttpRequest, config: Configuration) -> HttpResponse:
    """A sales engineer records that the customer declined the quote, and why."""
    if not _is_staff(request):
        raise PermissionDenied
    quote = _posted_quote(request, config)
    form = DeclineForm(request.POST)
    if form.is_valid():
        try:
            quote = quote_decline(quote=quote, channel="staff", user=request.user, reason=form.cleaned_data["reason"])
        except QuoteStateError as exc:
            messages.error(request, exc.errors["status"])
        except QuoteError as exc:
            tie_errors(form, exc.errors)
            return _quote_page(request, config, decline_form=form, status=422)
        else:
            messages.success(
                request, _("Quote %(number)s: %(status)s.") % {"number": quote.number, "status": quote.display_status}
            )
        return redirect(step_url(config, "quote"))
    return _quote_page(request, config, decline_form=form, status=422)


def request_quote(request: HttpRequest, config: Configuration) -> HttpResponse:
    """A customer requests a quote, or a sales engineer requests one with discounts (each within their own rate
    limits, which count accepted requests only)."""
    staff = _is_staff(request)
    if not staff and configuration_taken_over(config):
        # A sales engineer handles this design: the customer edits a copy rather than request again.
        return _read_only(request, config, "quote")
    ev = _evaluate(request, config, selectors.catalog()) if staff else None
    form = QuoteRequestForm(request.POST, for_staff=staff)
    # Only sales engineers give discounts; a customer's POST carrying discount fields is not read.
    discount_form = _discount_form(ev, request.POST) if ev is not None else None
    if not _reserve(request):
        form.add_error(
            None,
            _("Too many quote requests from this browser. Please try again in an hour, or call us on %(phone)s.")
            % {"phone": settings.SELLER.get("phone", "")},
        )
        return _quote_page(request, config, ev=ev, form=form, discount_form=discount_form, status=429)
    try:
        valid = all([form.is_valid(), discount_form is None or discount_form.is_valid()])
        if valid and (response := _quote_request(request, config, form, discount_form)) is not None:
            return response
    except BaseException:
        _release(request)  # not accepted (an outage, a bug): it does not count
        raise
    _release(request)
    return _quote_page(request, config, ev=ev, form=form, discount_form=discount_form, status=422)


def find_quote(request: HttpRequest, config: Configuration) -> HttpResponse:
    """A customer whose browser does not know the design's quote (another device, a bookmark) asks for it: the
    address it was requested with gets a link that opens it here. The page says the same whatever the address, so
    the design link never tells whose quote it is; each ask counts against the quote request limits."""
    form = QuoteFindForm(request.POST)
    if not _reserve(request):
        form.add_error(
            None,
            _("Too many quote requests from this browser. Please try again in an hour, or call us on %(phone)s.")
            % {"phone": settings.SELLER.get("phone", "")},
        )
        return _quote_page(request, config, find_form=form, status=429)
    if not form.is_valid():
        _release(request)  # a refused form counts nothing, as a refused quote request
        return _quote_page(request, config, find_form=form, status=422)
    quote_send_open_link(configuration=config, email=form.cleaned_data["find_email"])
    messages.info(
        request,
        _(
            "If a quote for this design was requested with that address, we have e-mailed it a link that opens the"
            " quote here."
        ),
    )
    return redirect(step_url(config, "quote"))


@require_GET
def open_quote(request: HttpRequest, token: str, signed: str) -> HttpResponse:
    """The e-mailed link of find_quote: this browser is shown the quote (and its revisions) from now on, on the
    design's quote step. An expired or broken link, or one for another design, says so there."""
    config = _config(token)
    try:
        quote = quote_open_link_open(signed)
    except DownloadLinkError as exc:
        quote = None
        expired = exc.expired
    else:
        expired = False
    if quote is None or quote.configuration_id != config.pk:
        if expired:
            messages.error(request, _("This link has expired. Ask for a new one below."))
        else:
            messages.error(request, _("This link does not open a quote of this design."))
        return redirect(step_url(config, "quote"))
    _remember_quote(request, quote.token)
    messages.success(request, _("Quote %(number)s is shown on this device now.") % {"number": quote.number})
    return redirect(step_url(config, "quote"))


def revise_quote(request: HttpRequest, config: Configuration) -> HttpResponse:
    """A sales engineer makes a new revision of a quote from the current design."""
    if not _is_staff(request):
        raise PermissionDenied
    ev = _evaluate(request, config, selectors.catalog())
    revise_form = _discount_form(ev, request.POST, prefix="revise")
    if (response := _quote_revise(request, config, revise_form)) is not None:
        return response
    return _quote_page(request, config, ev=ev, revise_form=revise_form, status=422)


def issue_quote(request: HttpRequest, config: Configuration) -> HttpResponse:
    """A sales engineer issues a reviewed quote."""
    return _staff_quote_change(request, config, quote_issue, _("You do not have the permission to issue quotes."))


def approve_quote(request: HttpRequest, config: Configuration) -> HttpResponse:
    """A second sales engineer approves a quote's discount."""
    return _staff_quote_change(
        request, config, quote_approve, _("Only a user with the approve permission can approve this discount.")
    )


def _discount_form(
    ev: Evaluation,
    data: QueryDict | None = None,
    *,
    prefix: str | None = None,
    initial: dict[str, object] | None = None,
) -> DiscountForm:
    """The staff discount form: a quote discount and one input per part number of the bill of materials (a line
    that no catalogue part fits has no part number to discount)."""
    parts: dict[str, str] = {}
    for line in ev.bill.lines if ev.bill else []:
        if line.part_number:
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
    "customer.kvk_number": "kvk_number",
    "customer.address.street": "street",
    "customer.address.postal_code": "postal_code",
    "customer.address.city": "city",
}


def _quote_request(
    request: HttpRequest, config: Configuration, form: QuoteRequestForm, discount_form: DiscountForm | None
) -> HttpResponse | None:
    staff = _is_staff(request)
    percent, lines = discount_form.discounts() if discount_form is not None else (None, None)
    try:
        quote = quote_request(
            configuration=config,
            customer=form.customer(),
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
    if getattr(quote, "repeated", False):
        messages.info(request, _("You already have quote %(number)s for this design.") % {"number": quote.number})
    d = form.cleaned_data
    if not staff:
        _remember_quote(request, quote.token)  # this browser is shown this quote (and its revisions) from now on
        request.session[CUSTOMER_SESSION_KEY] = {"name": d["name"], "company": d["company"]}
    configuration_name_customer(configuration=config, name=d["name"], company=d["company"])
    return redirect(step_url(config, "quote"))


def _quote_revise(request: HttpRequest, config: Configuration, form: DiscountForm) -> HttpResponse | None:
    """A new revision from the current design, with the discounts of the form (the earlier revision's when the
    form was not sent). None when the discounts are wrong: the page shows the form with its errors."""
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


def _posted_quote(request: HttpRequest, config: Configuration) -> Quote:
    quote = next((q for q in quote_selectors.quotes_for(config) if q.token == request.POST.get("quote")), None)
    if quote is None:
        raise Http404
    return quote


def _staff_quote_change(
    request: HttpRequest, config: Configuration, change: Callable[..., Quote], refused: str
) -> HttpResponse:
    """Apply a quote service (``change(quote=, user=)``) to the posted quote as the signed-in sales engineer and
    report the outcome as a message; ``refused`` when the service refuses without saying why."""
    if not _is_staff(request):
        raise PermissionDenied
    quote = _posted_quote(request, config)
    try:
        quote = change(quote=quote, user=request.user)
    except QuoteError as exc:
        for message in exc.errors.values():
            messages.error(request, message)
    except PermissionDenied as exc:  # no permission, or four eyes on a discount: the service says which
        messages.error(request, str(exc) or refused)
    else:
        messages.success(
            request, _("Quote %(number)s: %(status)s.") % {"number": quote.number, "status": quote.display_status}
        )
    return redirect(step_url(config, "quote"))


def _preview_for(request: HttpRequest, config: Configuration, ev: Evaluation) -> tuple[str, DiscountForm, PricePreview]:
    """(which form, its bound discount form, the preview) for the discounts the request posts; a revision's
    preview names its quote (404 when the design has no such quote)."""
    data = request.POST
    sent = data.get("preview_form")
    which = sent if sent is not None and sent in PREVIEW_FORMS else "request"
    quote = _posted_quote(request, config) if which == "revise" else None
    dform = _discount_form(ev, data, prefix="revise" if which == "revise" else None)
    return which, dform, discount_preview(ev, dform, which=which, **vat_inputs(which, data, quote))


@require_POST
def price_preview(request: HttpRequest, token: str) -> HttpResponse:
    """Staff only: the price preview panel for the discounts typed so far (htmx, on every change of the form; a
    POST, so the customer's details never end up in a URL)."""
    if not _is_staff(request):
        raise PermissionDenied
    config = _config(token)
    ev = _evaluate(request, config, selectors.catalog())
    _which, _dform, preview = _preview_for(request, config, ev)
    return render(request, "configurator/partials/_price_preview.html", {"preview": preview})


def preview_prices(request: HttpRequest, config: Configuration) -> HttpResponse:
    """The preview without JavaScript: the form's "Update price" button posts it and gets the step back with the
    preview and the values as typed (nothing is requested)."""
    if not _is_staff(request):
        raise PermissionDenied
    ev = _evaluate(request, config, selectors.catalog())
    which, dform, preview = _preview_for(request, config, ev)
    if which == "revise":
        return _quote_page(request, config, ev=ev, revise_form=dform, previews={which: preview})
    typed = {name: request.POST.get(name, "") for name in QuoteRequestForm.base_fields if name in request.POST}
    form = QuoteRequestForm(initial=typed, for_staff=True)
    return _quote_page(request, config, ev=ev, form=form, discount_form=dform, previews={which: preview})


QUOTE_ACTIONS = {
    "request": request_quote,
    "find": find_quote,
    "revise": revise_quote,
    "issue": issue_quote,
    "approve": approve_quote,
    "preview": preview_prices,
    "accept": accept_quote,
    "decline": decline_quote,
}
