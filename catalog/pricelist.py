"""Price-list export and import (CSV and XLSX).

The import is all or nothing: every row is checked first, every bad row is reported with its line number and
field, and only a clean file is written, in one transaction. Columns: part_number, list_price_eur,
lead_time_days, lifecycle and, optionally, replacement (what replaces a discontinued or end-of-life part) and
cost_price_eur (the distributor's purchase price, staff only: the quotes' margins; an empty cell clears it, a file
without the column leaves every purchase price as it is); name and manufacturer are exported for reading and
ignored on import.

An XLSX cell holding a formula (``=4000+500``) is read as the value the spreadsheet computed and saved with it;
a formula saved without one (openpyxl and scripts write none) is a row error naming the row and field, never an
empty price. Exports write text that looks like a formula as text (design.spreadsheets), and the CSV
import takes off the apostrophe the CSV export put before it.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models, transaction

from design.spreadsheets import csv_text, csv_text_value, neutralise_sheet

from .models import CatalogRelease, Lifecycle, Part

COLUMNS = [
    "part_number",
    "manufacturer",
    "name",
    "category",
    "list_price_eur",
    "lead_time_days",
    "lifecycle",
    "replacement",
    "cost_price_eur",
]
REQUIRED = ["part_number", "list_price_eur"]


@dataclass(frozen=True)
class RowError:
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, {self.field}: {self.message}"


class PriceListError(Exception):
    def __init__(self, errors: list[RowError]):
        self.errors = errors
        super().__init__("; ".join(str(e) for e in errors[:20]))


@dataclass
class ImportReport:
    updated: int
    unchanged: int


def _rows(parts: Iterable[Part]) -> Iterator[list[str]]:
    for p in parts:
        yield [
            p.part_number,
            p.manufacturer,
            p.name,
            p.category,
            "" if p.list_price_eur is None else f"{p.list_price_eur:.2f}",
            "" if p.lead_time_days is None else str(p.lead_time_days),
            p.lifecycle,
            p.replacement,
            "" if p.cost_price_eur is None else f"{p.cost_price_eur:.2f}",
        ]


def export_csv() -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(COLUMNS)
    for row in _rows(Part.objects.order_by("category", "part_number")):
        writer.writerow([csv_text(value) for value in row])
    return out.getvalue()


def export_xlsx() -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Price list"
    ws.append(COLUMNS)
    for row in _rows(Part.objects.order_by("category", "part_number")):
        ws.append([Decimal(v) if i in (4, 8) and v else (int(v) if i == 5 and v else v) for i, v in enumerate(row)])
    neutralise_sheet(ws)  # an imported "=HYPERLINK(...)" goes out as text, not as a live formula
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _read(filename: str, content: bytes) -> tuple[list[tuple[int, dict[str, str]]], list[RowError]]:
    """Rows as (line number, {column: text}), line 1 being the header, and the errors of cells that cannot be
    read (a formula without its computed value)."""
    errors: list[RowError] = []
    rows = _read_xlsx(content, errors) if filename.lower().endswith(".xlsx") else _read_csv(content)
    if not rows:
        raise PriceListError([RowError(1, "file", "the file is empty")])
    header = [h.lower() for h in rows[0]]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        raise PriceListError([RowError(1, c, "column missing from the header") for c in missing])
    errors = [RowError(e.line, _column(header, e.field), e.message) for e in errors]
    return [(i, dict(zip(header, r, strict=False))) for i, r in enumerate(rows[1:], start=2) if any(r)], errors


def _column(header: list[str], index: str) -> str:
    """A cell error's field: the column's name from the header, or its letter where the header has none."""
    number = int(index)
    if number < len(header) and header[number]:
        return header[number]
    from openpyxl.utils import get_column_letter

    return f"column {get_column_letter(number + 1)}"


def _read_csv(content: bytes) -> list[list[str]]:
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PriceListError([RowError(1, "file", "not UTF-8 text; save the CSV as UTF-8")]) from exc
    reader = csv.reader(io.StringIO(text))
    try:
        return [[csv_text_value(c.strip()) for c in r] for r in reader]
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            limit = csv.field_size_limit()
            message = (
                f"a field is longer than {limit // 1024} KiB ({limit:,} characters); no price-list field is this "
                "long: check for a quote character that is never closed"
            )
        else:
            message = f"not readable as CSV ({exc})"
        raise PriceListError([RowError(reader.line_num, "file", message)]) from exc


def _read_xlsx(content: bytes, errors: list[RowError]) -> list[list[str]]:
    """The first sheet's cells as text. A formula cell gives the value the spreadsheet saved with it (the
    workbook is read twice: once for the formulas, once for those values); without one it is an error, reported
    with the cell's column index as its field until the header names it (see ``_read``)."""
    from itertools import zip_longest

    from openpyxl import load_workbook

    try:
        formulas = load_workbook(io.BytesIO(content), read_only=True, data_only=False)
        values = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as exc:
        raise PriceListError([RowError(1, "file", f"not a readable XLSX file ({type(exc).__name__})")]) from exc
    rows = []
    cells = zip_longest(formulas.active.iter_rows(), values.active.iter_rows(values_only=True), fillvalue=())
    for line, (formula_row, value_row) in enumerate(cells, start=1):
        row = []
        for index, (cell, value) in enumerate(zip_longest(formula_row, value_row)):
            # A formula saved without its value, or with an empty one (an empty inline string): never a price of "".
            if getattr(cell, "data_type", None) == "f" and (value is None or str(value).strip() == ""):
                formula = cell.value if isinstance(cell.value, str) else getattr(cell.value, "text", "")
                errors.append(
                    RowError(
                        line,
                        str(index),
                        f"{formula!r} is a formula saved without its computed value (or with an empty one); "
                        "open the file in a "
                        "spreadsheet and save it again, or enter the value itself",
                    )
                )
            row.append("" if value is None else str(value).strip())
        rows.append(row)
    return rows


