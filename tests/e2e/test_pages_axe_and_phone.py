"""Every kind of page in a real browser, on a desktop and on a 390 px phone, in English and Dutch: axe-core (vendored
in tests/e2e/axe, injected into each page) finds no serious, moderate or critical violation; the review step asks what
the site already has and which services the buyer wants, and the offer says what it leaves out; on a phone the bill
reads as stacked lines with the total in view, and a refused quote form puts its error summary at the top and the
focus on it; on a 1,440 px screen the rack elevation fits its column."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.web.pages import CUSTOMER

pytestmark = pytest.mark.e2e

AXE = Path(__file__).parent / "axe" / "axe.min.js"
BLOCKING = ("critical", "serious", "moderate")
PASSWORD = "correct-horse-battery"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
WORDS = {
    "en": {
        "review": "Review",
        "site": "What the site already has",
        "left_out": "Not in this offer:",
        "login": "Log in",
    },
    "nl": {
        "review": "Controle",
        "site": "Wat de locatie al heeft",
        "left_out": "Niet in deze offerte:",
        "login": "Inloggen",
    },
}


def axe_violations(page) -> list[str]:
    """axe-core's violations of the page as it stands, of the impacts that fail the suite, one line each."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        f"{v['id']} ({v['impact']}): {', '.join(str(n['target']) for n in v['nodes'][:3])}"
        for v in found
        if v["impact"] in BLOCKING
    ]


class Walk:
    """One browser context (viewport, language) and the axe findings of every page it visits."""

    def __init__(self, page, base: str, shots) -> None:
        self.page, self.base, self.shots = page, base, shots
        self.violations: dict[str, list[str]] = {}

    def visit(self, name: str, path: str) -> None:
        self.page.goto(self.base + path)
        self.check(name)

    def check(self, name: str) -> None:
        self.shots.take(self.page, name)
        if found := axe_violations(self.page):
            self.violations[name] = found


def _designs():
    from configurator.services import configuration_create
    from tests.web.pages import H200_CLUSTER

    one = copy.deepcopy(H200_CLUSTER)
    one["node_groups"][0]["count"] = 1
    one["fabric"] = None
    wide = copy.deepcopy(H200_CLUSTER)
    wide["node_groups"][0]["count"] = 32  # three distinct racks: compute, leaf and spine
    nvl72 = {
        "schema": "design/v1",
        "name": "Two GB300 racks",
        "node_groups": [{"name": "nvl", "count": 2, "server": "SRS-GB300-NVL72", "components": []}],
        "fabric": {"switch": "Q3400-RA"},
    }
    return (
        configuration_create(document=copy.deepcopy(H200_CLUSTER)),
        configuration_create(document=one),
        configuration_create(document=nvl72),
        configuration_create(document=copy.deepcopy(H200_CLUSTER)),
        configuration_create(document=wide),
    )


def _quote(config):
    from quotes.services import quote_request

    customer = {k: v for k, v in CUSTOMER.items() if k not in ("street", "postal_code", "city", "action")}
    return quote_request(configuration=config, customer=customer, channel="web")


def _staff(django_user_model):
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("sven", "sven@ncs.nl", PASSWORD, is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename="issue_quote"))


def _bill_reads_as_stacked_lines(page) -> None:
    """At 390 px each line of the bill shows its part, quantity and line total within the screen's width, on the
    same few rows, and the page does not scroll sideways."""
    line = page.locator("table.bom tr.line").first
    box = line.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    for cell in ("th.part", "td.qty", "td.total"):
        part = line.locator(cell).bounding_box()
        assert part["x"] >= 0 and part["x"] + part["width"] <= PHONE["width"], (cell, part)
        assert box["y"] <= part["y"] <= box["y"] + box["height"], (cell, part, box)
    assert line.locator("td.qty").inner_text().split(":")[-1].strip()  # "Qty: 8", its label with it
    # In every line no cell covers another, none leaves the screen, and a part number keeps room to be read.
    faults = page.evaluate(
        """() => [...document.querySelectorAll('table.bom tr.line')].flatMap(tr => {
          const cells = [...tr.children].map(c => [c.className, c.getBoundingClientRect()]);
          const out = cells.filter(([, r]) => r.left < 0 || r.right > window.innerWidth).map(([n]) => 'off ' + n);
          cells.forEach(([a, r], i) => cells.slice(i + 1).forEach(([b, q]) => {
            if (r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 1 && q.top < r.bottom - 1)
              out.push(a + ' covers ' + b + ' in ' + tr.textContent.slice(0, 40));
          }));
          const part = tr.querySelector('.part').getBoundingClientRect();
          if (part.width < 96) out.push('narrow part ' + Math.round(part.width));
          return out;
        })"""
    )
    assert not faults, faults
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    wrap = page.locator(".bom-wrap")
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")  # nothing to scroll to
    # the total: in the sticky summary at the top, wherever the reader is in the bill
    page.locator("table.bom tr.line").nth(5).scroll_into_view_if_needed()
    compact = page.locator("#compact-summary")
    expect(compact).to_contain_text("€")
    top = compact.bounding_box()["y"]
    assert -1 <= top < PHONE["height"]


