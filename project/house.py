"""The README's layout, generated from the code: the table of packages (modules and lines of Python) and the list
of import contracts (from pyproject.toml), each between two markers in README.md.

    .venv/bin/python -m project.house            # rewrites README.md between the markers
    .venv/bin/python -m project.house --check    # exits 1 and says which part differs (tests/project/test_readme.py)

Plain Python (no Django): a package is a top-level folder with an ``__init__.py`` (tests/ left out), its
subpackages are the folders with an ``__init__.py`` directly below it (migrations counted in their app's line).
A package added to the house is picked up as it is.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
NOT_PACKAGES = {"tests"}
FOLDED = {"migrations"}  # counted in their package's line, not a line of their own
REGENERATE = ".venv/bin/python -m project.house"


@dataclass(frozen=True)
class Count:
    name: str  # "engines/" or "engines/node/"
    modules: int
    lines: int


def _python_files(folder: Path) -> list[Path]:
    return [path for path in folder.rglob("*.py") if "__pycache__" not in path.parts]


def _count(folder: Path, root: Path) -> Count:
    files = _python_files(folder)
    lines = sum(path.read_bytes().count(b"\n") for path in files)
    return Count(folder.relative_to(root).as_posix() + "/", len(files), lines)


def packages(root: Path = ROOT) -> list[Path]:
    """The top-level packages of the product."""
    return sorted(
        folder
        for folder in root.iterdir()
        if folder.is_dir() and folder.name not in NOT_PACKAGES and (folder / "__init__.py").is_file()
    )


def subpackages(package: Path) -> list[Path]:
    return sorted(
        folder
        for folder in package.iterdir()
        if folder.is_dir() and folder.name not in FOLDED and (folder / "__init__.py").is_file()
    )


def _number(value: int) -> str:
    return f"{value:,}"


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "–"


def layout_table(root: Path = ROOT) -> str:
    """The table of packages: each with its modules, lines and share of all lines, largest first; its subpackages
    (largest first) below it."""
    tops = [(_count(package, root), package) for package in packages(root)]
    tops.sort(key=lambda item: (-item[0].lines, item[0].name))
    total_modules = sum(count.modules for count, _ in tops)
    total_lines = sum(count.lines for count, _ in tops)
    rows = ["| package | modules | lines | share |", "|---|---:|---:|---:|"]

    def row(count: Count, indent: str = "") -> str:
        share = _share(count.lines, total_lines)
        return f"| {indent}`{count.name}` | {count.modules} | {_number(count.lines)} | {share} |"

    for count, package in tops:
        rows.append(row(count))
        subs = sorted((_count(sub, root) for sub in subpackages(package)), key=lambda c: (-c.lines, c.name))
        rows.extend(row(sub, indent="&nbsp;&nbsp;") for sub in subs)
    rows.append(f"| total | {total_modules} | {_number(total_lines)} | |")
    names = ", ".join(f"`{count.name}`" for count, _ in tops)
    return (
        f"{len(tops)} top-level packages ({names}). Lines of Python per package, migrations included, tests and "
        "bench/ left out (no package should hold more than 40 %); a subpackage's lines are part of its package's:\n\n"
        + "\n".join(rows)
    )


def _modules(names: Iterable[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _contract(contract: dict[str, Any]) -> str:
    kind = contract["type"]
    if kind == "layers":
        layers = " › ".join(" \\| ".join(f"`{m.strip()}`" for m in layer.split("|")) for layer in contract["layers"])
        text = f"layers, each importing only those after it: {layers}"
    elif kind == "forbidden":
        text = f"{_modules(contract['source_modules'])} never import {_modules(contract['forbidden_modules'])}"
        if contract.get("allow_indirect_imports"):
            text += " directly"
    elif kind == "acyclic_siblings":
        text = f"no cycle among the modules and subpackages of each of {_modules(contract['ancestors'])}"
    elif kind == "independence":
        text = f"{_modules(contract['modules'])} import nothing of each other"
    else:
        text = kind
    if contract.get("ignore_imports"):
        text += "; except " + _modules(contract["ignore_imports"])
    return f"- **{contract['name']}**: {text}."


def contract_list(root: Path = ROOT) -> str:
    """The import contracts of pyproject.toml, in its order."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    contracts = config["contracts"]
    head = (
        f"{len(contracts)} import contracts in `pyproject.toml` (`lint-imports`, run by `.ci/run`), over "
        f"{_modules(config['root_packages'])}:\n\n"
    )
    return head + "\n".join(_contract(contract) for contract in contracts)


SECTIONS = {"layout": layout_table, "contracts": contract_list}


def _marked(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- {name}:start -->)(.*?)(<!-- {name}:end -->)", re.DOTALL)


def _section(name: str, text: str) -> str:
    match = _marked(name).search(text)
    if match is None:
        raise ValueError(f"README.md has no <!-- {name}:start --> … <!-- {name}:end --> section")
    return match[2]


def _filled(body: str) -> Callable[[re.Match[str]], str]:
    return lambda match: match[1] + body + match[3]


def render(text: str, root: Path = ROOT) -> str:
    """The README with every marked section generated afresh."""
    for name, build in SECTIONS.items():
        _section(name, text)
        text = _marked(name).sub(_filled("\n" + build(root) + "\n"), text)
    return text


def stale_sections(text: str, root: Path = ROOT) -> list[str]:
    """The names of the marked sections that differ from what the code says."""
    fresh = render(text, root)
    return [name for name in SECTIONS if _section(name, text) != _section(name, fresh)]


def main(argv: list[str]) -> int:
    text = README.read_text(encoding="utf-8")
    if "--check" in argv:
        stale = stale_sections(text)
        if stale:
            print(f"README.md: {', '.join(stale)} out of date; run {REGENERATE}", file=sys.stderr)
            return 1
        return 0
    fresh = render(text)
    if fresh != text:
        README.write_text(fresh, encoding="utf-8")
        print("README.md: regenerated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
