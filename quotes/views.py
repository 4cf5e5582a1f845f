"""Quote pages: the customer's status page (by token), its htmx progress partial, and the downloads.

The customer who requested a quote reaches it through its unguessable token (the wizard's quote step links it;
it is never e-mailed). Documents are downloaded only through signed links, which sign an opaque download id and
expire after settings.QUOTE_LINK_MAX_AGE: the ready e-mail holds them, and the status page makes fresh ones each
time it is shown. An expired or broken link gets a page that says so (404).
Staff download any quote by id after logging in.

An issued, unexpired quote is accepted or declined online from its page or from the offer e-mail's signed
"accept or decline" link (its own salt, the same expiry): both call quotes.services.quote_accept / quote_decline,
recording the address the answer came from. An accepted quote's page links its order confirmation once built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from project.clientip import client_ip

from . import selectors, staffxlsx
from .forms import AcceptForm, DeclineForm, tie_errors
from .frozen import left_out
from .models import Quote
from .services import (
    DownloadLinkError,
    QuoteError,
    QuoteStateError,
    accept_link_open,
    download_link_open,
    download_link_sign,
    quote_accept,
    quote_decline,
    quote_internal_pdf,
    quote_may_answer,
)

if TYPE_CHECKING:
    from .models import QuoteDecision

CONTENT_TYPES = {
    "pdf": "application/pdf",
    "order": "application/pdf",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def _quote_or_404(token: str) -> Quote:
    quote = selectors.quote_for_token(token)
    if quote is None:
        raise Http404("No such quote")
    return quote


def _decision(quote: Quote) -> QuoteDecision | None:
    try:
        return quote.decision
    except Quote.decision.RelatedObjectDoesNotExist:
        return None


def _context(quote: Quote) -> dict:
    ready = quote.doc_status == Quote.DocStatus.READY
    decision = _decision(quote)
    confirmed = decision is not None and decision.confirmation_status == Quote.DocStatus.READY
    return {
        "decision": decision,
        "order_url": reverse("quotes:link", args=[download_link_sign(quote=quote, kind="order")]) if confirmed else "",
        "quote": quote,
        # Signed when the page is shown, so they expire after QUOTE_LINK_MAX_AGE like the e-mailed ones: a
        # copied or forwarded document link stops working; the page itself makes fresh ones.
        "pdf_url": reverse("quotes:link", args=[download_link_sign(quote=quote, kind="pdf")]) if ready else "",
        "xlsx_url": reverse("quotes:link", args=[download_link_sign(quote=quote, kind="xlsx")]) if ready else "",
        "building": quote.issued_at is not None
        and quote.doc_status in (Quote.DocStatus.PENDING, Quote.DocStatus.BUILDING),
        "newest": selectors.quote_revisions(quote).last(),
        # one key of the snapshot, read in the database: the page never loads the whole validation result
        "left_out": left_out({"validation": {"left_out": selectors.quote_left_out(quote)}}),
        "expansion_of": selectors.quote_number(quote.expansion_of_id),
    }


def _status_page(
    request: HttpRequest,
    quote: Quote,
    *,
    answer_url: str,
    accept_form: AcceptForm | None = None,
    decline_form: DeclineForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The quote's page; with the accept and decline forms (posting to ``answer_url``) while it can be answered."""
    context = _context(quote)
    if quote_may_answer(quote):
        context |= {
            "answer_url": answer_url,
            "accept_form": accept_form
            or AcceptForm(initial={"name": quote.customer_name, "email": quote.customer_email}),
            "decline_form": decline_form or DeclineForm(),
        }
    response = render(request, "quotes/status.html", context, status=status)
    response["X-Robots-Tag"] = "noindex"
    return response


@require_GET
@never_cache
def quote_status(request: HttpRequest, token: str) -> HttpResponse:
    quote = _quote_or_404(token)
    return _status_page(request, quote, answer_url=reverse("quotes:answer", args=[token]))


def _answer(request: HttpRequest, quote: Quote, *, answer_url: str) -> HttpResponse:
    """The customer accepts (``action=accept``) or declines (``action=decline``) the quote online; back to the page
    (post/redirect/get), or the page with the form's errors (422) or why the quote cannot be answered (409)."""
    accept_form = decline_form = None
    try:
        if request.POST.get("action") == "decline":
            decline_form = DeclineForm(request.POST)
            if decline_form.is_valid():
                quote_decline(
                    quote=quote,
                    channel="customer",
                    reason=decline_form.cleaned_data["reason"],
                    ip_address=client_ip(request),
                )
                messages.success(
                    request,
                    _("Thank you. We have recorded that you decline quote %(number)s.") % {"number": quote.number},
                )
                return redirect(answer_url)
        else:
            accept_form = AcceptForm(request.POST)
            if accept_form.is_valid():
                quote_accept(quote=quote, channel="customer", ip_address=client_ip(request), **accept_form.answer())
                messages.success(
                    request,
                    _("Thank you for your order. We e-mail the order confirmation of %(number)s shortly.")
                    % {"number": quote.number},
                )
                return redirect(answer_url)
    except QuoteStateError as exc:
        messages.error(request, exc.errors["status"])
        quote.refresh_from_db()
        return _status_page(request, quote, answer_url=answer_url, status=409)
    except QuoteError as exc:
        if (form := accept_form or decline_form) is not None:
            tie_errors(form, exc.errors)
    return _status_page(
        request, quote, answer_url=answer_url, accept_form=accept_form, decline_form=decline_form, status=422
    )


