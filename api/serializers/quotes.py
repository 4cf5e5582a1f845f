"""Quotes as the API shows them, and the bodies that request and revise them."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request

from configurator.models import Configuration
from quotes.diff import Change
from quotes.models import Quote, QuoteDecision

from .common import PERCENT, LanguageField
from .configurations import DesignDocumentField
from .expansions import ExpansionInputSerializer


class AddressSerializer(serializers.Serializer):
    street = serializers.CharField(max_length=200, help_text="Street and house number.")
    postal_code = serializers.CharField(max_length=16)
    city = serializers.CharField(max_length=100)


class CustomerSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    company = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    email = serializers.EmailField(max_length=254)
    country = serializers.CharField(max_length=2, min_length=2, help_text="ISO 3166 alpha-2, e.g. NL, DE, US.")
    vat_number = serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        default="",
        help_text="EU VAT number (business customers; decides reverse charge).",
    )
    kvk_number = serializers.CharField(
        max_length=12,
        required=False,
        allow_blank=True,
        default="",
        help_text="A Dutch company's KvK number (8 digits); with the VAT number it finds the customer's price "
        "agreement.",
    )
    address = AddressSerializer(
        required=False,
        allow_null=True,
        help_text="Billing address, printed on the offer. Optional: without it the offer says the billing address "
        "is to be confirmed.",
    )


class QuoteRequestSerializer(serializers.Serializer):
    configuration = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**63 - 1,
        help_text="Id of one of this client's configurations; or give `design`.",
    )
    design = DesignDocumentField(
        required=False,
        help_text="An inline design/v1 document (stored as a new "
        "configuration of this client); or give `configuration`.",
    )
    customer = CustomerSerializer()
    crm_reference = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    language = LanguageField(required=False, help_text="Language of the quote; default from the request.")
    discount_percent = serializers.DecimalField(
        required=False,
        allow_null=True,
        **PERCENT,
        help_text="Above the approval threshold the quote waits for approval.",
    )
    line_discounts = serializers.DictField(
        child=serializers.DecimalField(**PERCENT),
        required=False,
        allow_null=True,
        help_text="Part number → discount percentage.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("configuration" in attrs) == ("design" in attrs):
            raise serializers.ValidationError(
                {"configuration": "Give either configuration (an id) or design (a document), not both and not neither."}
            )
        return attrs


class QuoteReviseSerializer(serializers.Serializer):
    discount_percent = serializers.DecimalField(required=False, allow_null=True, **PERCENT)
    line_discounts = serializers.DictField(child=serializers.DecimalField(**PERCENT), required=False, allow_null=True)
    configuration = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**63 - 1,
        help_text="Another (e.g. changed) configuration of this client.",
    )


class QuoteAcceptSerializer(serializers.Serializer):
    """The customer's acceptance of an issued quote (an order), as a CRM records it."""

    name = serializers.CharField(max_length=200, help_text="Who accepts, on behalf of the customer.")
    email = serializers.EmailField(max_length=254, help_text="Their e-mail; the order confirmation is sent there.")
    position = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    po_number = serializers.CharField(
        max_length=64, required=False, allow_blank=True, default="", help_text="The customer's purchase order number."
    )
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    accept_terms = serializers.BooleanField(help_text="Must be true: the customer accepts the quote's terms.")

    def validate_accept_terms(self, value: bool) -> bool:
        if value is not True:
            raise serializers.ValidationError("Accept the quote's terms (true) to place the order.")
        return value


class QuoteDeclineSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=2000, help_text="Why the customer declines the quote.")
    name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    email = serializers.EmailField(max_length=254, required=False, allow_blank=True, default="")


