"""The control plane and the services reach the one bill: at 128 nodes the quote carries the SuperPOD control plane
and the support, installation and NVIDIA AI Enterprise lines, priced from settings where a price is set and on
request otherwise, its total the sum of its lines, and the offer PDF prints them under their sections."""

from __future__ import annotations

import io
from collections import Counter
from decimal import Decimal as D

import pytest
from pypdf import PdfReader

from quotes.documents import render_pdf
from quotes.services import quote_request
from tests.factories import set_price
from tests.quotes.test_bill_documents import hgx_h100

pytestmark = pytest.mark.django_db


def test_the_128_node_quote_carries_the_control_plane_and_services_and_totals_its_lines(
    settings, make_configuration, customer, media, build
):
    settings.QUOTE_SERVICE_SUPPORT_EUR_PER_NODE_YEAR = "450"
    settings.QUOTE_SERVICE_INSTALL_EUR_PER_RACK = "2500"
    settings.QUOTE_SERVICE_AIE_EUR_PER_GPU_YEAR = ""  # not priced here: quoted on request
    settings.QUOTE_SERVICE_CONTROL_NODE_EUR = ""
    quote = build(quote_request, configuration=make_configuration(hgx_h100(128)), customer=customer, channel="api")
    frozen = quote.frozen
    lines = frozen["lines"]
    quoted = Counter()
    for x in lines:
        quoted[(x["section"], x["part_number"])] += x["quantity"]
    # The DGX SuperPOD control plane from 32 nodes: BCM in HA, 3 + 3 Kubernetes nodes, 2 Slurm login nodes.
    assert quoted[("control_plane", "HEAD-NODE-BCM")] == 2
    assert quoted[("control_plane", "MGMT-NODE-K8S-ADMIN")] == quoted[("control_plane", "MGMT-NODE-K8S-USER")] == 3
    assert quoted[("control_plane", "MGMT-NODE-SLURM-LOGIN")] == 2
    # The default services: three years of support per node, installation per rack, AI Enterprise per GPU-year.
    racks = frozen["validation"]["totals"]["racks"]
    assert quoted[("services", "SVC-SUPPORT-NODE-YEAR")] == 128 * 3
    assert quoted[("services", "SVC-INSTALL-RACK")] == racks
    assert quoted[("services", "NVAIE-GPU-YEAR")] == 128 * 8 * 3
    by_part = {x["part_number"]: x for x in lines}
    assert D(by_part["SVC-SUPPORT-NODE-YEAR"]["unit_price"]) == D("450.00")
    assert D(by_part["SVC-INSTALL-RACK"]["list_total"]) == D("2500.00") * racks
    assert by_part["NVAIE-GPU-YEAR"]["unit_price"] is None and by_part["HEAD-NODE-BCM"]["unit_price"] is None
    # The quote's total is the sum of its lines (those on request leave it "at least").
    priced = [x for x in lines if x["unit_price"] is not None]
    assert quote.subtotal == sum(D(x["list_total"]) for x in priced)
    assert quote.subtotal == D(frozen["validation"]["totals"]["list_price_eur"])
    assert quote.net == sum(D(x["net"]) for x in priced)
    assert quote.total == quote.net + quote.vat_amount and frozen["totals"]["at_least"] is True
    text = " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(render_pdf(frozen))).pages).split())
    assert "Control plane" in text and "Services" in text
    assert "Head node, Base Command Manager in high availability" in text
    assert "Installation and rack integration, per rack" in text


def test_a_section_priced_wholly_on_request_says_so_instead_of_a_zero_subtotal(
    make_configuration, customer, build, settings
):
    settings.QUOTE_SERVICE_CONTROL_NODE_EUR = ""  # the control plane's servers quoted on request
    settings.QUOTE_SERVICE_UFM_APPLIANCE_EUR = ""  # and its UFM appliances (a pair per InfiniBand fabric)
    set_price("AP8886")  # a price list without the PDU
    quote = build(quote_request, configuration=make_configuration(hgx_h100(128)), customer=customer, channel="api")
    frozen = quote.frozen
    control = [x for x in frozen["lines"] if x["section"] == "control_plane"]
    assert control and all(x["unit_price"] is None for x in control)
    text = " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(render_pdf(frozen))).pages).split())
    section = text[text.index("Control plane") : text.index("Services")]
    assert "Subtotal on request" in section
    assert "€ 0.00" not in section
    # a section with priced lines and lines on request still says "at least" with its priced amount
    racks = text[text.index("Racks and power") : text.index("Control plane")]
    assert "Subtotal, at least (lines on request not included) €" in racks


def test_the_offer_counts_the_racks_by_height_when_systems_bring_their_own(make_configuration, customer, build):
    # Four GB200 NVL72 systems in their own 48U racks and the fabric's and management racks at the facility's 42U:
    # "8 racks of 42U" would misstate half of them.
    nvl72 = {
        "schema": "design/v1",
        "name": "4 GB200 NVL72 racks",
        "node_groups": [{"name": "rack", "count": 4, "server": "SRS-GB200-NVL72", "components": []}],
        "fabric": {"switch": "MQM9700-NS2F", "oversubscription": "1:1", "topology": "rail-optimized"},
    }
    quote = build(quote_request, configuration=make_configuration(nvl72), customer=customer, channel="api")
    racks = quote.frozen["validation"]["rack_plan"]["racks"]
    systems = sum(r["count"] for r in racks if r["u_total"] == 48)
    others = sum(r["count"] for r in racks if r["u_total"] == 42)
    assert systems == 4 and others >= 1
    text = " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(render_pdf(quote.frozen))).pages).split())
    assert f"{systems + others} racks: 4 of 48U, {others} of 42U." in text
