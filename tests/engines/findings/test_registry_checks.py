"""The rule catalogue names, for every code, the checks that emit it: each name must be a real function of the
engines, so the page never points a reader at code that has moved or gone."""

from __future__ import annotations

import importlib
import sys

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


def _parameter_classes() -> list[type]:
    from engines.findings.params import Params

    found, todo = [], list(Params.__subclasses__())
    while todo:
        kind = todo.pop()
        # a slotted dataclass is a new class: the one it replaced may linger among the subclasses until collected
        # a class without a CODE of its own holds the fields its codes' classes share
        real = getattr(sys.modules[kind.__module__], kind.__qualname__, None) is kind
        if real and "CODE" in vars(kind) and kind not in found:
            found.append(kind)
        todo += kind.__subclasses__()
    return found


def test_every_code_has_exactly_one_parameter_class_and_its_renderer_takes_it():
    import inspect
    import typing

    from messages import PARAMS, RENDERERS

    classes = _parameter_classes()
    codes = [kind.CODE for kind in classes]
    assert sorted(code for code in set(codes) if codes.count(code) > 1) == [], "codes with two parameter classes"
    assert sorted(set(codes) - set(REGISTRY)) == [], "parameter classes of codes the registry does not know"
    assert sorted(set(REGISTRY) - set(codes)) == [], "registered codes without a parameter class"
    for kind in classes:
        assert PARAMS.get(kind.CODE) is kind, f"{kind.CODE}: no renderer registered for {kind.__name__}"
        renderer = RENDERERS[kind.CODE]
        first = next(iter(inspect.signature(renderer).parameters))
        accepted = typing.get_type_hints(renderer)[first]
        assert kind in (typing.get_args(accepted) or (accepted,)), f"{kind.CODE}: its renderer does not take it"
