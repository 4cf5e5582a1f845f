"""JSON objects that name a key twice are refused, at every door that reads JSON (the API's parser, the CLI).

Python's json keeps the last of two equal keys: ``{"count": 1, "count": 100000}`` would quietly order 100,000 nodes.
``object_pairs_hook=KeepDuplicates()`` builds each object as usual and marks one that repeated a key; after parsing,
``duplicate_key_path`` names where (``node_groups[0].count``), so the door can refuse it naming the field.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

JsonObject = dict[str, Any]
"""A JSON object as read from or written to JSON text: a design document as received, a result's ``to_json()``/
``to_dict()``, a stored JSON field's value, an API payload. Only for values that cross such an edge; a structure passed
between functions gets its own type (a dataclass or a TypedDict)."""


class DuplicatedKeys(dict[str, Any]):
    """A JSON object that named ``duplicate`` more than once (the last value kept, as json does)."""

    duplicate: str = ""


class KeepDuplicates:
    """``object_pairs_hook`` for one parse: builds each object as json does, marks one that repeated a key, and
    remembers whether any did (``found``), so a document without repeats is never walked again."""

    def __init__(self) -> None:
        self.found = False

    def __call__(self, pairs: list[tuple[str, Any]]) -> JsonObject:
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


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"number {text[:40]} is out of range")
    return value


def _reject(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number in JSON")


def load_json(path: str, stdin: Any) -> object:
    """Read and parse JSON from a file or ``-`` (stdin); raise ValueError with a readable reason."""
    raw: str | bytes
    try:
        if path == "-":
            raw = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read()
        else:
            with open(path, "rb") as handle:
                raw = handle.read()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ValueError(f"{path}: not UTF-8 text") from exc
    duplicates = KeepDuplicates()
    try:
        document = json.loads(raw, parse_constant=_reject, parse_float=_finite, object_pairs_hook=duplicates)
    except RecursionError as exc:
        raise ValueError(f"{path}: JSON nested too deeply") from exc
    except ValueError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc})") from exc
    if duplicates.found and (duplicated := duplicate_key_path(document)):
        raise ValueError(f"{path}: {duplicated} appears more than once in one object; name each key once")
    return document
