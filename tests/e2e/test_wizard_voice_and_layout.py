"""In a real browser: a Dutch visitor walks every step and reads no English, arrow keys move through a radio group
without saving each option they pass, and a phone shows the price and verdict at the top and a BOM that fits."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.web.pages import list_total
from tests.web.test_dutch_throughout import _leaks

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000


def _config(document=None):
    from configurator.services import configuration_create
    from tests.web.pages import H200_CLUSTER

    return configuration_create(document=document or H200_CLUSTER)


def test_a_dutch_walk_through_every_step_shows_no_english(live_server, catalog_ready, page, shots):
    config = _config()
    page.goto(f"{live_server.url}/d/{config.token}/goal/")
    page.locator("#lang-select").select_option("nl")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    for step, title in [
        ("goal", "Doel"),
        ("platform", "Platform"),
        ("adapters", "Adapters"),
        ("fabric", "Fabric"),
        ("review", "Controle"),
        ("quote", "Offerte"),
    ]:
        page.goto(f"{live_server.url}/d/{config.token}/{step}/")
        expect(page.locator("#step-title")).to_contain_text(title)
        shots.take(page, step)
        text = page.locator("body").inner_text()
        assert not _leaks(text), f"{step}: {_leaks(text)}"
    page.goto(f"{live_server.url}/d/{config.token}/fabric/")
    expect(page.locator(".diagram svg")).to_contain_text("node–leaf-verbindingen")


def test_arrow_keys_move_through_a_radio_group_without_saving_each_option(live_server, catalog_ready, page, shots):
    config = _config()
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.goto(f"{live_server.url}/d/{config.token}/fabric/")
    page.get_by_role("radio", name=re.compile("^MQM9700-NS2F ")).focus()
    for key in ("ArrowDown", "ArrowDown", "ArrowUp"):  # MQM9790, Q3400-RA, back to MQM9790
        page.keyboard.press(key)
    page.wait_for_timeout(600)
    assert posts == []  # passing options saved nothing
    page.keyboard.press("Space")  # confirming the one reached saves it
    # MQM9790: unmanaged
    expect(page.locator('#findings li[data-code="FABRIC_SM_REQUIRED"]')).to_be_visible(timeout=TIMEOUT)
    assert len(posts) == 1
    config.refresh_from_db()
    assert config.document["fabric"]["switch"] == "MQM9790-NS2F"
    shots.take(page, "after-keys")


def test_a_click_on_a_radio_still_saves_at_once(live_server, catalog_ready, page):
    config = _config()
    page.goto(f"{live_server.url}/d/{config.token}/fabric/")
    page.get_by_role("radio", name=re.compile("^MQM9790-NS2F ")).check()
    expect(page.locator('#findings li[data-code="FABRIC_SM_REQUIRED"]')).to_be_visible(timeout=TIMEOUT)


def test_a_phone_shows_price_and_verdict_at_the_top_and_a_bom_that_fits(live_server, catalog_ready, browser, shots):
    config = _config()
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/d/{config.token}/review/")
        compact = page.locator("#compact-summary")
        expect(compact).to_be_visible()
        expect(compact).to_contain_text(f"€ {list_total(config):,.2f}")
        # What a quote request gets, by the quote policy: this design has no warnings, so its amount decides
        above = list_total(config) > Decimal(str(settings.QUOTE_INSTANT_LIMIT_EUR))
        expect(compact).to_contain_text("Reviewed first (above" if above else "Ready to quote: issued at once")
        assert compact.bounding_box()["y"] < 844  # on the first screen
        wrap = page.locator(".bom-wrap")
        assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")  # stacked lines: the prices need no scrolling
        expect(page.locator("table.bom tfoot")).to_contain_text("€")
        page.mouse.wheel(0, 4000)
        assert compact.bounding_box()["y"] >= -1  # sticky: still reachable at the top after scrolling
        shots.take(page, "phone")
        # On a wide screen the side panel shows the summary, so the compact one is hidden
        page.set_viewport_size({"width": 1280, "height": 900})
        expect(compact).to_be_hidden()
        route = page.locator("#quote-route")
        expect(route).to_be_visible()
        expect(route).to_contain_text("a sales engineer reviews it first" if above else "issued at once")
    finally:
        context.close()
