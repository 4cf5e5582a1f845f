"""A won quote's hand-over exports (netbox.zip, topology.conf, topology.yaml, fabric.topo, cut-sheet.xlsx) as
quoted: the design frozen in the quote, validated against the catalogue as it was when the quote was frozen.

Freezing a quote keeps the catalogue view its design was validated and priced against (``freeze_catalog``: every
part's facts, engines.catalog_json, once per catalogue state in quotes.models.QuoteCatalog) and names its digest in the
receipt. ``quote_export`` validates the frozen design against that view and renders the export through the one
output service: a part renamed, repriced or deleted since changes nothing in the files. What is read live: the
code of the engines and the exports (a fixed rule gives fixed files). A quote frozen before the catalogue was
kept (no ``receipt.catalog_digest``) is validated against today's catalogue, as its exports always were. An
expansion quote's grown cluster is planned from its installed one's racks (``growing_from``), as its offer and
re-cabling list were: the files put every installed device where it stands.
"""

from __future__ import annotations

import weakref

from design.jsontext import JsonObject
from engines.catalog_json import catalog_digest, catalog_json
from engines.catalog_view import CatalogView
from outputs.services import HANDOVER_EXPORTS, Output, UnknownOutput, design_export

from ..models import Quote, QuoteCatalog
from .installed import installed_result

# Each catalogue view this process froze, written out with its digest (a view is one catalogue state, shared by
# every validation until the catalogue changes): written out once per state, not once per quote.
_written: weakref.WeakKeyDictionary[CatalogView, tuple[JsonObject, str]] = weakref.WeakKeyDictionary()


def freeze_catalog(view: CatalogView) -> str:
    """Keep the catalogue view (once per state, in the caller's transaction) and return its digest, for the quote's
    receipt."""
    written = _written.get(view)
    if written is None:
        data = catalog_json(view)
        written = _written[view] = (data, catalog_digest(data))
    data, digest = written
    QuoteCatalog.objects.get_or_create(digest=digest, defaults={"version": view.version[:100], "view": data})
    return digest


def quote_export(quote: Quote, name: str) -> Output:
    """The hand-over export ``name`` of the quote's frozen design, as quoted (module docstring). UnknownOutput for
    a name that is no hand-over export; DesignInputError when the frozen design cannot be read against the
    catalogue it is validated against (a quote frozen before views were kept, whose parts are gone);
    OutputUnavailable when the design has nothing to give in that format."""
    if name not in HANDOVER_EXPORTS:
        raise UnknownOutput(name)
    snapshot = quote.snapshot
    result = installed_result(quote, language=snapshot.language, as_quoted=True)
    return design_export(name=name, result=result, language=snapshot.language)
