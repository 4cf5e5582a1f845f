"""Every error the API answers carries a code from one enum per app (api.exceptions.ApiErrorCode, quotes'
QuoteErrorCode, configurations' ConfigurationErrorCode, outputs' OutputErrorCode), and the OpenAPI schema lists
exactly those codes
(ErrorCodeEnum, on every error response). No code is written as a bare string where an error is raised."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from rest_framework import exceptions

from api.exceptions import ERROR_CODE_ENUMS, ERROR_CODES, ApiErrorCode, error_body, error_code
from configurator.errors import ConfigurationErrorCode
from quotes.services import QuoteError, QuoteErrorCode, QuoteStateError

ROOT = Path(__file__).resolve().parent.parent.parent

# The kept strings: CRMs branch on them, so a code is never renamed (a code may be added).
KEPT = {
    "invalid", "malformed_design", "parse_error", "bad_request", "invalid_idempotency_key", "not_authenticated",
    "authentication_failed", "permission_denied", "not_found", "method_not_allowed", "not_acceptable", "conflict",
    "in_use", "idempotency_in_progress", "too_large", "unsupported_media_type", "unprocessable",
    "idempotency_key_reused", "throttled", "server_error", "service_unavailable", "uri_too_long", "gateway_timeout",
    "forbidden", "expectation_failed", "headers_too_large", "not_implemented", "quote_rejected", "quote_expired",
    "quote_superseded", "quote_already_accepted", "quote_declined", "quote_not_issued", "quote_not_accepted",
    "document_not_ready", "document_failed", "document_missing", "quote_open", "with_sales", "has_quotes",
    "no_fabric_plan",
}  # fmt: skip


@pytest.fixture(scope="module")
def schema():
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def test_the_schema_lists_every_code_of_the_enums_and_no_other(schema):
    enum = schema["components"]["schemas"]["ErrorCodeEnum"]["enum"]
    assert enum == list(ERROR_CODES)
    assert len(enum) == len(set(enum)), "a code in two enums"
    assert set(enum) == {str(code) for e in ERROR_CODE_ENUMS for code in e}
    assert set(enum) >= KEPT, "a code CRMs rely on was renamed or dropped"
    from api.exceptions import ERROR_CODE_MEANINGS

    assert set(ERROR_CODE_MEANINGS) == set(ERROR_CODES), "each code says what it means in the schema"
    detail = schema["components"]["schemas"]["ErrorDetail"]["properties"]["code"]
    assert detail["allOf"] == [{"$ref": "#/components/schemas/ErrorCodeEnum"}]


def test_every_error_response_of_every_operation_is_the_error_body_with_its_code(schema):
    checked = 0
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            for status, response in operation["responses"].items():
                if int(status) < 400:
                    continue
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/Error", (method, path, status)
                checked += 1
    assert checked > 50


def test_drf_and_the_servers_before_django_answer_only_codes_of_the_enum():
    drf = [
        exceptions.ParseError, exceptions.AuthenticationFailed, exceptions.NotAuthenticated,
        exceptions.PermissionDenied, exceptions.NotFound, exceptions.MethodNotAllowed, exceptions.NotAcceptable,
        exceptions.UnsupportedMediaType, exceptions.Throttled, exceptions.APIException,
    ]  # fmt: skip
    assert {cls.default_code for cls in drf} <= set(ERROR_CODES)
    from project.serving import CODES

    assert set(CODES.values()) <= set(ERROR_CODES)
    nginx = re.findall(r'"code": "([a-z_]+)"', (ROOT / "deploy" / "nginx.conf").read_text())
    assert nginx and set(nginx) <= set(ERROR_CODES)


def test_quote_and_configuration_errors_carry_their_enum():
    assert QuoteError({"customer.country": "unknown"}).code is QuoteErrorCode.QUOTE_REJECTED
    assert QuoteStateError(QuoteErrorCode.QUOTE_EXPIRED, "expired").code == "quote_expired"
    assert error_body(ConfigurationErrorCode.HAS_QUOTES, "kept") == {
        "error": {"code": "has_quotes", "message": "kept", "fields": []}
    }
    assert type(error_body(ApiErrorCode.NOT_FOUND, "x")["error"]["code"]) is str
    assert error_code("not_found") is ApiErrorCode.NOT_FOUND and error_code("quote_open") == "quote_open"
    assert error_code("made_up") is ApiErrorCode.ERROR


_RAISERS = {
    "error_body",
    "ApiError",
    "Conflict",
    "Unprocessable",
    "QuoteStateError",
    "ConfigurationLocked",
    "OutputUnavailable",
}


def _bare_codes(path: Path) -> list[str]:
    """Calls that make an error body or raise an API, quote or configuration error with a string literal code."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if name not in _RAISERS:
            continue
        given = [kw.value for kw in node.keywords if kw.arg == "code"]
        if name in {"error_body", "QuoteStateError", "ConfigurationLocked", "OutputUnavailable"} and node.args:
            given.append(node.args[0])
        for arg in given:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name} with the bare code {arg.value!r}")
    return out


def test_no_error_is_raised_with_a_bare_string_code():
    sources = [p for package in ("api", "quotes", "configurator", "outputs") for p in (ROOT / package).rglob("*.py")]
    bare = [hit for path in sources if "migrations" not in path.parts for hit in _bare_codes(path)]
    assert not bare, "use the app's error code enum:\n" + "\n".join(bare)
