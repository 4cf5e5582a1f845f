"""Helpers for drf-spectacular settings: enum choice sets named once (see SPECTACULAR_SETTINGS)."""

from configurator.rules.specs import Connector, Top


def connector_choices() -> list[tuple[str, str]]:
    return [(c.value, c.value) for c in Connector]


def top_choices() -> list[tuple[str, str]]:
    return [(t.value, t.value) for t in Top]
