"""The error body and the language parameter, as the schema describes them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, TypedDict

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers

from messages.languages import language_codes

from ..exceptions import ERROR_CODE_CHOICES


class DecimalBounds(TypedDict):
    max_digits: int
    decimal_places: int
    min_value: Decimal
    max_value: Decimal


# A percentage, 0 to 100 with two decimals (a discount).
PERCENT: DecimalBounds = {"max_digits": 5, "decimal_places": 2, "min_value": Decimal("0"), "max_value": Decimal("100")}


class FieldErrorSerializer(serializers.Serializer):
    path = serializers.CharField(help_text="Field path, e.g. node_groups[0].count; empty for the whole body.")
    message = serializers.CharField()


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.ChoiceField(
        choices=ERROR_CODE_CHOICES,
        help_text="Stable machine-readable code, e.g. malformed_design, not_found; codes are added, never changed.",
    )
    message = serializers.CharField(help_text="Human-readable, in the request's language.")
    fields = FieldErrorSerializer(many=True)  # type: ignore[assignment]  # the body's "fields" key, not Serializer.fields


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


class LanguageField(serializers.ChoiceField):
    """A language code of settings.LANGUAGES (the list is read again on every validation, so it has one home)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=language_codes(), **kwargs)

    def to_internal_value(self, data: object) -> str:
        self.choices = language_codes()
        return super().to_internal_value(data)  # type: ignore[arg-type]  # any JSON value; the stub narrows it


_DESCRIPTIONS = {
    400: "Malformed request: the body is not JSON, or fields are missing or wrong (see `error.fields`).",
    401: "No token, an unknown token, or a revoked token (`WWW-Authenticate: Bearer`).",
    403: "The token is valid but its scope (or linked user) does not allow this request.",
    404: "No such object among this client's own (other clients' objects are never visible).",
    409: "The object is not in a state that allows this request; the message says why.",
    413: "The request body is larger than the server accepts (JSON: 1,000,000 bytes).",
    415: "The body is not `application/json`.",
    422: "The request is well-formed but cannot be carried out (e.g. an Idempotency-Key reused with another "
    "body, or a quote the business rules refuse).",
    429: "Too many requests for this client; retry after `Retry-After` seconds.",
    503: "The database is briefly unreachable (`service_unavailable`); retry after `Retry-After` seconds. Such a "
    "request is not counted against the client's rates.",
}


def errors(*codes: int) -> dict:
    """Schema responses for the given error statuses, always with 400 (a bad ``lang``, ``page_size`` or other
    parameter), 401, 429 and 503 (and 413 where a body is read)."""
    wanted = sorted({400, 401, 429, 503, *codes, *({413} if 415 in codes else set())})
    return {
        (code, "application/json"): OpenApiResponse(ErrorSerializer, description=_DESCRIPTIONS[code]) for code in wanted
    }


LANG_PARAMETER = OpenApiParameter(
    "lang",
    OpenApiTypes.STR,
    OpenApiParameter.QUERY,
    enum=list(language_codes()),
    required=False,
    description="Language of messages and fixes; overrides Accept-Language. One of the site's languages "
    f"(settings.LANGUAGES): {', '.join(language_codes())}.",
)
IDEMPOTENCY_PARAMETER = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]{1,255}$"},
    OpenApiParameter.HEADER,
    required=False,
    description="Makes a retry safe: the same key and body within 24 hours return the original response; the "
    "same key with another body gets 422. 1-255 visible ASCII characters, e.g. a UUID.",
)
