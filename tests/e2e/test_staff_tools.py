"""Sales engineers in a real browser: the price preview follows the discount as it is typed, the approve button shows
only for who may approve, and the dashboard searches and sorts from its URL."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.web.pages import CUSTOMER as FORM

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000
PASSWORD = "correct-horse-battery"


def _engineer(django_user_model, username, *codenames):
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user(username, f"{username}@ncs.nl", PASSWORD, is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(codename__in=("issue_quote", *codenames)))
    return user


def _login(page, live_server, username):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/dashboard/"))


ADDRESS = ("street", "postal_code", "city")
CUSTOMER = {
    **{k: v for k, v in FORM.items() if k not in (*ADDRESS, "action")},
    "address": {k: FORM[k] for k in ADDRESS},
}


def _design():
    from configurator.services import configuration_create
    from tests.web.pages import H200_CLUSTER

    return configuration_create(document=H200_CLUSTER)


def test_the_price_preview_follows_the_discount_as_it_is_typed(
    live_server, catalog_ready, page, shots, django_user_model
):
    _engineer(django_user_model, "sven")
    config = _design()
    _login(page, live_server, "sven")
    page.goto(f"{live_server.url}/d/{config.token}/quote/")
    preview = page.locator("#price-preview")
    net = page.locator("#price-preview-net")
    expect(preview).to_contain_text("Within the approval limit of 15%")
    expect(page.locator("#preview-update")).to_be_hidden()  # with JavaScript the preview needs no button
    list_net = net.inner_text()
    page.evaluate("window.__sameDocument = true")
    shots.take(page, "list-price")

    discount = page.get_by_label("Quote discount (%)")
    discount.fill("10")
    expect(net).not_to_have_text(list_net, timeout=TIMEOUT)
    ten = net.inner_text()
    expect(preview).to_contain_text("10% of the list value")
    shots.take(page, "ten-percent")

    discount.fill("20")
    expect(preview).to_contain_text("Above the approval limit of 15%", timeout=TIMEOUT)
    expect(net).not_to_have_text(ten)
    shots.take(page, "twenty-percent")

    discount.fill("120")
    expect(preview).to_contain_text("Quote discount (%): A discount cannot exceed 100%.", timeout=TIMEOUT)
    expect(net).to_have_count(0)
    shots.take(page, "bad-input")

    # A line discount on top of a quote discount: 10% + 10% is 19% off that line, above the limit
    discount.fill("10")
    expect(preview).to_contain_text("Within the approval limit", timeout=TIMEOUT)
    page.get_by_text("Line discounts (%)").first.click()
    page.get_by_label("HGX-H200-8GPU").fill("10")
    expect(preview).to_contain_text("Above the approval limit of 15%", timeout=TIMEOUT)

    # An EU business with a VAT number: reverse charge, total equals net
    page.get_by_label("Country").select_option("DE")
    page.get_by_label("VAT number").fill("DE136695976")
    expect(preview).to_contain_text("VAT reverse charged", timeout=TIMEOUT)
    expect(page.locator("#price-preview-total")).to_have_text(net.inner_text())
    assert page.evaluate("window.__sameDocument") is True  # all of it without a page load
    shots.take(page, "reverse-charge")


def test_without_javascript_the_update_button_shows_the_preview(live_server, catalog_ready, browser, django_user_model):
    _engineer(django_user_model, "sven")
    config = _design()
    context = browser.new_context(java_script_enabled=False, locale="en-GB")
    page = context.new_page()
    try:
        _login(page, live_server, "sven")
        page.goto(f"{live_server.url}/d/{config.token}/quote/")
        page.get_by_label("Quote discount (%)").fill("25")
        page.locator("#preview-update").click()
        expect(page.locator("#price-preview")).to_contain_text("Above the approval limit of 15%")
        expect(page.get_by_label("Quote discount (%)")).to_have_value("25")
    finally:
        context.close()


def test_the_approve_button_shows_only_for_who_may_approve(
    live_server, catalog_ready, browser, shots, django_user_model
):
    from quotes.services import quote_request

    setter = _engineer(django_user_model, "setter", "approve_quote")
    _engineer(django_user_model, "approver", "approve_quote")
    _engineer(django_user_model, "plain")
    config = _design()
    quote = quote_request(configuration=config, customer=CUSTOMER, user=setter, channel="staff", discount_percent=30)
    assert quote.status == "awaiting_approval"

    for username, may in (("setter", False), ("plain", False), ("approver", True)):
        context = browser.new_context(locale="en-GB")
        page = context.new_page()
        try:
            _login(page, live_server, username)
            page.goto(f"{live_server.url}/d/{config.token}/quote/")
            expect(page.locator(".quote-status")).to_contain_text("Awaiting discount approval")
            shots.take(page, username)
            if not may:
                expect(page.locator("#approve-quote")).to_have_count(0)
                expect(page.locator("#approve-why")).to_be_visible()
                continue
            expect(page.locator("#approve-why")).to_have_count(0)
            page.get_by_role("button", name="Approve discount and issue").click()
            expect(page.locator(".quote-status .status")).to_contain_text("Issued")
            shots.take(page, "approved")
        finally:
            context.close()
    quote.refresh_from_db()
    assert quote.status == "issued" and quote.approved_by.username == "approver"


def test_the_dashboard_searches_and_sorts_from_its_url(live_server, catalog_ready, page, shots, django_user_model):
    from quotes.services import quote_request

    _engineer(django_user_model, "sven")
    numbers = {}
    for company, nodes in (("Rekenkracht B.V.", 3), ("Datahal B.V.", 2), ("Koelcel N.V.", 4)):
        from configurator.services import configuration_create
        from tests.web.pages import H200_CLUSTER

        document = {**H200_CLUSTER, "node_groups": [{**H200_CLUSTER["node_groups"][0], "count": nodes}]}
        config = configuration_create(document=document)
        email = f"inkoop@{company.split()[0].lower()}.nl"
        quote = quote_request(configuration=config, customer={**CUSTOMER, "company": company, "email": email})
        numbers[company] = quote.number

    _login(page, live_server, "sven")
    rows = page.locator("#quote-requests tbody th a")
    expect(rows).to_have_count(3)

    page.get_by_role("searchbox", name="Search").fill("datahal")
    page.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile(r"q=datahal"))
    expect(rows).to_have_text([numbers["Datahal B.V."]])
    page.get_by_role("searchbox", name="Search").fill(numbers["Koelcel N.V."])
    page.get_by_role("button", name="Filter").click()
    expect(rows).to_have_text([numbers["Koelcel N.V."]])
    shots.take(page, "searched")

    page.get_by_role("link", name="Clear").click()
    page.locator("#sort-total").click()
    expect(page).to_have_url(re.compile(r"sort=total"))
    by_size = [numbers["Datahal B.V."], numbers["Rekenkracht B.V."], numbers["Koelcel N.V."]]  # 2, 3, 4 nodes
    expect(rows).to_have_text(by_size)
    expect(page.locator("#quote-requests th[aria-sort=ascending]")).to_contain_text("Total")
    page.locator("#sort-total").click()
    expect(page).to_have_url(re.compile(r"sort=-total"))
    expect(rows).to_have_text(by_size[::-1])
    shots.take(page, "sorted")

    # The sort survives a search
    page.get_by_role("searchbox", name="Search").fill("B.V.")
    page.get_by_role("button", name="Filter").click()
    expect(page).to_have_url(re.compile(r"sort=-total"))
    expect(rows).to_have_text([numbers["Rekenkracht B.V."], numbers["Datahal B.V."]])
