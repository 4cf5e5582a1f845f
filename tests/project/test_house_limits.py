"""The house checks itself: no module of the product over 600 lines, no function over 60 (from its ``def`` line to
its last, decorators aside). The product is every package setuptools ships (pyproject.toml), less migrations; the
tests and the benchmarks (bench/) are no product. There is no allow-list: a module or function over the limit
is split before it lands. Untyped records (``dict[str, Any]``) stay under a budget that only goes down: a value read
from or written to JSON is a ``JsonObject`` (design/jsontext.py), anything else a typed record."""

from __future__ import annotations

import ast
import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_SHIPPED = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
PACKAGES = sorted(
    path.name
    for path in ROOT.iterdir()
    if (path / "__init__.py").exists() and any(fnmatch.fnmatch(path.name, pattern) for pattern in _SHIPPED)
)
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60
# ``dict[str, Any]`` in the product: 379 when the house's third step began; what is left are the Django and DRF
# signatures (a form's clean, a serializer's to_representation), template contexts and the OpenAPI schema's hooks.
MAX_UNTYPED_RECORDS = 91
UNTYPED = "dict[str, Any]"


def _modules() -> list[Path]:
    return sorted(
        path
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.relative_to(ROOT).parts
    )


def _over_the_limits(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    over: list[tuple[str, int]] = []
    lines = len(text.splitlines())
    if lines > MAX_MODULE_LINES:
        over.append(("module", lines))
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                over.append((node.name, length))
    name = path.relative_to(ROOT).as_posix()
    return [f"{name}: {what} has {n} lines" for what, n in over]


def test_no_module_over_600_lines_and_no_function_over_60():
    over = [problem for path in _modules() for problem in _over_the_limits(path)]
    assert not over, "over the house limits (split them):\n" + "\n".join(over)


def test_the_walk_sees_the_product():
    names = {path.relative_to(ROOT).as_posix() for path in _modules()}
    assert {"design", "engines", "configurator", "catalog", "api", "quotes", "web"} <= set(PACKAGES)
    assert {"design/model/document.py", "engines/node/workload.py", "web/views/quote.py"} <= names
    assert not any("/migrations/" in name or name.startswith(("tests/", "bench/")) for name in names)


def test_untyped_records_stay_under_their_budget():
    counts = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8").count(UNTYPED) for path in _modules()}
    total = sum(counts.values())
    worst = sorted(((n, name) for name, n in counts.items() if n), reverse=True)[:10]
    assert total <= MAX_UNTYPED_RECORDS, (
        f"{total} {UNTYPED} in the product, over the budget of {MAX_UNTYPED_RECORDS}: type the record (a dataclass or a"
        " TypedDict), or name JSON read or written JsonObject. Most in: "
        + ", ".join(f"{name} {n}" for n, name in worst)
    )
