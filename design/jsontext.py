"""JSON objects that name a key twice are refused, at every door that reads JSON (the API's parser, the CLI).

Python's json keeps the last of two equal keys: ``{"count": 1, "count": 100000}`` would quietly order 100,000 nodes.
``object_pairs_hook=KeepDuplicates()`` builds each object as usual and marks one that repeated a key; after parsing,
``duplicate_key_path`` names where (``node_groups[0].count``), so the door can refuse it naming the field.
"""

from __future__ import annotations

from typing import Any


class DuplicatedKeys(dict[str, Any]):
    """A JSON object that named ``duplicate`` more than once (the last value kept, as json does)."""

    duplicate: str = ""


class KeepDuplicates:
    """``object_pairs_hook`` for one parse: builds each object as json does, marks one that repeated a key, and
    remembers whether any did (``found``), so a document without repeats is never walked again."""

    def __init__(self) -> None:
        self.found = False

    def __call__(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) == len(pairs):
            return obj
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                break
            seen.add(key)
        marked = DuplicatedKeys(obj)
        marked.duplicate = key
        self.found = True
        return marked


def join_path(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def duplicate_key_path(value: Any, path: str = "") -> str | None:
    """The path of the first key named twice in a parsed document, or None."""
    if isinstance(value, DuplicatedKeys):
        return join_path(path, value.duplicate)
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in children:
        if isinstance(item, dict | list) and (found := duplicate_key_path(item, join_path(path, key))):
            return found
    return None
