"""One error body for every failure of the API.

``{"error": {"code": "...", "message": "...", "fields": [{"path": "node_groups[0].count", "message": "..."}]}}``

A custom DRF ``EXCEPTION_HANDLER`` (rather than drf-standardized-errors) because the design's own input errors
(``DesignInputError``: field path → message) and the quotes' ``QuoteError`` must come out in the same shape as
serializer errors, and paths must use the contract's ``a.b[0].c`` notation.
"""

from __future__ import annotations

import logging
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

from design.model import DesignInputError
from project.outage import OUTAGE, outage_message, retry_after
from quotes.services import QuoteError, QuoteStateError

from .throttling import refund_throttles

logger = logging.getLogger(__name__)


class ApiError(exceptions.APIException):
    """An API error with its own status, stable code and optional field errors."""

    def __init__(
        self,
        message: str,
        *,
        code: str,
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
    def __init__(self, message: str, *, code: str = "conflict", fields=None, headers=None):
        super().__init__(message, code=code, status_code=status.HTTP_409_CONFLICT, fields=fields, headers=headers)


class Unprocessable(ApiError):
    def __init__(self, message: str, *, code: str = "unprocessable", fields=None):
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


def error_body(code: str, message: str, fields: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "fields": fields or []}}


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
            error_body("service_unavailable", outage_message(exc)),
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
        error_body("server_error", _("An unexpected error occurred; it has been logged.")),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def _domain_error(exc: Exception) -> Response | None:
    """The response to a design input error, a rejected quote or one of Django's own errors; None for others."""
    if isinstance(exc, DesignInputError):
        fields = [{"path": p, "message": m} for p, m in exc.errors.items()]
        return Response(
            error_body("malformed_design", _("The request is malformed; see the fields."), fields),
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
        return Response(error_body("quote_rejected", message, fields), status=status.HTTP_422_UNPROCESSABLE_ENTITY)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
        return Response(
            error_body("invalid", _("The request is invalid; see the fields."), flatten(detail)),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, ProtectedError | RestrictedError):
        return Response(
            error_body("in_use", _("This object is in use (for example by a quote) and cannot be deleted.")),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return Response(
            error_body("too_large", _("The request body is larger than %(limit)s bytes.") % {"limit": limit}),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, SuspiciousOperation):
        return Response(error_body("bad_request", _("The request cannot be read.")), status=status.HTTP_400_BAD_REQUEST)
    return None


def _drf_error(exc: exceptions.APIException) -> Response:
    """DRF's own exceptions in the one body, with their WWW-Authenticate and Retry-After headers."""
    headers: dict[str, str] = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None) is not None:
        headers["Retry-After"] = str(int(exc.wait))
    if isinstance(exc, exceptions.ValidationError):
        body = error_body("invalid", _("The request is invalid; see the fields."), flatten(exc.detail))
    else:
        code = exc.get_codes() if not isinstance(exc.detail, dict | list) else exc.default_code
        message = str(exc.detail) if not isinstance(exc.detail, dict | list) else str(exc.default_detail)
        if isinstance(exc, exceptions.Throttled):
            code = "throttled"
        fields = [{"path": p, "message": m} for p, m in getattr(exc, "fields", {}).items()]  # FieldParseError's
        body = error_body(str(code), message, fields)
    return Response(body, status=exc.status_code, headers=headers)
