"""One error body for every failure of the API.

``{"error": {"code": "...", "message": "...", "fields": [{"path": "node_groups[0].count", "message": "..."}]}}``

A custom DRF ``EXCEPTION_HANDLER`` (rather than drf-standardized-errors) because the design's own input errors
(``DesignInputError``: field path → message) and the quotes' ``QuoteError`` must come out in the same shape as
serializer errors, and paths must use the contract's ``a.b[0].c`` notation.
"""

from __future__ import annotations

import logging
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import ProtectedError, RestrictedError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.settings import api_settings

from configurator.errors import ConfigurationErrorCode
from design.jsontext import JsonObject
from design.model import DesignInputError
from outputs.services import OutputErrorCode
from project.outage import OUTAGE, outage_message, retry_after
from quotes.services import QuoteError, QuoteErrorCode, QuoteStateError

from .throttling import refund_throttles

logger = logging.getLogger(__name__)


class ApiErrorCode(StrEnum):
    """The codes of the API's own errors; with QuoteErrorCode (quotes), ConfigurationErrorCode (configurations) and
    OutputErrorCode (a design's outputs) every code an error body can carry (ERROR_CODES, the schema's
    ErrorCodeEnum). A code never changes: clients branch on it."""

    INVALID = "invalid"  # 400: a field is invalid (serializer or model validation)
    MALFORMED_DESIGN = "malformed_design"  # 400: a design, fabric or recommendation request the contract refuses
    PARSE_ERROR = "parse_error"  # 400: a body that is no JSON, or holds what cannot be stored
    BAD_REQUEST = "bad_request"  # 400: a request that cannot be read
    INVALID_IDEMPOTENCY_KEY = "invalid_idempotency_key"  # 400
    NOT_AUTHENTICATED = "not_authenticated"  # 401
    AUTHENTICATION_FAILED = "authentication_failed"  # 401
    PERMISSION_DENIED = "permission_denied"  # 403
    NOT_FOUND = "not_found"  # 404
    METHOD_NOT_ALLOWED = "method_not_allowed"  # 405
    NOT_ACCEPTABLE = "not_acceptable"  # 406
    CONFLICT = "conflict"  # 409
    IN_USE = "in_use"  # 409: an object a quote still refers to
    IDEMPOTENCY_IN_PROGRESS = "idempotency_in_progress"  # 409
    TOO_LARGE = "too_large"  # 413
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"  # 415
    UNPROCESSABLE = "unprocessable"  # 422
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"  # 422
    THROTTLED = "throttled"  # 429
    SERVER_ERROR = "server_error"  # 500
    SERVICE_UNAVAILABLE = "service_unavailable"  # 503 (and nginx's 502)
    ERROR = "error"  # DRF's own code of an error it has no other for
    # Answered before Django, in the same body: by gunicorn (project/serving.py) and nginx (deploy/nginx.conf)
    FORBIDDEN = "forbidden"  # 403
    URI_TOO_LONG = "uri_too_long"  # 414
    EXPECTATION_FAILED = "expectation_failed"  # 417
    HEADERS_TOO_LARGE = "headers_too_large"  # 431
    NOT_IMPLEMENTED = "not_implemented"  # 501
    GATEWAY_TIMEOUT = "gateway_timeout"  # 504


