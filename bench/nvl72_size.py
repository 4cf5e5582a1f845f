"""The result of NVL72 designs: its size as the API sends it, and the validation time, for GB200 NVL72 racks on an
InfiniBand fabric (every tray at its own unit, the north-south and out-of-band networks planned), beside the
100,000-node HGX design of bench/validation_racks.py (its floor: 1 MB).

    .venv/bin/python bench/nvl72_size.py [runs]
"""

from __future__ import annotations

import json
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings.local")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from catalog.services import catalog_load_seed  # noqa: E402
from configurator.services import design_validate  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from validation_racks import median_ms, valid_100000  # noqa: E402

FLOOR = 1_000_000  # bytes, as the API sends the result


def nvl72(racks: int) -> dict:
    return {
        "schema": "design/v1",
        "name": "nvl72",
        "node_groups": [{"name": "gpu", "count": racks, "server": "SRS-GB200-NVL72", "components": []}],
        "fabric": {"switch": "MQM9700-NS2F"},
    }


def main(runs: int) -> None:
    setup_test_environment()
    connection.creation.create_test_db(verbosity=0)
    catalog_load_seed()
    print(f"{'design':>24} {'racks':>6} {'API kB':>7} {'floor kB':>8} {'validate ms':>11}  verdict")
    for label, doc in (
        ("GB200 NVL72, 8 racks", nvl72(8)),
        ("GB200 NVL72, 128 racks", nvl72(128)),
        ("GB200 NVL72, 1,389 racks", nvl72(1389)),
        ("HGX, 100,000 nodes", valid_100000()),
    ):
        result = design_validate(document=doc).to_json()
        compact = len(json.dumps(result, ensure_ascii=False, separators=(",", ":"), default=str).encode())
        ms = median_ms(lambda doc=doc: design_validate(document=doc).to_json(), runs)  # plans afresh each run
        verdict = "ok" if compact <= FLOOR else "OVER"
        racks = result["totals"]["racks"]
        print(f"{label:>24} {racks:>6} {compact / 1000:>7.1f} {FLOOR / 1000:>8.0f} {ms:>11.1f}  {verdict}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
