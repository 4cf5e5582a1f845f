"""Forms of the wizard, the dashboard and the quote request.

Forms check shape only (numbers in range, a part number that exists in the catalogue); whether a part *fits*
is the engines' call and comes back as a finding. Choices are built from the catalogue view, so a new part
needs a catalogue row, not a code change.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import formats, translation
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from configurator.models import Configuration
from configurator.selectors import fabric_switches
from design.contract import (
    DEFAULT_PDU_FEEDS,
    DEFAULT_TOPOLOGY,
    MAX_CONCURRENCY,
    MAX_CONTEXT_TOKENS,
    MAX_DISTANCE_M,
    MAX_NODES,
    MAX_NODES_PER_RACK,
    MAX_RACK_POWER_KW,
    MAX_SUPPORT_YEARS,
    MAX_TARGET_DAYS,
    MAX_TRAINING_TOKENS_BILLION,
    Topology,
    parse_oversubscription,
)
from design.specs import AdapterSpec, CpuSpec, DriveSpec, GpuSpec, MemorySpec, ServerSpec
from design.vocabulary import DEFAULT_CONTEXT_TOKENS, FULL_TRAINING_MODES
from messages.diagram import TOPOLOGIES as TOPOLOGY_LABELS
from quotes.countries import offered_country_names
from quotes.models import Quote
from quotes.selectors import QUOTE_SORTS, UNASSIGNED
from quotes.services import customer_of
from web.widgets import FastSelect

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from engines.catalog_view import CatalogView  # a view the services hand over; the forms list its parts
    from quotes.actors import RequestUser

MAX_PER_NODE = 64
MAX_PARAMS_BILLION = 100_000
# The ratios the wizard offers. The engine accepts any d:u with d >= u >= 1; a design that has another one
# (from the API) keeps it as an extra choice (FabricForm), so a save from the wizard does not reset it.
OVERSUBSCRIPTIONS = ("1:1", "2:1", "3:1", "4:1")


class Form(forms.Form):
    """Labels without a trailing colon (they sit above the field)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def choice(self, name: str) -> forms.ChoiceField:
        """The choice field ``name`` (its choices are set from the catalogue or the design)."""
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        return field

    def cleaned(self) -> dict[str, Any]:
        """Form.clean's answer: the cleaned data, to complete in a form's own clean."""
        super().clean()
        return self.cleaned_data


def _parts(catalog: CatalogView, kind: type) -> list:
    return sorted(catalog.of_type(kind), key=lambda p: p.part_number)


def _optional_count(label: StrOrPromise, high: int, help_text: StrOrPromise) -> forms.IntegerField:
    """A count the user may leave empty (then it is sized or defaulted for them)."""
    return forms.IntegerField(label=label, required=False, min_value=1, max_value=high, help_text=help_text)


def _optional_figure(label: StrOrPromise, high: float, help_text: StrOrPromise) -> forms.FloatField:
    """A figure above 0 the user may leave empty (GoalForm refuses 0 and below)."""
    widget = forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"})
    return forms.FloatField(label=label, required=False, max_value=high, help_text=help_text, widget=widget)


