"""Waiting on the page's live updates in browser tests."""

from __future__ import annotations

from playwright.sync_api import expect


def settled(page) -> None:
    """No live update in flight or being swapped in: what is typed next is not redrawn by a late response.

    (Playwright's "networkidle" load state only describes the page load, not the requests htmx makes after it.)
    """
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
