"""Parsing the design document and the fabric-plan request (contract design/v1, docs/design-v1.md).

The typed model (design.model) is the parser: ``parse_design`` validates a document with it and reports every bad
field at once, keyed by its path (``node_groups[0].components[1].quantity``); ``input_errors`` is the one place
where pydantic's errors become those paths and the messages the doors return. ``engines.intake.references.
check_references`` then checks the part numbers against the catalogue view. Both raise DesignInputError; a design
that passes both is *well-formed*, and the engines report everything else as findings.

Unknown extra keys are ignored, so the contract can grow optional fields; the ``facility`` and ``networks``
objects and the fabric-plan request are the exceptions (design.model).
"""

from __future__ import annotations

import hashlib
import json
import typing
from functools import cache
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from design.contract import (
    MAX_COMPONENTS_PER_GROUP,
    MAX_CONCURRENCY,
    MAX_CONTEXT_TOKENS,
    MAX_NODE_GROUPS,
    MAX_NODES,
    MAX_PARAMS_BILLION,
    MAX_PORTS_USED,
    MAX_QUANTITY,
    WORKLOAD_KINDS,
    type_name,
)
from design.model import (
    DESIGN_ERROR,
    DesignDocument,
    DesignIn,
    DesignInputError,
    FabricRequestIn,
    RecommendRequestIn,
    Say,
)
from design.vocabulary import MODES, PRECISIONS

__all__ = [
    "MAX_COMPONENTS_PER_GROUP",
    "MAX_CONCURRENCY",
    "MAX_CONTEXT_TOKENS",
    "MAX_NODES",
    "MAX_NODE_GROUPS",
    "MAX_PARAMS_BILLION",
    "MAX_PORTS_USED",
    "MAX_QUANTITY",
    "ROOT",
    "WORKLOAD_KINDS",
    "WORKLOAD_MODES",
    "WORKLOAD_PRECISIONS",
    "design_hash",
    "input_errors",
    "parse_design",
    "parse_fabric_request",
    "parse_recommend_request",
]

WORKLOAD_MODES = MODES
WORKLOAD_PRECISIONS = PRECISIONS
ROOT = "design"  # the path of the document itself
BODY = "(body)"  # the path of a request body (fabric plan, recommendation) that is not an object
_Request = TypeVar("_Request", FabricRequestIn, RecommendRequestIn)


def design_hash(document: Any) -> str:
    """A stable hash of the design document as sent (canonical JSON), printed on quote receipts."""
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def parse_design(raw: object) -> DesignIn:
    """Turn a design/v1 document (parsed JSON) into a DesignIn, or raise DesignInputError naming every bad field."""
    try:
        document = DesignDocument.model_validate(raw)
    except ValidationError as exc:
        raise DesignInputError(input_errors(exc, DesignDocument, ROOT)) from None
    return DesignIn.model_construct(**{name: getattr(document, name) for name in DesignIn.model_fields})


def parse_fabric_request(raw: object) -> FabricRequestIn:
    """Parse ``{"nodes", "rails", "switch", ["oversubscription", "topology", "hca", "rack"]}``."""
    return _request_body(FabricRequestIn, raw)


def parse_recommend_request(raw: object) -> RecommendRequestIn:
    """Parse ``{"workload": {...}, ["limits": {"gpu_families", "budget_eur", "max_nodes"}]}``."""
    return _request_body(RecommendRequestIn, raw)


def _request_body(model: type[_Request], raw: object) -> _Request:
    """A request body as ``model``, or DesignInputError naming every bad field (the body itself when it is no
    JSON object)."""
    if not isinstance(raw, dict):
        raise DesignInputError({BODY: "must be a JSON object"})
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise DesignInputError(input_errors(exc, model, BODY)) from None


# --- pydantic's errors as the doors word them ---------------------------------------------------------------------