class GoalForm(Form):
    kind = forms.ChoiceField(
        label=_("Workload"),
        choices=[("training", _("Training")), ("inference", _("Inference"))],
        widget=forms.RadioSelect,
        initial="training",
    )
    params_billion = forms.DecimalField(
        label=_("Model size (billions of parameters)"),
        min_value=0.1,
        max_value=MAX_PARAMS_BILLION,
        decimal_places=1,
        max_digits=8,
        help_text=_("For example 8 for Llama 3 8B, 70 for Llama 3 70B, 405 for Llama 3.1 405B."),
        widget=forms.NumberInput(attrs={"step": "0.1", "inputmode": "decimal"}),
    )
    gpus = _optional_count(_("Number of GPUs (optional)"), MAX_NODES, _("Leave empty and we size it for you."))
    nodes = _optional_count(_("Number of servers (optional)"), MAX_NODES, _("Leave empty and we size it for you."))
    # What the training does (inference has one mode); shown for training only.
    mode = forms.ChoiceField(
        label=_("Training mode"),
        choices=[
            ("pretraining", _("Pre-training")),
            ("full-finetune", _("Full fine-tune")),
            ("lora", _("LoRA fine-tune")),
        ],
        widget=forms.RadioSelect,
        required=False,
        initial="pretraining",
        help_text=_("LoRA trains small adapters on frozen weights and needs far less memory than a full fine-tune."),
    )
    precision = forms.ChoiceField(
        label=_("Precision"),
        choices=[("bf16", "BF16"), ("fp8", "FP8"), ("int4", "INT4")],
        widget=forms.RadioSelect,
        required=False,
        initial="bf16",
        help_text=_("The weights' number format. INT4 is for inference and LoRA (QLoRA) only."),
    )
    # Training only: how much it trains on and by when (the time to train is estimated from them).
    training_tokens_billion = _optional_figure(
        _("Training tokens (billions, optional)"),
        MAX_TRAINING_TOKENS_BILLION,
        _("The tokens the model is trained on, for example 15,000 for Llama 3's 15 trillion."),
    )
    target_days = _optional_figure(
        _("Deadline (days, optional)"), MAX_TARGET_DAYS, _("The days the training run should take at most.")
    )
    # Inference only: what the KV cache has to hold.
    context_tokens = _optional_count(
        _("Context length (tokens, optional)"),
        MAX_CONTEXT_TOKENS,
        lazy(
            lambda: (
                gettext("Tokens per request held in the KV cache. Empty: %(tokens)s.")
                % {"tokens": formats.number_format(DEFAULT_CONTEXT_TOKENS, force_grouping=True)}
            ),
            str,
        )(),
    )
    concurrency = _optional_count(
        _("Concurrent requests (optional)"), MAX_CONCURRENCY, _("Requests served at the same time. Empty: 1.")
    )

    def _above_zero(self, name: str) -> float | None:
        value = self.cleaned_data.get(name)
        if value is not None and value <= 0:
            raise ValidationError(_("Enter a number above 0."), code="min_value")
        return value

    def clean_training_tokens_billion(self) -> float | None:
        return self._above_zero("training_tokens_billion")

    def clean_target_days(self) -> float | None:
        return self._above_zero("target_days")

    def clean(self) -> dict[str, Any]:
        data = self.cleaned()
        kind = data.get("kind")
        precision = data.get("precision") or "bf16"
        data["precision"] = precision
        if kind == "inference":
            # Inference has one mode; a training mode left in the form from before does not apply.
            data["mode"] = "inference"
            data["training_tokens_billion"] = data["target_days"] = None
        else:
            data["mode"] = data.get("mode") or "pretraining"
            data["context_tokens"] = data["concurrency"] = None
            if precision == "int4" and data["mode"] in FULL_TRAINING_MODES:
                self.add_error(
                    "precision",
                    _("INT4 is for inference and LoRA only: pre-training and full fine-tuning keep BF16 or FP8."),
                )
        return data


class PlatformForm(Form):
    nodes = forms.IntegerField(label=_("Number of servers (nodes)"), min_value=1, max_value=MAX_NODES)
    server = forms.ChoiceField(label=_("Server"), widget=forms.RadioSelect)
    gpu = forms.ChoiceField(label=_("GPU board or cards"), widget=forms.RadioSelect, required=False)
    gpu_quantity = forms.IntegerField(
        label=_("GPU cards per server"),
        min_value=1,
        max_value=MAX_PER_NODE,
        required=False,
        help_text=_("An HGX board counts as one; PCIe GPU cards count one by one."),
    )
    # The complete node: empty means the server's default part for the role (added by the service).
    cpu = forms.ChoiceField(label=_("CPUs"), required=False)
    memory = forms.ChoiceField(label=_("Memory (DIMMs)"), required=False)
    boot = forms.ChoiceField(label=_("Boot drive"), required=False)
    # The site (the design's facility): empty means the rack plan's stated default.
    rack_power_kw = forms.DecimalField(
        label=_("Rack power (kW)"),
        min_value=Decimal("0.1"),
        max_value=MAX_RACK_POWER_KW,
        decimal_places=1,
        required=False,
        help_text=_("The most one rack of your site may draw; empty: 30 kW air-cooled, 80 kW liquid-cooled."),
    )
    cooling = forms.ChoiceField(
        label=_("Cooling"),
        required=False,
        choices=[("", _("as the servers need")), ("air", _("air")), ("liquid", _("liquid"))],
    )
    pdu_feeds = forms.ChoiceField(
        label=_("Power feeds per rack"),
        choices=[("A+B", _("two feeds (A+B)")), ("A", _("one feed (A)"))],
        initial=DEFAULT_PDU_FEEDS,
        required=False,
    )

    def __init__(self, *args: Any, catalog: CatalogView, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choice("server").choices = [(s.part_number, s.part_number) for s in _parts(catalog, ServerSpec)]
        for role, kind in (("cpu", CpuSpec), ("memory", MemorySpec), ("boot", DriveSpec)):
            self.choice(role).choices = [("", "")] + [(p.part_number, p.part_number) for p in _parts(catalog, kind)]
        self.choice("gpu").choices = [("", _("No GPU"))] + [
            (g.part_number, g.part_number) for g in _parts(catalog, GpuSpec)
        ]
        self.catalog = catalog

    def clean(self) -> dict[str, Any]:
        data = self.cleaned()
        gpu = data.get("gpu")
        if gpu:
            spec = self.catalog.get(gpu)
            # An HGX board's quantity stays as entered (empty: one): more than one board per server is the
            # engine's GPU_TOO_MANY error, shown with its fix, not silently corrected here.
            if not (spec is not None and getattr(spec, "is_board", False)) and not data.get("gpu_quantity"):
                self.add_error("gpu_quantity", _("Give the number of GPU cards per server."))
        return data


class AdaptersForm(Form):
    compute_adapter = forms.ChoiceField(label=_("Compute adapter (GPU fabric)"), required=False, widget=FastSelect)
    compute_quantity = forms.IntegerField(
        label=_("Compute adapters per server"), min_value=0, max_value=MAX_PER_NODE, required=False
    )
    storage_adapter = forms.ChoiceField(label=_("Storage and in-band adapter"), required=False, widget=FastSelect)
    storage_quantity = forms.IntegerField(
        label=_("Storage adapters per server"), min_value=0, max_value=MAX_PER_NODE, required=False
    )

    def __init__(self, *args: Any, catalog: CatalogView, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("None"))] + [(a.part_number, adapter_label(a)) for a in _parts(catalog, AdapterSpec)]
        self.choice("compute_adapter").choices = choices
        self.choice("storage_adapter").choices = choices

    def clean(self) -> dict[str, Any]:
        data = self.cleaned()
        for role in ("compute", "storage"):
            part, qty = data.get(f"{role}_adapter"), data.get(f"{role}_quantity")
            if part and not qty:
                self.add_error(f"{role}_quantity", _("Give how many of this adapter each server gets, or choose None."))
            if not part:
                data[f"{role}_quantity"] = 0
        return data


