"""A plain XLSX workbook of row sheets, written directly (Office Open XML, SpreadsheetML): text as inline strings,
numbers as numbers, no styles. openpyxl's writer takes seconds for the 50,000 rows of a 2,048-node cut-sheet; this
writes them in a fraction of that (bench/exports.py: a few times the cabling CSV, whose 650,000 cells are 44 MB of
XML). Read back by openpyxl and spreadsheet programs alike."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from typing import Any
from xml.sax.saxutils import escape

Cell = str | int | float | None

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    "{sheets}</Types>"
)
_SHEET_TYPE = (
    '<Override PartName="/xl/worksheets/sheet{n}.xml" '
    'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
)
_ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="xl/workbook.xml"/></Relationships>'
)
_WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>{sheets}</sheets>'
    "</workbook>"
)
_WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}</Relationships>'
)
_SHEET_REL = (
    '<Relationship Id="rId{n}" '
    'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
    'Target="worksheets/sheet{n}.xml"/>'
)
_SHEET_HEAD = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
)
_SHEET_TAIL = "</sheetData></worksheet>"
_COLUMNS = [chr(ord("A") + i) for i in range(26)]


def _tail(value: str | int | float) -> str:
    """A cell's XML after its reference: a number as a number, any other value as an inline string."""
    if isinstance(value, bool):
        value = str(value)
    if isinstance(value, int | float):
        return f"><v>{value}</v></c>"
    return f' t="inlineStr"><is><t xml:space="preserve">{escape(value)}</t></is></c>'


def _sheet(rows: Iterable[Sequence[Cell]], batch: int = 2000) -> Iterator[bytes]:
    """The sheet's XML, ``batch`` rows a piece; a text's cell made once (a cut-sheet's 50,000 rows repeat their racks,
    parts and names)."""
    out = [_SHEET_HEAD]
    texts: dict[str, str] = {}  # a text cell's XML after its reference, by its text
    for r, row in enumerate(rows, start=1):
        cells = []
        for c, value in enumerate(row):
            if value is None or value == "":
                continue
            if isinstance(value, str):
                tail = texts.get(value) or texts.setdefault(value, _tail(value))
            else:
                tail = _tail(value)
            cells.append(f'<c r="{_COLUMNS[c]}{r}"{tail}')
        out.append(f'<row r="{r}">{"".join(cells)}</row>')
        if len(out) >= batch:
            yield "".join(out).encode("utf-8")
            out = []
    out.append(_SHEET_TAIL)
    yield "".join(out).encode("utf-8")


class _Sink(io.RawIOBase):
    """Where the zip is written as it is made: what it holds so far is taken (``drain``) and sent on."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self._parts.append(bytes(data))
        return len(data)

    def drain(self) -> bytes:
        data, self._parts = b"".join(self._parts), []
        return data


def workbook(sheets: Sequence[tuple[str, Iterable[Sequence[Cell]]]]) -> Iterator[bytes]:
    """The XLSX file of the sheets (name, rows), in order, in pieces as it is made (a door streams them: the first
    bytes leave before the last row is read); at most 26 columns a sheet. A sheet's rows are read only when the
    sheets before it are written, so a later sheet may list what the earlier ones' rows gathered."""
    numbers = range(1, len(sheets) + 1)
    sink = _Sink()
    with zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr(
            "[Content_Types].xml", _CONTENT_TYPES.format(sheets="".join(_SHEET_TYPE.format(n=n) for n in numbers))
        )
        z.writestr("_rels/.rels", _ROOT_RELS)
        z.writestr(
            "xl/workbook.xml",
            _WORKBOOK.format(
                sheets="".join(
                    f'<sheet name="{escape(name)}" sheetId="{n}" r:id="rId{n}"/>'
                    for n, (name, _rows) in zip(numbers, sheets, strict=True)
                )
            ),
        )
        z.writestr(
            "xl/_rels/workbook.xml.rels", _WORKBOOK_RELS.format(rels="".join(_SHEET_REL.format(n=n) for n in numbers))
        )
        yield sink.drain()
        for n, (_name, rows) in zip(numbers, sheets, strict=True):
            with z.open(f"xl/worksheets/sheet{n}.xml", "w") as sheet:
                for piece in _sheet(rows):
                    sheet.write(piece)
                    yield sink.drain()
    yield sink.drain()
