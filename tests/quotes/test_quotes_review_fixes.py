"""Code-review fixes: expiring e-mail links without the token, plain-text spreadsheet cells, over-long e-mail
addresses, issue and approve permissions (four eyes), duplicate requests, acknowledgements per design."""

from __future__ import annotations

import io
import re
import time
import types
from datetime import timedelta
from decimal import Decimal as D

import pytest
from conftest import WARNING_DESIGN
from django.contrib.auth.models import Permission
from django.core import mail
from django.core.exceptions import PermissionDenied
from django.utils import timezone, translation
from openpyxl import load_workbook

from configurator.models import Configuration, WarningAcknowledgement
from configurator.services import warning_acknowledge
from quotes import services
from quotes.documents import render_xlsx
from quotes.models import Quote, QuoteCounter
from quotes.services import QuoteError, quote_approve, quote_issue, quote_request, quote_revise

pytestmark = pytest.mark.django_db


def perms(user, *codenames):
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="quotes", codename__in=codenames))
    return type(user).objects.get(pk=user.pk)  # fresh permission cache


def later(monkeypatch, seconds: float) -> None:
    """Move the clock of django.core.signing forward (freezes 'now' at real time + seconds)."""
    import django.core.signing

    frozen = time.time() + seconds
    monkeypatch.setattr(django.core.signing, "time", types.SimpleNamespace(time=lambda: frozen))


# --- 1. E-mailed download links: the only credential in the e-mail, and it expires ------------------------------


def _emailed_links(settings) -> list[str]:
    message = mail.outbox[-1]
    return [word.removeprefix(settings.QUOTE_SITE_URL) for word in message.body.split() if "/quotes/link/" in word]


def test_the_email_holds_only_expiring_links_and_never_the_token(configuration, customer, media, build, settings):
    quote = build(quote_request, configuration=configuration, customer=customer)
    message = mail.outbox[-1]
    html = message.alternatives[0][0]
    for text in (message.body, html, message.subject):
        assert quote.token not in text
        assert f"/quotes/{quote.token}" not in text
    links = _emailed_links(settings)
    assert len(links) == 2
    for link in links:
        assert quote.token not in link
        assert quote.download_id in link  # the signed value is the opaque download id, not the token


