"""A catalogue view (engines.catalog_view.CatalogView) as JSON and back, fact for fact: what a quote keeps of the
catalogue it was validated against, so that its design can be validated against the parts as they were when it was
quoted (quotes.services.exports), whatever the catalogue says since.

Every part is written as its spec class's name and its fields (``Decimal`` as text, enums as their values,
frozensets as sorted lists, nested specs as objects), in the view's order: a view read back holds equal specs in
the same order, so the engines choose among them as they did. A field the JSON does not hold (a spec written
before the field existed) reads as the field's default; a spec class this code no longer has is refused
(ValueError), never guessed. Nothing here imports Django.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import types
import typing
from decimal import Decimal
from enum import Enum
from functools import cache
from typing import Any

from design import specs
from design.jsontext import JsonObject
from design.specs import ReferenceSystemSpec
from engines.catalog_view import CatalogView

SCHEMA = "catalog-view/v1"

# Every spec class a view may hold, by name.
SPEC_CLASSES: dict[str, type] = {
    cls.__name__: cls for cls in vars(specs).values() if isinstance(cls, type) and dataclasses.is_dataclass(cls)
}


def _write(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, frozenset):
        return sorted(_write(v) for v in value)
    if isinstance(value, tuple | list):
        return [_write(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _fields(value)
    return value


def _fields(spec: Any) -> JsonObject:
    return {f.name: _write(getattr(spec, f.name)) for f in dataclasses.fields(spec) if f.init}


def catalog_json(view: CatalogView) -> JsonObject:
    """The view as JSON: its version, its parts in order (each ``{"spec": class name, "fields": {...}}``) and its
    reference systems."""
    return {
        "schema": SCHEMA,
        "version": view.version,
        "parts": [{"spec": type(p).__name__, "fields": _fields(p)} for p in view.parts.values()],
        "reference_systems": [_fields(r) for r in view.reference_systems],
    }


def catalog_digest(data: JsonObject) -> str:
    """The SHA-256 of the view's JSON (keys sorted, no spaces): one catalogue state, one digest."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, vars(specs))


def _read(kind: Any, value: Any) -> Any:
    if value is None:
        return None
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        options = [a for a in typing.get_args(kind) if a is not type(None)]
        return _read(options[0], value) if len(options) == 1 else value
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_read(args[0], v) for v in value)
        return tuple(_read(a, v) for a, v in zip(args, value, strict=True))
    if origin is frozenset:
        (arg,) = typing.get_args(kind)
        return frozenset(_read(arg, v) for v in value)
    if isinstance(kind, type):
        if issubclass(kind, Enum):
            return kind(value)
        if kind is Decimal:
            return Decimal(value)
        if dataclasses.is_dataclass(kind):
            return _spec(kind, value)
        if kind is float and isinstance(value, int):
            return float(value)
    return value


def _spec(cls: type, fields: JsonObject) -> Any:
    hints = _hints(cls)
    known = {f.name for f in dataclasses.fields(cls) if f.init}
    return cls(**{name: _read(hints[name], value) for name, value in fields.items() if name in known})


def catalog_from_json(data: JsonObject) -> CatalogView:
    """The view ``catalog_json`` wrote; ValueError for another schema or a spec class this code does not have."""
    if data.get("schema") != SCHEMA:
        raise ValueError(f"unknown catalogue view schema {data.get('schema')!r}")
    parts = {}
    for entry in data.get("parts", []):
        cls = SPEC_CLASSES.get(entry.get("spec", ""))
        if cls is None:
            raise ValueError(f"unknown part spec {entry.get('spec')!r}")
        spec = _spec(cls, entry["fields"])
        parts[spec.part_number] = spec
    references = tuple(_spec(ReferenceSystemSpec, r) for r in data.get("reference_systems", []))
    return CatalogView(version=str(data.get("version", "")), parts=parts, reference_systems=references)
