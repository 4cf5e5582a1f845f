"""Helpers for drf-spectacular settings: enum choice sets named once (see SPECTACULAR_SETTINGS)."""

from design.contract import ROLES
from design.vocabulary import Connector, Protocol, Top


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


def _no_nul(schema) -> None:
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


def postprocess_request_strings(result, generator, request, public):
    """Say in the schema what the server enforces beyond the serializers' fields: request strings never hold a
    NUL character (api.parsers), and a quote request names a configuration or a design, not both."""
    schemas = result.get("components", {}).get("schemas", {})
    for name, component in schemas.items():
        if name.endswith("Request"):
            _no_nul(component)
    for name, fields in EXACTLY_ONE_OF.items():
        if name in schemas:
            schemas[name]["oneOf"] = [{"required": [field]} for field in fields]
    return result