ErrorCode = ApiErrorCode | QuoteErrorCode | ConfigurationErrorCode | OutputErrorCode
ERROR_CODE_ENUMS: tuple[type[StrEnum], ...] = (ApiErrorCode, QuoteErrorCode, ConfigurationErrorCode, OutputErrorCode)
# Every code an error body can carry, in the order of the enums: the schema's ErrorCodeEnum (settings).
ERROR_CODES: tuple[str, ...] = tuple(str(code) for enum in ERROR_CODE_ENUMS for code in enum)
# What each code means, as the schema's ErrorCodeEnum lists it (a test keeps it complete).
ERROR_CODE_MEANINGS: dict[str, str] = {
    "invalid": "400: a field is invalid; see fields",
    "malformed_design": "400: the design, fabric-plan or recommendation request breaks the contract; see fields",
    "parse_error": "400: the body is no JSON, or holds what cannot be stored",
    "bad_request": "400: the request cannot be read",
    "invalid_idempotency_key": "400: Idempotency-Key is not 1 to 255 visible ASCII characters",
    "not_authenticated": "401: no token",
    "authentication_failed": "401: a bad token",
    "permission_denied": "403: the client's scope or the user's permission does not allow it",
    "not_found": "404: no such object for this client, or no endpoint at this URL",
    "method_not_allowed": "405",
    "not_acceptable": "406: no answer in the Accept header's media types",
    "conflict": "409: the object's state does not allow it",
    "in_use": "409: the object is in use (e.g. by a quote) and cannot be deleted",
    "idempotency_in_progress": "409: a request with this Idempotency-Key is in progress; retry after Retry-After",
    "too_large": "413: the body is larger than the limit",
    "unsupported_media_type": "415: the body is not JSON",
    "unprocessable": "422: the request is understood but refused",
    "idempotency_key_reused": "422: this Idempotency-Key was used with another request",
    "throttled": "429: too many requests; retry after Retry-After",
    "server_error": "500: an unexpected error, logged",
    "service_unavailable": "502/503: the service is briefly unavailable; retry after Retry-After",
    "error": "an error without a code of its own",
    "forbidden": "403 from the server before the application",
    "uri_too_long": "414: the request line is too long; send long input in a body",
    "expectation_failed": "417 from the server before the application",
    "headers_too_large": "431: the request headers are more or larger than the server accepts",
    "not_implemented": "501 from the server before the application",
    "gateway_timeout": "504: the service did not answer in time; retry after Retry-After",
    "quote_rejected": "422: the quote cannot be made (a design with errors, an unknown country …); see fields",
    "quote_expired": "409: the quote has expired",
    "quote_superseded": "409: a newer revision of the quote exists",
    "quote_already_accepted": "409: the quote is accepted (an order is never revised)",
    "quote_declined": "409: the quote was declined",
    "quote_not_issued": "409: the quote is not issued yet",
    "quote_not_accepted": "409: the quote is not accepted (no order confirmation)",
    "document_not_ready": "409: the document is not built yet; retry after Retry-After",
    "document_failed": "409: building the document failed",
    "document_missing": "409: the document's file is missing; ask for it to be rebuilt",
    "quote_open": "409: a quote of this configuration awaits review or approval",
    "with_sales": "409: a customer's design a sales engineer now handles",
    "has_quotes": "409: a configuration with quotes is kept",
    "built": "409: the design of a configuration marked as built is the installed cluster's record",
    "not_valid": "409: only a valid design can be marked as built",
    "no_fabric_plan": "409: the design has no fabric to cable",
    "no_picture": "409: the design has nothing to draw in this picture",
    "unknown_export": "404: no export has this name; see the field name",
    "design_not_valid": "422: the design has errors; each is a field",
}
ERROR_CODE_CHOICES = [(code, ERROR_CODE_MEANINGS.get(code, code)) for code in ERROR_CODES]


def error_code(code: str) -> ErrorCode:
    """The enum member of ``code``; DRF's own code "error" for one no enum holds (a DRF exception raised with a
    code of its own), so an error body never carries a code the schema does not list."""
    for enum in ERROR_CODE_ENUMS:
        if code in enum._value2member_map_:
            return enum(code)  # type: ignore[return-value]
    logger.error("API error code %r is in no error code enum; answered as %r", code, ApiErrorCode.ERROR.value)
    return ApiErrorCode.ERROR