def path_of(loc: tuple[str | int, ...]) -> str:
    """``("node_groups", 0, "components", 1, "quantity")`` -> ``node_groups[0].components[1].quantity``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def input_errors(exc: ValidationError, root: type[BaseModel], root_path: str) -> dict[str, str]:
    """Every error of ``exc`` as {path: message}; the first message of a path wins."""
    errors: dict[str, str] = {}
    for error in exc.errors(include_url=False):
        loc = tuple(error["loc"])
        errors.setdefault(path_of(loc) or root_path, _message(root, loc, error))
    return errors


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _models_in(arg)]


def _says_in(annotation: Any) -> list[Say]:
    found = [m for m in getattr(annotation, "__metadata__", ()) if isinstance(m, Say)]
    return found + [s for arg in typing.get_args(annotation) for s in _says_in(arg)]


def _field(model: type[BaseModel], key: str | int) -> FieldInfo | None:
    for name, info in model.model_fields.items():
        if (info.alias or name) == key:
            return info
    return None


@cache
def _place(root: type[BaseModel], pattern: tuple[str, ...]) -> tuple[type[BaseModel] | None, Say | None]:
    """The model a location is in and the Say of its field (list indexes stand as "*")."""
    model: type[BaseModel] | None = root
    say: Say | None = None
    for key in pattern:
        if key == "*":
            continue
        info = _field(model, key) if model is not None else None
        if info is None:
            return None, None
        says = [m for m in info.metadata if isinstance(m, Say)] + _says_in(info.annotation)
        say = says[0] if says else None
        models = _models_in(info.annotation)
        model = models[0] if models else None
    return model, say


def _message(root: type[BaseModel], loc: tuple[str | int, ...], error: Any) -> str:
    kind, value, ctx = error["type"], error.get("input"), error.get("ctx") or {}
    if kind == DESIGN_ERROR:
        return str(ctx["message"])
    pattern = tuple("*" if isinstance(part, int) else part for part in loc)
    if kind == "extra_forbidden":
        parent, _ = _place(root, pattern[:-1])
        unknown = getattr(parent, "unknown_key", None)
        return str(unknown(str(loc[-1]))) if unknown else "unknown field"
    _model, say = _place(root, pattern)
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"must be an object, not {type_name(value)}"
    if say is None:
        return str(error["msg"])
    item = bool(loc) and isinstance(loc[-1], int)
    if kind == "missing" or (value is None and kind.endswith("_type") and not item and say.kind != "flag"):
        return say.missing  # absent, or null for a required field
    return _say(say, kind, value, ctx, item=item) or str(error["msg"])


def _say(say: Say, kind: str, value: Any, ctx: dict[str, Any], *, item: bool) -> str | None:  # noqa: C901
    """Today's words for pydantic's error ``kind`` on a field that reads as ``say``; None: pydantic's own."""
    s = say.kind
    if s == "count":  # the fabric-plan request's counts
        if kind == "int_type":
            return f"must be a whole number, got {value!r}"
        return f"must be at least {ctx.get('ge', 1)}, got {value}"
    if s in ("part", "switch"):
        if s == "switch" and kind == "string_pattern_mismatch":
            return "is required"
        return f"must be a part number string, got {value!r}"
    if s == "list" and not item:
        if kind == "too_long":  # node_groups are bounded before they are read (design.model._bounded)
            return f"holds {ctx['actual_length']:,} components; the most a node group may have is {ctx['max_length']}"
        return f"must be a list{say.what}, not {type_name(value)}"
    if s == "slot" or (s == "list" and item):
        return f"must be a slot name (a non-empty string), not {type_name(value)}"
    if kind == "string_type":
        return f"must be a string, not {type_name(value)}"
    if s == "text":
        if kind == "string_pattern_mismatch":
            return "must not be empty"
        return f"is {len(value):,} characters long; the most this tool accepts is {ctx['max_length']:,}"
    if s == "ratio":
        return f"must look like 1:1 or 2:1 (two whole numbers above 0), not {value!r}"
    if s == "whole":
        if kind == "int_type":
            return f"must be a whole number, not {value if isinstance(value, float) else type_name(value)}"
        if kind == "greater_than_equal":
            return f"must be at least {ctx['ge']}, not {value}"
        return f"{value} is an absurd size{say.what}; the most this tool accepts is {_number(ctx['le'])}"
    if s in ("positive", "above_zero"):
        if kind == "float_type":
            return f"must be a number, not {type_name(value)}"
        if s == "above_zero":
            if kind == "less_than_equal" or (kind == "finite_number" and value > 0):
                return f"must be at most {_number(ctx.get('le') or say.high or 0)}"
            return "must be a number above 0"
        if kind in ("finite_number", "greater_than"):
            return f"must be a positive number, not {value}"
        return f"{value} is an absurd size; the most this tool accepts is {_number(ctx['le'])}"
    if s == "flag":
        return "must be true or false"
    return None


def _number(limit: float) -> str:
    """A limit as the messages write it: 100,000 (not 100,000.0)."""
    return f"{int(limit):,}" if float(limit).is_integer() else f"{limit:,}"
