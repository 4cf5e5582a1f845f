"""What ``bench/growth.py`` and ``bench/expansion.py`` share: Django set up on a throw-away SQLite test database
with the seed catalogue (importing this module sets Django up), the growths they measure by default, and the
table they print."""

from __future__ import annotations

import os
from collections.abc import Callable

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings.test")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from catalog.services import catalog_load_seed  # noqa: E402

GROWTHS = ((2, 3), (4, 6), (8, 24), (20, 40), (40, 100), (64, 96), (96, 128), (128, 256))


def print_table(args: list[str], columns: list[str], row: Callable[[int, int], str]) -> None:
    """One row per growth (``small:large`` arguments, else ``GROWTHS``) under the table's header, on a freshly
    seeded test database."""
    growths = [tuple(int(x) for x in a.split(":")) for a in args] or GROWTHS
    connection.creation.create_test_db(verbosity=0)
    catalog_load_seed()
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))
    for small, large in growths:
        print(row(small, large))
