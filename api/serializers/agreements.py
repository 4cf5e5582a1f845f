"""Price agreements as the API shows and takes them (quotes.services.agreements keeps them)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from quotes.models import PriceAgreement

from .common import PERCENT


class PriceAgreementSerializer(serializers.ModelSerializer):
    """A customer company's agreed discounts per catalogue category and payment term."""

    vat_number = serializers.CharField(
        max_length=30,
        required=False,
        allow_blank=True,
        help_text="The company's VAT number with its country prefix (stored compact, e.g. NL000099998B57).",
    )
    kvk_number = serializers.CharField(
        max_length=12, required=False, allow_blank=True, help_text="A Dutch company's KvK number (8 digits)."
    )
    payment_days = serializers.IntegerField(
        min_value=0, max_value=365, required=False, allow_null=True, help_text="Null: the standard payment term."
    )
    discounts = serializers.DictField(
        source="discount_map",
        child=serializers.DecimalField(**PERCENT),
        required=False,
        help_text="Catalogue category (as `category` of /catalog/parts/) → agreed discount percentage. Given, it "
        "replaces the agreement's discounts.",
    )

    class Meta:
        model = PriceAgreement
        fields = [
            "id",
            "company",
            "vat_number",
            "kvk_number",
            "payment_days",
            "reference",
            "is_active",
            "discounts",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "discount_map" in attrs:  # the service's name for them
            attrs["discounts"] = attrs.pop("discount_map")
        return attrs