class QuoteDecisionSerializer(serializers.Serializer):
    """The customer's answer to the quote: accepted (an order) or declined."""

    outcome = serializers.ChoiceField(choices=["accepted", "declined"])
    channel = serializers.ChoiceField(
        choices=["customer", "staff", "api"],
        help_text="customer: online (signed link or quote page); staff: a sales engineer on the customer's behalf; "
        "api: a CRM.",
    )
    name = serializers.CharField(allow_blank=True)
    position = serializers.CharField(allow_blank=True)
    email = serializers.CharField(allow_blank=True)
    po_number = serializers.CharField(allow_blank=True)
    reason = serializers.CharField(allow_blank=True, help_text="Why it was declined.")
    decided_at = serializers.DateTimeField()
    order_confirmation_status = serializers.CharField(
        source="confirmation_status",
        allow_blank=True,
        help_text="pending, building, ready or failed; empty for a declined quote.",
    )
    order_confirmation_url = serializers.SerializerMethodField(
        help_text="The order confirmation (PDF) of an accepted quote; 409 until it is ready. Null when declined."
    )

    def get_order_confirmation_url(self, decision: QuoteDecision) -> str | None:
        if decision.outcome != "accepted":
            return None
        path = reverse("api:quote-order-confirmation-pdf", args=[decision.quote_id])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path


class _ChangeSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="What changed: a line's `quantity`, `unit_price`, … or a total's name.")
    before = serializers.CharField(allow_null=True, help_text="In revision a (amounts in EUR as text); null: none.")
    after = serializers.CharField(allow_null=True, help_text="In revision b.")

    def to_representation(self, instance: dict[str, Any] | Change) -> dict[str, Any]:
        data = super().to_representation(instance)
        for key in ("before", "after"):  # a quantity stays a number
            value = instance[key] if isinstance(instance, dict) else getattr(instance, key)
            if isinstance(value, int):
                data[key] = value
        return data


class _LineValuesSerializer(serializers.Serializer):
    quantity = serializers.IntegerField()
    unit_price = serializers.CharField(allow_null=True)
    line_discount_percent = serializers.CharField(allow_null=True)
    quote_discount_percent = serializers.CharField(allow_null=True)
    net = serializers.CharField(allow_null=True)


class _LineDiffSerializer(serializers.Serializer):
    section = serializers.CharField()
    group = serializers.CharField(allow_null=True)
    part_number = serializers.CharField(allow_blank=True)
    description = serializers.CharField(allow_blank=True)
    before = _LineValuesSerializer(allow_null=True, help_text="The line in revision a; null when added.")
    after = _LineValuesSerializer(allow_null=True, help_text="The line in revision b; null when removed.")
    changes = _ChangeSerializer(many=True)


class _FindingDiffSerializer(serializers.Serializer):
    code = serializers.CharField()
    subject = serializers.CharField(allow_blank=True)
    severity = serializers.CharField(allow_blank=True)
    message = serializers.CharField(allow_blank=True)


class QuoteRevisionDiffSerializer(serializers.Serializer):
    """What changed from revision ``a`` to revision ``b`` of one quote number."""

    number = serializers.CharField()
    a = serializers.IntegerField()
    b = serializers.IntegerField()
    added = _LineDiffSerializer(many=True)
    removed = _LineDiffSerializer(many=True)
    changed = _LineDiffSerializer(
        many=True, help_text="Lines in both revisions whose quantity, price or discount changed."
    )
    discounts = _ChangeSerializer(many=True, help_text="`discount_percent` and `line_discounts.<part>` changes.")
    totals = _ChangeSerializer(many=True, help_text="`subtotal`, `discount`, `net`, `vat_amount`, `total` changes.")
    findings_added = _FindingDiffSerializer(many=True)
    findings_removed = _FindingDiffSerializer(many=True)
    design_changed = serializers.BooleanField(help_text="The quoted design itself changed (its design hash).")


class QuoteAgreementSerializer(serializers.Serializer):
    """The customer's price agreement as the quote was priced with it (frozen with the quote)."""

    id = serializers.IntegerField()
    company = serializers.CharField()
    reference = serializers.CharField(allow_blank=True)
    payment_days = serializers.IntegerField(allow_null=True, help_text="Null: the standard payment term.")
    discounts = serializers.DictField(child=serializers.CharField(), help_text="Catalogue category → agreed %.")
    applied = serializers.DictField(
        child=serializers.CharField(), help_text="Part number → the agreed % on its lines of this quote."
    )


