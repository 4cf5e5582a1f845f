"""Quote pages: the customer's status page (by token), its htmx progress partial, and the downloads.

The customer who requested a quote reaches it through its unguessable token (the wizard's quote step links it;
it is never e-mailed). Documents are downloaded only through signed links, which sign an opaque download id and
expire after settings.QUOTE_LINK_MAX_AGE: the ready e-mail holds them, and the status page makes fresh ones each
time it is shown. An expired or broken link gets a page that says so (404).
Staff download any quote by id after logging in.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.admin.views.decorators import staff_member_required
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import selectors
from .models import Quote
from .services import DownloadLinkError, QuoteError, download_link_open, download_link_sign, quote_internal_pdf

CONTENT_TYPES = {
    "pdf": "application/pdf",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def _quote_or_404(token: str) -> Quote:
    quote = selectors.quote_for_token(token)
    if quote is None:
        raise Http404("No such quote")
    return quote


def _context(quote: Quote) -> dict:
    ready = quote.doc_status == Quote.DocStatus.READY
    return {
        "quote": quote,
        # Signed when the page is shown, so they expire after QUOTE_LINK_MAX_AGE like the e-mailed ones: a
        # copied or forwarded document link stops working; the page itself makes fresh ones.
        "pdf_url": reverse("quotes:link", args=[download_link_sign(quote=quote, kind="pdf")]) if ready else "",
        "xlsx_url": reverse("quotes:link", args=[download_link_sign(quote=quote, kind="xlsx")]) if ready else "",
        "building": quote.issued_at is not None
        and quote.doc_status in (Quote.DocStatus.PENDING, Quote.DocStatus.BUILDING),
        "newest": selectors.quote_revisions(quote).last(),
    }


@require_GET
@never_cache
def quote_status(request: HttpRequest, token: str) -> HttpResponse:
    quote = _quote_or_404(token)
    return render(request, "quotes/status.html", _context(quote))


@require_GET
@never_cache
def quote_progress(request: HttpRequest, token: str) -> HttpResponse:
    """The progress fragment: polled by htmx every second while the documents are being built; a plain GET
    returns the same fragment, with the download links once they are ready."""
    quote = _quote_or_404(token)
    return render(request, "quotes/_progress.html", _context(quote))


def _serve(quote: Quote, kind: str) -> FileResponse:
    field = quote.pdf if kind == "pdf" else quote.xlsx
    if quote.doc_status != Quote.DocStatus.READY or not field.name or not default_storage.exists(field.name):
        raise Http404("The document is not ready")
    filename = f"{quote.number}.pdf" if kind == "pdf" else f"{quote.number}-bom.xlsx"
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
def quote_link(request: HttpRequest, signed: str) -> HttpResponse:
    """A download link from the ready e-mail: signed, and refused once older than QUOTE_LINK_MAX_AGE with a page
    that says the link expired (or is invalid) and how to get a new one."""
    try:
        quote, kind = download_link_open(signed)
    except DownloadLinkError as exc:
        context = {
            "expired": exc.expired,
            "link_days": settings.QUOTE_LINK_MAX_AGE.days,
            "seller": settings.SELLER,
        }
        response = render(request, "quotes/link_refused.html", context, status=404)
        response["X-Robots-Tag"] = "noindex"
        return response
    return _serve(quote, kind)


@require_GET
@staff_member_required
def quote_document_staff(request: HttpRequest, pk: int, kind: str) -> FileResponse:
    return _serve(get_object_or_404(Quote, pk=pk), kind)


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