def adapter_label(a: AdapterSpec) -> str:
    speed = f"{a.ports}× {a.speed_gbps} Gb/s" if a.speed_gbps else f"{a.ports}×"
    return f"{a.part_number} · {a.name} ({speed})"


def _positive_distance(value: Decimal | None) -> None:
    if value is not None and value <= 0:
        raise ValidationError(_("Enter a distance above 0 m."), code="min_value")


class DistanceField(forms.DecimalField):
    """A cable run in metres: above 0, at most design.contract.MAX_DISTANCE_M; optional."""

    default_validators = [_positive_distance]

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", MAX_DISTANCE_M)
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)


class FabricForm(Form):
    switch = forms.ChoiceField(label=_("Fabric switch"), widget=forms.RadioSelect, required=False)
    oversubscription = forms.ChoiceField(
        label=_("Oversubscription"),
        choices=[(o, o) for o in OVERSUBSCRIPTIONS],
        initial="1:1",
        widget=FastSelect,
        help_text=_("1:1 is non-blocking, as NVIDIA's reference architectures use for training."),
    )
    topology = forms.ChoiceField(
        label=_("Topology"),
        initial=DEFAULT_TOPOLOGY,
        choices=[(t.value, TOPOLOGY_LABELS[t.value]) for t in Topology],
        widget=FastSelect,
    )
    # The rack model's limits are the design's (design.contract), so the wizard accepts exactly what the
    # API and the command line accept.
    nodes_per_rack = forms.IntegerField(
        label=_("Servers per rack"),
        min_value=1,
        max_value=MAX_NODES_PER_RACK,
        required=False,
        help_text=_("Empty: from the server height and power."),
    )
    in_rack_m = DistanceField(label=_("Cable run within a rack (m)"))
    node_to_leaf_m = DistanceField(label=_("Server rack to leaf switch (m)"))
    leaf_to_spine_m = DistanceField(label=_("Leaf to spine switch (m)"))

    def __init__(self, *args: Any, catalog: CatalogView, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choice("switch").choices = [("", _("No compute fabric (single server)"))] + [
            (s.part_number, s.part_number) for s in fabric_switches(catalog)
        ]
        # The design's own ratio stays selectable when the list does not offer it (8:1 from the API), so the
        # form shows it selected and saving keeps it. Only ratios the engine accepts are added.
        current = self["oversubscription"].value()
        if isinstance(current, str) and current not in OVERSUBSCRIPTIONS and _valid_ratio(current):
            field = self.choice("oversubscription")
            field.choices = [*((o, o) for o in OVERSUBSCRIPTIONS), (current, current)]


def _valid_ratio(value: str) -> bool:
    try:
        parse_oversubscription(value)
    except ValueError:
        return False
    return True


class SiteForm(Form):
    """The review step's questions: what the site already has (the offer leaves it out: ``facility.supplied``)
    and which services the offer carries (``services``)."""

    supplied = forms.MultipleChoiceField(
        label=_("What the site already has"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[
            ("racks", _("Racks")),
            ("power", _("Power: PDUs and power cords")),
            ("oob", _("A management network (out-of-band switches and cables)")),
            ("control_plane", _("A control plane (head and management nodes)")),
        ],
        help_text=_("What you tick is left out of the offer; the rack plan still shows where every part goes."),
    )
    support_years = forms.TypedChoiceField(label=_("Hardware warranty and support"), coerce=int)
    installation = forms.BooleanField(label=_("Installation and rack integration"), required=False)
    ai_enterprise = forms.BooleanField(label=_("NVIDIA AI Enterprise for every GPU"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        years = [(n, ngettext("%(n)s year", "%(n)s years", n) % {"n": n}) for n in range(1, MAX_SUPPORT_YEARS + 1)]
        self.choice("support_years").choices = [(0, gettext("none"))] + years


class AcknowledgeForm(Form):
    code = forms.CharField(max_length=64, widget=forms.HiddenInput)
    subject = forms.CharField(max_length=200, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason for accepting this warning"), max_length=1000, widget=forms.Textarea(attrs={"rows": 2})
    )


# The quote form's countries and their names: quotes.countries (django-countries' names; the offer prints them too).


def _sort_key(name: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


def country_choices() -> list[tuple[str, str]]:
    """(code, name) in the active language, sorted by name, the Netherlands first. Called at each render."""
    return list(_country_choices(translation.get_language() or settings.LANGUAGE_CODE))


@functools.lru_cache(maxsize=8)
def _country_choices(language: str) -> tuple[tuple[str, str], ...]:
    with translation.override(language):
        named = offered_country_names()
    return tuple(sorted(named, key=lambda c: (c[0] != "NL", _sort_key(c[1]))))


class QuoteRequestForm(Form):
    name = forms.CharField(label=_("Your name"), max_length=200, widget=forms.TextInput(attrs={"autocomplete": "name"}))
    company = forms.CharField(
        label=_("Company"), max_length=200, widget=forms.TextInput(attrs={"autocomplete": "organization"})
    )
    email = forms.EmailField(
        label=_("E-mail"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    country = forms.ChoiceField(
        label=_("Country"),
        choices=country_choices,
        initial="NL",
        widget=FastSelect(attrs={"autocomplete": "country"}),
    )
    vat_number = forms.CharField(
        label=_("VAT number"),
        max_length=20,
        required=False,
        help_text=_("For example NL000099998B57. Needed for reverse-charged EU deliveries."),
    )
    kvk_number = forms.CharField(
        label=_("KvK number"),
        max_length=12,
        required=False,
        help_text=_("Dutch companies: the 8-digit Chamber of Commerce number. It applies your price agreement."),
    )
    street = forms.CharField(
        label=_("Street and number"), max_length=200, widget=forms.TextInput(attrs={"autocomplete": "address-line1"})
    )
    postal_code = forms.CharField(
        label=_("Postal code"), max_length=16, widget=forms.TextInput(attrs={"autocomplete": "postal-code"})
    )
    city = forms.CharField(
        label=_("City"), max_length=100, widget=forms.TextInput(attrs={"autocomplete": "address-level2"})
    )

    def __init__(self, *args: Any, for_staff: bool = False, **kwargs: Any) -> None:
        """``for_staff``: a sales engineer fills it in for a customer, so the labels speak of the customer."""
        super().__init__(*args, **kwargs)
        if for_staff:
            self.fields["name"].label = _("Customer's name")
            self.fields["email"].label = _("Customer's e-mail")
            for field in self.fields.values():
                field.widget.attrs.pop("autocomplete", None)  # the customer's details, not the engineer's own

    def customer(self) -> dict[str, Any]:
        """The cleaned customer as the quote services take it (its address nested)."""
        d = self.cleaned_data
        return {
            **{k: d[k] for k in ("name", "company", "email", "country", "vat_number", "kvk_number")},
            "address": {k: d[k] for k in ("street", "postal_code", "city")},
        }

    @staticmethod
    def initial_of(quote: Quote) -> dict[str, str]:
        """The form's fields filled in with the customer ``quote`` was made for (the services' ``customer_of``,
        under the form's field names)."""
        return {_FORM_FIELDS.get(key, key): value for key, value in customer_of(quote).items()}


# The form's name of each field of quotes.services.customer_of that it names otherwise.
_FORM_FIELDS = {
    "kvk": "kvk_number",
    "address_street": "street",
    "address_postal_code": "postal_code",
    "address_city": "city",
}


class DashboardFilterForm(Form):
    """The sales dashboard's search, filters and sort; every value is in the URL (GET), so a view can be shared."""

    q = forms.CharField(
        label=_("Search"),
        required=False,
        max_length=200,
        help_text=_("Quote number, customer's name or e-mail, or company"),
        widget=forms.TextInput(attrs={"type": "search"}),
    )
    status = forms.ChoiceField(
        label=_("Design status"),
        required=False,
        choices=[("", _("Any status"))] + list(Configuration.Status.choices),
        widget=FastSelect,
    )
    quote_status = forms.ChoiceField(
        label=_("Quote status"), required=False, choices=lambda: _quote_statuses(), widget=FastSelect
    )
    owner = forms.ChoiceField(label=_("Handled by"), required=False, widget=FastSelect)
    date_from = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    sort = forms.ChoiceField(required=False, choices=lambda: _sorts(), widget=forms.HiddenInput)

    MINE = "mine"

    def __init__(self, data: Any = None, *args: Any, owners: Sequence[tuple[int, str]] = (), **kwargs: Any) -> None:
        """``owners``: (user id, name) of the staff users a design can be handled by."""
        if data is not None and "customer" in data and "q" not in data:  # links from before the search box
            data = data.copy()
            data["q"] = data.pop("customer")[-1]
        super().__init__(data, *args, **kwargs)
        self.choice("owner").choices = [
            ("", _("Anyone")),
            (self.MINE, _("Me")),
            (UNASSIGNED, _("Nobody yet")),
            *((str(pk), name) for pk, name in owners),
        ]

    def owner_filter(self, user: RequestUser) -> int | str | None:
        """The owner to filter by: a user id, quote_selectors.UNASSIGNED, or None for anyone."""
        value = self.cleaned_data.get("owner") if self.is_bound and not self.errors.get("owner") else ""
        if value == self.MINE:
            return user.pk
        return value if value == UNASSIGNED else (int(value) if value else None)


def _sorts() -> list[tuple[str, str]]:
    return [(f"{sign}{key}", f"{sign}{key}") for key in QUOTE_SORTS for sign in ("", "-")]


def _quote_statuses() -> list:
    return [("", _("Any status"))] + list(Quote.Status.choices)


class DiscountForm(Form):
    """A sales engineer's discounts for a quote request or a new revision: the quote discount and one optional
    discount per part number of the bill of materials (field ``line_discounts.<part>``, the key quotes.services
    reports errors under). Only shape is checked here; quotes.services checks the range and the approval rule."""

    discount_percent = forms.CharField(
        label=_("Quote discount (%)"),
        required=False,
        max_length=20,
        help_text=_("Above %(threshold)s%% the quote waits for approval."),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 6}),
    )

    LINE_PREFIX = "line_discounts."

    def __init__(
        self,
        *args: Any,
        parts: Sequence[tuple[str, str]] = (),
        threshold: Decimal | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        help_text = self.fields["discount_percent"].help_text
        self.fields["discount_percent"].help_text = help_text % {"threshold": threshold} if threshold else ""
        for part, description in parts:
            self.fields[f"{self.LINE_PREFIX}{part}"] = forms.CharField(
                label=part,
                required=False,
                max_length=20,
                help_text=description,
                widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 6}),
            )

    def line_fields(self) -> list:
        return [self[name] for name in self.fields if name.startswith(self.LINE_PREFIX)]

    @property
    def lines_open(self) -> bool:
        """Show the line inputs unfolded when one has a value or an error."""
        return any(f.errors or f.value() for f in self.line_fields())

    def discounts(self) -> tuple[str, dict[str, str]]:
        """(quote discount, {part: line discount}) as typed; empty line inputs are left out."""
        data = self.cleaned_data
        lines = {
            name.removeprefix(self.LINE_PREFIX): value.strip()
            for name, value in data.items()
            if name.startswith(self.LINE_PREFIX) and value and value.strip()
        }
        return (data.get("discount_percent") or "").strip(), lines


class QuoteFindForm(forms.Form):
    """A customer back on another device asks for the design's quote: the e-mail address it was requested with
    (quotes.services.quote_send_open_link e-mails that address a link that opens the quote here)."""

    find_email = forms.EmailField(
        label=_("E-mail address the quote was requested with"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
