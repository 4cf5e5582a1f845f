"""Machines that start at once: two `migrate` and then two `load_catalog` run at the same moment on a fresh
PostgreSQL database, as two web containers or pods starting together do; both succeed and the catalogue is loaded
once. On SQLite the lock is no lock at all, and the commands run as before.

Needs DATABASE_URL pointing at PostgreSQL (a database of its own is created next to it and dropped after); skips
without it, fails under CI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_database():
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        if os.environ.get("CI"):
            pytest.fail("CI is set but DATABASE_URL does not point at PostgreSQL")
        pytest.skip("needs DATABASE_URL to point at PostgreSQL")
    import psycopg

    parts = urlsplit(url)
    name = f"{(parts.path.strip('/') or 'postgres')}_start_{uuid.uuid4().hex[:8]}"
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _at_once(database_url: str, *command: str, times: int = 2) -> list[subprocess.CompletedProcess]:
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "project.settings.test"}
    procs = [
        subprocess.Popen(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(times)
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        results.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return results


def test_two_migrate_and_two_load_catalog_at_once_on_a_fresh_database_both_succeed(fresh_database):
    import psycopg

    migrations = _at_once(fresh_database, "migrate", "--noinput")
    for result in migrations:
        assert result.returncode == 0, result.stderr[-3000:]
    applied = [r.stdout.count(" OK") for r in migrations]
    assert sorted(applied)[0] == 0 and sorted(applied)[1] > 10  # one applied them all, the other found them applied

    loads = _at_once(fresh_database, "load_catalog")
    for result in loads:
        assert result.returncode == 0, result.stderr[-3000:]
    seed = json.loads((ROOT / "catalog" / "seed" / "catalog.json").read_text())
    created = sorted(int(r.stdout.split(": ")[1].split(" created")[0]) for r in loads)
    assert created == [0, len(seed["parts"])]  # the second waited and found every part there
    with psycopg.connect(fresh_database) as conn:
        assert conn.execute("SELECT count(*) FROM catalog_part").fetchone()[0] == len(seed["parts"])
        assert conn.execute("SELECT count(*) FROM catalog_catalogrelease").fetchone()[0] == 1
