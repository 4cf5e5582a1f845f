"""Quotes in the admin: readable, never edited by hand.

Every field is read-only and saving the change form writes nothing: status, discounts and amounts change only
through quotes.services, so the approval rule cannot be bypassed here. Issuing, approving and rebuilding are
admin actions that call the services: approving needs ``quotes.approve_quote`` and issuing ``quotes.issue_quote``
(the services check both again); rebuilding the documents needs ``quotes.change_quote``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from catalog.models import CATEGORY_CHOICES

from . import services
from .kvk import clean_kvk
from .models import AgreementDiscount, PriceAgreement, Quote, QuoteDecision
from .services.agreements import clean_agreement_vat

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from django.db.models import Model, QuerySet
    from django.http import HttpRequest


class QuoteDecisionInline(admin.StackedInline):
    """The customer's answer (accepted or declined), read-only: it is recorded through quotes.services only."""

    model = QuoteDecision
    can_delete = False
    extra = 0
    exclude = ["confirmation_claimed_at"]

    def get_readonly_fields(self, request: HttpRequest, obj: Model | None = None) -> list[str]:
        return [f.name for f in QuoteDecision._meta.fields if f.name not in ("id", "quote", "confirmation_claimed_at")]

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Quote)
class QuoteAdmin(admin.ModelAdmin):
    inlines = [QuoteDecisionInline]
    list_display = [
        "number",
        "status_badge",
        "customer_name",
        "customer_company",
        "total",
        "doc_status",
        "valid_until",
        "created_at",
    ]
    list_filter = ["status", "doc_status", "customer_country", "channel"]
    search_fields = ["number", "customer_name", "customer_company", "customer_email", "crm_reference"]
    date_hierarchy = "created_at"
    actions = ["approve_selected", "issue_selected", "rebuild_documents"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "number",
                    "revision",
                    "status",
                    "configuration",
                    "expansion_of",
                    "channel",
                    "crm_reference",
                    "language",
                    "created_by",
                    "discount_set_by",
                    "approved_by",
                    "approved_at",
                    "issued_at",
                    "valid_until",
                    "links",
                ]
            },
        ),
        (
            _("Customer"),
            {
                "fields": [
                    "customer_name",
                    "customer_company",
                    "customer_email",
                    "customer_country",
                    "customer_vat_number",
                    "customer_kvk",
                ]
            },
        ),
        (
            _("Amounts (EUR)"),
            {
                "fields": [
                    "discount_percent",
                    "line_discounts",
                    "subtotal",
                    "discount",
                    "net",
                    "vat_category",
                    "vat_rate",
                    "vat_amount",
                    "total",
                    "vat_notice",
                    "margin_eur",
                    "margin_percent",
                    "approval_reasons",
                ]
            },
        ),
        (
            _("Documents"),
            {
                "fields": [
                    "doc_status",
                    "progress",
                    "failure_message",
                    "build_attempts",
                    "claimed_at",
                    "enqueued_at",
                    "emailed_at",
                    "pdf",
                    "xlsx",
                ]
            },
        ),
        (_("Snapshot"), {"classes": ["collapse"], "fields": ["frozen"]}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Quote]:
        # The list shows columns only; the change page loads the snapshot when it shows it.
        return super().get_queryset(request).defer("frozen")

    def get_readonly_fields(self, request: HttpRequest, obj: Quote | None = None) -> list[str]:
        return [f.name for f in Quote._meta.fields] + ["links"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # quotes come from a validated design through quotes.services.quote_request

    def has_delete_permission(self, request: HttpRequest, obj: Quote | None = None) -> bool:
        return False  # an issued quote is a business record

    def save_model(self, request: HttpRequest, obj: Quote, form: Any, change: bool) -> None:
        """Nothing on the form is editable; never write the (possibly stale) row back over the services."""

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        pass

    @admin.display(description=_("status"), ordering="status")
    def status_badge(self, obj: Quote) -> str:
        return obj.display_status

    @admin.display(description=_("links"))
    def links(self, obj: Quote) -> str:
        if obj.pk is None:
            return ""
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">PDF</a> · <a href="{}">XLSX</a>',
            reverse("quotes:status", args=[obj.token]),
            _("customer page"),
            reverse("quotes:staff_pdf", args=[obj.pk]),
            reverse("quotes:staff_xlsx", args=[obj.pk]),
        )

    def _run(self, request: HttpRequest, queryset: QuerySet[Quote], service: Callable[..., Quote], done: str) -> None:
        for quote in queryset:
            try:
                service(quote=quote, user=request.user)
            except PermissionDenied as exc:
                self.message_user(request, f"{quote.number}: {exc}", messages.ERROR)
            except services.QuoteError as exc:
                self.message_user(request, f"{quote.number}: {'; '.join(exc.errors.values())}", messages.ERROR)
            else:
                self.message_user(request, f"{quote.number}: {done}", messages.SUCCESS)

    @admin.action(description=_("Approve the discount and issue"), permissions=["approve"])
    def approve_selected(self, request: HttpRequest, queryset: QuerySet[Quote]) -> None:
        self._run(request, queryset, services.quote_approve, str(_("approved")))

    def has_approve_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("quotes.approve_quote")

    @admin.action(description=_("Issue (warnings accepted)"), permissions=["issue"])
    def issue_selected(self, request: HttpRequest, queryset: QuerySet[Quote]) -> None:
        self._run(request, queryset, services.quote_issue, str(_("issued")))

    def has_issue_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("quotes.issue_quote")

    @admin.action(description=_("Rebuild the documents from the snapshot"), permissions=["rebuild"])
    def rebuild_documents(self, request: HttpRequest, queryset: QuerySet[Quote]) -> None:
        for quote in queryset:
            try:
                services.quote_documents_rebuild(quote=quote)
            except services.QuoteError as exc:
                self.message_user(request, f"{quote.number}: {'; '.join(exc.errors.values())}", messages.ERROR)
        self.message_user(request, _("Rebuild requested."), messages.INFO)

    def has_rebuild_permission(self, request: HttpRequest) -> bool:
        # Rebuilding renders the frozen snapshot again and changes no business data: ``quotes.change_quote``.
        return request.user.has_perm("quotes.change_quote")


