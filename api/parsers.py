"""A JSON parser that refuses what the database or the engines cannot hold, with a 400 instead of a 500.

Rejected: invalid UTF-8 or JSON, NaN and infinities (``1e999``), NUL characters and lone surrogates in strings
(PostgreSQL cannot store them), a key named twice in one object (design.jsontext), nesting deeper than
``MAX_DEPTH``, and bodies over settings.DATA_UPLOAD_MAX_MEMORY_SIZE (a 413 ``too_large``, the same answer as
when Django reads the body first). A bad string
or a nesting too deep is named by its field path (``customer.address.street``) in the error body's ``fields``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import IO, Any, NoReturn

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from design.jsontext import KeepDuplicates, duplicate_key_path

MAX_DEPTH = 32


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number in JSON")


def _float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise ValueError(f"number {text[:40]} is out of range")
    return value


def _int(text: str) -> int:
    if len(text.lstrip("-")) > 30:  # far beyond any quantity; keeps arithmetic and storage cheap
        raise ValueError(f"number {text[:40]}… is out of range")
    return int(text)


class BadValue(ValueError):
    """A value that cannot be stored, with the field path it sits at ("" for the document itself)."""

    def __init__(self, message: str, path: str):
        self.path = path
        self.reason = message
        super().__init__(f"{message} at {path or 'the top'}")


class FieldParseError(ParseError):
    """A ParseError that names the field: the exception handler lists it in the error body's ``fields``."""

    def __init__(self, detail: str, *, path: str, message: str):
        super().__init__(detail)
        self.fields = {path: message} if path else {}


def check_value(value: object, depth: int = 0, path: str = "") -> None:
    """Raise ValueError naming the path of a value that cannot be stored or processed."""
    if depth > MAX_DEPTH:
        raise BadValue(f"nesting deeper than {MAX_DEPTH} levels", path)
    if isinstance(value, str):
        _check_text(value, path)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, path)
            check_value(item, depth + 1, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_value(item, depth + 1, f"{path}[{index}]")


def _check_text(text: str, path: str) -> None:
    if "\x00" in text:
        raise BadValue("NUL character in a string", path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BadValue("invalid Unicode (lone surrogate)", path) from exc


def _plainly_storable(text: str) -> bool:
    """True when the JSON ``text`` cannot hold what check_value refuses, so the walk can be left out: a NUL or a
    lone surrogate in a parsed string can only come from a ``\\u`` escape (raw control characters are not JSON,
    and UTF-8 that decoded has no surrogates), and nesting deeper than MAX_DEPTH takes more than MAX_DEPTH
    brackets (brackets inside strings are counted too, which only sends more bodies to the walk)."""
    return "\\u" not in text and text.count("{") + text.count("[") <= MAX_DEPTH


class StrictJSONParser(JSONParser):
    def parse(  # type: ignore[override]  # any JSON value, not only an object as the stub says
        self, stream: IO[bytes] | None, media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> object:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestDataTooBig("Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ParseError(_("The request body is not valid UTF-8.")) from exc
        if not text.strip():
            raise ParseError(_("The request body is empty; send a JSON document."))
        try:
            duplicates = KeepDuplicates()
            data = json.loads(
                text,
                parse_constant=_reject_constant,
                parse_float=_float,
                parse_int=_int,
                object_pairs_hook=duplicates,
            )
            if duplicates.found and (duplicated := duplicate_key_path(data)):
                key = duplicated.rsplit(".", 1)[-1]
                raise BadValue(_("the key %(key)s appears more than once") % {"key": json.dumps(key)}, duplicated)
            if not _plainly_storable(text):
                check_value(data)
        except RecursionError as exc:
            raise ParseError(_("JSON parse error: nesting too deep.")) from exc
        except BadValue as exc:
            detail = _("JSON parse error: %(reason)s") % {"reason": str(exc)[:300]}
            raise FieldParseError(detail, path=exc.path, message=exc.reason) from exc
        except ValueError as exc:
            raise ParseError(_("JSON parse error: %(reason)s") % {"reason": str(exc)[:300]}) from exc
        return data
