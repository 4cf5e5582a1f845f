"""Stored designs of one API client."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from configurator.models import Configuration
from design.model import DesignDocument
from quotes.selectors import quote_ids_by_configuration

from .common import LanguageField


@extend_schema_field(DesignDocument)
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


class ConfigurationListSerializer(serializers.ListSerializer):
    """Many configurations: their quote ids in one query for all of them (quotes.selectors), not a query or a
    prefetch of whole quotes per page."""

    def to_representation(self, data):
        rows = list(data.all() if hasattr(data, "all") else data)
        quote_ids = quote_ids_by_configuration([row.pk for row in rows])
        for row in rows:
            row.quote_ids = quote_ids[row.pk]
        return super().to_representation(rows)


class ConfigurationSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:configuration-detail")
    document = DesignDocumentField(read_only=True)
    valid = serializers.BooleanField(
        allow_null=True, read_only=True, help_text="The last validation verdict; null: not validated yet."
    )
    quotes = serializers.SerializerMethodField(help_text="Ids of the quotes made from this configuration.")

    class Meta:
        model = Configuration
        list_serializer_class = ConfigurationListSerializer
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

    def to_representation(self, instance) -> dict:
        """The fields of Meta.fields as DRF's fields render them (tests/api compare the two), read straight from
        the row: a page of 50 configurations costs a fraction of the generic field-by-field rendering."""
        fields = self.fields
        return {
            "id": instance.pk,
            "url": fields["url"].to_representation(instance),
            "name": instance.name,
            "document": instance.document,
            "status": instance.status,
            "language": instance.language,
            "crm_reference": instance.crm_reference,
            "valid": instance.valid,
            "error_count": instance.error_count,
            "warning_count": instance.warning_count,
            "quotes": self.get_quotes(instance),
            "created_at": fields["created_at"].to_representation(instance.created_at),
            "updated_at": fields["updated_at"].to_representation(instance.updated_at),
        }

    def get_quotes(self, obj) -> list[int]:
        ids = getattr(obj, "quote_ids", None)  # set for a page by ConfigurationListSerializer
        if ids is None:
            ids = quote_ids_by_configuration([obj.pk])[obj.pk]
        return ids
