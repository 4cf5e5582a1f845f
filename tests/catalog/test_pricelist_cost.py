"""The price list's optional purchase price (cost_price_eur): exported, imported, cleared, checked per row, and
left as it is by a file without the column."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from catalog import pricelist
from catalog.models import Part

pytestmark = pytest.mark.django_db


def _csv(header, rows) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode()


def test_import_sets_and_clears_the_purchase_price_and_export_writes_it(seeded_catalog):
    header = ["part_number", "list_price_eur", "cost_price_eur"]
    pricelist.import_price_list(filename="p.csv", content=_csv(header, [["MQM9700-NS2F", "32000.00", "24000,50"]]))
    assert Part.objects.get(part_number="MQM9700-NS2F").cost_price_eur == Decimal("24000.50")

    exported = list(csv.DictReader(io.StringIO(pricelist.export_csv())))
    row = next(r for r in exported if r["part_number"] == "MQM9700-NS2F")
    assert row["cost_price_eur"] == "24000.50"
    sheet = load_workbook(io.BytesIO(pricelist.export_xlsx())).active
    columns = [c.value for c in sheet[1]]
    values = next(r for r in sheet.iter_rows(min_row=2, values_only=True) if r[0] == "MQM9700-NS2F")
    assert values[columns.index("cost_price_eur")] == 24000.5

    # a file without the column leaves it; an empty cell clears it
    pricelist.import_price_list(filename="p.csv", content=_csv(header[:2], [["MQM9700-NS2F", "32000.00"]]))
    assert Part.objects.get(part_number="MQM9700-NS2F").cost_price_eur == Decimal("24000.50")
    pricelist.import_price_list(filename="p.csv", content=_csv(header, [["MQM9700-NS2F", "32000.00", ""]]))
    assert Part.objects.get(part_number="MQM9700-NS2F").cost_price_eur is None


def test_a_bad_purchase_price_names_its_row_and_field_and_changes_nothing(seeded_catalog):
    header = ["part_number", "list_price_eur", "cost_price_eur"]
    rows = [["MQM9700-NS2F", "32000.00", "1000"], ["MCX75310AAS-NEAT", "1500.00", "-3"]]
    with pytest.raises(pricelist.PriceListError) as err:
        pricelist.import_price_list(filename="p.csv", content=_csv(header, rows))
    assert [(e.line, e.field) for e in err.value.errors] == [(3, "cost_price_eur")]
    assert Part.objects.get(part_number="MQM9700-NS2F").cost_price_eur is None
