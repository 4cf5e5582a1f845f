"""Quote pages: the customer's status page (by token), its htmx progress partial, and the downloads.

Customers reach a quote through its unguessable token, or through a signed link from the ready e-mail that
expires after settings.QUOTE_LINK_MAX_AGE. Staff download any quote by id after logging in.
"""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import selectors
from .models import Quote
from .services import download_link_open

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
    return {
        "quote": quote,
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
    return render(request, "quotes/status.html#progress", _context(quote))


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
def quote_document(request: HttpRequest, token: str, kind: str) -> FileResponse:
    return _serve(_quote_or_404(token), kind)


@require_GET
def quote_link(request: HttpRequest, signed: str) -> FileResponse:
    """A download link from the ready e-mail: signed, and refused once older than QUOTE_LINK_MAX_AGE."""
    opened = download_link_open(signed)
    if opened is None:
        raise Http404("This link is invalid or has expired")
    token, kind = opened
    return _serve(_quote_or_404(token), kind)


@require_GET
@staff_member_required
def quote_document_staff(request: HttpRequest, pk: int, kind: str) -> FileResponse:
    return _serve(get_object_or_404(Quote, pk=pk), kind)
