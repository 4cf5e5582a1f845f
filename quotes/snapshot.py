"""The quote's snapshot (``Quote.frozen``) as a typed, versioned model: what the documents, the revision diff and
the mails read, by attribute rather than by key.

The database keeps the snapshot's JSON as it always has (schema ``quote/v1``): ``FrozenQuote.from_json`` reads
every snapshot ever stored, and ``to_json`` writes the same JSON, key for key, as the freezing service wrote it.
Snapshots stored before a key existed read with that key's default:

* the first snapshots (before the bill had stable section keys) have lines without ``group``, ``lead_time_days``
  and ``agreement_discount_percent``, and a line's ``section`` is then a node group's name or an old section name
  (``FrozenQuote.lines_by_section`` reads them as the sections they are now);
* totals without ``at_least`` (every line was priced then), a customer without ``address`` and ``kvk_number``, no
  ``terms``, ``sales_contact``, ``indicative`` or ``agreement``; a receipt whose hash may be null;
* no ``expansion`` (only an expansion quote has one: the lines are then what the growth adds).

A key the model does not name survives a read and a write unchanged (``extra="allow"``). A later schema gets a new
``schema`` value and its own reading in ``from_json``.
"""

from __future__ import annotations

from collections.abc import Collection
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from design.jsontext import JsonObject

SCHEMA: Literal["quote/v1"] = "quote/v1"
SCHEMAS: tuple[str, ...] = (SCHEMA,)

