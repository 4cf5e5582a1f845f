"""The bytes of the hand-over exports and the cabling CSV of 4, 64 and 2,048 HGX nodes and 2 and 8 NVL72 racks (and
64 HGX nodes named by a site template, 127 with storage and in-band networks): a SHA-256 per file, to compare the
files of two versions of the code.

    .venv/bin/python bench/export_bytes.py > before.txt      # on one version
    .venv/bin/python bench/export_bytes.py > after.txt       # on the other
    diff before.txt after.txt                                 # no output: byte-identical

The cut-sheet workbook's zip entries carry the time it was written: its cells' values are hashed instead. Runs in a
throw-away SQLite test database with the seed catalogue.
"""

from __future__ import annotations

import hashlib
import io
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings.test")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

STORAGE_ADAPTER = "900-9D3B6-00CN-AB0"  # BlueField-3, 2 x 400G
INBAND_ADAPTER = "MCX755106AS-HEAT"  # ConnectX-7, 2 x 200G
NAMES = ("cabling.csv", "netbox.zip", "fabric.topo", "topology.conf", "topology.yaml", "cut-sheet.xlsx")


def designs() -> dict[str, dict]:
    from configurator.examples import h200_training_cluster

    def hgx(nodes: int, site: dict | None = None, networks: bool = False) -> dict:
        doc = h200_training_cluster()
        doc["node_groups"][0]["count"] = nodes
        if site:
            doc["site"] = site
        if networks:  # a storage and an in-band network beside the compute fabric and the out-of-band one
            doc["node_groups"][0]["components"] += [
                {"part": STORAGE_ADAPTER, "quantity": 1, "role": "storage"},
                {"part": INBAND_ADAPTER, "quantity": 1, "role": "management"},
            ]
        return doc

    def nvl72(racks: int) -> dict:
        return {
            "schema": "design/v1",
            "name": "nvl72",
            "node_groups": [{"name": "gpu", "count": racks, "server": "SRS-GB200-NVL72", "components": []}],
            "fabric": {"switch": "MQM9700-NS2F"},
        }

    return {
        "hgx-4": hgx(4),
        "hgx-64": hgx(64),
        "hgx-2048": hgx(2048),
        "hgx-64-site": hgx(64, {"prefix": "gpu", "digits": 3, "first": 0}),
        "hgx-127-nets": hgx(127, networks=True),
        "nvl72-2": nvl72(2),
        "nvl72-8": nvl72(8),
    }


def digest(name: str, body: bytes) -> str:
    if name.endswith(".xlsx"):
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(body), read_only=True)
        body = repr([(ws.title, list(ws.iter_rows(values_only=True))) for ws in book.worksheets]).encode()
    return hashlib.sha256(body).hexdigest()


def main() -> None:
    from catalog.services import catalog_load_seed
    from configurator.services import design_validate
    from outputs.services import design_export

    connection.creation.create_test_db(verbosity=0)
    catalog_load_seed()
    for label, document in designs().items():
        result = design_validate(document=document)
        for name in NAMES:
            chunks = design_export(name=name, result=result, language="en").body
            body = b"".join(c if isinstance(c, bytes) else c.encode() for c in chunks)
            print(f"{label:12} {name:15} {len(body):10,} {digest(name, body)}")


if __name__ == "__main__":
    main()
