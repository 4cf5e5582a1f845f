"""Price-list import and export: atomic, and every bad row named by line and field."""

import csv
import io
import re
import zipfile
from decimal import Decimal

import pytest
from openpyxl import Workbook, load_workbook

from catalog import pricelist
from catalog.models import Part
from catalog.pricelist import COLUMNS

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


def _xlsx(rows, computed: dict[str, str] | None = None) -> bytes:
    """A workbook as openpyxl saves it (formulas without a computed value); ``computed`` adds the value a
    spreadsheet application saves with a formula, as Excel and LibreOffice write it: {"4000+500": "4500"}."""
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    buf = io.BytesIO()
    wb.save(buf)
    if not computed:
        return buf.getvalue()
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = data.decode()
                for formula, value in computed.items():
                    # an empty value as openpyxl writes it: <v /> (xml.etree) or <v></v> (lxml, when installed)
                    text, found = re.subn(
                        rf"<f>{re.escape(formula)}</f><v\s*/>|<f>{re.escape(formula)}</f><v></v>",
                        f"<f>{formula}</f><v>{value}</v>",
                        text,
                    )
                    assert found == 1, formula
                data = text.encode()
            dst.writestr(item, data)
    return out.getvalue()


def test_xlsx_formula_with_its_computed_value_imports_that_value(seeded_catalog):
    content = _xlsx(
        [["part_number", "list_price_eur", "lead_time_days"], ["MQM9700-NS2F", "=4000+500", "=7*3"]],
        computed={"4000+500": "4500", "7*3": "21"},
    )
    report = pricelist.import_price_list(filename="p.xlsx", content=content)
    assert report.updated == 1
    part = Part.objects.get(part_number="MQM9700-NS2F")
    assert part.list_price_eur == Decimal("4500.00") and part.lead_time_days == 21


def test_xlsx_formula_without_a_computed_value_is_refused_and_changes_nothing(seeded_catalog):
    before = {p.part_number: (p.list_price_eur, p.lead_time_days) for p in Part.objects.all()}
    assert before["MQM9700-NS2F"][0] is not None
    content = _xlsx(
        [
            ["part_number", "list_price_eur", "lead_time_days"],
            ["MCX75310AAS-NEAT", 999, 5],  # a clean row: not applied either
            ["MQM9700-NS2F", "=4000+500", 10],
        ]
    )
    with pytest.raises(pricelist.PriceListError) as err:
        pricelist.import_price_list(filename="p.xlsx", content=content)
    assert [(e.line, e.field) for e in err.value.errors] == [(3, "list_price_eur")]
    assert "=4000+500" in err.value.errors[0].message and "computed value" in err.value.errors[0].message
    assert {p.part_number: (p.list_price_eur, p.lead_time_days) for p in Part.objects.all()} == before


def test_admin_import_of_a_formula_price_says_nothing_was_imported(admin_client, seeded_catalog):
    before = Part.objects.get(part_number="MQM9700-NS2F").list_price_eur
    upload = io.BytesIO(_xlsx([["part_number", "list_price_eur"], ["MQM9700-NS2F", "=4000+500"]]))
    upload.name = "prices.xlsx"
    resp = admin_client.post("/admin/catalog/part/import/", {"file": upload}, follow=True)
    body = resp.content.decode()
    assert "Nothing was imported" in body and "Price list imported" not in body
    assert "list_price_eur" in body and "=4000+500" in body
    assert Part.objects.get(part_number="MQM9700-NS2F").list_price_eur == before


def test_csv_field_beyond_the_field_limit_is_a_clear_error(seeded_catalog):
    content = _csv([["MQM9700-NS2F", "100.00", "10"]]) + b'MCX75310AAS-NEAT,"' + b"9" * 200_000 + b'",1\n'
    with pytest.raises(pricelist.PriceListError) as err:
        pricelist.import_price_list(filename="p.csv", content=content)
    (error,) = err.value.errors
    assert error.field == "file" and error.line == 3 and "128 KiB" in error.message


def test_admin_import_of_an_oversized_csv_field_is_no_server_error(admin_client, seeded_catalog):
    upload = io.BytesIO(b"part_number,list_price_eur\n" + b'X,"' + b"a" * 140_000 + b"\n")
    upload.name = "prices.csv"
    resp = admin_client.post("/admin/catalog/part/import/", {"file": upload})
    assert resp.status_code == 200 and b"128 KiB" in resp.content


HYPERLINK = '=HYPERLINK("http://evil.example/","click")'


