"""The quote lifecycle through quotes.services: request, review, approval, revision, snapshot."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from decimal import Decimal as D

import pytest
from django.core.exceptions import PermissionDenied

from catalog.models import DefaultPart, Part
from catalog.services import SEED_PATH
from configurator.models import Configuration
from configurator.services import warning_acknowledge
from quotes.models import Quote, QuoteCounter
from quotes.services import QuoteError, quote_approve, quote_issue, quote_request, quote_revise
from quotes.signals import quote_event
from tests.factories import ERROR_DESIGN, WARNING_DESIGN, design

SEED_VERSION = json.loads(SEED_PATH.read_text())["version"]

pytestmark = pytest.mark.django_db


def test_issues_a_quote_at_once_with_a_number_and_frozen_lines(configuration, customer, media, build):
    # the buyer asks for the rack, its power and the management network one server is otherwise offered without
    configuration.document = {**configuration.document, "facility": {"supplied": []}}
    configuration.save(update_fields=["document"])
    quote = build(quote_request, configuration=configuration, customer=customer, crm_reference="CRM-1")
    quote.refresh_from_db()

    assert re.fullmatch(r"Q-\d{4}-00001", quote.number)
    assert (quote.status, quote.revision, quote.doc_status) == ("issued", 1, "ready")
    assert quote.valid_until == quote.issued_at.astimezone().date() + __import__("datetime").timedelta(days=30)
    lines = {(line["section"], line["part_number"]): line["quantity"] for line in quote.frozen["lines"]}
    assert {
        ("nodes", "SYS-821GE-TNHR"): 1,
        ("nodes", "HGX-H200-8GPU"): 1,
        ("nodes", "MCX75310AAS-NEAT"): 8,
        ("racks_power", "RACK-42U"): 1,  # the rack plan's one rack, priced from the catalogue
        ("racks_power", "AP8886"): 2,  # its PDUs, one per feed (A+B)
        ("racks_power", "CORD-C19-C20-2M"): 6,  # a cord per supply, C19 at the PDU to the supply's C20 inlet
        ("oob", "SN2201"): 1,  # the rack's management switch
        ("oob", "CAT6-UTP-3M"): 3,  # its patch cords: the node's BMC and the two PDUs
        ("oob", "MFA1A00-C015"): 2,  # its two 100 GbE uplinks into the site's network (two per out-of-band switch)
        ("services", "SVC-SUPPORT-NODE-YEAR"): 3,  # the default services: three years of support for the node,
        ("services", "SVC-INSTALL-RACK"): 1,  # installation of its rack
        ("services", "NVAIE-GPU-YEAR"): 8 * 3,  # and NVIDIA AI Enterprise for its 8 GPUs over those years
    }.items() <= lines.items()
    # The design names no CPUs, memory or boot drive: the server's default node set is quoted with it.
    defaults = DefaultPart.objects.filter(server__part__part_number="SYS-821GE-TNHR").select_related("part")
    assert {("nodes", d.part.part_number): d.quantity for d in defaults}.items() <= lines.items()
    assert len(defaults) == 3
    assert len(lines) == 12 + len(defaults)  # nothing else on the bill (one node: no control plane)
    # every line priced (the seed's placeholder prices): a customer's request is issued at once, indicative
    assert quote.frozen["totals"]["at_least"] is False and quote.frozen["indicative"] is True
    # NL customer: 21% on the net total
    assert quote.vat_rate == D("21") and quote.vat_amount == (quote.net * D("0.21")).quantize(D("0.01"))
    assert quote.total == quote.net + quote.vat_amount
    receipt = quote.frozen["receipt"]
    assert len(receipt["design_hash"]) == 64 and receipt["catalog_version"].startswith(SEED_VERSION)
    assert quote.frozen["design"] == configuration.document
    configuration.refresh_from_db()
    assert configuration.status == Configuration.Status.QUOTED


def test_cluster_lines_multiply_by_node_count_and_include_the_fabric(make_configuration, customer, media, build):
    quote = build(quote_request, configuration=make_configuration(design(4)), customer=customer)
    lines = {(line["section"], line["part_number"]): line["quantity"] for line in quote.frozen["lines"]}
    assert lines[("nodes", "SYS-821GE-TNHR")] == 4
    assert lines[("nodes", "MCX75310AAS-NEAT")] == 32
    assert lines[("compute_fabric", "MQM9700-NS2F")] >= 1
    validation = quote.frozen["validation"]
    fabric_bom = {item["part"]: item["quantity"] for item in validation["fabric_plan"]["bom"]}
    # The fabric plan's bill is the compute fabric; its management switches are counted as the rack plan places
    # them (one in every rack), in the out-of-band section.
    fabric = {pn: q for (section, pn), q in lines.items() if section == "compute_fabric"}
    assert fabric == {pn: q for pn, q in fabric_bom.items() if pn != "SN2201"}
    placed = sum(
        r["count"] * d["count"]
        for r in validation["rack_plan"]["racks"]
        for d in r["devices"]
        if d["role"] in ("management", "oob")  # one in every rack, or central in the management racks
    )
    # The out-of-band network's own bill (anything beyond the in-rack leaves) is on it too, once.
    oob_plan = {item["part"]: item["quantity"] for item in validation["network_plans"]["oob"]["bom"]}
    assert {pn: q for (section, pn), q in lines.items() if section == "oob"} == {
        **{pn: q for pn, q in oob_plan.items() if pn != "SN2201"},
        "SN2201": placed,
    }


def test_numbers_count_up_per_year(make_configuration, customer, media, build):
    numbers = [build(quote_request, configuration=make_configuration(), customer=customer).number for _ in range(3)]
    year = numbers[0][2:6]
    assert numbers == [f"Q-{year}-00001", f"Q-{year}-00002", f"Q-{year}-00003"]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"discount_percent": "-5"}, "discount_percent"),
        ({"discount_percent": "ten"}, "discount_percent"),
        ({"discount_percent": "100.5"}, "discount_percent"),
        ({"discount_percent": "NaN"}, "discount_percent"),
        ({"discount_percent": "1.234"}, "discount_percent"),
        ({"line_discounts": {"HGX-H200-8GPU": "-1"}}, "line_discounts.HGX-H200-8GPU"),
        ({"line_discounts": {"HGX-H200-8GPU": "abc"}}, "line_discounts.HGX-H200-8GPU"),
        ({"line_discounts": {"NOT-ON-QUOTE": "5"}}, "line_discounts.NOT-ON-QUOTE"),
        ({"customer": {"vat_number": "DE12345", "country": "DE"}}, "customer.vat_number"),
        ({"customer": {"country": "ZZ"}}, "customer.country"),
        ({"customer": {"email": "not-an-address"}}, "customer.email"),
        ({"customer": {"name": ""}}, "customer.name"),
        ({"language": "fr"}, "language"),
        ({"channel": "fax"}, "channel"),
    ],
)
def test_rejects_bad_input_naming_the_field_and_leaves_nothing_behind(configuration, customer, changes, field, build):
    kwargs = {"configuration": configuration, "customer": customer}
    for key, value in changes.items():
        kwargs[key] = {**customer, **value} if key == "customer" else value

    with pytest.raises(QuoteError) as exc:
        build(quote_request, **kwargs)

    assert field in exc.value.errors, exc.value.errors
    assert exc.value.errors[field]
    assert not Quote.objects.exists()
    assert not QuoteCounter.objects.filter(last__gt=0).exists()
    configuration.refresh_from_db()
    assert configuration.status == Configuration.Status.DRAFT


def test_rejects_a_design_with_errors(make_configuration, customer, build):
    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=make_configuration(ERROR_DESIGN), customer=customer)
    assert "design.node_groups[0].components[1]" in exc.value.errors
    assert "PCIE_NO_FREE_SLOT" in exc.value.errors["design.node_groups[0].components[1]"]
    assert not Quote.objects.exists()


def test_rejects_a_malformed_design_naming_its_field(make_configuration, customer, build):
    bad = design()
    bad["node_groups"][0]["count"] = 0
    with pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=make_configuration(bad), customer=customer)
    assert any(key.startswith("design.node_groups[0]") for key in exc.value.errors), exc.value.errors
    assert not Quote.objects.exists()


def test_unaccepted_warnings_wait_for_review_and_accepted_ones_are_printed(
    make_configuration, customer, staff, media, build
):
    configuration = make_configuration(WARNING_DESIGN)
    quote = build(quote_request, configuration=configuration, customer=customer)
    assert quote.status == "awaiting_review" and quote.issued_at is None
    configuration.refresh_from_db()
    assert configuration.status == Configuration.Status.QUOTE_REQUESTED

    with pytest.raises(QuoteError) as exc:
        build(quote_issue, quote=quote, user=staff)
    assert "POWER_CAPACITY_UNKNOWN" in exc.value.errors["warnings"]

    warning_acknowledge(
        configuration=configuration,
        code="POWER_CAPACITY_UNKNOWN",
        subject="node_groups[0].server",
        reason="PSU rating confirmed by phone",
        user=staff,
    )
    quote = build(quote_issue, quote=quote, user=staff)
    quote.refresh_from_db()
    assert quote.status == "issued" and quote.doc_status == "ready"
    assert quote.frozen["acknowledgements"][0]["reason"] == "PSU rating confirmed by phone"
    assert quote.frozen["acknowledgements"][0]["by"] == "Sam Sales"


def test_only_staff_can_issue(make_configuration, customer, django_user_model, build):
    quote = build(quote_request, configuration=make_configuration(WARNING_DESIGN), customer=customer)
    customer_user = django_user_model.objects.create_user("cust", "c@example.com", "pw")
    with pytest.raises(PermissionDenied):
        quote_issue(quote=quote, user=customer_user)


def test_discount_above_threshold_waits_for_approval_by_a_permitted_user(
    configuration, customer, staff, approver, media, build
):
    events = []
    quote_event.connect(lambda **kw: events.append(kw["event"]), weak=False, dispatch_uid="test-approval")
    try:
        quote = build(quote_request, configuration=configuration, customer=customer, discount_percent="20")
        assert quote.status == "awaiting_approval" and not quote.pdf

        with pytest.raises(PermissionDenied):
            quote_approve(quote=quote, user=staff)
        with pytest.raises(QuoteError):  # issuing is for reviewed warnings, not discounts
            quote_issue(quote=quote, user=staff)
        quote.refresh_from_db()
        assert quote.status == "awaiting_approval"

        quote = build(quote_approve, quote=quote, user=approver)
        quote.refresh_from_db()
        assert quote.status == "issued" and quote.approved_by == approver and quote.doc_status == "ready"
        assert quote.discount == (quote.subtotal * D("0.20")).quantize(D("0.01"))
        assert "quote.approved" in events and "quote.ready" in events
    finally:
        quote_event.disconnect(dispatch_uid="test-approval")


def test_threshold_is_configurable(configuration, customer, settings, build, media):
    settings.QUOTE_DISCOUNT_APPROVAL_THRESHOLD = D("25")
    assert (
        build(quote_request, configuration=configuration, customer=customer, discount_percent="20").status == "issued"
    )


def test_combined_line_and_quote_discounts_need_approval(configuration, customer, build):
    quote = build(
        quote_request,
        configuration=configuration,
        customer=customer,
        discount_percent="10",
        line_discounts={"SYS-821GE-TNHR": "10"},
    )
    assert quote.status == "awaiting_approval"


def test_revision_supersedes_the_older_one_which_stays_readable(configuration, customer, media, build, client):
    first = build(quote_request, configuration=configuration, customer=customer, discount_percent="5")
    second = build(quote_revise, quote=first, discount_percent="10")
    first.refresh_from_db()

    assert second.number == f"{first.number}-R2" and second.revision == 2
    assert (first.status, second.status) == ("superseded", "issued")
    assert second.discount_percent == D("10") and second.customer_email == customer["email"]
    page = client.get(f"/quotes/{first.token}/")
    assert page.status_code == 200 and second.number.encode() in page.content

    third = build(quote_revise, quote=second, discount_percent="30")
    assert third.number == f"{first.number}-R3" and third.status == "awaiting_approval"
    with pytest.raises(QuoteError) as exc:
        quote_revise(quote=first)
    assert "quote" in exc.value.errors
    assert Quote.objects.filter(base_number=first.base_number).exclude(status="superseded").count() == 1


def test_revision_of_a_design_with_errors_changes_nothing(configuration, make_configuration, customer, build, media):
    first = build(quote_request, configuration=configuration, customer=customer)
    with pytest.raises(QuoteError):
        quote_revise(quote=first, configuration=make_configuration(ERROR_DESIGN))
    first.refresh_from_db()
    assert first.status == "issued" and Quote.objects.count() == 1


def test_catalogue_price_change_leaves_an_issued_quote_unchanged(configuration, customer, media, build):
    from quotes.services import quote_documents_rebuild

    quote = build(quote_request, configuration=configuration, customer=customer)
    before = (quote.total, list(quote.frozen["lines"]), quote.frozen["receipt"])
    part = Part.objects.get(part_number="HGX-H200-8GPU")
    part.list_price_eur = D("1.00")
    part.save()

    build(quote_documents_rebuild, quote=quote)
    quote.refresh_from_db()
    assert (quote.total, quote.frozen["lines"], quote.frozen["receipt"]) == before
    assert quote.doc_status == "ready"
    # a new CRM quote for the same design sees the new price (a later request: not a double click)
    Quote.objects.filter(pk=quote.pk).update(created_at=quote.created_at - timedelta(minutes=1))
    newer = build(quote_request, configuration=configuration, customer=customer, channel="api")
    assert newer.total < quote.total


def test_reverse_charge_for_an_eu_business_in_dutch(configuration, customer, media, build):
    customer.update(country="DE", vat_number="DE 136 695 976")
    quote = build(quote_request, configuration=configuration, customer=customer, language="nl")
    assert (quote.vat_category, quote.vat_rate, quote.vat_amount) == ("reverse_charge", D("0"), D("0.00"))
    assert quote.customer_vat_number == "DE136695976"
    assert quote.vat_notice.startswith("BTW verlegd")
    assert quote.total == quote.net


def test_export_outside_the_eu(configuration, customer, media, build):
    customer.update(country="us")
    quote = build(quote_request, configuration=configuration, customer=customer)
    assert (quote.vat_category, quote.vat_amount, quote.customer_country) == ("export", D("0.00"), "US")
    assert "Export" in quote.vat_notice


def test_expired_quote_shows_as_expired(configuration, customer, media, build, client):
    import datetime

    quote = build(quote_request, configuration=configuration, customer=customer)
    Quote.objects.filter(pk=quote.pk).update(valid_until=datetime.date(2020, 1, 31))
    quote.refresh_from_db()
    assert quote.is_expired and quote.display_status == "Expired"
    assert b"Expired" in client.get(f"/quotes/{quote.token}/").content


def test_input_errors_are_translated(configuration, customer, build):
    from django.utils import translation

    with translation.override("nl"), pytest.raises(QuoteError) as exc:
        build(
            quote_request,
            configuration=configuration,
            customer={**customer, "name": ""},
            discount_percent="-5",
            line_discounts={"NOT-ON-QUOTE": "5", "HGX-H200-8GPU": "ten"},
        )
    errors = exc.value.errors
    assert errors["discount_percent"] == "Een korting kan niet negatief zijn."
    assert errors["line_discounts.HGX-H200-8GPU"] == "“ten” is geen getal; geef een percentage tussen 0 en 100."
    assert errors["customer.name"] == "Vul de naam van de klant in."
    with translation.override("nl"), pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=configuration, customer=customer, line_discounts={"NOT-ON-QUOTE": "5"})
    assert exc.value.errors["line_discounts.NOT-ON-QUOTE"] == "NOT-ON-QUOTE staat niet op deze offerte."
    with translation.override("en"), pytest.raises(QuoteError) as exc:
        build(quote_request, configuration=configuration, customer=customer, discount_percent="-5")
    assert exc.value.errors["discount_percent"] == "A discount cannot be negative."


def test_a_revision_of_an_older_revision_is_refused_in_dutch(configuration, customer, build):
    from django.utils import translation

    first = build(quote_request, configuration=configuration, customer=customer)
    second = build(quote_revise, quote=first)
    with translation.override("nl"), pytest.raises(QuoteError) as exc:
        quote_revise(quote=first)
    assert exc.value.errors["quote"] == (
        f"{first.number} is niet de nieuwste revisie ({second.number}); maak een revisie van die."
    )
