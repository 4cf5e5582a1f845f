"""Quotes as the API shows them, and the bodies that request and revise them."""

from __future__ import annotations

from decimal import Decimal

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from quotes.models import Quote

from .common import LanguageField
from .configurations import DesignDocumentField


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
    address = AddressSerializer(
        required=False,
        allow_null=True,
        help_text="Billing address, printed on the offer. Optional: without it the offer says the billing address "
        "is to be confirmed.",
    )


PERCENT = {"max_digits": 5, "decimal_places": 2, "min_value": Decimal("0"), "max_value": Decimal("100")}


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

    def validate(self, attrs):
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
    address = serializers.SerializerMethodField()

    @extend_schema_field(AddressSerializer(allow_null=True))
    def get_address(self, quote) -> dict | None:
        if not quote.customer_street:
            return None
        return {"street": quote.customer_street, "postal_code": quote.customer_postal_code, "city": quote.customer_city}


class _QuoteLinks(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()

    def _abs(self, name: str, pk: int) -> str:
        path = reverse(name, args=[pk])
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request is not None else path

    def get_url(self, quote) -> str:
        return self._abs("api:quote-detail", quote.pk)


class QuoteAcceptedSerializer(_QuoteLinks):
    """The answer to a quote request or revision (202): the quote exists; documents follow."""

    class Meta:
        model = Quote
        fields = ["id", "number", "revision", "status", "doc_status", "url"]


class QuoteSerializer(_QuoteLinks):
    is_expired = serializers.BooleanField(read_only=True)
    totals = serializers.SerializerMethodField()
    customer = QuoteCustomerOutSerializer(source="*", read_only=True)
    document_url = serializers.SerializerMethodField(help_text="The PDF; 409 until doc_status is ready.")
    bom_url = serializers.SerializerMethodField(help_text="The bill of materials (xlsx); 409 until ready.")
    failure_message = serializers.CharField(allow_blank=True, help_text="Why the documents failed, if they did.")

    class Meta:
        model = Quote
        fields = [
            "id",
            "number",
            "revision",
            "status",
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
        ]
        read_only_fields = fields

    @extend_schema_field(TotalsSerializer)
    def get_totals(self, quote):
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

    def get_document_url(self, quote) -> str:
        return self._abs("api:quote-document-pdf", quote.pk)

    def get_bom_url(self, quote) -> str:
        return self._abs("api:quote-bom-xlsx", quote.pk)
