"""The forms that answer a quote: the customer's acceptance (online, or recorded by a sales engineer on the
customer's behalf) and a decline with a reason. They check shape only; whether the quote can be answered is
quotes.services.quote_accept's and quote_decline's decision, whose field errors are tied back to these fields."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from typing import Any


class AcceptForm(forms.Form):
    """The customer accepts the quote: who (name, position, e-mail), their purchase order, and the terms ticked.
    ``on_behalf``: a sales engineer records it; the purchase order is then required and a note may be added."""

    prefix = "accept"

    name = forms.CharField(label=_("Your name"), max_length=200)
    position = forms.CharField(label=_("Position"), max_length=100, required=False)
    email = forms.EmailField(label=_("E-mail"), max_length=254)
    po_number = forms.CharField(label=_("Purchase order number"), max_length=64, required=False)
    note = forms.CharField(label=_("Note"), max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 2}))
    accept_terms = forms.BooleanField(
        label=_("I accept this quote and its terms and place the order on behalf of the customer."),
        error_messages={"required": _("Accept the quote's terms to place the order.")},
    )

    def __init__(self, *args: Any, on_behalf: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.label_suffix = ""
        if on_behalf:
            self.fields["name"].label = _("Name of the customer's signatory")
            self.fields["email"].label = _("Their e-mail")
            self.fields["po_number"].required = True
            self.fields["accept_terms"].label = _("The customer accepted this quote and its terms.")
        else:
            del self.fields["note"]

    def answer(self) -> dict:
        return {key: self.cleaned_data.get(key, "") for key in ("name", "position", "email", "po_number", "note")} | {
            "accept_terms": self.cleaned_data["accept_terms"]
        }


class DeclineForm(forms.Form):
    """The customer declines the quote, with a reason."""

    prefix = "decline"

    reason = forms.CharField(label=_("Why do you decline?"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.label_suffix = ""


def tie_errors(form: forms.Form, errors: dict[str, str]) -> None:
    """A service's field errors (QuoteError) on the form's fields; the rest on the form."""
    for key, message in errors.items():
        form.add_error(key if key in form.fields else None, message)
