"""Stored designs of one API client."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from django.db.models import Manager
from drf_spectacular.utils import extend_schema_field
from rest_framework import ISO_8601, serializers
from rest_framework.relations import Hyperlink
from rest_framework.settings import api_settings

from configurator.models import Configuration
from design.model import DesignDocument
from quotes.selectors import quote_ids_by_configuration

from ..renderers import RawJSON
from .common import LanguageField

# The list's design documents are read as their column's text under this name and written into the answer as they
# are (api.renderers.RawJSON).
DOCUMENT_TEXT = "document_json"


@extend_schema_field(DesignDocument)  # type: ignore[arg-type]  # a pydantic model: drf-spectacular's pydantic extension
class DesignDocumentField(serializers.JSONField):
    """A design/v1 document (any JSON object here; the validation service judges it)."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:  # any JSON value comes in
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
    """Many configurations: their quote ids read with the rows (a ``quote_ids`` column, on PostgreSQL) or in one
    query for all of them (quotes.selectors), never a query or a prefetch of whole quotes per row; each row written
    by one ``_Rows`` for the page (the link and the time stamps worked out once, not once a row). The rows may be
    model instances or the dicts of ``values(*LISTED_COLUMNS)`` (the list endpoint reads those: no model instance
    is made for a row)."""

    def to_representation(
        self, data: Manager[Configuration] | Iterable[Configuration | dict[str, Any]]
    ) -> list[dict[str, Any]]:
        rows = [_columns(row) for row in (data.all() if hasattr(data, "all") else data)]
        assert isinstance(self.child, ConfigurationSerializer)  # Meta.list_serializer_class of it
        write = _Rows(self.child)
        if rows and "quote_ids" in rows[0]:  # read with the rows (quotes.selectors.quote_ids_column)
            return [write(row, row["quote_ids"]) for row in rows]
        quote_ids = quote_ids_by_configuration([row["id"] for row in rows])
        return [write(row, quote_ids[row["id"]]) for row in rows]


def _columns(row: Configuration | dict[str, Any]) -> dict[str, Any]:
    """A configuration's LISTED_COLUMNS: the row itself when it is already their dict."""
    if isinstance(row, dict):
        return row
    return {name: row.pk if name == "id" else getattr(row, name) for name in LISTED_COLUMNS}


class _Rows:
    """Writes configurations (LISTED_COLUMNS dicts) as DRF's fields of ConfigurationSerializer do, for one page.

    The ``url`` of every row is the first row's as DRF's HyperlinkedIdentityField reversed it, with the row's id
    in the place of the first row's (the detail route is ``configurations/<id>/``); when the first row's URL does
    not end in its id and a slash (a format suffix, say), every row's is reversed. Time stamps as DRF's
    DateTimeField writes them (ISO 8601 in the current time zone, ``Z`` for UTC), the time zone looked up once;
    anything else (a naive time, a format of its own) goes through the field. The fields are made here, not
    taken from ``serializer.fields``: a ModelSerializer builds all of its fields from the model on first use."""

    def __init__(self, serializer: serializers.Serializer) -> None:
        self.url_field = copy.deepcopy(ConfigurationSerializer._declared_fields["url"])
        self.url_field.bind("url", serializer)  # its context (the request) is the serializer's
        self.prefix: str | None = None
        self.first = True
        stamp = serializers.DateTimeField(read_only=True)  # what ModelSerializer makes of a DateTimeField
        stamp.bind("created_at", serializer)
        self.stamp = _stamp(stamp)

    def url(self, row: dict[str, Any]) -> str:
        pk = row["id"]
        if self.prefix is not None:
            return f"{self.prefix}{pk}/"
        url = self.url_field.to_representation(_Row(pk))
        if self.first:
            self.first = False
            tail = f"/{pk}/"
            if isinstance(url, Hyperlink) and url.endswith(tail):
                self.prefix = url[: -len(tail) + 1]
        return Hyperlink(url, row) if isinstance(url, str) else url

    def __call__(self, row: dict[str, Any], quotes: list[int]) -> dict[str, Any]:
        stamp = self.stamp
        return {
            "id": row["id"],
            "url": self.url(row),
            "name": row["name"],
            "document": RawJSON(row[DOCUMENT_TEXT]) if DOCUMENT_TEXT in row else row["document"],
            "status": row["status"],
            "language": row["language"],
            "crm_reference": row["crm_reference"],
            "valid": row["valid"],
            "error_count": row["error_count"],
            "warning_count": row["warning_count"],
            "built_at": None if row["built_at"] is None else stamp(row["built_at"]),
            "quotes": quotes,
            "created_at": stamp(row["created_at"]),
            "updated_at": stamp(row["updated_at"]),
        }


class _Row:
    """What HyperlinkedIdentityField reads of a row: its pk."""

    __slots__ = ("pk",)

    def __init__(self, pk: int) -> None:
        self.pk = pk


def _stamp(field: serializers.DateTimeField) -> Callable[[datetime], str]:
    """``field.to_representation``, with the ISO 8601 writing of an aware time done here (the field's time zone
    looked up once instead of once a value)."""
    output_format = getattr(field, "format", api_settings.DATETIME_FORMAT)
    zone = field.timezone if hasattr(field, "timezone") else field.default_timezone()
    if zone is None or not isinstance(output_format, str) or output_format.lower() != ISO_8601:
        return field.to_representation

    def write(value: datetime) -> str:
        if not isinstance(value, datetime) or value.utcoffset() is None:
            return field.to_representation(value)
        try:
            text = value.astimezone(zone).isoformat()
        except OverflowError:
            return field.to_representation(value)
        return text[:-6] + "Z" if text.endswith("+00:00") else text

    return write


class ConfigurationSerializer(serializers.ModelSerializer):
    url = serializers.HyperlinkedIdentityField(view_name="api:configuration-detail")
    document = DesignDocumentField(read_only=True)
    valid = serializers.BooleanField(
        allow_null=True, read_only=True, help_text="The last validation verdict; null: not validated yet."
    )
    quotes = serializers.SerializerMethodField(help_text="Ids of the quotes made from this configuration.")
    built_at = serializers.DateTimeField(
        allow_null=True,
        read_only=True,
        help_text="When the design was marked as built (POST .../built/): the installed cluster's record, which "
        "expansions start from and no one changes; null: not built.",
    )

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
            "built_at",
            "quotes",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def to_representation(self, instance: Configuration) -> dict:
        """The fields of Meta.fields as DRF's fields render them (tests/api compare the two), read straight from
        the row: a page of 50 configurations costs a fraction of the generic field-by-field rendering."""
        return _Rows(self)(_columns(instance), self.get_quotes(instance))

    def get_quotes(self, obj: Configuration) -> list[int]:
        return quote_ids_by_configuration([obj.pk])[obj.pk]


# The columns ConfigurationSerializer shows (its ``url`` and ``quotes`` come from the id).
LISTED_COLUMNS = tuple(name for name in ConfigurationSerializer.Meta.fields if name not in ("url", "quotes"))
