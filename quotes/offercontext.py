"""What the offer and the order confirmation print, as typed records: ``OfferContext`` is built once from the frozen
quote by ``quotes.documents.pdf_context`` and read by ``quotes.offerpdf`` and ``quotes.orderpdf``. A misspelled key
is a type error, not a blank on the page. Amounts, percentages and quantities are already written in the offer's
language; the parties, terms and plans stay the snapshot's JSON.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TypedDict

from design.jsontext import JsonObject


class OfferTotals(TypedDict):
    """The offer's totals, written as amounts in its language."""

    subtotal: str
    discount: str
    net: str
    vat_amount: str
    total: str


class OfferSection(TypedDict):
    """One section of the bill: its frozen lines, each with its figures written (``*_fmt``) and its lead time."""

    key: str
    title: str
    lines: list[JsonObject]
    net_fmt: str
    at_least: bool
    all_on_request: bool


class AgreementWords(TypedDict):
    """The price agreement the quote was priced with, as the offer names it."""

    company: str
    reference: str
    discounts: str  # "Server 5%, Network adapter 3%"


class SlotMapPicture(TypedDict):
    name: str
    svg: str


class OfferPictures(TypedDict):
    """The pictures of the frozen plans, printed (outputs.picture_set)."""

    topology: str | None
    slot_maps: list[SlotMapPicture]
    rack_count: int
    rack_heights: tuple[tuple[int, int], ...]
    elevations: list[str]


class ExpansionWords(TypedDict):
    """An expansion quote's section: its title and what is installed, added and moved."""

    title: str
    facts: list[tuple[str, str]]


class OfferContext(TypedDict):
    """Everything the offer says (quotes.documents.pdf_context)."""

    q: JsonObject  # the frozen quote as issued (quote/v1)
    audience: str  # "customer" or "staff"
    points: list[str]
    confirm_figures: bool
    language: str
    seller: JsonObject
    customer: JsonObject
    terms: JsonObject
    contact: JsonObject
    issued_at: datetime | None
    valid_until: date | None
    sections: list[OfferSection]
    at_least: bool
    on_request_count: int
    totals: OfferTotals
    has_discount: bool
    agreed_discounts: str
    agreement: AgreementWords | None
    line_discounts: str
    quote_discount: str
    discount_percent: str
    vat_rate: str
    vat_free: bool
    topology: str | None
    slot_maps: list[SlotMapPicture]
    rack_count: int
    rack_heights: tuple[tuple[int, int], ...]
    elevations: list[str]
    fabric_plan: JsonObject | None
    fabric_switches: dict[str, str]
    rack_plan: JsonObject | None
    rack_power: str
    rack_power_known: str
    pdus_needed: int
    left_out: str
    expansion: ExpansionWords | None


class _Acceptor(TypedDict):
    """Who accepted the quote, how, and under which purchase order."""

    name: str
    position: str
    email: str
    po_number: str
    note: str
    channel: str


class AcceptanceRecord(_Acceptor):
    """The customer's acceptance as the quote services keep it (quotes.services.orders)."""

    accepted_at: str  # ISO 8601


class OrderAcceptance(_Acceptor):
    """What the order confirmation prints of the acceptance: its time as a local datetime."""

    accepted_at: datetime | None
