"""The rule catalogue names, for every code, the checks that emit it: each name must be a real function of the
engines, so the page never points a reader at code that has moved or gone."""

from __future__ import annotations

import importlib

import pytest

from engines.findings import REGISTRY


def _resolve(name: str) -> object:
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            target = getattr(target, attribute)
        return target
    raise ModuleNotFoundError(name)


@pytest.mark.parametrize("code", sorted(REGISTRY))
def test_every_check_named_in_the_registry_is_a_function_of_the_engines(code):
    for name in REGISTRY[code].checks:
        assert callable(_resolve(name)), (code, name)


def test_every_registered_code_has_a_message_and_a_fix():
    from messages import RENDERERS

    assert sorted(set(REGISTRY) - set(RENDERERS)) == [], "registered codes without a renderer in messages/"
