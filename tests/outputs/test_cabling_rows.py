"""The cabling list is made once, as rows of fields: the cabling CSV is those rows written out, and the hand-over
exports read the same rows (outputs.links.cabling_rows) rather than parsing the CSV's text."""

from __future__ import annotations

import csv

import pytest

from configurator.examples import h200_training_cluster
from configurator.services import design_validate
from engines.fabric.cabling import csv_line
from outputs.links import cabling_lines, cabling_rows, compute_links
from outputs.services import design_output


def test_a_field_with_a_comma_a_quote_or_a_line_break_is_quoted_and_the_others_are_not():
    assert csv_line(("node-0001", "nic1", "su01-leaf-r1", "p1")) == "node-0001,nic1,su01-leaf-r1,p1\n"
    line = csv_line(("a,b", 'say "hi"', "two\nlines", "plain", ""))
    assert line == '"a,b","say ""hi""","two\nlines",plain,\n'
    assert next(csv.reader([line], strict=True)) == ["a,b", 'say "hi"', "two\nlines", "plain", ""]


@pytest.mark.django_db
@pytest.mark.parametrize("site", [None, {"prefix": "gpu", "digits": 3, "first": 0}])
def test_the_rows_are_what_the_cabling_csv_holds(seeded_catalog, site):
    """Every network (compute, storage, in-band, out-of-band), with and without a naming template: the CSV read
    back is the rows, field for field, and the compute links are its compute rows."""
    document = h200_training_cluster() | ({"site": site} if site else {})
    document["node_groups"][0]["components"] += [
        {"part": "900-9D3B6-00CN-AB0", "quantity": 1, "role": "storage"},  # BlueField-3, 2 x 400G
        {"part": "MCX755106AS-HEAT", "quantity": 1, "role": "management"},  # ConnectX-7, 2 x 200G (in-band)
    ]
    result = design_validate(document=document)
    text = "".join(design_output(name="cabling.csv", result=result, language="en").body)
    assert text == "".join(cabling_lines(result))
    header, *read = csv.reader(text.splitlines(keepends=True))
    rows = list(cabling_rows(result))
    assert [tuple(r) for r in read] == rows
    assert {row[-1] for row in rows} >= {"compute", "storage", "inband", "oob"}
    assert all(len(row) == len(header) for row in rows)
    compute = [row[:-1] for row in rows if row[-1] == "compute"]
    assert [tuple(link) for link in compute_links(result)] == compute
    if site:
        assert rows[0][0] == "gpu000"