class ApiError(exceptions.APIException):
    """An API error with its own status, stable code and optional field errors."""

    def __init__(
        self,
        message: str,
        *,
        code: ErrorCode,
        status_code: int,
        fields: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.code = code
        self.fields = fields or {}
        self.headers = headers or {}


class Conflict(ApiError):
    def __init__(
        self,
        message: str,
        *,
        code: ErrorCode = ApiErrorCode.CONFLICT,
        fields: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message, code=code, status_code=status.HTTP_409_CONFLICT, fields=fields, headers=headers)


class Unprocessable(ApiError):
    def __init__(
        self,
        message: str,
        *,
        code: ErrorCode = ApiErrorCode.UNPROCESSABLE,
        fields: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message, code=code, status_code=status.HTTP_422_UNPROCESSABLE_ENTITY, fields=fields)


def _join(prefix: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    if key == api_settings.NON_FIELD_ERRORS_KEY:
        return prefix
    return f"{prefix}.{key}" if prefix else str(key)


def flatten(detail: Any, prefix: str = "") -> list[dict[str, str]]:
    """Serializer errors (nested dicts and lists) as a flat list of {path, message}."""
    out: list[dict[str, str]] = []
    if isinstance(detail, dict):
        for key, value in detail.items():
            out.extend(flatten(value, _join(prefix, key)))
    elif isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            out.extend({"path": prefix, "message": str(item)} for item in detail)
        else:
            for index, item in enumerate(detail):
                if item:
                    out.extend(flatten(item, _join(prefix, index)))
    else:
        out.append({"path": prefix, "message": str(detail)})
    return out


def error_body(code: ErrorCode, message: str, fields: list[dict[str, str]] | None = None) -> JsonObject:
    return {"error": {"code": str(code), "message": message, "fields": fields or []}}


def exception_handler(exc: Exception, context: dict) -> Response:
    """The one error body for ``exc``; a request that failed on our side (5xx) is not counted by the throttles."""
    response = _error_response(exc)
    if response.status_code >= 500 and context.get("request") is not None:
        refund_throttles(context["request"])
    return response


def _error_response(exc: Exception) -> Response:
    """The product's and Django's own errors first, a database outage, then DRF's, else a logged 500."""
    response = _domain_error(exc)
    if response is not None:
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)  # the service's reason (e.g. four eyes), if it gave one

    if isinstance(exc, OUTAGE):
        logger.warning("Database or cache unavailable: answered 503", exc_info=exc)
        return Response(
            error_body(ApiErrorCode.SERVICE_UNAVAILABLE, outage_message(exc)),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(retry_after())},
        )
    if isinstance(exc, ApiError):
        fields = [{"path": p, "message": m} for p, m in exc.fields.items()]
        response = Response(error_body(exc.code, str(exc.detail), fields), status=exc.status_code)
        for name, value in exc.headers.items():
            response[name] = value
        return response
    if isinstance(exc, exceptions.APIException):
        return _drf_error(exc)

    logger.exception("Unhandled API error", exc_info=exc)
    return Response(
        error_body(ApiErrorCode.SERVER_ERROR, _("An unexpected error occurred; it has been logged.")),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def _domain_error(exc: Exception) -> Response | None:
    """The response to a design input error, a rejected quote or one of Django's own errors; None for others."""
    if isinstance(exc, DesignInputError):
        fields = [{"path": p, "message": m} for p, m in exc.errors.items()]
        return Response(
            error_body(ApiErrorCode.MALFORMED_DESIGN, _("The request is malformed; see the fields."), fields),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, QuoteStateError):  # the quote's state forbids it (expired, superseded, accepted …)
        message = exc.errors.get("status") or str(exc)
        return Response(
            error_body(exc.code, message, [{"path": "status", "message": message}]), status=status.HTTP_409_CONFLICT
        )
    if isinstance(exc, QuoteError):
        errors = getattr(exc, "errors", None) or {}
        fields = [{"path": str(p), "message": str(m)} for p, m in errors.items()]
        message = "; ".join(f["message"] for f in fields) or str(exc) or _("The quote cannot be made.")
        return Response(error_body(exc.code, message, fields), status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
        return Response(
            error_body(ApiErrorCode.INVALID, _("The request is invalid; see the fields."), flatten(detail)),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, ProtectedError | RestrictedError):
        return Response(
            error_body(ApiErrorCode.IN_USE, _("This object is in use (for example by a quote) and cannot be deleted.")),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(
            error_body(
                ApiErrorCode.TOO_LARGE, _("The request body is larger than %(limit)s bytes.") % {"limit": limit}
            ),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, SuspiciousOperation):
        return Response(
            error_body(ApiErrorCode.BAD_REQUEST, _("The request cannot be read.")), status=status.HTTP_400_BAD_REQUEST
        )
    return None


def _drf_error(exc: exceptions.APIException) -> Response:
    """DRF's own exceptions in the one body, with their WWW-Authenticate and Retry-After headers."""
    headers: dict[str, str] = {}
    if auth_header := getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = auth_header
    if (wait := getattr(exc, "wait", None)) is not None:
        headers["Retry-After"] = str(int(wait))
    if isinstance(exc, exceptions.ValidationError):
        body = error_body(ApiErrorCode.INVALID, _("The request is invalid; see the fields."), flatten(exc.detail))
    else:
        code = exc.get_codes() if not isinstance(exc.detail, dict | list) else exc.default_code
        message = str(exc.detail) if not isinstance(exc.detail, dict | list) else str(exc.default_detail)
        if isinstance(exc, exceptions.Throttled):
            code = ApiErrorCode.THROTTLED
        fields = [{"path": p, "message": m} for p, m in getattr(exc, "fields", {}).items()]  # FieldParseError's
        body = error_body(error_code(str(code)), message, fields)
    return Response(body, status=exc.status_code, headers=headers)
