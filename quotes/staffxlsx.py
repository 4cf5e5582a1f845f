"""The staff workbook: the customer's bill-of-materials workbook (quotes.billxlsx.render_xlsx, from the frozen
snapshot) with each line's purchase price and margin, and the quote's margin on the summary sheet.

Staff only: served to a signed-in staff user (quotes.views.quote_document_staff), built on request from the stored
customer workbook and the purchase prices fixed on the quote (``Quote.costs``), never stored beside the customer's
documents nor e-mailed. A line priced on request or without a purchase price has an unknown margin (empty cells).
"""

from __future__ import annotations

import io
from decimal import Decimal

from django.utils import translation
from django.utils.translation import gettext as _

from design.jsontext import JsonObject

from .billxlsx import CURRENCY_FORMAT, PERCENT_FORMAT
from .frozen import frozen_lines, on_request
from .pricing import HUNDRED, ZERO, cents


def _line_margin(line: JsonObject, costs: dict[str, str]) -> tuple[Decimal, Decimal, Decimal] | None:
    """(cost, margin, margin share) of a frozen line, or None when unknown."""
    unit = costs.get(line.get("part_number") or "")
    if unit is None or unit == "" or on_request(line):
        return None
    cost = cents(Decimal(unit) * int(line["quantity"]))
    net = Decimal(line["net"])
    margin = net - cost
    return cost, margin, (margin / net if net else ZERO)


def with_margins(xlsx: bytes, frozen: JsonObject, costs: dict[str, str]) -> bytes:
    """``xlsx`` (the customer workbook of ``frozen``) with purchase price and margin columns on the bill sheet and
    the quote's margin on the summary sheet, in the quote's language."""
    from openpyxl import load_workbook
    from openpyxl.styles import Font

    workbook = load_workbook(io.BytesIO(xlsx))
    bill, summary = workbook.worksheets[0], workbook.worksheets[1]
    lines = frozen_lines(frozen)
    first = bill.max_column + 1
    with translation.override(frozen.get("language", "en")):
        headers = [_("Unit purchase price (EUR)"), _("Purchase price (EUR)"), _("Margin (EUR)"), _("Margin (%)")]
        for offset, header in enumerate(headers):
            cell = bill.cell(row=1, column=first + offset, value=header)
            cell.font = Font(bold=True)
        total_net = total_cost = ZERO
        for row, line in enumerate(lines, start=2):
            known = _line_margin(line, costs)
            if known is None:
                continue
            cost, margin, share = known
            total_net, total_cost = total_net + Decimal(line["net"]), total_cost + cost
            values = (Decimal(costs[line["part_number"]]), cost, margin, share)
            for offset, value in enumerate(values):
                cell = bill.cell(row=row, column=first + offset, value=value)
                cell.number_format = PERCENT_FORMAT if offset == 3 else CURRENCY_FORMAT
        total_row = len(lines) + 2
        margin = total_net - total_cost
        if total_net or total_cost:
            sums: tuple[tuple[int, Decimal | None], ...] = (
                (1, total_cost),
                (2, margin),
                (3, margin / total_net if total_net else None),
            )
            for offset, amount in sums:
                cell = bill.cell(row=total_row, column=first + offset, value=amount)
                cell.font = Font(bold=True)
                cell.number_format = PERCENT_FORMAT if offset == 3 else CURRENCY_FORMAT
        priced = [line for line in lines if not on_request(line)]
        complete = all(_line_margin(line, costs) is not None for line in priced)
        rows: list[tuple[str, Decimal | str]] = [
            (_("Margin (EUR)"), margin if total_net or total_cost else _("unknown")),
            (_("Margin (%)"), cents(margin * HUNDRED / total_net) / 100 if total_net else _("unknown")),
            (
                _("Margin over"),
                _("every priced line") if complete else _("the lines with a purchase price only"),
            ),
        ]
        for label, shown in rows:
            summary.append([label, shown])
            cell = summary.cell(row=summary.max_row, column=2)
            if label == _("Margin (EUR)") and not isinstance(shown, str):
                cell.number_format = CURRENCY_FORMAT
            elif label == _("Margin (%)") and not isinstance(shown, str):
                cell.number_format = PERCENT_FORMAT
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
