"""Price-list import and export: atomic, and every bad row named by line and field."""

import csv
import io
from decimal import Decimal

import pytest
from openpyxl import Workbook, load_workbook

from catalog import pricelist
from catalog.models import Part

pytestmark = pytest.mark.django_db


def _csv(rows):
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["part_number", "list_price_eur", "lead_time_days"])
    w.writerows(rows)
    return out.getvalue().encode()


def test_bad_row_rolls_back_the_whole_import_and_names_the_row(seeded_catalog):
    before = Part.objects.get(part_number="MQM9700-NS2F").list_price_eur
    content = _csv([["MQM9700-NS2F", "1.00", "10"], ["MCX75310AAS-NEAT", "-5", "10"], ["NOPE-123", "1", "1"]])
    with pytest.raises(pricelist.PriceListError) as err:
        pricelist.import_price_list(filename="prices.csv", content=content)
    found = {(e.line, e.field) for e in err.value.errors}
    assert (3, "list_price_eur") in found  # line 1 is the header
    assert (4, "part_number") in found
    assert Part.objects.get(part_number="MQM9700-NS2F").list_price_eur == before


def test_clean_csv_updates_prices(seeded_catalog):
    report = pricelist.import_price_list(filename="p.csv", content=_csv([["MQM9700-NS2F", "31999.50", "21"]]))
    assert report.updated == 1
    part = Part.objects.get(part_number="MQM9700-NS2F")
    assert part.list_price_eur == Decimal("31999.50") and part.lead_time_days == 21


def test_xlsx_round_trip(seeded_catalog):
    data = pricelist.export_xlsx()
    wb = load_workbook(io.BytesIO(data))
    rows = list(wb.active.iter_rows(values_only=True))
    assert rows[0][0] == "part_number" and len(rows) == Part.objects.count() + 1
    report = pricelist.import_price_list(filename="p.xlsx", content=data)
    assert report.updated == 0


def test_xlsx_bad_lead_time_is_reported(seeded_catalog):
    wb = Workbook()
    wb.active.append(["part_number", "list_price_eur", "lead_time_days"])
    wb.active.append(["MQM9700-NS2F", 100, "soon"])
    buf = io.BytesIO()
    wb.save(buf)
    with pytest.raises(pricelist.PriceListError) as err:
        pricelist.import_price_list(filename="p.xlsx", content=buf.getvalue())
    assert [(e.line, e.field) for e in err.value.errors] == [(2, "lead_time_days")]


def test_missing_column_and_garbage_file_are_clear_errors(db):
    with pytest.raises(pricelist.PriceListError) as err:
        pricelist.import_price_list(filename="p.csv", content=b"part,price\nX,1\n")
    assert {e.field for e in err.value.errors} == {"part_number", "list_price_eur"}
    with pytest.raises(pricelist.PriceListError):
        pricelist.import_price_list(filename="p.xlsx", content=b"not a workbook")


def test_admin_import_page_lists_errors(admin_client, seeded_catalog):
    upload = io.BytesIO(_csv([["MQM9700-NS2F", "abc", ""]]))
    upload.name = "prices.csv"
    resp = admin_client.post("/admin/catalog/part/import/", {"file": upload})
    assert resp.status_code == 200
    assert b"list_price_eur" in resp.content and b"abc" in resp.content


def test_admin_lists_seeded_catalogue_and_exports(admin_client, seeded_catalog):
    resp = admin_client.get("/admin/catalog/part/?q=MQM9700")
    assert b"MQM9700-NS2F" in resp.content
    resp = admin_client.get("/admin/catalog/part/export.csv")
    assert resp.status_code == 200 and b"MQM9700-NS2F" in resp.content
    part = Part.objects.get(part_number="SYS-821GE-TNHR")
    resp = admin_client.get(f"/admin/catalog/part/{part.pk}/change/")
    assert resp.status_code == 200


@pytest.mark.parametrize("lead", ["1e20", "99999999999999999999999"])
def test_lead_time_beyond_the_column_is_a_row_error_not_a_crash(seeded_catalog, lead):
    with pytest.raises(pricelist.PriceListError) as err:
        pricelist.import_price_list(filename="p.csv", content=_csv([["MQM9700-NS2F", "100.00", lead]]))
    assert [(e.line, e.field) for e in err.value.errors] == [(2, "lead_time_days")]


def test_price_with_more_than_twelve_digits_is_a_row_error(seeded_catalog):
    before = Part.objects.get(part_number="MQM9700-NS2F").list_price_eur
    with pytest.raises(pricelist.PriceListError) as err:
        pricelist.import_price_list(filename="p.csv", content=_csv([["MQM9700-NS2F", "12345678901.00", "10"]]))
    assert [(e.line, e.field) for e in err.value.errors] == [(2, "list_price_eur")]
    assert "12 digits" in err.value.errors[0].message
    assert Part.objects.get(part_number="MQM9700-NS2F").list_price_eur == before
    # Ten digits before the point is the most the column holds, and passes.
    report = pricelist.import_price_list(filename="p.csv", content=_csv([["MQM9700-NS2F", "1234567890.99", "10"]]))
    assert report.updated == 1