class TotalsSerializer(serializers.Serializer):
    currency = serializers.CharField()
    subtotal = serializers.DecimalField(max_digits=14, decimal_places=2, help_text="List value.")
    discount = serializers.DecimalField(max_digits=14, decimal_places=2)
    net = serializers.DecimalField(max_digits=14, decimal_places=2, help_text="Excl. VAT.")
    vat_rate = serializers.DecimalField(max_digits=5, decimal_places=2)
    vat_amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    total = serializers.DecimalField(max_digits=14, decimal_places=2, help_text="Incl. VAT.")
    vat_notice = serializers.CharField(allow_blank=True)
    at_least = serializers.BooleanField(
        help_text="True when a line is priced on request: every amount leaves it out and is a lower bound."
    )


class QuoteCustomerOutSerializer(serializers.Serializer):
    name = serializers.CharField(source="customer_name")
    company = serializers.CharField(source="customer_company")
    email = serializers.CharField(source="customer_email")
    country = serializers.CharField(source="customer_country")
    vat_number = serializers.CharField(source="customer_vat_number")
    kvk_number = serializers.CharField(source="customer_kvk")
    address = serializers.SerializerMethodField()

    @extend_schema_field(AddressSerializer(allow_null=True))
    def get_address(self, quote: Quote) -> dict[str, str] | None:
        if not quote.customer_street:
            return None
        return {"street": quote.customer_street, "postal_code": quote.customer_postal_code, "city": quote.customer_city}


def sees_cost(request: Request | None) -> bool:
    """Whether the API client of ``request`` acts as an active staff user: only such a client sees a quote's margin
    (cost and margin never reach a customer, nor a CRM client without a staff user)."""
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated and user.is_active and user.is_staff)


