"""The hand-over exports of a won quote (netbox.zip, topology.conf, topology.yaml, fabric.topo, cut-sheet.xlsx) for
sales engineers: made from the design frozen in the quote, validated against the catalogue frozen with it, not from
the draft or the catalogue as they are now (quotes.services.handover), through the one output service every door
calls. Staff only; customers neither see the links nor get the files."""

from __future__ import annotations

from django.http import Http404, HttpRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from design.model import DesignInputError
from outputs.services import HANDOVER_EXPORTS, OutputUnavailable, UnknownOutput
from quotes.models import Quote
from quotes.services import quote_export as export_as_quoted
from web.views.common import staff_required


def quote_exports(quote: Quote | None, staff: bool) -> tuple[str, ...]:
    """The export names the quote page links for this reader: every hand-over export of a won quote, for staff."""
    won = quote is not None and quote.status == Quote.Status.ACCEPTED
    return HANDOVER_EXPORTS if staff and won else ()


@require_GET
@staff_required
def quote_export(request: HttpRequest, pk: int, name: str) -> StreamingHttpResponse:
    """The export ``name`` of won quote ``pk``'s frozen design; 404 for an unknown name, a quote not won, or a
    frozen design with nothing to give in that format."""
    quote = get_object_or_404(Quote, pk=pk, status=Quote.Status.ACCEPTED)
    if name not in HANDOVER_EXPORTS:
        raise Http404(name)
    try:
        output = export_as_quoted(quote, name)
    except (DesignInputError, UnknownOutput, OutputUnavailable) as exc:
        raise Http404(str(exc)) from None
    response = StreamingHttpResponse(output.body, content_type=output.media_type)
    response["Content-Disposition"] = f'attachment; filename="{quote.number}-{output.name}"'
    response["Cache-Control"] = "private, no-store"
    return response
