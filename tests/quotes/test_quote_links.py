"""E-mailed download links: the only credential in the e-mail, and they expire; the token URLs keep working."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone, translation

from quotes import services
from quotes.services import quote_request

pytestmark = pytest.mark.django_db


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
    configuration, customer, media, build, client, settings, time_machine
):
    build(quote_request, configuration=configuration, customer=customer)
    pdf_link, xlsx_link = _emailed_links(settings)
    assert client.get(pdf_link).status_code == 200
    assert client.get(xlsx_link).status_code == 200

    time_machine.move_to(timezone.now() + settings.QUOTE_LINK_MAX_AGE + timedelta(minutes=1))
    for link in (pdf_link, xlsx_link):
        response = client.get(link)
        assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
        page = response.content.decode()
        assert "This download link has expired" in page and settings.SELLER["email"] in page

    with translation.override("nl"):
        dutch = client.get(pdf_link, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Deze downloadlink is verlopen" in dutch


def test_a_link_expires_at_max_age_zero_but_the_customers_status_page_keeps_working(
    configuration, customer, media, build, client, settings, time_machine
):
    quote = build(quote_request, configuration=configuration, customer=customer)
    pdf_link, _xlsx = _emailed_links(settings)
    settings.QUOTE_LINK_MAX_AGE = timedelta(0)
    time_machine.move_to(timezone.now() + timedelta(seconds=2))  # signed timestamps have whole seconds
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