class PriceAgreementForm(forms.ModelForm):
    """The admin's form: the VAT and KvK numbers as quotes.services.agreements cleans them (compact VAT number
    with its country prefix; 8-digit KvK number)."""

    class Meta:
        model = PriceAgreement
        fields = ["company", "vat_number", "kvk_number", "payment_days", "reference", "is_active"]

    def clean_vat_number(self) -> str:
        try:
            return clean_agreement_vat(self.cleaned_data.get("vat_number"))
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean_kvk_number(self) -> str:
        try:
            return clean_kvk(self.cleaned_data.get("kvk_number"))
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None


class AgreementDiscountForm(forms.ModelForm):
    category = forms.ChoiceField(label=_("category"), choices=CATEGORY_CHOICES)

    class Meta:
        model = AgreementDiscount
        fields = ["category", "discount_percent"]


class AgreementDiscountInline(admin.TabularInline):
    model = AgreementDiscount
    form = AgreementDiscountForm
    extra = 1


@admin.register(PriceAgreement)
class PriceAgreementAdmin(admin.ModelAdmin):
    """Staff keep each customer company's agreed discounts per catalogue category and payment term; a quote for a
    customer with the agreement's VAT or KvK number applies them (quotes.services.agreements)."""

    form = PriceAgreementForm
    inlines = [AgreementDiscountInline]
    list_display = ["company", "vat_number", "kvk_number", "payment_days", "is_active", "updated_at"]
    list_filter = ["is_active"]
    search_fields = ["company", "vat_number", "kvk_number", "reference"]