@pytest.mark.parametrize("language", ["en", "nl"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_page_kind_passes_axe_and_the_review_and_quote_steps_work(
    live_server, catalog_ready, browser, shots, django_user_model, viewport, language
):
    cluster, one, nvl72, quoted, wide = _designs()
    quote = _quote(quoted)
    _staff(django_user_model)
    locale = {"en": "en-GB", "nl": "nl-NL"}[language]
    context = browser.new_context(viewport=viewport, locale=locale, bypass_csp=True)  # axe is injected inline
    page = context.new_page()
    walk = Walk(page, live_server.url, shots)
    words = WORDS[language]
    try:
        walk.visit("home", "/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        for step in ("goal", "platform", "adapters", "fabric"):
            walk.visit(step, f"/d/{cluster.token}/{step}/")
        walk.visit("fabric-nvl72", f"/d/{nvl72.token}/fabric/")
        walk.visit("fabric-32", f"/d/{wide.token}/fabric/")
        if viewport is DESKTOP:  # the rack elevation fits its column, its labels at their own size
            elevation = page.locator(".svg-wrap.elevation")
            assert elevation.evaluate("e => e.scrollWidth <= e.clientWidth"), elevation.evaluate("e => e.scrollWidth")
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        walk.visit("rules", "/rules/")
        walk.visit("compare", "/compare/")
        walk.visit("alternatives", f"/d/{cluster.token}/alternatives/")
        walk.visit("quote-link-refused", "/quotes/link/not-a-signed-link/")
        walk.visit("quote-status", f"/quotes/{quote.token}/")

        # Review: one server comes without rack, PDUs and switch; the page says so and asks.
        walk.visit("review-one-server", f"/d/{one.token}/review/")
        expect(page.locator("#step-title")).to_contain_text(words["review"])
        expect(page.locator("#site-form legend")).to_contain_text(words["site"])
        expect(page.locator("#left-out")).to_contain_text(words["left_out"])
        expect(page.locator('tbody[data-section="racks_power"]')).to_have_count(0)
        expect(page.locator("#id_supplied_0")).to_be_checked()  # racks
        page.locator("#id_supplied_0").uncheck()
        page.locator("#id_supplied_1").uncheck()  # power
        page.locator("#site-form button[type=submit]").click()
        expect(page.locator('tbody[data-section="racks_power"]')).to_have_count(1)
        expect(page.locator("#id_supplied_0")).not_to_be_checked()
        walk.check("review-with-rack")

        walk.visit("review", f"/d/{cluster.token}/review/")
        if viewport is PHONE:
            _bill_reads_as_stacked_lines(page)

        # A refused quote form: the error summary at the top of the page, with the focus on it.
        page.goto(f"{live_server.url}/d/{cluster.token}/quote/")
        form = page.locator("form.quote-form")
        for name, value in CUSTOMER.items():
            if name not in ("country", "vat_number", "action"):
                form.locator(f"[name={name}]").fill(value)
        form.locator("[name=country]").select_option("DE")
        form.locator("[name=vat_number]").fill("DE12")
        form.locator("button[type=submit][value=request]").click()
        summary = page.locator("#error-summary")
        expect(summary).to_be_focused()
        expect(summary.locator("a[href='#id_vat_number']")).to_be_visible()
        assert summary.bounding_box()["y"] < viewport["height"]  # in view, not 1,200 px below
        assert page.evaluate(
            "document.getElementById('error-summary').compareDocumentPosition("
            "document.getElementById('id_vat_number')) & Node.DOCUMENT_POSITION_FOLLOWING"
        )
        walk.check("quote-refused")

        # Sales engineer pages: the login page and the dashboard.
        walk.visit("login", "/accounts/login/")
        page.locator("#id_username").fill("sven")
        page.locator("#id_password").fill(PASSWORD)
        page.get_by_role("button", name=re.compile(words["login"], re.I)).click()
        expect(page).to_have_url(re.compile(r"/dashboard/"))
        walk.check("dashboard")
        walk.visit("review-staff", f"/d/{cluster.token}/review/")
        walk.visit("quote-staff", f"/d/{cluster.token}/quote/")
        assert not walk.violations, walk.violations
    finally:
        context.close()
