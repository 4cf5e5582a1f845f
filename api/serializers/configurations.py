"""Stored designs of one API client."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from configurator.models import Configuration

from .common import LanguageField
from .designs import DesignSerializer


@extend_schema_field(DesignSerializer)
class DesignDocumentField(serializers.JSONField):
    """A design/v1 document (any JSON object here; the validation service judges it)."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not isinstance(value, dict):
            raise serializers.ValidationError("must be a JSON object (a design/v1 document)")
        return value


class ConfigurationInputSerializer(serializers.Serializer):
    name = serializers.CharField(
        max_length=200, required=False, allow_blank=True, help_text="Default: the design's name."
    )
    document = DesignDocumentField(help_text="The design, contract design/v1.")
    crm_reference = serializers.CharField(
        max_length=100, required=False, allow_blank=True, help_text="Your CRM's reference (free text; filterable)."
    )
    language = LanguageField(
        required=False,
        help_text="Language of findings and quotes for this design; set when creating (ignored on update).",
    )


class ConfigurationSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:configuration-detail")
    document = DesignDocumentField(read_only=True)
    valid = serializers.BooleanField(
        allow_null=True, read_only=True, help_text="The last validation verdict; null: not validated yet."
    )
    quotes = serializers.SerializerMethodField(help_text="Ids of the quotes made from this configuration.")

    class Meta:
        model = Configuration
        fields = [
            "id",
            "url",
            "name",
            "document",
            "status",
            "language",
            "crm_reference",
            "valid",
            "error_count",
            "warning_count",
            "quotes",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_quotes(self, obj) -> list[int]:
        related = getattr(obj, "quotes", None)
        return sorted(q.pk for q in related.all()) if related is not None else []
