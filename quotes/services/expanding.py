"""Expansion quotes: a quote for growing the cluster a won or issued quote installed.

The installed cluster is the original quote's frozen design. The door grows it (``expansion_design``: N more
nodes in a node group, or new node groups), stores the grown design as a configuration of its own (the door's
owner: an API client's, a customer's draft, a sales engineer's) and requests the quote for it
(``quote_expansion_request``). That quote is a quote like any other (numbered, reviewed, approved, issued, its
documents built, revised, accepted), with two differences: it refers to its original (``Quote.expansion_of``, and
the original's number in its snapshot's ``expansion``), and its lines are what the growth adds: the expansion's
delta bill with the re-cabling labour line (quotes.services.expansion), priced, discounted and frozen as any bill.
Every revision keeps the original and prices the delta again from the original's frozen design.

A configuration marked as built (configurator.services.configuration_mark_built) is an installed cluster too:
``built_expansion_design`` grows its kept design and ``quote_built_expansion_request`` quotes it for the customer the
door names; that quote refers to it (``Quote.expansion_of_built``, and its name in the snapshot's ``expansion``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from configurator.services import design_validate
from design.jsontext import JsonObject
from messages.languages import resolve_language

from ..models import Quote
from .expansion import Expansion, Growth, grown_document, grown_plan, installed_document
from .inputs import ADDRESS_FIELDS, QuoteError
from .installed import installed_result
from .requesting import customer_of, quote_request

if TYPE_CHECKING:
    from configurator.models import Configuration

    from ..actors import Actor

EXPANDABLE = (Quote.Status.ISSUED, Quote.Status.ACCEPTED)


def quote_expandable(quote: Quote) -> bool:
    """Whether a quote's cluster can be expanded: it was won (accepted) or issued."""
    return quote.status in EXPANDABLE


def expansion_design(*, original: Quote, growth: Growth) -> JsonObject:
    """The original quote's frozen design grown by ``growth`` (a new document). QuoteError on ``quote`` unless the
    original was won or issued; DesignInputError naming ``node_group`` when the group is unknown or ambiguous."""
    _refuse_unexpandable(original)
    installed = installed_document(original.frozen)
    return grown_document(installed, growth, installed_result(original, language=original.language))


def quote_expansion_plan(*, original: Quote, growth: Growth, language: str | None = None) -> Expansion:
    """The expansion of a won or issued quote's cluster by ``growth``, its installed racks as they were quoted (an
    expansion quote's grown cluster as it was planned: quotes.services.installed). QuoteError on ``quote`` unless
    the original was won or issued; DesignInputError naming the growth's field."""
    _refuse_unexpandable(original)
    language = resolve_language(language)
    before = installed_result(original, language=language)
    document = installed_document(original.frozen)
    return grown_plan(before=before, document=document, growth=growth, language=language)


def _refuse_unexpandable(original: Quote) -> None:
    if not quote_expandable(original):
        raise QuoteError(
            {
                "quote": _("Only a won or issued quote's cluster can be expanded; %(number)s is %(status)s.")
                % {"number": original.number, "status": original.get_status_display().lower()}
            }
        )


def built_expansion_design(*, built: Configuration, growth: Growth) -> JsonObject:
    """The design of a configuration marked as built grown by ``growth`` (a new document). QuoteError on
    ``configuration`` unless it was marked as built; DesignInputError naming ``node_group`` when the group is
    unknown or ambiguous."""
    _refuse_unbuilt(built)
    installed = installed_document(built.document)
    return grown_document(installed, growth, design_validate(document=installed, language=built.language))


def _refuse_unbuilt(built: Configuration) -> None:
    if built.built_at is None:
        raise QuoteError(
            {
                "configuration": _(
                    "Only a configuration marked as built can be expanded into a quote; mark it as built first."
                )
            }
        )


def built_expansion_name(built: Configuration, document: JsonObject) -> str:
    """The grown configuration's name: the design's, and which built configuration it expands."""
    name = str(document.get("name") or "").strip()
    expands = _("expansion of %(name)s") % {"name": built.name or f"#{built.pk}"}
    return f"{name} ({expands})"[:200] if name else expands[:200]


def quote_built_expansion_request(
    *,
    built: Configuration,
    configuration: Configuration,
    customer: JsonObject,
    user: Actor = None,
    channel: str = "api",
    crm_reference: str = "",
    language: str | None = None,
) -> Quote:
    """Request the expansion quote of the configuration marked as built ``built`` for ``configuration`` (the
    grown design, stored by the door), for ``customer``, with every rule of quote_request. The new quote's
    ``expansion_of_built`` is the built configuration; its lines are what the growth adds. QuoteError on
    ``configuration`` unless ``built`` was marked as built."""
    _refuse_unbuilt(built)
    return quote_request(
        configuration=configuration,
        customer=customer,
        user=user,
        channel=channel,
        crm_reference=crm_reference or built.crm_reference,
        language=language or built.language,
        expansion_of=built,
    )


def _customer(quote: Quote) -> JsonObject:
    """The quote's customer as a request gives it (quotes.services.inputs.clean_customer reads it again)."""
    kept = customer_of(quote)
    address = {key: kept[f"address_{key}"] for key in ADDRESS_FIELDS}
    return {**kept, "kvk_number": kept["kvk"], "address": address if any(address.values()) else None}


def expansion_name(original: Quote, document: JsonObject) -> str:
    """The grown configuration's name: the design's, and which quote it expands."""
    name = str(document.get("name") or "").strip()
    expands = _("expansion of %(number)s") % {"number": original.number}
    return f"{name} ({expands})"[:200] if name else expands


def quote_expansion_request(
    *,
    original: Quote,
    configuration: Configuration,
    user: Actor = None,
    channel: str = "web",
    language: str | None = None,
) -> Quote:
    """Request the expansion quote of ``original`` for ``configuration`` (the grown design, stored by the door):
    the original's customer, CRM reference and language (unless ``language`` is given), every rule of
    quote_request. The new quote's ``expansion_of`` is the original. QuoteError on ``quote`` unless the original
    was won or issued."""
    _refuse_unexpandable(original)
    return quote_request(
        configuration=configuration,
        customer=_customer(original),
        user=user,
        channel=channel,
        crm_reference=original.crm_reference,
        language=language or original.language,
        expansion_of=original,
    )
