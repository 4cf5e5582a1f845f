"""The installed cluster, planned as it was built.

A quote's cluster is its frozen design. An expansion quote's design is the grown cluster, and it was quoted planned
from the racks of the cluster it expanded (``growing_from``): its installed devices kept where they stood, what the
growth added around them. Reading it back as a new design would plan it afresh, and a second expansion would then
start from racks nobody built. ``installed_result`` reads every quote as it was quoted, down the chain: a cluster
grown twice keeps the racks of both growths. A configuration marked as built is its stored design, as it stands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from configurator.result import ValidationResult
from configurator.services import design_validate
from engines.catalog_json import catalog_from_json
from engines.catalog_view import CatalogView
from engines.cluster.rackplan import growing_from
from outputs.links import installed_ends

from ..models import Quote, QuoteCatalog
from .expansion import installed_document

if TYPE_CHECKING:
    from configurator.models import Configuration


def quote_catalog(quote: Quote) -> CatalogView | None:
    """The catalogue view the quote was frozen with; None for a quote frozen before views were kept."""
    digest = quote.snapshot.receipt.catalog_digest
    if not digest:
        return None
    kept = QuoteCatalog.objects.filter(digest=digest).values_list("view", flat=True).first()
    return None if kept is None else catalog_from_json(kept)


def expanded_from(quote: Quote) -> Quote | Configuration | None:
    """The installed cluster an expansion quote grows: its original quote, or the configuration marked as built;
    None for any other quote."""
    if quote.expansion_of_id is not None:
        return quote.expansion_of
    if quote.expansion_of_built_id is not None:
        return quote.expansion_of_built
    return None


def installed_result(source: Quote | Configuration, *, language: str, as_quoted: bool = False) -> ValidationResult:
    """The validation of the cluster ``source`` describes, its racks planned as they were built (module docstring).

    ``as_quoted``: every quote's design against the catalogue frozen with it (``quote_catalog``), as the hand-over
    files read a won quote; otherwise today's catalogue, which an expansion is priced against. DesignInputError
    when a design can no longer be read."""
    if not isinstance(source, Quote):
        return design_validate(document=installed_document(source.document), language=language)
    catalog = quote_catalog(source) if as_quoted else None
    document = installed_document(dict(source.snapshot.design))
    below = expanded_from(source)
    if below is None:
        return design_validate(document=document, language=language, catalog=catalog)
    before = installed_result(below, language=language, as_quoted=as_quoted)
    with growing_from(before.rack_plan.plan, installed_ends(before)):
        return design_validate(document=document, language=language, catalog=catalog)
