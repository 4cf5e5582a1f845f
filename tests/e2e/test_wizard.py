"""The wizard in a real browser: the customer's path to a PDF quote, the sales engineer's review, an invalid
choice that blocks quoting, and Dutch findings."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e

TIMEOUT = 15_000


def _continue(page):
    page.get_by_role("button", name=re.compile("Save and continue")).click()


def test_customer_gets_a_pdf_quote_for_a_recommended_4_node_h200_cluster(
    live_server, catalog_ready, page, shots, settings
):
    # Given an instant-quote limit above this cluster's price (quotes.policy), and the home page
    settings.QUOTE_INSTANT_LIMIT_EUR = 2_000_000
    page.goto(live_server.url)
    shots.take(page, "home")
    page.get_by_label("Training").check()
    page.get_by_label("Model size (billions of parameters)").fill("70")
    page.get_by_label("Number of servers (optional)").fill("4")
    page.get_by_role("button", name="Recommend a design").click()

    # Goal: the recommendation, accepted
    rec = page.locator("#recommendation")
    expect(rec).to_contain_text("4 × SYS-821GE-TNHR")
    expect(rec).to_contain_text("HGX-H200-8GPU")
    expect(rec).to_contain_text("MQM9700-NS2F")
    shots.take(page, "goal")
    page.get_by_role("button", name=re.compile("Use this design")).click()

    # Platform: compatible GPUs on offer, the others greyed out with the reason
    expect(page).to_have_url(re.compile(r"/d/[-\w]+/platform/$"))
    expect(page.locator("#id_nodes")).to_have_value("4")
    expect(page.get_by_role("radio", name=re.compile("^HGX-H200-8GPU "))).to_be_checked()
    b200 = page.get_by_role("radio", name=re.compile("^HGX-B200-8GPU "))
    expect(b200).to_be_disabled()
    expect(page.locator(".option.unavailable", has_text="HGX-B200-8GPU")).to_contain_text("does not take")
    shots.take(page, "platform")
    _continue(page)

    # Adapters: the slot map shows one NDR adapter per GPU
    expect(page).to_have_url(re.compile(r"/adapters/$"))
    expect(page.locator("#id_compute_adapter")).to_have_value("MCX75310AAS-NEAT")
    expect(page.locator("svg.slotmap")).to_contain_text("LP8")
    shots.take(page, "adapters")
    _continue(page)

    # Fabric: plan summary, topology diagram, cable and optics list
    expect(page).to_have_url(re.compile(r"/fabric/$"))
    expect(page.locator("#plan-title")).to_be_visible()
    expect(page.locator(".diagram svg")).to_have_count(1)
    expect(page.locator(".figure table").first).to_contain_text("MQM9700-NS2F")
    shots.take(page, "fabric")
    _continue(page)

    # Review: no errors, the bill of materials with a total
    expect(page).to_have_url(re.compile(r"/review/$"))
    expect(page.locator(".summary .verdict.ok")).to_be_visible()
    expect(page.locator("table.bom tfoot")).to_contain_text("€")
    shots.take(page, "review")
    page.get_by_role("link", name=re.compile("Request a quote")).click()

    # Quote: details, then the build progress and the download
    expect(page).to_have_url(re.compile(r"/quote/$"))
    page.get_by_label("Your name").fill("Anna de Vries")
    page.get_by_label("Company").fill("Rekenkracht B.V.")
    page.get_by_label("E-mail").fill("anna@example.nl")
    page.get_by_label("Country").select_option("NL")
    page.get_by_label("Street and number").fill("Stationsplein 1")
    page.get_by_label("Postal code").fill("3511 ED")
    page.get_by_label("City").fill("Utrecht")
    shots.take(page, "quote-form")
    page.get_by_role("button", name="Request quote").click()
    pdf_link = page.get_by_role("link", name="Quote (PDF)")
    expect(pdf_link).to_be_visible(timeout=30_000)
    shots.take(page, "quote-ready")
    response = page.request.get(live_server.url + pdf_link.get_attribute("href"))
    assert response.ok
    assert response.body()[:4] == b"%PDF"


def _staff(django_user_model):
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("sven", "sven@ncs.nl", "correct-horse-battery", is_staff=True)
    codenames = ("issue_quote", "take_over_configuration")
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    return user


def _customer_request_with_a_warning():
    """A customer's 2-node H200 design on the unmanaged QM9790 (warning: a subnet manager is needed)."""
    from configurator.services import configuration_create
    from quotes.services import quote_request

    doc = {
        "schema": "design/v1",
        "name": "Customer cluster",
        "workload": {"kind": "training", "model_parameters_billion": 70},
        "node_groups": [
            {
                "name": "gpu",
                "count": 2,
                "server": "SYS-821GE-TNHR",
                "components": [
                    {"part": "HGX-H200-8GPU", "quantity": 1},
                    {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
                ],
            }
        ],
        "fabric": {"switch": "MQM9790-NS2F", "oversubscription": "1:1", "topology": "rail-optimized"},
    }
    config = configuration_create(document=doc)
    quote = quote_request(
        configuration=config,
        customer={
            "name": "Piet Jansen",
            "company": "Datahal B.V.",
            "email": "piet@example.nl",
            "country": "NL",
            "vat_number": "",
        },
    )
    return config, quote


def _login(page, live_server):
    page.goto(live_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("sven")
    page.get_by_label("Password").fill("correct-horse-battery")
    page.get_by_role("button", name="Log in").click()


def test_sales_engineer_fixes_a_request_live_and_issues_the_quote(
    live_server, catalog_ready, page, shots, django_user_model
):
    _staff(django_user_model)
    config, quote = _customer_request_with_a_warning()
    assert quote.status == "awaiting_review"

    _login(page, live_server)
    expect(page).to_have_url(re.compile(r"/dashboard/$"))
    shots.take(page, "dashboard")
    page.locator("#quote-requests").get_by_role("link", name=quote.number).click()
    expect(page.locator(".quote-status")).to_contain_text("Awaiting review")
    expect(page.locator("#issue-quote")).to_be_disabled()  # the warning is not accepted yet

    # Change a part on the fabric step: the finding goes away without a page reload
    page.get_by_role("link", name=re.compile("Fabric")).first.click()
    expect(page.locator("#findings")).to_contain_text("FABRIC_SM_REQUIRED")
    page.evaluate("window.__sameDocument = true")
    page.get_by_role("radio", name=re.compile("^MQM9700-NS2F ")).check()
    expect(page.locator("#findings")).not_to_contain_text("FABRIC_SM_REQUIRED", timeout=TIMEOUT)
    assert page.evaluate("window.__sameDocument") is True
    shots.take(page, "fabric-changed")

    # Issue the quote
    page.get_by_role("link", name=re.compile("Quote")).first.click()
    expect(page.locator("#issue-quote")).to_be_enabled()
    page.locator("#issue-quote").click()
    expect(page.locator(".quote-status .status")).to_contain_text("Issued")
    shots.take(page, "issued")
    quote.refresh_from_db()
    assert quote.status == "issued"
    assert quote.frozen["design"]["fabric"]["switch"] == "MQM9700-NS2F"


def test_b200_board_in_an_h100_generation_server_is_an_error_and_blocks_the_quote(
    live_server, catalog_ready, page, shots
):
    page.goto(live_server.url)
    page.get_by_role("button", name="Start blank").click()
    expect(page).to_have_url(re.compile(r"/platform/$"))
    page.locator("#id_nodes").fill("1")
    page.get_by_role("radio", name=re.compile("^SYS-822GS-NBRT ")).check()
    page.get_by_role("radio", name=re.compile("^HGX-B200-8GPU ")).check()
    expect(page.locator("#findings")).not_to_contain_text("does not take HGX-B200-8GPU")
    page.get_by_role("radio", name=re.compile("^SYS-821GE-TNHR ")).check()  # an H100/H200 server
    # customers read the finding's sentence; its rule code is for staff
    finding = page.locator(".finding.error", has_text="does not take HGX-B200-8GPU")
    expect(finding).to_contain_text("SYS-821GE-TNHR does not take HGX-B200-8GPU")
    expect(finding).to_contain_text("Choose one of")  # the fix
    expect(page.locator("#wrap-id_gpu, .options").last).to_contain_text("does not take")
    shots.take(page, "invalid")
    page.get_by_role("link", name=re.compile("Review")).first.click()
    expect(page.locator("#to-quote")).to_be_disabled()
    page.get_by_role("link", name=re.compile("Quote")).first.click()
    expect(page.get_by_role("button", name="Request quote")).to_be_disabled()
    shots.take(page, "blocked")


def test_switching_to_dutch_shows_dutch_findings(live_server, catalog_ready, page, shots):
    from configurator.services import configuration_create

    doc = {
        "schema": "design/v1",
        "name": "B200 in H100",
        "node_groups": [
            {
                "name": "gpu",
                "count": 1,
                "server": "SYS-821GE-TNHR",
                "components": [{"part": "HGX-B200-8GPU", "quantity": 1}],
            }
        ],
    }
    config = configuration_create(document=doc)
    page.goto(f"{live_server.url}/d/{config.token}/review/")
    expect(page.locator("#findings")).to_contain_text("does not take")
    page.locator("#lang-select").select_option("nl")
    expect(page.locator("html")).to_have_attribute("lang", "nl")
    expect(page.locator("#findings")).to_contain_text("ondersteunt HGX-B200-8GPU niet")
    expect(page.get_by_role("heading", name="Bevindingen")).to_be_visible()
    shots.take(page, "dutch")


@pytest.mark.parametrize("step", ["platform", "fabric", "review"])
def test_steps_fit_a_phone_screen_and_work_from_the_keyboard(live_server, catalog_ready, browser, shots, step):
    from configurator.services import configuration_create
    from tests.web.pages import H200_CLUSTER

    config = configuration_create(document=H200_CLUSTER)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/d/{config.token}/{step}/")
        shots.take(page, f"phone-{step}")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        wide = page.evaluate(
            "[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1)"
            ".slice(0, 4).map(e => e.tagName + '.' + e.className)"
        )
        assert overflow <= 1, f"the page scrolls sideways by {overflow}px: {wide}"
        # Keyboard: the skip link comes first and lands on the main content, with a visible focus ring
        page.keyboard.press("Tab")
        skip = page.locator("a.skip")
        expect(skip).to_be_focused()
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
        page.keyboard.press("Enter")
        expect(page).to_have_url(re.compile("#main$"))
    finally:
        context.close()


def _request_quote(page, live_server, config) -> None:
    page.goto(f"{live_server.url}/d/{config.token}/quote/")
    another = page.locator("details.another")
    if another.count():  # the design is quoted already: the request form is under "Request another quote"
        another.locator("summary").click()
    page.get_by_label("Your name").fill("Anna de Vries")
    page.get_by_label("Company").fill("Rekenkracht B.V.")
    page.get_by_label("E-mail", exact=True).fill("anna@example.nl")
    page.get_by_label("Street and number").fill("Stationsplein 1")
    page.get_by_label("Postal code").fill("3511 ED")
    page.get_by_label("City").fill("Utrecht")
    page.get_by_role("button", name="Request quote").click()


def test_a_large_request_waits_for_a_sales_engineer_and_asking_again_returns_it(
    live_server, catalog_ready, page, shots, settings
):
    from django.core import mail

    from configurator.examples import h200_training_cluster
    from configurator.services import configuration_create
    from quotes.models import Quote

    # Given the 4-node H200 example (about € 1.1 M) and an instant-quote limit of € 500,000
    settings.QUOTE_INSTANT_LIMIT_EUR = 500_000
    config = configuration_create(document=h200_training_cluster())
    expect_footer = page.locator("#quote-policy")

    # When the customer requests a quote, it waits for a sales engineer, who is e-mailed
    _request_quote(page, live_server, config)
    expect(page.locator("#review-note")).to_contain_text("Requests above € 500,000 are reviewed by a sales engineer")
    expect(expect_footer).to_contain_text("Requests up to € 500,000, with every line priced and without design")
    shots.take(page, "waiting")
    quote = Quote.objects.get(configuration=config)
    assert quote.status == "awaiting_review"
    # the sales team is told, and the customer that the request is received
    assert [m.to for m in mail.outbox] == [[settings.QUOTE_SALES_EMAIL], ["anna@example.nl"]]
    assert quote.number in mail.outbox[0].subject and quote.number in mail.outbox[1].subject

    # And asking again for the same design from another browser returns the same quote, not a new number
    other = page.context.browser.new_page()
    _request_quote(other, live_server, config)
    expect(other.locator(".messages")).to_contain_text(f"You already have quote {quote.number} for this design.")
    expect(other.locator(".quote-status h3")).to_contain_text(quote.number)
    shots.take(other, "repeat")
    assert Quote.objects.filter(configuration=config).count() == 1
    other.close()
