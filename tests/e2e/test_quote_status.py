"""Status a person can trust, in a real browser on a desktop and a phone, in English and Dutch: a sales engineer's
panel says "ready" only once nothing blocks issuing, and a customer back from another device (the bookmarked design
link, no session) sees the quote that exists for the design and opens it there through an e-mailed link."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

PASSWORD = "correct-horse-battery"
DESKTOP, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}
RUNS = [pytest.param(DESKTOP, "en", id="desktop-en"), pytest.param(PHONE, "nl", id="phone-nl")]
WORDS = {
    "en": {
        "not_ready": "Not ready to issue: accept 1 warning with a reason first.",
        "short_not_ready": "1 warning to accept.",
        "ready": "Ready to quote: nothing blocks issuing.",
        "reason": "Reason for accepting this warning",
        "accept": "Accept warning",
        "quoted": "Quoted: quote {number} is issued.",
        "short_quoted": "Quoted: {number}.",
        "quoted_elsewhere": "Quoted: this design has an issued quote.",
        "short_quoted_elsewhere": "Quoted.",
        "issued": "Issued",
        "find": "E-mail me the link",
        "sent": "we have e-mailed it a link",
        "shown": "Quote {number} is shown on this device now.",
    },
    "nl": {
        "not_ready": "Nog niet klaar om uit te brengen: accepteer eerst 1 waarschuwing met een reden.",
        "short_not_ready": "1 waarschuwing te accepteren.",
        "ready": "Klaar voor een offerte: niets houdt het uitbrengen tegen.",
        "reason": "Reden om deze waarschuwing te accepteren",
        "accept": "Waarschuwing accepteren",
        "quoted": "Offerte uitgebracht: {number}.",
        "short_quoted": "Offerte: {number}.",
        "quoted_elsewhere": "Offerte uitgebracht: dit ontwerp heeft een offerte.",
        "short_quoted_elsewhere": "Offerte uitgebracht.",
        "issued": "Uitgebracht",
        "find": "Mail mij de link",
        "sent": "hebben we dat adres een link gemaild",
        "shown": "Offerte {number} is nu op dit apparaat te zien.",
    },
}


def _browser_page(browser, viewport, language):
    context = browser.new_context(viewport=viewport, locale="nl-NL" if language == "nl" else "en-GB")
    return context.new_page()


def _verdict(page, viewport):
    """The verdict a person reads: the side panel's on a desktop, the compact summary's at the top on a phone."""
    return page.locator("#quote-route" if viewport is DESKTOP else "#compact-summary .verdict")


@pytest.mark.parametrize(("viewport", "language"), RUNS)
def test_the_sales_engineers_panel_says_ready_only_when_no_warning_waits(
    live_server, catalog_ready, browser, shots, django_user_model, viewport, language
):
    from django.contrib.auth.models import Permission

    from configurator.services import configuration_create
    from tests.factories import WARNING_DESIGN

    user = django_user_model.objects.create_user("sam", "sam@ncs.nl", PASSWORD, is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="issue_quote"))
    config = configuration_create(document=WARNING_DESIGN)  # a warning: its power supplies are not catalogued
    words = WORDS[language]
    page = _browser_page(browser, viewport, language)
    page.goto(live_server.url + "/accounts/login/")
    page.locator("#id_username").fill("sam")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("form button[type=submit]").click()
    page.goto(f"{live_server.url}/d/{config.token}/review/")
    verdict = _verdict(page, viewport)
    expect(verdict).to_have_text(words["not_ready"] if viewport is DESKTOP else words["short_not_ready"])
    expect(verdict).to_have_class(re.compile(r"\bwarn\b"))
    shots.take(page, "two-warnings")
    form = page.locator("form.ack-form").first
    form.get_by_label(words["reason"]).fill("Confirmed with Supermicro")
    form.get_by_role("button", name=words["accept"]).click()
    expect(page.locator("form.ack-form")).to_have_count(0)
    page.reload()
    expect(_verdict(page, viewport)).to_have_class(re.compile(r"\bok\b"))
    if viewport is DESKTOP:
        expect(page.locator("#quote-route")).to_have_text(words["ready"])
    shots.take(page, "ready")


@pytest.mark.parametrize(("viewport", "language"), RUNS)
def test_a_returning_customer_sees_the_designs_quote_and_opens_it_on_this_device(
    live_server, catalog_ready, browser, shots, viewport, language
):
    from configurator.services import configuration_create
    from quotes.services import quote_request
    from tests.factories import design

    config = configuration_create(document=design(1))  # every line priced: issued at once
    customer = {"name": "Ada Lovelace", "company": "", "email": "ada@example.nl", "country": "NL", "vat_number": ""}
    quote = quote_request(configuration=config, customer=customer, language=language)
    assert quote.status == "issued"
    words = WORDS[language]
    page = _browser_page(browser, viewport, language)  # another device: no session, only the design link
    page.goto(f"{live_server.url}/d/{config.token}/quote/")
    # the quote's status, not its number or customer: whoever holds the design link reads this
    expect(page.locator("#existing-quote")).to_contain_text(words["issued"])
    expect(page.locator("body")).not_to_contain_text(quote.number)
    expect(page.locator("#request-quote")).to_be_hidden()  # no empty request form in front of a quoted design
    elsewhere = words["quoted_elsewhere"] if viewport is DESKTOP else words["short_quoted_elsewhere"]
    expect(_verdict(page, viewport)).to_have_text(elsewhere)
    shots.take(page, "quoted-elsewhere")

    page.locator("#id_find_email").fill("ADA@example.nl")
    page.get_by_role("button", name=words["find"]).click()
    expect(page.locator("body")).to_contain_text(words["sent"])
    [message] = [m for m in mail.outbox if m.to == ["ada@example.nl"] and "/open/" in m.body]
    assert quote.number in message.subject
    link = re.search(r"https?://\S+(/d/\S+/quote/open/\S+/)", message.body).group(1)
    page.goto(live_server.url + link)
    expect(page.locator("body")).to_contain_text(words["shown"].format(number=quote.number))
    expect(page.locator("#qs-title")).to_contain_text(quote.number)
    expect(page.locator("#quote-progress")).to_be_visible()
    expect(page.locator("#existing-quote")).to_have_count(0)
    short = words["short_quoted"].format(number=quote.number)
    expect(_verdict(page, viewport)).to_have_text(
        words["quoted"].format(number=quote.number) if viewport is DESKTOP else short
    )
    shots.take(page, "opened")