def test_an_expired_link_is_refused_with_a_clear_page(
    configuration, customer, media, build, client, settings, monkeypatch
):
    build(quote_request, configuration=configuration, customer=customer)
    pdf_link, xlsx_link = _emailed_links(settings)
    assert client.get(pdf_link).status_code == 200
    assert client.get(xlsx_link).status_code == 200

    later(monkeypatch, settings.QUOTE_LINK_MAX_AGE.total_seconds() + 60)
    for link in (pdf_link, xlsx_link):
        response = client.get(link)
        assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
        page = response.content.decode()
        assert "This download link has expired" in page and settings.SELLER["email"] in page

    with translation.override("nl"):
        dutch = client.get(pdf_link, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Deze downloadlink is verlopen" in dutch


def test_a_link_expires_at_max_age_zero_but_the_customers_status_page_keeps_working(
    configuration, customer, media, build, client, settings
):
    quote = build(quote_request, configuration=configuration, customer=customer)
    pdf_link, _xlsx = _emailed_links(settings)
    settings.QUOTE_LINK_MAX_AGE = timedelta(0)
    time.sleep(1.1)  # timestamps have whole seconds
    assert b"expired" in client.get(pdf_link).content
    # the wizard's quote step (the customer who requested it) still opens the quote by token, with fresh links
    page = client.get(f"/quotes/{quote.token}/")
    assert page.status_code == 200
    settings.QUOTE_LINK_MAX_AGE = timedelta(days=30)
    fresh = re.search(r'href="(/quotes/link/[^"]+)"', page.content.decode()).group(1)
    assert client.get(fresh).status_code == 200


def test_tampered_and_old_style_links_are_refused_as_invalid(configuration, customer, media, build, client, settings):
    from django.core import signing

    quote = build(quote_request, configuration=configuration, customer=customer)
    pdf_link, _xlsx = _emailed_links(settings)
    tampered = client.get(pdf_link[:-3] + "xyz/")
    assert tampered.status_code == 404 and b"not valid" in tampered.content
    # a link that signs the token (the earlier format, readable base64 JSON) opens nothing
    old = signing.dumps({"t": quote.token, "k": "pdf"}, salt="quotes.download-link", compress=True)
    assert client.get(f"/quotes/link/{old}/").status_code == 404
    # neither does a link signed for another kind or an unknown id
    forged = signing.TimestampSigner(salt=services.LINK_SALT).sign(f"{quote.token}.pdf")
    assert client.get(f"/quotes/link/{forged}/").status_code == 404


# --- 2. Spreadsheet cells that look like formulas are written as text ------------------------------------------


def test_customer_and_line_texts_are_never_formulas_in_the_bom(configuration, customer, media, build):
    company = '=HYPERLINK("http://x")'
    customer.update(company=company)
    quote = build(quote_request, configuration=configuration, customer=customer)
    frozen = dict(quote.frozen)
    frozen["lines"] = [dict(line) for line in frozen["lines"]]
    frozen["lines"][0]["description"] = "+cmd|' /C calc'!A0"
    frozen["lines"][1]["description"] = "@SUM(1+1)*cmd|' /C calc'!A0"
    frozen["lines"][2]["section"] = "-2+3"

    wb = load_workbook(io.BytesIO(render_xlsx(frozen)))
    summary = wb.worksheets[1]
    cell = next(c for row in summary.iter_rows() for c in row if c.value == company)
    assert cell.data_type == "s" and cell.quotePrefix  # text, shown as typed, not a formula
    assert not any(c.data_type == "f" for ws in wb.worksheets for row in ws.iter_rows() for c in row)
    bom = wb.worksheets[0]
    for text in ("+cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "-2+3"):
        found = next(c for row in bom.iter_rows() for c in row if c.value == text)
        assert found.data_type == "s" and found.quotePrefix
    # ordinary texts and numbers are untouched
    assert bom.cell(row=2, column=2).value == frozen["lines"][0]["part_number"]
    assert not bom.cell(row=2, column=2).quotePrefix


def test_a_customer_name_formula_is_text_when_there_is_no_company(configuration, customer, media, build):
    customer.update(company="", name="=1+1")
    quote = build(quote_request, configuration=configuration, customer=customer)
    summary = load_workbook(io.BytesIO(render_xlsx(quote.frozen))).worksheets[1]
    cell = next(c for row in summary.iter_rows() for c in row if c.value == "=1+1")
    assert cell.data_type == "s"


# --- 3. Over-long e-mail addresses and other model checks are QuoteErrors ---------------------------------------


def test_a_312_character_email_is_a_field_error_not_a_500(configuration, customer, build):
    email = "a" * (312 - len("@example.nl")) + "@example.nl"  # passes validate_email (≤ 320 characters)
    assert len(email) == 312
    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=configuration, customer={**customer, "email": email})
    assert "254" in exc.value.errors["customer.email"]
    assert not Quote.objects.exists() and not QuoteCounter.objects.filter(last__gt=0).exists()
    configuration.refresh_from_db()
    assert configuration.status == Configuration.Status.DRAFT


def test_a_254_character_email_is_accepted(configuration, customer, build, media):
    email = "a" * (254 - len("@example.nl")) + "@example.nl"
    assert build(quote_request, configuration=configuration, customer={**customer, "email": email}).pk


def test_any_other_model_check_becomes_a_quote_error_naming_the_field(
    configuration, customer, build, media, monkeypatch
):
    first = build(quote_request, configuration=configuration, customer=customer, channel="api")
    long_notice = types.SimpleNamespace(category="domestic", rate=D("21"), notice="x" * 300)
    monkeypatch.setattr(services, "vat_decide", lambda **kw: long_notice)
    Quote.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(minutes=1))

    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=configuration, customer=customer, channel="api")
    assert "vat_notice" in exc.value.errors
    with pytest.raises(QuoteError) as exc:
        build(quote_revise, quote=first, discount_percent="5")
    assert "vat_notice" in exc.value.errors
    first.refresh_from_db()
    assert Quote.objects.count() == 1 and first.status == "issued"
    assert QuoteCounter.objects.get().last == 1


# --- 4. Permissions: issuing, the admin actions, and four eyes on discounts -------------------------------------


def test_staff_without_the_issue_permission_cannot_issue(make_configuration, customer, django_user_model, build):
    quote = build(quote_request, configuration=make_configuration(WARNING_DESIGN), customer=customer)
    engineer = django_user_model.objects.create_user("no-perm", "n@ncs.nl", "pw", is_staff=True)
    with pytest.raises(PermissionDenied):
        quote_issue(quote=quote, user=engineer)
    quote.refresh_from_db()
    assert quote.status == "awaiting_review"