# Sections of quotes frozen before the bill had stable section keys (a node group's name, "fabric", "management",
# "racks"), read as the sections they are now.
LEGACY_SECTIONS = {"fabric": "compute_fabric", "management": "oob", "racks": "racks_power"}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="allow")

    def to_json(self) -> JsonObject:
        """The JSON the database keeps: the keys the part was read or made with."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


def _blank_is_none(value: object) -> object:
    return None if value == "" else value


class FrozenLine(_Frozen):
    """A line of the bill as priced (quotes.pricing.PricedLine.to_dict) with its lead time and agreed discount.
    The amounts are None for a line priced on request."""

    section: str = ""
    group: str | None = None
    part_number: str = ""
    description: str = ""
    quantity: int = 0
    unit_price: Decimal | None = None
    list_total: Decimal | None = None
    line_discount_percent: Decimal = Decimal("0")
    line_discount: Decimal = Decimal("0.00")
    quote_discount_percent: Decimal = Decimal("0")
    quote_discount: Decimal = Decimal("0.00")
    net: Decimal | None = None
    lead_time_days: int | None = None
    agreement_discount_percent: Decimal | None = None

    _amounts = field_validator("unit_price", "list_total", "net", "lead_time_days", mode="before")(_blank_is_none)

    @property
    def on_request(self) -> bool:
        return self.unit_price is None

    @property
    def keyed(self) -> bool:
        """Whether the line was frozen with the stable section keys (it then names its node group, or None)."""
        return "group" in self.model_fields_set

    def stable(self, sections: Collection[str]) -> FrozenLine:
        """The line with its stable section key and node group: a line frozen before they existed (its section not
        one of the bill's ``sections``, design.contract.BILL_SECTIONS) gets them from its old section name."""
        if self.section in sections or self.keyed:
            return self
        legacy = LEGACY_SECTIONS.get(self.section)
        section, group = (legacy, None) if legacy else ("nodes", self.section)
        return self.model_copy(update={"section": section, "group": group})


class FrozenTotals(_Frozen):
    currency: str = "EUR"
    subtotal: Decimal = Decimal("0.00")
    discount: Decimal = Decimal("0.00")
    net: Decimal = Decimal("0.00")
    vat_rate: Decimal = Decimal("0")
    vat_amount: Decimal = Decimal("0.00")
    total: Decimal = Decimal("0.00")
    at_least: bool = False  # some line is priced on request: every amount leaves it out


class FrozenAddress(_Frozen):
    street: str = ""
    postal_code: str = ""
    city: str = ""


class FrozenCustomer(_Frozen):
    name: str = ""
    company: str = ""
    email: str = ""
    country: str = ""
    vat_number: str = ""
    kvk_number: str = ""
    address: FrozenAddress | None = None


class FrozenContact(_Frozen):
    name: str = ""
    email: str = ""
    phone: str = ""


class FrozenTerms(_Frozen):
    payment_days: int = 30
    incoterm: str = "DAP"
    general_terms_url: str = ""


class FrozenVat(_Frozen):
    category: str = ""
    rate: Decimal = Decimal("0")
    notice: str = ""


class FrozenAcknowledgement(_Frozen):
    code: str
    subject: str = ""
    message: str = ""
    reason: str = ""
    by: str = ""
    at: str = ""


class FrozenApproval(_Frozen):
    by: str = ""
    at: str = ""


class FrozenAgreement(_Frozen):
    """The customer's price agreement as the quote was priced with it (quotes.services.agreements.Agreement.to_dict):
    its discount per catalogue category and the discount it gave each part."""

    id: int | None = None
    company: str = ""
    reference: str = ""
    payment_days: int | None = None
    discounts: dict[str, Decimal] = Field(default_factory=dict)
    applied: dict[str, Decimal] = Field(default_factory=dict)


class FrozenReceipt(_Frozen):
    """The validation receipt: the design's hash, the catalogue version and every finding (as the API sends it);
    ``catalog_digest`` names the catalogue state it was validated against (quotes.models.QuoteCatalog; a quote
    frozen before the catalogue was kept has none)."""

    design_hash: str | None = None
    catalog_version: str | None = None
    catalog_digest: str | None = None
    findings: list[JsonObject] = Field(default_factory=list)

    def warnings(self) -> list[JsonObject]:
        return [f for f in self.findings if f.get("severity") == "warning"]


class FrozenExpansion(_Frozen):
    """What an expansion quote grows (quotes.services.expansion): the quote whose installed cluster it grows
    (``of``: its number), the node counts before and after, the cables per action (keep, move, add, remove), the
    cables a technician terminates, the devices that move, and the re-cabling rows that change something (moved,
    added and removed cables, as the expansion's ``recabling`` writes them; kept ones are only counted)."""

    of: str = ""
    built: str = ""  # or the name of the configuration marked as built whose installed cluster it grows
    installed_nodes: int = 0
    expanded_nodes: int = 0
    cables: dict[str, int] = Field(default_factory=dict)
    labour_cables: int = 0
    moved_devices: int = 0
    recabling: list[JsonObject] = Field(default_factory=list)


class FrozenQuote(_Frozen):
    """Everything a quote's documents print, frozen at issue. ``seller`` (the settings' SELLER), ``design`` (the
    design document) and ``validation`` (the validation result as the API sends it) are JSON written by their own
    owners and kept as such."""

    schema_: Literal["quote/v1"] = Field(default=SCHEMA, alias="schema")
    number: str = ""
    revision: int = 1
    language: str = "en"
    currency: str = "EUR"
    issued_at: str | None = None  # ISO 8601, as written (quotes.documents.local_datetime reads it)
    valid_until: str | None = None  # ISO date
    seller: JsonObject = Field(default_factory=dict)
    customer: FrozenCustomer = Field(default_factory=FrozenCustomer)
    sales_contact: FrozenContact | None = None
    terms: FrozenTerms | None = None
    indicative: bool = False
    crm_reference: str = ""
    design: JsonObject = Field(default_factory=dict)
    validation: JsonObject = Field(default_factory=dict)
    lines: list[FrozenLine] = Field(default_factory=list)
    discount_percent: Decimal = Decimal("0")
    line_discounts: dict[str, Decimal] = Field(default_factory=dict)
    totals: FrozenTotals = Field(default_factory=FrozenTotals)
    vat: FrozenVat | None = None
    agreement: FrozenAgreement | None = None
    acknowledgements: list[FrozenAcknowledgement] = Field(default_factory=list)
    approval: FrozenApproval | None = None
    receipt: FrozenReceipt = Field(default_factory=FrozenReceipt)
    expansion: FrozenExpansion | None = None  # an expansion quote's: what is installed, added and moved

    model_config = ConfigDict(frozen=True, extra="allow", populate_by_name=True)

    @classmethod
    def from_json(cls, data: JsonObject | FrozenQuote) -> FrozenQuote:
        """The snapshot of any stored version (a snapshot without ``schema`` is a quote/v1 one)."""
        if isinstance(data, FrozenQuote):
            return data
        schema = data.get("schema", SCHEMA)
        if schema not in SCHEMAS:
            raise ValueError(f"unknown quote snapshot schema {schema!r}")
        # A part written as null where the model expects an object or a list reads as absent (its default).
        return cls.model_validate({key: value for key, value in data.items() if value is not None or key in _NULLABLE})

    def stable_lines(self, sections: Collection[str]) -> list[FrozenLine]:
        """The lines with their stable section keys (FrozenLine.stable), in the snapshot's order."""
        return [line.stable(sections) for line in self.lines]

    @property
    def at_least(self) -> bool:
        """Whether the totals leave out a line priced on request (they are then at least the amounts)."""
        return self.totals.at_least or any(line.on_request for line in self.lines)

    @property
    def left_out_items(self) -> list[Any]:
        """What the offer leaves out because the site has it (the frozen result's ``left_out`` items)."""
        return list((self.validation.get("left_out") or {}).get("items") or [])


_NULLABLE = frozenset(
    name for name, field in FrozenQuote.model_fields.items() for name in (field.alias or name,) if field.default is None
)
