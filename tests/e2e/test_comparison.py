"""In a real browser: a workload's alternatives side by side, starting a new draft from one of them, comparing two of
one's own drafts and continuing with either, and the table on a phone (it scrolls sideways, with a cue)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000


def _start_from_home(page, base_url: str, params: str, nodes: str = "") -> str:
    """Start a draft from the home page's goal form, as a customer does; returns its token."""
    page.goto(base_url)
    page.get_by_label("Training").check()
    page.get_by_label("Model size (billions of parameters)").fill(params)
    if nodes:
        page.get_by_label("Number of servers (optional)").fill(nodes)
    page.get_by_role("button", name="Recommend a design").click()
    expect(page).to_have_url(re.compile(r"/d/[-\w]+/goal/$"))
    return re.search(r"/d/([-\w]+)/goal/$", page.url).group(1)


def test_a_customer_compares_the_alternatives_and_starts_from_the_next_generation(
    live_server, catalog_ready, page, shots
):
    token = _start_from_home(page, live_server.url, "8")  # 8B training fits a Hopper node: a next generation exists
    page.get_by_role("link", name=re.compile("Compare with alternatives side by side")).click()
    expect(page).to_have_url(re.compile(rf"/d/{token}/alternatives/$"))
    table = page.locator("#comparison")
    expect(table).to_be_visible(timeout=TIMEOUT)
    shots.take(page, "alternatives")
    headers = table.locator("thead th[data-key]")
    assert 3 <= headers.count() <= 4
    expect(headers.first).to_contain_text("Recommended")
    for row in ("Net price", "GPU memory", "NVLink per GPU", "Fabric per GPU", "Power", "Racks", "Findings"):
        expect(table.locator("tbody th", has_text=row)).to_have_count(1)
    column = [headers.nth(i).get_attribute("data-key") for i in range(headers.count())].index("next_generation")
    gpus_cell = table.locator("tr.row-gpus td").nth(column)
    expect(gpus_cell).to_contain_text("HGX-B200-8GPU")

    table.locator("tfoot td").nth(column).get_by_role("button", name="Start from this design").click()
    expect(page).to_have_url(re.compile(r"/d/[-\w]+/platform/$"))
    assert f"/d/{token}/" not in page.url  # a new draft; the one the customer came from is kept
    expect(page.get_by_role("radio", name=re.compile("^HGX-B200-8GPU "))).to_be_checked()
    shots.take(page, "started")

    page.goto(live_server.url)
    expect(page.locator("#compare-drafts")).to_be_visible()  # two drafts now: the comparison is offered


def test_a_customer_compares_two_of_their_drafts_and_continues_with_the_second(live_server, catalog_ready, page, shots):
    first = _start_from_home(page, live_server.url, "70")
    page.get_by_role("button", name=re.compile("Use this design")).click()
    expect(page).to_have_url(re.compile(r"/platform/$"))
    second = _start_from_home(page, live_server.url, "405")
    page.get_by_role("button", name=re.compile("Use this design")).click()
    expect(page).to_have_url(re.compile(r"/platform/$"))

    page.goto(live_server.url)
    page.locator("#compare-drafts").click()
    page.get_by_label("First design").select_option(first)
    page.get_by_label("Second design").select_option(second)
    page.get_by_role("button", name="Compare", exact=True).click()
    table = page.locator("#comparison")
    expect(table.locator("thead th[data-key=draft]")).to_have_count(2)
    expect(table.locator("tr.row-price td").first).to_contain_text("€")
    expect(table.locator("tr.row-fabric td").nth(1)).to_contain_text("InfiniBand")  # 405B: a cluster
    shots.take(page, "drafts")

    table.locator("tfoot td").nth(1).get_by_role("link", name="Continue with this design").click()
    expect(page).to_have_url(re.compile(rf"/d/{second}/\w+/$"))

    # another browser has none of these drafts: it cannot compare them
    other = page.context.browser.new_context()
    try:
        response = other.new_page().goto(f"{live_server.url}/compare/?a={first}&b={second}")
        assert response.status == 404
    finally:
        other.close()


def test_the_comparison_fits_a_phone_and_scrolls_sideways_with_a_cue(live_server, catalog_ready, browser, shots):
    from configurator.services import configuration_create

    config = configuration_create(
        document={
            "schema": "design/v1",
            "name": "Training 405B",
            "workload": {"kind": "training", "model_parameters_billion": 405},
            "node_groups": [],
        }
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/d/{config.token}/alternatives/")
        shots.take(page, "phone-alternatives")
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 1
        expect(page.locator(".scroll-cue")).to_be_visible()
        wrap = page.locator(".table-wrap.scrolls")
        assert wrap.evaluate("e => e.scrollWidth > e.clientWidth")  # the designs scroll inside their frame
        wrap.evaluate("e => e.scrollLeft = e.scrollWidth")
        label = page.locator("#comparison tbody th", has_text="Net price")
        box = label.bounding_box()
        assert box is not None and box["x"] >= 0  # the figure names stay in view while the designs scroll
    finally:
        context.close()