def test_admin_issue_and_rebuild_actions_need_their_permissions(
    make_configuration, customer, django_user_model, client, build, media, django_capture_on_commit_callbacks
):
    configuration = make_configuration(WARNING_DESIGN)
    quote = build(quote_request, configuration=configuration, customer=customer)
    viewer = perms(django_user_model.objects.create_user("viewer", "v@ncs.nl", "pw", is_staff=True), "view_quote")
    client.force_login(viewer)
    changelist = client.get("/admin/quotes/quote/").content.decode()
    assert 'value="issue_selected"' not in changelist and 'value="rebuild_documents"' not in changelist

    warning_acknowledge(
        configuration=configuration,
        code="POWER_CAPACITY_UNKNOWN",
        subject="node_groups[0].server",
        reason="PSU checked",
        user=viewer,
    )
    client.post("/admin/quotes/quote/", {"action": "issue_selected", "_selected_action": [quote.pk]})
    quote.refresh_from_db()
    assert quote.status == "awaiting_review"

    engineer = perms(
        django_user_model.objects.create_user("engineer", "e@ncs.nl", "pw", is_staff=True),
        "view_quote",
        "change_quote",
        "issue_quote",
    )
    client.force_login(engineer)
    changelist = client.get("/admin/quotes/quote/").content.decode()
    assert 'value="issue_selected"' in changelist and 'value="rebuild_documents"' in changelist
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/admin/quotes/quote/", {"action": "issue_selected", "_selected_action": [quote.pk]})
    quote.refresh_from_db()
    assert quote.status == "issued"


@pytest.fixture
def second_approver(django_user_model):
    return perms(django_user_model.objects.create_user("bo", "bo@ncs.nl", "pw", is_staff=True), "approve_quote")


def test_an_approver_cannot_approve_a_discount_they_set(
    configuration, customer, approver, second_approver, build, media
):
    quote = build(quote_request, configuration=configuration, customer=customer, user=approver, discount_percent="20")
    assert quote.status == "awaiting_approval" and quote.created_by == approver
    with pytest.raises(PermissionDenied, match="yourself"):
        quote_approve(quote=quote, user=approver)
    quote.refresh_from_db()
    assert quote.status == "awaiting_approval" and quote.approved_by is None

    quote = build(quote_approve, quote=quote, user=second_approver)
    assert quote.status == "issued" and quote.approved_by == second_approver


def test_four_eyes_follow_whoever_set_the_discount_of_a_revision(
    configuration, customer, staff, approver, second_approver, build, media
):
    first = build(quote_request, configuration=configuration, customer=customer, user=staff, discount_percent="5")
    revised = build(quote_revise, quote=first, user=approver, discount_percent="30")
    assert revised.status == "awaiting_approval"
    with pytest.raises(PermissionDenied):
        quote_approve(quote=revised, user=approver)
    assert build(quote_approve, quote=revised, user=second_approver).status == "issued"


def test_four_eyes_hold_for_a_quote_that_came_through_the_api(
    configuration, customer, approver, second_approver, build, media
):
    """An API quote keeps channel "api" through its revisions; an approver who revises it to 70 % (the wizard and
    the admin call the same service) still cannot approve it himself."""
    first = build(quote_request, configuration=configuration, customer=customer, channel="api")
    revised = build(quote_revise, quote=first, user=approver, discount_percent="70")
    assert revised.channel == "api" and revised.discount_set_by == approver
    with pytest.raises(PermissionDenied, match="yourself"):
        quote_approve(quote=revised, user=approver)
    assert build(quote_approve, quote=revised, user=second_approver).status == "issued"


def test_a_revision_that_keeps_the_discount_keeps_who_set_it(
    make_configuration, configuration, customer, approver, second_approver, build, media
):
    """Re-pointing a quote at another design does not make the reviser the one who set its discount, and does not
    let the one who did approve it."""
    first = build(quote_request, configuration=configuration, customer=customer, user=approver, discount_percent="40")
    revised = build(quote_revise, quote=first, user=second_approver, configuration=make_configuration())
    assert revised.discount_set_by == approver
    with pytest.raises(PermissionDenied):
        quote_approve(quote=revised, user=approver)
    with pytest.raises(PermissionDenied):  # the reviser made this revision: he cannot approve it either
        quote_approve(quote=revised, user=second_approver)


