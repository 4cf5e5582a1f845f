"""Helpers for drf-spectacular: enum choice sets named once (see SPECTACULAR_SETTINGS), the request strings'
post-processing, and the design/v1 request bodies generated from the typed model that parses them."""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import Direction
from pydantic import BaseModel
from pydantic.json_schema import model_json_schema

from design.contract import ROLES
from design.vocabulary import Connector, Protocol, Top

if TYPE_CHECKING:
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.openapi import AutoSchema
    from rest_framework.request import Request


def connector_choices() -> list[tuple[str, str]]:
    return [(c.value, c.value) for c in Connector]


def top_choices() -> list[tuple[str, str]]:
    return [(t.value, t.value) for t in Top]


def protocol_choices() -> list[tuple[str, str]]:
    return [(p.value, p.value) for p in Protocol]


def component_role_choices() -> list[tuple[str, str]]:
    """The roles a design component may take (contract design/v1 and its additions)."""
    return [(r, r) for r in ROLES]


def default_role_choices() -> list[tuple[str, str]]:
    """The roles of the default node parts the service adds (``defaults_added``)."""
    return [(r, r) for r in ("cpu", "memory", "boot")]


NO_NUL = "^[^\\u0000]*$"  # api.parsers refuses NUL characters in any string of a request body


def _no_nul(schema: object) -> None:
    if isinstance(schema, dict):
        if schema.get("type") == "string" and not ({"enum", "pattern", "format"} & schema.keys()):
            schema["pattern"] = NO_NUL
        for value in schema.values():
            _no_nul(value)
    elif isinstance(schema, list):
        for item in schema:
            _no_nul(item)


# Request bodies that need exactly one of two fields (the serializers' validate() refuses both and neither).
EXACTLY_ONE_OF = {"QuoteRequestRequest": ("configuration", "design")}


# Answer fields present only for an API client that acts as a staff user (a quote's margin): optional in the schema.
ONLY_FOR_STAFF = {"Quote": ("margin_eur", "margin_percent")}


def postprocess_request_strings(
    result: dict[str, Any], generator: SchemaGenerator, request: Request | None, public: bool
) -> dict[str, Any]:
    """Say in the schema what the server enforces beyond the serializers' fields: request strings never hold a
    NUL character (api.parsers), a quote request names a configuration or a design, not both, and a quote's margin
    is answered only to a client that acts as a staff user."""
    schemas = result.get("components", {}).get("schemas", {})
    for name, component in schemas.items():
        if name.endswith("Request"):
            _no_nul(component)
    for name, fields in EXACTLY_ONE_OF.items():
        if name in schemas:
            schemas[name]["oneOf"] = [{"required": [field]} for field in fields]
    for name, fields in ONLY_FOR_STAFF.items():
        if name in schemas and "required" in schemas[name]:
            schemas[name]["required"] = [field for field in schemas[name]["required"] if field not in fields]
    return result


# --- the design/v1 request bodies, from the typed model (design.model) ------------------------------------------------


def _component_name(model_name: str, direction: str) -> str:
    """design.model's class names as the schema's components: DesignDocument -> Design(Request), RackIn ->
    Rack(Request), FabricRequestIn -> FabricPlanRequest(Request), RecommendRequestIn -> Recommend(Request)."""
    base = {"DesignDocument": "Design", "FabricRequestIn": "FabricPlanRequest", "RecommendRequestIn": "Recommend"}.get(
        model_name, model_name.removesuffix("In")
    )
    return base + ("Request" if direction == "request" else "")


def _models(model: type[BaseModel], seen: dict[str, type[BaseModel]] | None = None) -> dict[str, type[BaseModel]]:
    """Every model class reachable from ``model``, by class name."""
    seen = {} if seen is None else seen
    seen[model.__name__] = model

    def walk(annotation: object) -> None:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if annotation.__name__ not in seen:
                _models(annotation, seen)
            return
        for arg in typing.get_args(annotation):
            walk(arg)

    for info in model.model_fields.values():
        walk(info.annotation)
    return seen


def _as_openapi_30(node: Any, rename: Callable[[str], str]) -> Any:
    """JSON Schema 2020-12 (pydantic's) as OpenAPI 3.0 says it: nullable, boolean exclusive bounds, enum for const,
    references to the components, no titles."""
    if isinstance(node, list):
        return [_as_openapi_30(item, rename) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _as_openapi_30(value, rename) for key, value in node.items() if key != "title"}
    if "$ref" in node:
        node["$ref"] = "#/components/schemas/" + rename(node["$ref"].rsplit("/", 1)[-1])
    for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(node.get(bound), (int, float)) and not isinstance(node[bound], bool):
            node[limit], node[bound] = node[bound], True
    if "const" in node:
        node["enum"] = [node.pop("const")]
    options = node.get("anyOf")
    if options and {"type": "null"} in options:
        rest = [option for option in options if option != {"type": "null"}]
        del node["anyOf"]
        (only,) = rest if len(rest) == 1 else [{"anyOf": rest}]
        node = {**(only if "$ref" not in only else {"allOf": [only]}), **node, "nullable": True}
    if isinstance(node.get("default"), (dict, list)):
        del node["default"]  # an object's default is its fields' defaults
    return node


def _nullable_when_optional(schema: dict[str, Any], model: type[BaseModel] | None) -> None:
    """A field given as null reads as absent (design.model): every optional field takes null, except those where
    null means something of its own (``_nullable``), whose schema says what they take."""
    required = set(schema.get("required", ()))
    special: frozenset[str] = getattr(model, "_nullable", frozenset())
    for name, prop in schema.get("properties", {}).items():
        if name in required or name in special or prop.get("nullable"):
            continue
        if "$ref" in prop:
            schema["properties"][name] = {"allOf": [{"$ref": prop.pop("$ref")}], **prop}
        schema["properties"][name]["nullable"] = True


def design_model_schema(
    model: type[BaseModel], direction: str, register: Callable[[str, dict[str, Any]], None]
) -> dict[str, Any]:
    """The OpenAPI 3.0 schema of a design.model class; its nested models go to ``register(name, schema)``."""
    classes = _models(model)

    def rename(name: str) -> str:
        return _component_name(name, direction)

    raw = model_json_schema(model, ref_template="#/components/schemas/{model}", mode="validation")
    for name, sub in raw.pop("$defs", {}).items():
        converted = _as_openapi_30(sub, rename)
        _nullable_when_optional(converted, classes.get(name))
        register(rename(name), converted)
    schema = _as_openapi_30(raw, rename)
    _nullable_when_optional(schema, model)
    return schema


class DesignModelExtension(OpenApiSerializerExtension):
    """The design and the fabric-plan request in the schema are generated from the typed model that parses them
    (design.model), so the schema says exactly what the parser takes."""

    target_class = "design.model.base._Part"
    match_subclasses = True
    priority = 1  # before drf_spectacular.contrib.pydantic

    def get_name(self, auto_schema: AutoSchema, direction: Direction) -> str:
        return _component_name(self.target.__name__, "response")  # drf-spectacular adds "Request" itself

    def map_serializer(self, auto_schema: AutoSchema, direction: Direction) -> dict[str, Any]:
        def register(name: str, schema: dict[str, Any]) -> None:
            component = ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, object=name, schema=schema)
            auto_schema.registry.register_on_missing(component)

        return design_model_schema(self.target, direction, register)
