"""The expansion quote (quotes.services.expanding): a quote like any other whose lines are what the growth of a won
or issued quote's cluster adds, referring to that quote."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest

from configurator.models import Configuration
from configurator.services import design_validate, warning_acknowledge
from design.model import DesignInputError
from quotes.models import Quote
from quotes.services import (
    QuoteError,
    expansion_design,
    quote_expansion_request,
    quote_export,
    quote_issue,
    quote_request,
    quote_revise,
)
from quotes.services.expansion import Growth, expansion_plan
from tests.factories import H200_NODE, INBAND_ADAPTER, STORAGE_ADAPTER, design

pytestmark = pytest.mark.django_db


@pytest.fixture
def original(make_configuration, customer, media, build):
    """An issued quote of four H200 nodes on a rail-optimized QM9700 fabric, issued by the CRM (no review)."""
    configuration = make_configuration(design(4))
    customer = {
        **customer,
        "kvk_number": "12345678",
        "address": {"street": "Dam 1", "postal_code": "1012 JS", "city": "Amsterdam"},
    }
    quote = build(quote_request, configuration=configuration, customer=customer, channel="api", crm_reference="OPP-7")
    assert quote.status == Quote.Status.ISSUED, quote.review_reason
    return quote


def _expand(original, build, add=4, **kwargs):
    grown = expansion_design(original=original, growth=Growth(node_group="gpu", add=add))
    configuration = Configuration.objects.create(document=grown, name="grown")
    return build(quote_expansion_request, original=original, configuration=configuration, channel="api", **kwargs)


def _bill(lines, part="part_number"):
    return sorted((line["section"], line[part], line["quantity"]) for line in lines)


def test_the_expansion_quotes_lines_are_the_delta_bill_with_the_recabling_line(original, build):
    quote = _expand(original, build)
    quote.refresh_from_db()
    plan = expansion_plan(installed=original.frozen, growth=Growth(node_group="gpu", add=4)).to_json()
    assert _bill(quote.frozen["lines"]) == _bill(plan["delta_bom"], "part")
    parts = {line["part_number"]: line["quantity"] for line in quote.frozen["lines"]}
    assert parts["SYS-821GE-TNHR"] == 4  # the four new nodes, not the eight of the grown cluster
    assert parts["SVC-RECABLE"] == plan["expansion"]["labour_cables"] > 0
    assert quote.status == Quote.Status.ISSUED and quote.doc_status == Quote.DocStatus.READY


def test_the_expansion_quote_refers_to_the_original_number_and_keeps_its_customer(original, build):
    quote = _expand(original, build)
    quote.refresh_from_db()
    assert quote.expansion_of == original and quote.number != original.number
    expansion = quote.frozen["expansion"]
    assert expansion["of"] == original.number
    assert (expansion["installed_nodes"], expansion["expanded_nodes"]) == (4, 8)
    assert expansion["cables"]["keep"] > 0 and expansion["cables"]["add"] > 0
    assert all(row["action"] != "keep" for row in expansion["recabling"])  # kept cables only counted
    assert (quote.customer_email, quote.customer_kvk, quote.customer_city) == (
        original.customer_email,
        original.customer_kvk,
        "Amsterdam",
    )
    assert (quote.crm_reference, quote.channel) == ("OPP-7", "api")
    assert original.expansions.get() == quote


def test_a_revision_keeps_the_original_and_prices_the_delta_again(original, build):
    quote = _expand(original, build)
    revised = build(quote_revise, quote=quote, discount_percent="5")
    revised.refresh_from_db()
    assert revised.expansion_of == original and revised.frozen["expansion"]["of"] == original.number
    assert _bill(revised.frozen["lines"]) == _bill(Quote.objects.get(pk=quote.pk).frozen["lines"])


def test_only_a_won_or_issued_quote_is_expanded(original, build):
    Quote.objects.filter(pk=original.pk).update(status=Quote.Status.SUPERSEDED)
    original.refresh_from_db()
    with pytest.raises(QuoteError) as refused:
        expansion_design(original=original, growth=Growth(node_group="gpu", add=2))
    assert "quote" in refused.value.errors


def test_an_unknown_node_group_is_refused_naming_the_field(original):
    with pytest.raises(DesignInputError) as refused:
        expansion_design(original=original, growth=Growth(node_group="cpu", add=2))
    assert "node_group" in refused.value.errors


# --- the documents: what is installed, what is added and what moves ---------------------------------------------


def _pdf(frozen: dict) -> str:
    from pypdf import PdfReader

    from quotes.documents import render_pdf

    return " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(render_pdf(frozen))).pages).split())


def _workbook(frozen: dict):
    from openpyxl import load_workbook

    from quotes.documents import render_xlsx

    return load_workbook(io.BytesIO(render_xlsx(frozen)))


def test_the_offer_says_what_is_installed_added_and_moved(original, build):
    quote = _expand(original, build)
    quote.refresh_from_db()
    text = _pdf(quote.frozen)
    cables = quote.frozen["expansion"]["cables"]
    assert f"Expansion of quote {original.number}" in text
    assert f"Installed 4 nodes, quote {original.number}" in text
    assert "Added 4 nodes, 8 nodes after the expansion: the lines of this offer" in text
    assert f"{cables['move']} cables moved, {cables['add']} added, {cables['remove']} removed" in text
    assert "Re-cabling" in text and "SVC-RECABLE" in text
    assert "Expansion of quote" not in _pdf(original.frozen)  # any other offer has no such section


def test_the_workbook_sums_up_the_expansion_and_lists_the_recabling(original, build):
    quote = _expand(original, build)
    quote.refresh_from_db()
    book = _workbook(quote.frozen)
    summary = {row[0].value: row[1].value for row in book.worksheets[1].iter_rows()}
    assert summary["Expansion of quote"] == original.number
    assert summary["Installed"] == f"4 nodes, quote {original.number}"
    assert [ws.title for ws in book.worksheets] == ["Bill of materials", "Summary", "Re-cabling"]
    rows = list(book.worksheets[2].iter_rows(values_only=True))
    assert rows[0][:3] == ("Action", "Network", "Link")
    assert len(rows) - 1 == len(quote.frozen["expansion"]["recabling"]) > 0
    assert {row[0] for row in rows[1:]} <= {"move", "add", "remove"}
    assert len(_workbook(original.frozen).worksheets) == 2


def test_the_dutch_offer_says_it_in_dutch(make_configuration, customer, media, build):
    configuration = make_configuration(design(4))
    dutch = build(quote_request, configuration=configuration, customer=customer, channel="api", language="nl")
    quote = _expand(dutch, build)
    quote.refresh_from_db()
    text = _pdf(quote.frozen)
    assert f"Uitbreiding van offerte {dutch.number}" in text
    assert f"Geïnstalleerd 4 nodes, offerte {dutch.number}" in text
    assert "Toegevoegd 4 nodes, 8 nodes na de uitbreiding" in text
    summary = {row[0].value: row[1].value for row in _workbook(quote.frozen).worksheets[1].iter_rows()}
    assert summary["Uitbreiding van offerte"] == dutch.number


def _issue(waiting, configuration, staff, *accepted: tuple[str, str]):
    """``waiting`` issued by a sales engineer who confirmed the PCIe form factor of the storage and in-band adapters
    and accepted the ``accepted`` warnings (code, subject)."""
    for component in (2, 3):
        subject = f"node_groups[0].components[{component}]"
        warning_acknowledge(
            configuration=configuration, code="PCIE_FORM_UNKNOWN", subject=subject, reason="checked", user=staff
        )
    for code, subject in accepted:
        warning_acknowledge(configuration=configuration, code=code, subject=subject, reason="planned", user=staff)
    quote = quote_issue(quote=waiting, user=staff)
    assert quote.status == Quote.Status.ISSUED
    return quote


@pytest.fixture
def grown_20_40(make_configuration, customer, media, build, staff):
    """20 → 40 nodes with storage and in-band networks: the control plane's SuperPOD step and more storage, in-band
    and out-of-band switches in the management racks. Returns the original and the issued expansion quote."""
    installed = make_configuration(design(20, components=[*H200_NODE, STORAGE_ADAPTER, INBAND_ADAPTER]))
    original = _issue(build(quote_request, configuration=installed, customer=customer, channel="api"), installed, staff)
    grown = Configuration.objects.create(
        document=expansion_design(original=original, growth=Growth(node_group="gpu", add=20)), name="grown"
    )
    waiting = build(quote_expansion_request, original=original, configuration=grown, channel="api")
    assert waiting.status == Quote.Status.AWAITING_REVIEW
    with pytest.raises(QuoteError) as refused:  # the storage network's one switch becomes leaves under spines
        _issue(waiting, grown, staff)
    assert "EXPANSION_NETWORK_TIER (networks.storage)" in str(refused.value.errors["warnings"])
    return original, _issue(waiting, grown, staff, ("EXPANSION_NETWORK_TIER", "networks.storage"))


def test_the_expansion_quote_plans_the_grown_racks_as_the_expansion_does(grown_20_40):
    # The quote's grown plan keeps the installed racks as the expansion door does, so its re-cabling and labour
    # line are the door's.
    original, quote = grown_20_40
    plan = expansion_plan(installed=original.frozen, growth=Growth(node_group="gpu", add=20)).to_json()
    assert plan["expansion"]["moved_devices"] == 0 and plan["moved_devices"] == []
    frozen = quote.frozen["expansion"]
    assert frozen["moved_devices"] == 0
    assert frozen["cables"] == plan["expansion"]["cables"]
    assert frozen["labour_cables"] == plan["expansion"]["labour_cables"]


def test_the_expansion_quotes_hand_over_puts_every_installed_switch_where_it_stands(grown_20_40):
    original, quote = grown_20_40
    installed = design_validate(document=original.snapshot.design, language="en").rack_plan.plan
    where = {
        (rack.name, d.position_u) for rack in installed.racks if str(rack.kind) == "management" for d in rack.devices
    }
    assert where  # the installed management rack holds the control plane and the networks' switches
    body = b"".join(c if isinstance(c, bytes) else c.encode() for c in quote_export(quote, "netbox.zip").body)
    with zipfile.ZipFile(io.BytesIO(body)) as bundle:
        devices = list(csv.DictReader(io.StringIO(bundle.read("devices.csv").decode())))
    placed = {(row["rack"], int(row["position"])) for row in devices if row.get("position")}
    assert where <= placed  # every installed device of the management racks at its rack and unit


def test_what_the_growth_crosses_waits_for_a_sales_engineer_like_a_design_warning(
    make_configuration, customer, media, build, staff
):
    # Three nodes, two a rack: the fourth joins the third in its installed rack, which then draws more power than the
    # installed plan gave it. The CRM's expansion quote waits until a sales engineer accepts that, with a reason,
    # and the issued offer prints the acceptance as it prints the design's own.
    original = build(quote_request, configuration=make_configuration(design(3)), customer=customer, channel="api")
    assert original.status == Quote.Status.ISSUED
    grown = Configuration.objects.create(
        document=expansion_design(original=original, growth=Growth(node_group="gpu", add=1)), name="grown"
    )
    waiting = build(quote_expansion_request, original=original, configuration=grown, channel="api")
    assert waiting.status == Quote.Status.AWAITING_REVIEW and waiting.review_reason == "warnings"
    with pytest.raises(QuoteError) as refused:
        quote_issue(quote=waiting, user=staff)
    assert "EXPANSION_RACK_POWER (rack_plan)" in str(refused.value.errors["warnings"])
    warning_acknowledge(
        configuration=grown, code="EXPANSION_RACK_POWER", subject="rack_plan", reason="PDU has room", user=staff
    )
    issued = quote_issue(quote=waiting, user=staff)
    assert issued.status == Quote.Status.ISSUED
    (accepted,) = issued.frozen["acknowledgements"]
    assert (accepted["code"], accepted["reason"]) == ("EXPANSION_RACK_POWER", "PDU has room")
    assert "R01-02" in accepted["message"]


def _places(result) -> set[tuple[str, str, str, int]]:
    plan = result.rack_plan.plan
    return {(str(d.role), d.name, rack.name, d.position_u) for rack in plan.racks for d in rack.devices}


def test_a_cluster_grown_twice_keeps_the_racks_of_both_growths(grown_20_40):
    # The 40-node cluster was quoted planned from the 20-node one's racks, so its management rack holds its
    # switches where a fresh 40-node plan would not. Growing it again starts from the racks as quoted: every device
    # the expansion quote placed keeps its rack and unit; read back as a fresh design, some would not.
    from quotes.services import quote_expansion_plan
    from quotes.services.installed import installed_result

    _original, forty = grown_20_40
    as_quoted = _places(installed_result(forty, language="en"))
    fresh = _places(design_validate(document=forty.snapshot.design, language="en"))
    assert as_quoted != fresh  # the growth's racks are not a fresh plan's
    again = quote_expansion_plan(original=forty, growth=Growth(node_group="gpu", add=20))
    assert as_quoted <= _places(again.result)
    assert again.cabling.moved == ()
    read_fresh = expansion_plan(installed=forty.frozen, growth=Growth(node_group="gpu", add=20))
    assert not as_quoted <= _places(read_fresh.result)  # what reading it as a fresh design would have done


def test_the_grown_designs_wizard_shows_its_racks_as_the_expansion_quote_plans_them(
    make_configuration, customer, media, build, staff, client
):
    # Two nodes with storage and in-band adapters: one rack and its management rack beside it (R01-02). Grown to
    # three, the expansion keeps that rack and racks the third node in R01-03, where a new three-node plan has its
    # second compute rack at R01-02 and its management rack in row 2. The grown design's wizard draws the racks as
    # the quote plans them.
    two = design(2, components=[*H200_NODE, STORAGE_ADAPTER, INBAND_ADAPTER])
    installed = make_configuration(two)
    original = _issue(build(quote_request, configuration=installed, customer=customer, channel="api"), installed, staff)
    document = expansion_design(original=original, growth=Growth(node_group="gpu", add=1))
    fresh = {r.name for r in design_validate(document=document, language="en").rack_plan.plan.racks}
    assert "R01-03" not in fresh
    grown = Configuration.objects.create(document=document, name="grown")
    build(quote_expansion_request, original=original, configuration=grown, channel="api")
    client.force_login(staff)
    page = client.get(f"/d/{grown.token}/fabric/").content.decode()
    assert "R01-03" in page and "R01-02" in page