@require_POST
@never_cache
def quote_answer(request: HttpRequest, token: str) -> HttpResponse:
    """The quote page's accept and decline forms."""
    quote = _quote_or_404(token)
    return _answer(request, quote, answer_url=reverse("quotes:answer", args=[token]))


@require_http_methods(["GET", "POST"])
@never_cache
def quote_accept_link(request: HttpRequest, signed: str) -> HttpResponse:
    """The offer e-mail's signed "accept or decline online" link: the quote's page with both forms (GET), and
    where they post. An expired or broken link gets the page that says so (404)."""
    try:
        quote = accept_link_open(signed)
    except DownloadLinkError as exc:
        return _link_refused(request, exc)
    url = reverse("quotes:accept", args=[signed])
    if request.method == "POST":
        return _answer(request, quote, answer_url=url)
    return _status_page(request, quote, answer_url=url)


def _link_refused(request: HttpRequest, exc: DownloadLinkError) -> HttpResponse:
    context = {"expired": exc.expired, "link_days": settings.QUOTE_LINK_MAX_AGE.days, "seller": settings.SELLER}
    response = render(request, "quotes/link_refused.html", context, status=404)
    response["X-Robots-Tag"] = "noindex"
    return response


@require_GET
@never_cache
def quote_progress(request: HttpRequest, token: str) -> HttpResponse:
    """The progress fragment: polled by htmx every second while the documents are being built; a plain GET
    returns the same fragment, with the download links once they are ready."""
    quote = _quote_or_404(token)
    return render(request, "quotes/_progress.html", _context(quote))


def _serve(quote: Quote, kind: str) -> FileResponse:
    if kind == "order":
        decision = _decision(quote)
        field = decision.confirmation_pdf if decision is not None else None
        ready = decision is not None and decision.confirmation_status == Quote.DocStatus.READY
        filename = f"{quote.number}-order-confirmation.pdf"
    else:
        field = quote.pdf if kind == "pdf" else quote.xlsx
        ready = quote.doc_status == Quote.DocStatus.READY
        filename = f"{quote.number}.pdf" if kind == "pdf" else f"{quote.number}-bom.xlsx"
    if not ready or field is None or not field.name or not default_storage.exists(field.name):
        raise Http404("The document is not ready")
    response = FileResponse(
        default_storage.open(field.name, "rb"),
        as_attachment=kind == "xlsx",
        filename=filename,
        content_type=CONTENT_TYPES[kind],
    )
    response["X-Robots-Tag"] = "noindex"
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
@never_cache
def quote_link(request: HttpRequest, signed: str) -> HttpResponseBase:
    """A download link from the ready e-mail: signed, and refused once older than QUOTE_LINK_MAX_AGE with a page
    that says the link expired (or is invalid) and how to get a new one."""
    try:
        quote, kind = download_link_open(signed)
    except DownloadLinkError as exc:
        return _link_refused(request, exc)
    return _serve(quote, kind)


@require_GET
@staff_member_required
def quote_document_staff(request: HttpRequest, pk: int, kind: str) -> HttpResponseBase:
    """Staff download any quote's documents; their workbook also holds each line's purchase price and margin
    (quotes.staffxlsx), built on request and never stored beside the customer's."""
    quote = get_object_or_404(Quote, pk=pk)
    response = _serve(quote, kind)
    if kind != "xlsx":
        return response
    with default_storage.open(quote.xlsx.name or "", "rb") as handle:
        content = staffxlsx.with_margins(handle.read(), quote.frozen, quote.costs or {})
    response.close()
    staff = HttpResponse(content, content_type=CONTENT_TYPES["xlsx"])
    staff["Content-Disposition"] = f'attachment; filename="{quote.number}-bom-staff.xlsx"'
    staff["Cache-Control"] = "private, no-store"
    return staff


@require_GET
@staff_member_required
def quote_internal_staff(request: HttpRequest, pk: int) -> HttpResponse:
    """The sales engineer's copy of the offer, with its internal appendix (staff only; 404 before it is issued)."""
    quote = get_object_or_404(Quote, pk=pk)
    try:
        content = quote_internal_pdf(quote=quote)
    except QuoteError:
        raise Http404("The quote is not issued") from None
    response = HttpResponse(content, content_type=CONTENT_TYPES["pdf"])
    response["Content-Disposition"] = f'inline; filename="{quote.number}-internal.pdf"'
    response["X-Robots-Tag"] = "noindex"
    response["Cache-Control"] = "private, no-store"
    return response
