"""The sales dashboard: search by quote number, customer and company; columns sorted from the URL; a filter by who
handles the design; pages; and as many queries for a hundred quotes as for three."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tests.factories import ConfigurationFactory, StaffFactory

pytestmark = pytest.mark.django_db

DASHBOARD = "configurator:dashboard"


def make_quote(n: int, *, name="Anna de Vries", company="", email="anna@example.nl", total="1000", owner=None, **kw):
    from quotes.models import Quote

    config = ConfigurationFactory(assigned_to=owner, name=f"Design {n}")
    return Quote.objects.create(
        number=f"Q-2026-{n:05d}",
        base_number=f"Q-2026-{n:05d}",
        status=kw.pop("status", Quote.Status.AWAITING_REVIEW),
        configuration=config,
        customer_name=name,
        customer_company=company,
        customer_email=email,
        customer_country="NL",
        total=Decimal(total),
        **kw,
    )


def numbers(html: str) -> list[str]:
    """The quote numbers of the quote-request table, top to bottom."""
    table = html.split('id="quote-requests"', 1)[1].split("</table>", 1)[0]
    return re.findall(r"<th scope=\"row\"><a [^>]*>(Q-\d{4}-\d{5})</a>", table)


def page(client, **params) -> str:
    response = client.get(reverse(DASHBOARD), params)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def three():
    return [
        make_quote(1, name="Anna de Vries", company="Rekenkracht B.V.", email="anna@rekenkracht.nl", total="300"),
        make_quote(2, name="Piet Jansen", company="Datahal B.V.", email="piet@datahal.nl", total="100"),
        make_quote(3, name="Zoë Bakker", company="", email="zoe@example.org", total="200"),
    ]


@pytest.mark.parametrize(
    ("search", "found"),
    [
        ("Q-2026-00002", ["Q-2026-00002"]),  # the quote number
        ("00003", ["Q-2026-00003"]),  # part of it
        ("datahal", ["Q-2026-00002"]),  # the company, any case
        ("anna@", ["Q-2026-00001"]),  # the customer's e-mail
        ("bakker", ["Q-2026-00003"]),  # the customer's name
        ("nobody-like-this", []),
    ],
)
def test_search_finds_quotes_by_number_customer_and_company(staff_client, three, search, found):
    html = page(staff_client, q=search)
    assert (numbers(html) if found else []) == found
    if not found:
        assert "No quote requests match." in html
    assert f'value="{search}"' in html  # the search stays in the box


def test_an_old_link_with_customer_still_searches(staff_client, three):
    assert numbers(page(staff_client, customer="datahal")) == ["Q-2026-00002"]


@pytest.mark.parametrize(
    ("sort", "order"),
    [
        ("total", ["Q-2026-00002", "Q-2026-00003", "Q-2026-00001"]),
        ("-total", ["Q-2026-00001", "Q-2026-00003", "Q-2026-00002"]),
        ("number", ["Q-2026-00001", "Q-2026-00002", "Q-2026-00003"]),
        ("-number", ["Q-2026-00003", "Q-2026-00002", "Q-2026-00001"]),
        ("customer", ["Q-2026-00002", "Q-2026-00001", "Q-2026-00003"]),  # Datahal, Rekenkracht, Zoë Bakker
        ("date", ["Q-2026-00001", "Q-2026-00002", "Q-2026-00003"]),
        ("-date", ["Q-2026-00003", "Q-2026-00002", "Q-2026-00001"]),
    ],
)
def test_columns_sort_from_the_url(staff_client, three, sort, order):
    assert numbers(page(staff_client, sort=sort)) == order


def test_sorting_by_status_follows_the_quote_lifecycle(staff_client):
    from quotes.models import Quote

    make_quote(1, status=Quote.Status.ISSUED, issued_at=timezone.now(), valid_until=timezone.localdate())
    make_quote(2, status=Quote.Status.AWAITING_REVIEW)
    make_quote(3, status=Quote.Status.AWAITING_APPROVAL)
    assert numbers(page(staff_client, sort="status")) == ["Q-2026-00002", "Q-2026-00003", "Q-2026-00001"]


def test_a_column_header_links_to_its_sort_and_says_how_the_table_is_sorted(staff_client, three):
    html = page(staff_client, q="B.V.", sort="total", page="1")
    header = re.search(r'<th scope="col" class="num" aria-sort="ascending"><a href="([^"]+)"', html)
    assert header, "the total column says it sorts ascending"
    link = header.group(1).replace("&amp;", "&")
    assert "sort=-total" in link and "q=B.V." in link and "page=" not in link  # next: descending, page 1
    assert re.search(r'aria-sort="none"><a href="[^"]*sort=number', html)
    assert 'name="sort" value="total"' in html  # filtering again keeps the sort
    default = page(staff_client)
    assert re.search(r'aria-sort="descending"><a href="[^"]*sort=date', default)  # newest first


def test_a_bad_sort_or_page_is_no_crash(staff_client, three):
    assert len(numbers(page(staff_client, sort="drop table", page="x"))) == 3
    assert len(numbers(page(staff_client, page="999"))) == 3  # the last page


def test_filter_by_owner_mine_someone_or_nobody(staff_client, staff):
    other = StaffFactory(username="karin", first_name="Karin", last_name="Smit")
    make_quote(1, owner=staff)
    make_quote(2, owner=other)
    make_quote(3)
    assert numbers(page(staff_client, owner="mine")) == ["Q-2026-00001"]
    assert numbers(page(staff_client, owner=str(other.pk))) == ["Q-2026-00002"]
    assert numbers(page(staff_client, owner="none")) == ["Q-2026-00003"]
    assert len(numbers(page(staff_client, owner=""))) == 3
    html = page(staff_client)
    assert f'<option value="{other.pk}">Karin Smit</option>' in html
    assert "Design 2" in page(staff_client, owner=str(other.pk)).split('id="designs"', 1)[1]  # designs too
    assert 'id="id_owner_error"' in page(staff_client, owner="12345")  # no such user: said, not a crash


def test_quotes_come_in_pages(staff_client):
    for n in range(1, 31):
        make_quote(n)
    first = page(staff_client, sort="number")
    assert numbers(first) == [f"Q-2026-{n:05d}" for n in range(1, 26)]
    assert "Page 1 of 2" in first and "(30)" in first
    second = page(staff_client, sort="number", page="2")
    assert numbers(second) == [f"Q-2026-{n:05d}" for n in range(26, 31)]


def _queries(client) -> int:
    with CaptureQueriesContext(connection) as ctx:
        page(client, sort="-total")
    return len(ctx.captured_queries)


def test_the_query_count_does_not_grow_with_the_quotes(staff_client, staff):
    for n in range(1, 4):
        make_quote(n, owner=staff if n % 2 else None)  # with a design of someone else: its take-over button
    few = _queries(staff_client)
    for n in range(4, 40):
        make_quote(n, owner=StaffFactory(username=f"engineer{n}") if n % 2 else None)
    assert _queries(staff_client) == few


def test_the_query_count_does_not_grow_with_the_designs(staff_client, staff):
    """The designs' table (each with the sales engineer it is assigned to) costs the same queries for N designs as
    for 2N, as the quotes' table does."""

    def designs(first: int, count: int) -> None:
        for n in range(first, first + count):
            owner = staff if n % 3 == 0 else StaffFactory(username=f"designer{n}") if n % 3 == 1 else None
            ConfigurationFactory(assigned_to=owner, name=f"Draft {n}")

    designs(1, 6)
    page(staff_client)  # the caches a second visit finds warm
    few = _queries(staff_client)
    designs(7, 6)
    html = page(staff_client)
    assert html.count("Draft ") >= 12
    assert _queries(staff_client) == few
