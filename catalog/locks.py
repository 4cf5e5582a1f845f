"""Database-wide locks for jobs that every machine runs at start-up (migrations, the catalogue load), so that two
machines starting at once take turns instead of racing: the second waits, then finds the work done.

PostgreSQL advisory locks, keyed by a 64-bit hash of the job's name; on SQLite (one file, one machine) no lock is
taken: SQLite serialises its writers itself.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections


def lock_key(name: str) -> int:
    """The advisory lock's key: the first 8 bytes of the name's SHA-256, as PostgreSQL's signed bigint."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


@contextmanager
def database_lock(name: str, *, using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Hold the lock ``name`` for the whole block, on this process's connection (a session lock: it outlives the
    block's transactions, and PostgreSQL lets go of it if the process dies)."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        yield
        return
    key = lock_key(name)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s)", [key])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


def transaction_lock(name: str, *, using: str = DEFAULT_DB_ALIAS) -> None:
    """Take the lock ``name`` until the current transaction ends (call it first thing inside ``atomic``)."""
    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_key(name)])
