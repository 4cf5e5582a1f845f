"""The README says what the code says: its table of packages and its list of import contracts are generated
(project/house.py), every file and folder it names exists, and the rule recipe names every module a rule is
written in."""

from __future__ import annotations

import re
from pathlib import Path

from project import house

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
REGENERATE = f"run `{house.REGENERATE}` to regenerate them"

# Files a recipe tells the reader to create (the German of "A new language"): named, not there yet.
TO_CREATE = {
    "locale/de/LC_MESSAGES/django.po",
    "quotes/locale/de/LC_MESSAGES/django.po",
    "project/formats/de/formats.py",
}
NOT_FILES = {"design.json"}  # the reader's own file in a command line
FILE = re.compile(r"[\w.<>*-]+\.(?:py|json|md|po|txt|yml|yaml|toml|cfg|html)")


def _words_in_backticks(text: str) -> list[str]:
    return [word.strip("\"'(),;:") for quoted in re.findall(r"`([^`\n]+)`", text) for word in quoted.split()]


def _exists(path: str) -> bool:
    """A path, with ``<placeholder>`` parts standing for any name."""
    pattern = re.sub(r"<[^>]+>", "*", path).rstrip("/")
    return any(ROOT.glob(pattern)) if "*" in pattern else (ROOT / pattern).exists()


def _named_paths(text: str) -> tuple[list[str], list[str]]:
    """(paths the text names that do not exist, file names that exist in none of the folders named just before)."""
    tops = {path.name for path in ROOT.iterdir()}
    missing, unplaced = [], []
    folders: list[str] = [""]  # the repository root, then the folders named so far, the latest last
    for word in _words_in_backticks(text):
        if "/" in word and word.split("/")[0] in tops:
            if word not in TO_CREATE and not _exists(word):
                missing.append(word)
            folder = word if word.endswith("/") else word.rsplit("/", 1)[0] + "/"
            folders = [folder for folder in folders if folder != word] + [folder]
        elif (
            word not in NOT_FILES
            and FILE.fullmatch(word)
            and not any(_exists(folder + word) for folder in ["", *folders[-3:]])
        ):
            unplaced.append(word)
    return missing, unplaced


def test_the_layout_table_and_the_contract_list_are_the_codes():
    stale = house.stale_sections(README)
    assert stale == [], f"README.md's {' and '.join(stale)} differ from the code and pyproject.toml; {REGENERATE}"


def test_every_file_and_folder_the_readme_names_exists():
    missing, unplaced = _named_paths(README)
    assert missing == [], f"README.md names paths that do not exist: {missing}"
    assert unplaced == [], (
        f"README.md names files that are in none of the folders named just before them: {unplaced}; "
        "name their folder (or their whole path) first"
    )


def test_the_rule_recipe_names_every_module_a_rule_is_written_in():
    """A rule is a code (engines/findings/*codes.py), a registry entry (engines/findings/*_rules.py) and a check in
    an engine (engines/<engine>/): the recipe names them all, so a reader adding a rule misses none."""
    recipe = README[README.index("**A rule**") : README.index("**A door**")]
    findings = ROOT / "engines" / "findings"
    modules = sorted(path.name for path in findings.glob("*.py") if path.stem.endswith(("codes", "_rules")))
    engines = sorted(
        f"engines/{path.parent.name}/"
        for path in (ROOT / "engines").glob("*/__init__.py")
        if path.parent.name != "findings"
    )
    unnamed = [name for name in modules + engines if name not in recipe]
    assert unnamed == [], f"README.md's rule recipe (### Adding a part kind, a rule or a door) leaves out {unnamed}"


def test_the_floor_picture_shows_every_package():
    picture = README[README.index("## Layout") :].split("```")[1]
    unshown = [name for name in (package.name for package in house.packages()) if f"{name}/" not in picture]
    assert unshown == [], f"README.md's floor picture (## Layout) leaves out {unshown}"


def test_a_stale_section_is_found_and_regenerated():
    text = "<!-- layout:start -->\nold\n<!-- layout:end -->\n<!-- contracts:start --><!-- contracts:end -->"
    assert house.stale_sections(text) == ["layout", "contracts"]
    fresh = house.render(text)
    assert house.stale_sections(fresh) == []
    assert "| total |" in fresh and "import contracts in `pyproject.toml`" in fresh


def test_every_benchmark_has_a_row_with_its_target():
    """Every script of bench/ a person runs (not the ``_``-prefixed helpers) is in the README's table of benchmarks,
    and every row names a script that exists."""
    table = README.split("| script | what it measures | target |", 1)[1].split("\n\n", 1)[0]
    rows = set(re.findall(r"^\| `(\w+\.py)` \|", table, flags=re.M))
    scripts = {p.name for p in (ROOT / "bench").glob("*.py") if not p.name.startswith("_")}
    assert not scripts - rows, f"bench scripts without a row in the README's table: {sorted(scripts - rows)}"
    assert not rows - scripts, f"rows for bench scripts that do not exist: {sorted(rows - scripts)}"
