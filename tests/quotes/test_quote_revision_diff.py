"""What changed between two revisions: lines added, removed and changed, discounts, totals and findings, read from
the snapshots; on the staff quote step, through the API, and in a sentence of a revised offer's e-mail."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from django.core import mail
from django.urls import reverse

from quotes.diff import revision_diff, summary_sentence
from quotes.services import quote_request, quote_revise
from tests.factories import StaffFactory, design

pytestmark = pytest.mark.django_db


@pytest.fixture
def revised(make_configuration, customer, media, build, staff):
    """R1 of one node; R2 of two nodes (a fabric comes with them) and a 5% quote discount."""
    first = build(
        quote_request, configuration=make_configuration(design(1)), customer=customer, channel="staff", user=staff
    )
    second = build(
        quote_revise, quote=first, user=staff, discount_percent="5", configuration=make_configuration(design(2))
    )
    first.refresh_from_db()
    return first, second


def test_the_diff_names_added_and_changed_lines_the_discount_and_the_totals(revised):
    first, second = revised
    diff = revision_diff(first.frozen, second.frozen)
    assert (diff.a, diff.b, diff.number) == (1, 2, second.number)
    server = next(line for line in diff.changed if line.part_number == "SYS-821GE-TNHR")
    changes = {c.field: (c.before, c.after) for c in server.changes}
    assert changes["quantity"] == (1, 2)
    assert changes["quote_discount_percent"] == ("0", "5.00") or D(changes["quote_discount_percent"][1]) == 5
    assert any(line.section == "compute_fabric" for line in diff.added)  # two nodes bring a fabric
    assert {c.field for c in diff.discounts} == {"discount_percent"}
    totals = {c.field: (c.before, c.after) for c in diff.totals}
    assert totals["total"] == (str(first.total), str(second.total))
    assert diff.design_changed

    back = revision_diff(second.frozen, first.frozen)
    assert {line.part_number for line in back.removed} == {line.part_number for line in diff.added}
    same = revision_diff(first.frozen, first.frozen)
    assert same.unchanged and not same.design_changed


def test_the_sentence_says_what_changed_in_the_quotes_language(revised):
    first, second = revised
    sentence = summary_sentence(revision_diff(first.frozen, second.frozen), lambda amount: f"EUR {amount}")
    assert sentence.startswith("Compared with revision 1:")
    assert "lines added" in sentence and f"EUR {first.total}" in sentence and f"EUR {second.total}" in sentence


def test_a_revised_offers_email_says_in_a_sentence_what_changed(make_configuration, customer, media, build, staff):
    first = build(
        quote_request,
        configuration=make_configuration(design(1)),
        customer=customer,
        channel="staff",
        user=staff,
        language="nl",
    )
    assert "revisie" not in mail.outbox[-1].body.lower()
    build(quote_revise, quote=first, user=staff, discount_percent="4")
    body = mail.outbox[-1].body
    assert "Vergeleken met revisie 1:" in body
    assert "de kortingen zijn gewijzigd" in body


def test_staff_see_what_changed_on_the_quote_step_and_customers_do_not(revised, client):
    first, second = revised
    step = reverse("configurator:step", args=[second.configuration.token, "quote"])
    assert 'id="revision-diff"' not in client.get(step).content.decode()
    client.force_login(StaffFactory(username="petra"), backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(step).content.decode()
    assert 'id="revision-diff"' in page and 'id="diff-totals"' in page and "SYS-821GE-TNHR" in page
    assert "Quantity: 1 → 2" in page
    swapped = client.get(step, {"diff_a": "2", "diff_b": "1"}).content.decode()
    assert "What changed from revision 2 to revision 1" in swapped