def test_the_admin_approve_action_refuses_the_user_who_set_the_discount(
    configuration, customer, approver, client, build, media
):
    quote = build(
        quote_request,
        configuration=configuration,
        customer=customer,
        channel="api",
        user=approver,
        discount_percent="60",
    )
    perms(approver, "view_quote", "change_quote")
    client.force_login(approver)
    client.post("/admin/quotes/quote/", {"action": "approve_selected", "_selected_action": [quote.pk]})
    quote.refresh_from_db()
    assert quote.status == "awaiting_approval" and quote.approved_by is None


# --- 5. One request at a time per configuration -----------------------------------------------------------------


def test_a_double_click_makes_one_quote(configuration, customer, build, media):
    # A CRM's retried call is refused; a customer's repeat gets the same quote back (tests/quotes/test_quotes_policy).
    first = build(quote_request, configuration=configuration, customer=customer, channel="api")
    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=configuration, customer=customer, channel="api")
    assert first.number in exc.value.errors["quote"]
    assert Quote.objects.count() == 1 and QuoteCounter.objects.get().last == 1


def test_the_same_request_later_or_a_different_request_is_a_new_quote(configuration, customer, build, media):
    api = {"configuration": configuration, "customer": customer, "channel": "api"}
    first = build(quote_request, **api)
    other = build(quote_request, **api, crm_reference="CRM-2")
    assert other.number != first.number
    Quote.objects.update(created_at=timezone.now() - services.DUPLICATE_WINDOW - timedelta(seconds=1))
    assert build(quote_request, **api).pk
    assert Quote.objects.count() == 3


def test_no_second_request_while_a_quote_waits_for_review_or_approval(
    make_configuration, configuration, customer, build, media
):
    waiting = build(quote_request, configuration=make_configuration(WARNING_DESIGN), customer=customer)
    Quote.objects.update(created_at=timezone.now() - timedelta(hours=1))
    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=waiting.configuration, customer=customer, channel="staff")
    assert waiting.number in exc.value.errors["quote"]

    approval = build(quote_request, configuration=configuration, customer=customer, discount_percent="40")
    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=configuration, customer={**customer, "email": "x@example.nl"})
    assert approval.number in exc.value.errors["quote"]
    assert Quote.objects.count() == 2


# --- 6. Acknowledgements count for the design they were given for ----------------------------------------------


def test_an_acknowledgement_for_another_design_is_neither_counted_nor_printed(
    make_configuration, customer, staff, build, media
):
    configuration = make_configuration(WARNING_DESIGN)
    WarningAcknowledgement.objects.create(
        configuration=configuration,
        code="POWER_CAPACITY_UNKNOWN",
        subject="node_groups[0].server",
        design_hash="0" * 64,
        reason="given for an earlier design",
        user=staff,
    )
    quote = build(quote_request, configuration=configuration, customer=customer)
    assert quote.status == "awaiting_review" and quote.frozen["acknowledgements"] == []

    warning_acknowledge(
        configuration=configuration,
        code="POWER_CAPACITY_UNKNOWN",
        subject="node_groups[0].server",
        reason="PSU rating confirmed",
        user=staff,
    )
    quote = build(quote_issue, quote=quote, user=staff)
    assert [a["reason"] for a in quote.frozen["acknowledgements"]] == ["PSU rating confirmed"]
    assert quote.frozen["acknowledgements"][0]["message"]


def test_four_eyes_apply_to_api_quotes(seeded_catalog, django_user_model):
    # A CRM client acts through one linked user: that user set the discount, so it cannot approve it as well.
    from django.contrib.auth.models import Permission

    from configurator.examples import h200_training_cluster
    from configurator.services import configuration_create
    from quotes.models import Quote
    from quotes.services import quote_approve, quote_request

    manager = django_user_model.objects.create_user("crm-manager", is_staff=True)
    manager.user_permissions.add(Permission.objects.get(codename="approve_quote"))
    manager = django_user_model.objects.get(pk=manager.pk)
    config = configuration_create(document=h200_training_cluster(), channel="api")
    customer = {"name": "A", "company": "B", "email": "a@example.nl", "country": "NL", "vat_number": ""}
    quote = quote_request(configuration=config, customer=customer, user=manager, channel="api", discount_percent=30)
    assert quote.status == Quote.Status.AWAITING_APPROVAL and quote.discount_set_by == manager
    with pytest.raises(PermissionDenied, match="yourself"):
        quote_approve(quote=quote, user=manager)
