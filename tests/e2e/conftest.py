"""Browser tests: Playwright drives the system's Chromium against pytest-django's live server.

Chromium missing: the tests skip with the reason, unless CI is set (then they fail: CI must run them).
Each test may call ``shots.take(page, name)`` after every step; when the test fails, those screenshots and
a final one are written to test-artifacts/<test name>/ (gitignored). E2E_SCREENSHOTS=always keeps them for passing
tests too.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop

# A live update that recommends a design for a 405B model validates several candidates; on a loaded two-core
# machine that answer can take longer than Playwright's default 5 s, so assertions wait up to 15 s for the page.
with contextlib.suppress(ImportError):
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    executable = shutil.which("chromium")
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed, and CI must run the browser tests")
        pytest.skip("chromium is not installed (apt-get install chromium); browser tests skipped")
    return {**browser_type_launch_args, "executable_path": executable, "args": CHROMIUM_ARGS, "headless": True}


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}, "locale": "en-GB"}


class Shots:
    def __init__(self) -> None:
        self.taken: list[tuple[str, bytes]] = []
        self.pages: list = []

    def take(self, page, name: str) -> None:
        if page not in self.pages:
            self.pages.append(page)
        with contextlib.suppress(Exception):  # a screenshot is evidence, never the cause of a failure
            self.taken.append((name, page.screenshot(full_page=True)))


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture
def shots(request):
    s = Shots()
    yield s
    report = getattr(request.node, "rep_call", None)
    always = os.environ.get("E2E_SCREENSHOTS") == "always"  # for reviewing the look of every step
    if report is not None and (report.failed or always):
        folder = ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.nodeid)
        folder.mkdir(parents=True, exist_ok=True)
        for i, (name, data) in enumerate(s.taken):
            (folder / f"{i:02d}-{name}.png").write_bytes(data)
        for i, page in enumerate(s.pages):
            try:
                page.screenshot(path=str(folder / f"failure-{i}.png"), full_page=True)
                (folder / f"failure-{i}.html").write_text(page.content())
            except Exception:  # noqa: BLE001
                pass


@pytest.fixture
def catalog_ready(transactional_db, seeded_catalog):
    """The live server runs in another thread, so tests use real transactions and reload the seed."""
    from web.selectors import catalog_forget

    catalog_forget()
    return seeded_catalog
