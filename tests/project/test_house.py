"""The tests mirror the packages: every folder under tests/ names a package of the product (tests/engines/racks/
tests engines.racks, tests/configurator/ the configurator), so the tests of a module are found where the module
is. tests/e2e/ is the one exception: browser tests are a kind of test, not a package (they drive the wizard
through every floor). Shared helpers (factories, the result validator, the Redis server) sit at tests/ itself,
beside the root conftest.py; no test module does."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
KINDS = {"e2e"}  # folders named for a kind of test, not a package
HELPERS = {"__init__.py", "conftest.py", "factories.py", "results.py", "redis_server.py"}


def _test_folders() -> list[Path]:
    return sorted(
        folder
        for folder in TESTS.rglob("*")
        if folder.is_dir()
        and folder.name != "__pycache__"
        and not folder.name.startswith(".")
        and folder.relative_to(TESTS).parts[0] not in KINDS
        and any(folder.glob("*.py"))
    )


def test_every_test_folder_names_a_package_that_exists():
    strays = [
        f"tests/{folder.relative_to(TESTS).as_posix()}/"
        for folder in _test_folders()
        if not (ROOT.joinpath(*folder.relative_to(TESTS).parts) / "__init__.py").exists()
    ]
    assert strays == [], (
        f"test folders that name no package: {strays}; move their tests under the folder of the package they test "
        "(tests/<package>/<subpackage>/), or name a new kind of test in KINDS"
    )


def test_every_test_folder_is_a_package_so_equal_file_names_do_not_clash():
    missing = [
        f"tests/{folder.relative_to(TESTS).as_posix()}/__init__.py"
        for folder in [*_test_folders(), TESTS]
        if not (folder / "__init__.py").exists()
    ]
    assert missing == [], f"add the empty files {missing}"


def test_no_test_module_lies_loose_in_tests():
    loose = sorted(path.name for path in TESTS.glob("*.py") if path.name not in HELPERS)
    assert loose == [], f"tests/ holds only shared helpers; move {loose} under the folder of the package they test"
