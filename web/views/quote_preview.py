"""The quote step's price preview: what a quote with the discounts typed so far would cost the customer, its VAT,
margin and price agreement, by quotes.services.quote_preview; a panel per discount form (a new quote, a revision).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import QueryDict
from django.utils.translation import gettext as _

from quotes.services import QuotePreview, quote_preview
from web.forms import DiscountForm, QuoteRequestForm
from web.views.common import Evaluation


@dataclass
class PricePreview:
    """The preview panel of one form: quotes.services.quote_preview's answer (``preview``), its errors named by
    the labels of the form's fields. ``which``: the form it belongs to ("request": a new quote; "revise": a new
    revision of the latest quote)."""

    which: str
    preview: QuotePreview
    errors: list[tuple[str, str]] = field(default_factory=list)

    @property
    def result(self):
        return self.preview.result

    @property
    def vat(self):
        return self.preview.vat

    @property
    def unpriced(self) -> list[str]:
        return self.preview.unpriced

    @property
    def margin(self):
        return self.preview.margin

    @property
    def margin_lines(self):
        return self.preview.margin_lines

    @property
    def agreement(self):
        return self.preview.agreement

    @property
    def agreed(self):
        return self.preview.agreed

    @property
    def approval_reasons(self) -> tuple[str, ...]:
        return self.preview.approval_reasons

    @property
    def floor(self):
        return self.preview.floor

    @property
    def dom_id(self) -> str:
        return "price-preview" if self.which == "request" else "revise-price-preview"


PREVIEW_FORMS = ("request", "revise")


def vat_inputs(which: str, form, quote) -> dict[str, object]:
    """The customer's country and VAT number the preview prices with: as typed in the request form (its initial
    country when none is typed), or the latest quote's (a revision keeps its customer)."""
    if which == "revise" and quote is not None:
        return {"country": quote.customer_country, "vat_number": quote.customer_vat_number, "kvk": quote.customer_kvk}
    if form is None:
        return {"country": "NL", "vat_number": "", "kvk": ""}
    if isinstance(form, QueryDict):
        return {
            "country": form.get("country") or "NL",
            "vat_number": form.get("vat_number") or "",
            "kvk": form.get("kvk_number") or "",
        }
    return {
        "country": form["country"].value() or "NL",
        "vat_number": form["vat_number"].value() or "",
        "kvk": form["kvk_number"].value() or "",
    }


def discount_preview(ev: Evaluation, dform: DiscountForm, *, which: str, country, vat_number, kvk="") -> PricePreview:
    """The preview of the design with the discounts of ``dform`` (bound: as typed; unbound: its initial values)
    for a customer in ``country`` with ``vat_number``, by quotes.services.quote_preview."""
    typed = {bound.name.removeprefix(DiscountForm.LINE_PREFIX): bound.value() for bound in dform.line_fields()}
    preview = quote_preview(
        lines=ev.bill.lines if ev.bill else [],
        discount_percent=dform["discount_percent"].value(),
        line_discounts=typed,
        country=country,
        vat_number=vat_number,
        kvk=kvk,
    )
    errors = [(_preview_label(dform, key), message) for key, message in preview.errors.items()]
    return PricePreview(which, preview, errors)


def _preview_label(dform: DiscountForm, key: str) -> str:
    """The label a preview error is shown under: the field's, as the forms name it."""
    if key.startswith(DiscountForm.LINE_PREFIX):
        return _("Line discount %(part)s (%%)") % {"part": key.removeprefix(DiscountForm.LINE_PREFIX)}
    if key in QuoteRequestForm.base_fields:
        return str(QuoteRequestForm.base_fields[key].label)
    return str(dform.fields["discount_percent"].label)
