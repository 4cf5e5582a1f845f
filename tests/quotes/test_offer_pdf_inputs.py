"""Whatever a customer, a sales engineer or a CRM writes into the fields an offer prints (within the lengths the
forms and the API accept), the offer PDF is built, and text that is not markup-free reaches the page as text."""

from __future__ import annotations

import copy
import io
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from quotes.documents import render_pdf
from quotes.services import quote_request
from tests.factories import design

pytestmark = pytest.mark.django_db

# What the forms and the API accept: no NUL and no surrogate (refused at the door), any other character.
TEXT = st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")


def field(max_size: int):
    return st.text(TEXT, min_size=1, max_size=max_size)


@pytest.fixture
def frozen(make_configuration, customer, build):
    return build(quote_request, configuration=make_configuration(design(2)), customer=customer, channel="api").frozen


def _text(pdf: bytes) -> str:
    return re.sub(r"\s+", "", "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    name=field(200),
    company=field(200),
    street=field(200),
    city=field(100),
    design_name=field(200),
    reference=field(100),
)
def test_any_customer_and_design_text_within_the_accepted_lengths_builds_the_offer(
    frozen, name, company, street, city, design_name, reference
):
    quote = copy.deepcopy(frozen)
    quote["customer"].update(name=name, company=company, address={"street": street, "postal_code": "1", "city": city})
    quote["design"]["name"] = design_name
    quote["crm_reference"] = reference
    assert render_pdf(quote).startswith(b"%PDF-")


@pytest.mark.parametrize(
    "company",
    ["<b>Bold</b> & Co", "A &amp; B <i>", "]]> <![CDATA[x]]>", "<font name='x'>F</font>", "<para>p</para> <br/>"],
)
def test_markup_in_a_customer_field_is_printed_as_written(frozen, company):
    quote = copy.deepcopy(frozen)
    quote["customer"]["company"] = company
    assert re.sub(r"\s+", "", company) in _text(render_pdf(quote))