def test_exports_write_formula_like_text_as_text(seeded_catalog, admin_client):
    pricelist.import_price_list(filename="p.csv", content=_csv_with_replacement("MQM9700-NS2F", HYPERLINK))
    assert Part.objects.get(part_number="MQM9700-NS2F").replacement == HYPERLINK

    sheet = load_workbook(io.BytesIO(admin_client.get("/admin/catalog/part/export.xlsx").content)).active
    header = [c.value for c in sheet[1]]
    (row,) = [r for r in sheet.iter_rows(min_row=2) if r[0].value == "MQM9700-NS2F"]
    cell = row[header.index("replacement")]
    assert cell.value == HYPERLINK and cell.data_type == "s" and cell.quotePrefix  # text, not a live formula
    assert not [c.coordinate for r in sheet.iter_rows() for c in r if c.data_type == "f"]

    text = admin_client.get("/admin/catalog/part/export.csv").content.decode()
    (line,) = [r for r in csv.reader(io.StringIO(text)) if r[0] == "MQM9700-NS2F"]
    assert line[COLUMNS.index("replacement")] == "'" + HYPERLINK
    assert not [f for r in csv.reader(io.StringIO(text)) for f in r if f.startswith(("=", "+", "-", "@"))]


def test_neutralised_exports_import_unchanged(seeded_catalog):
    pricelist.import_price_list(filename="p.csv", content=_csv_with_replacement("MQM9700-NS2F", HYPERLINK))
    for filename, content in (("p.csv", pricelist.export_csv().encode()), ("p.xlsx", pricelist.export_xlsx())):
        assert pricelist.import_price_list(filename=filename, content=content).updated == 0
        assert Part.objects.get(part_number="MQM9700-NS2F").replacement == HYPERLINK


def _csv_with_replacement(part_number: str, replacement: str) -> bytes:
    price = Part.objects.get(part_number=part_number).list_price_eur
    out = io.StringIO()
    csv.writer(out).writerows([["part_number", "list_price_eur", "replacement"], [part_number, price, replacement]])
    return out.getvalue().encode()


@pytest.mark.parametrize("export", ["export.csv", "export.xlsx"])
def test_staff_who_cannot_see_the_part_list_cannot_download_the_price_list(client, seeded_catalog, export):
    from tests.factories import StaffFactory

    client.force_login(StaffFactory(username="sales-only", permissions=("issue_quote",)))
    assert client.get("/admin/catalog/part/").status_code == 403
    assert client.get(f"/admin/catalog/part/{export}").status_code == 403
    client.force_login(StaffFactory(username="catalogue-reader", permissions=("view_part",)))
    response = client.get(f"/admin/catalog/part/{export}")
    assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment")


def _with_empty_inline_string(content: bytes, formula: str) -> bytes:
    """The workbook with ``formula``'s cell saved holding an empty inline string as its value."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(content)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                text, found = re.subn(
                    rf'(<c r="[A-Z]+[0-9]+")>(<f>{re.escape(formula)}</f>)(?:<v\s*/>|<v></v>)',
                    r'\1 t="inlineStr">\2<is><t></t></is>',
                    data.decode(),
                )
                assert found == 1
                data = text.encode()
            dst.writestr(item, data)
    return out.getvalue()


def test_a_formula_saved_with_an_empty_inline_string_does_not_clear_the_price(seeded_catalog):
    before = Part.objects.get(part_number="MQM9700-NS2F").list_price_eur
    assert before is not None
    content = _xlsx([["part_number", "list_price_eur"], ["MQM9700-NS2F", '=IF(A2="","",4500)']])
    with pytest.raises(pricelist.PriceListError) as err:
        pricelist.import_price_list(filename="p.xlsx", content=_with_empty_inline_string(content, 'IF(A2="","",4500)'))
    assert [(e.line, e.field) for e in err.value.errors] == [(2, "list_price_eur")]
    assert Part.objects.get(part_number="MQM9700-NS2F").list_price_eur == before


@pytest.mark.parametrize(
    ("price", "lead"),
    [("1_000", "10"), ("٤٥٠٠", "10"), ("4500", "1_0"), ("4500", "١٤"), ("４５００", "10")],
)
def test_digit_separators_and_other_scripts_digits_are_not_numbers(seeded_catalog, price, lead):
    before = Part.objects.get(part_number="MQM9700-NS2F").list_price_eur
    with pytest.raises(pricelist.PriceListError) as err:
        pricelist.import_price_list(filename="p.csv", content=_csv([["MQM9700-NS2F", price, lead]]))
    field = "list_price_eur" if price != "4500" else "lead_time_days"
    assert [(e.line, e.field) for e in err.value.errors] == [(2, field)]
    assert Part.objects.get(part_number="MQM9700-NS2F").list_price_eur == before