class _QuoteLinks(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()

    def _abs(self, name: str, pk: int) -> str:
        path = reverse(name, args=[pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def get_url(self, quote: Quote) -> str:
        return self._abs("api:quote-detail", quote.pk)


EXPANSION_OF_HELP = (
    "An expansion quote's original: the number of the won or issued quote whose installed cluster it grows (its lines "
    "are what the growth adds); null for any other quote."
)


class QuoteAcceptedSerializer(_QuoteLinks):
    """The answer to a quote request or revision (202): the quote exists; documents follow."""

    class Meta:
        model = Quote
        fields = ["id", "number", "revision", "status", "doc_status", "url"]


class ExpansionQuoteSerializer(QuoteAcceptedSerializer):
    """The answer to an expansion quote's request (201): the quote exists, refers to its original; documents
    follow."""

    expansion_of: serializers.SlugRelatedField[Quote] = serializers.SlugRelatedField(
        slug_field="number", read_only=True, help_text=EXPANSION_OF_HELP
    )

    class Meta(QuoteAcceptedSerializer.Meta):
        fields = [*QuoteAcceptedSerializer.Meta.fields, "expansion_of"]


EXPANSION_OF_BUILT_HELP = (
    "An expansion quote of a configuration marked as built: that configuration's id (its design is the installed "
    "cluster the quote grows); null for any other quote."
)


class BuiltExpansionQuoteInputSerializer(ExpansionInputSerializer):
    """The body of a built configuration's expansion quote request: the growth (as the expansion plan reads it) and
    the customer the quote is for."""

    customer = CustomerSerializer()
    language = LanguageField(required=False, help_text="Language of the quote; default: the configuration's.")


class BuiltExpansionQuoteSerializer(QuoteAcceptedSerializer):
    """The answer to a built configuration's expansion quote request (201): the quote exists and refers to the
    built configuration; documents follow."""

    expansion_of_built: serializers.PrimaryKeyRelatedField[Configuration] = serializers.PrimaryKeyRelatedField(
        read_only=True, help_text=EXPANSION_OF_BUILT_HELP
    )

    class Meta(QuoteAcceptedSerializer.Meta):
        fields = [*QuoteAcceptedSerializer.Meta.fields, "expansion_of_built"]


class QuoteSerializer(_QuoteLinks):
    is_expired = serializers.BooleanField(read_only=True)
    totals = serializers.SerializerMethodField()
    customer = QuoteCustomerOutSerializer(source="*", read_only=True)
    document_url = serializers.SerializerMethodField(help_text="The PDF; 409 until doc_status is ready.")
    bom_url = serializers.SerializerMethodField(help_text="The bill of materials (xlsx); 409 until ready.")
    failure_message = serializers.CharField(allow_blank=True, help_text="Why the documents failed, if they did.")
    decision = serializers.SerializerMethodField(
        help_text="The customer's answer (status accepted or declined); null while the quote is unanswered."
    )
    agreement = serializers.SerializerMethodField(
        help_text="The customer's price agreement the quote was priced with: `company`, `reference`, `discounts` "
        "(category → %), `payment_days` and `applied` (part number → the agreed % on its lines); null when none."
    )
    margin_eur = serializers.DecimalField(
        max_digits=14,
        decimal_places=2,
        read_only=True,
        allow_null=True,
        required=False,
        help_text="Staff only: present only for an API client that acts as an active staff user. Net less the parts' "
        "purchase prices, over the lines whose purchase price is known; null when none is.",
    )
    margin_percent = serializers.DecimalField(
        max_digits=9,
        decimal_places=2,
        read_only=True,
        allow_null=True,
        required=False,
        help_text="Staff only, as margin_eur: the margin as a percentage of the net amount it is taken over.",
    )
    expansion_of: serializers.SlugRelatedField[Quote] = serializers.SlugRelatedField(
        slug_field="number", read_only=True, allow_null=True, help_text=EXPANSION_OF_HELP
    )
    expansion_of_built: serializers.PrimaryKeyRelatedField[Configuration] = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True, help_text=EXPANSION_OF_BUILT_HELP
    )
    review_reason = serializers.CharField(
        allow_blank=True,
        help_text="Why a quote awaiting review waits: warnings (not yet accepted), on_request (a line without a list"
        " price), zero_net (nothing to pay), amount (above the instant-quote limit); empty otherwise.",
    )

    class Meta:
        model = Quote
        fields = [
            "id",
            "number",
            "revision",
            "status",
            "review_reason",
            "is_expired",
            "doc_status",
            "progress",
            "failure_message",
            "totals",
            "crm_reference",
            "configuration",
            "customer",
            "language",
            "discount_percent",
            "line_discounts",
            "issued_at",
            "valid_until",
            "approved_at",
            "created_at",
            "updated_at",
            "url",
            "document_url",
            "bom_url",
            "decision",
            "agreement",
            "margin_eur",
            "margin_percent",
            "expansion_of",
            "expansion_of_built",
        ]
        read_only_fields = fields

    STAFF_ONLY = ("margin_eur", "margin_percent")

    def to_representation(self, instance: Quote) -> dict[str, Any]:
        data = super().to_representation(instance)
        if not sees_cost(self.context.get("request")):
            for key in self.STAFF_ONLY:  # cost and margin never reach a client that does not act as staff
                data.pop(key, None)
        return data

    @extend_schema_field(QuoteAgreementSerializer(allow_null=True))
    def get_agreement(self, quote: Quote) -> dict[str, Any] | None:
        return quote.agreement  # a column: lists and reads never load the snapshot

    @extend_schema_field(QuoteDecisionSerializer(allow_null=True))
    def get_decision(self, quote: Quote) -> dict[str, Any] | None:
        decision = getattr(quote, "decision", None)
        return None if decision is None else QuoteDecisionSerializer(decision, context=self.context).data

    @extend_schema_field(TotalsSerializer)
    def get_totals(self, quote: Quote) -> dict[str, Any]:
        return TotalsSerializer(
            {
                "currency": quote.currency,
                "subtotal": quote.subtotal,
                "discount": quote.discount,
                "net": quote.net,
                "vat_rate": quote.vat_rate,
                "vat_amount": quote.vat_amount,
                "total": quote.total,
                "vat_notice": quote.vat_notice,
                "at_least": quote.at_least,
            }
        ).data

    def get_document_url(self, quote: Quote) -> str:
        return self._abs("api:quote-document-pdf", quote.pk)

    def get_bom_url(self, quote: Quote) -> str:
        return self._abs("api:quote-bom-xlsx", quote.pk)