def _field_errors(line: int, row: dict[str, str], values: dict) -> list[RowError]:
    """The model's own checks of each parsed value (max_digits, the column's integer range, choices), so a
    value the database cannot hold is a row error here, not a crash at the write."""
    errors = []
    for name, value in values.items():
        try:
            field = Part._meta.get_field(name)
            assert isinstance(field, models.Field)  # a column of the price list is a field of the part
            field.clean(value, None)
        except ValidationError as exc:
            errors.append(RowError(line, name, f"{row.get(name, '')!r}: {' '.join(exc.messages)}"))
    return errors


def import_price_list(*, filename: str, content: bytes) -> ImportReport:
    """Check every row, then apply all of them atomically, or none and raise PriceListError."""
    rows, errors = _read(filename, content)
    parts = {p.part_number: p for p in Part.objects.filter(part_number__in=[r.get("part_number", "") for _, r in rows])}
    changes: list[tuple[Part, dict]] = []
    seen: set[str] = set()
    for line, row in rows:
        pn = row.get("part_number", "")
        part = parts.get(pn)
        if not pn:
            errors.append(RowError(line, "part_number", "empty"))
            continue
        if part is None:
            errors.append(RowError(line, "part_number", f"unknown part number {pn!r}"))
            continue
        if pn in seen:
            errors.append(RowError(line, "part_number", f"{pn} appears more than once"))
        seen.add(pn)
        values, row_errors = _row_values(line, row)
        errors.extend(row_errors)
        changes.append((part, values))
    if errors:
        raise PriceListError(sorted(errors, key=lambda e: e.line))
    updated = _apply(changes, filename)
    return ImportReport(updated=updated, unchanged=len(changes) - updated)


def _row_values(line: int, row: dict) -> tuple[dict, list[RowError]]:
    """The new values of one row's fields, and an error for each field that is not valid."""
    values: dict = {}
    errors: list[RowError] = []
    _read_price(line, row.get("list_price_eur", ""), values, errors)
    if "cost_price_eur" in row:
        _read_price(line, row["cost_price_eur"] or "", values, errors, field="cost_price_eur")
    _read_lead_time(line, row.get("lead_time_days"), values, errors)
    life = row.get("lifecycle")
    if life not in (None, ""):
        if life not in Lifecycle.values:
            errors.append(RowError(line, "lifecycle", f"{life!r} is not one of {', '.join(Lifecycle.values)}"))
        else:
            values["lifecycle"] = life
    if "replacement" in row:
        values["replacement"] = row["replacement"]
    errors.extend(_field_errors(line, row, values))
    return values, errors


# Numbers as a spreadsheet or a person writes them: ASCII digits, one decimal point or comma, an exponent as XLSX
# writes large and small numbers. Python's Decimal alone would also take digit separators ("1_000") and the digits
# of other scripts (Arabic-Indic "٤٥٠٠"), which no price list means as a number.
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?", re.ASCII)
_PRICE = re.compile(r"[0-9]+(?:[.,][0-9]+)?(?:[eE][+-]?[0-9]+)?", re.ASCII)


def _read_price(line: int, price: str, values: dict, errors: list[RowError], *, field: str = "list_price_eur") -> None:
    """An empty price clears it; otherwise a price of 0 or more in EUR, with a decimal point or one comma."""
    if price == "":
        values[field] = None
        return
    try:
        if not _PRICE.fullmatch(price):  # Decimal would also read "1_000" and other scripts' digits ("٤٥٠٠")
            raise InvalidOperation
        value = Decimal(price.replace(",", ".")) if price.count(",") == 1 and "." not in price else Decimal(price)
        if not value.is_finite() or value < 0:
            raise InvalidOperation
        values[field] = value.quantize(Decimal("0.01"))
    except InvalidOperation:
        errors.append(RowError(line, field, f"{price!r} is not a price in EUR (0 or more)"))


def _read_lead_time(line: int, lead: str | None, values: dict[str, Any], errors: list[RowError]) -> None:
    """A lead time, when given, is a whole number of days (0 or more)."""
    if lead is None or lead == "":
        return
    try:
        if not _NUMBER.fullmatch(str(lead)):
            raise InvalidOperation
        number = Decimal(lead)  # "21", "21.0" (XLSX) and "2e1" alike, without a float's rounding
        if not number.is_finite() or number != number.to_integral_value() or number < 0:
            raise InvalidOperation
        values["lead_time_days"] = int(number)
    except InvalidOperation:
        errors.append(RowError(line, "lead_time_days", f"{lead!r} is not a whole number of days"))


def _apply(changes: list[tuple[Part, dict]], filename: str) -> int:
    """Saves the parts whose values change, all or none, and records a catalogue release when any did."""
    updated = 0
    with transaction.atomic():
        for part, values in changes:
            if any(getattr(part, k) != v for k, v in values.items()):
                for k, v in values.items():
                    setattr(part, k, v)
                part.save()
                updated += 1
        if updated:
            latest = CatalogRelease.objects.order_by("-created_at", "-id").first()
            base = latest.version.split("+")[0] if latest else "unversioned"
            CatalogRelease.objects.create(
                version=f"{base}+prices", checksum=str(updated), source=f"price list {filename}"
            )
    return updated
