"""What the benchmarks share: their own PostgreSQL database, and gunicorn on a free loopback port.

The scripts run as ``python bench/<name>.py``, so this directory is first on ``sys.path`` and they import this
module as ``_server``; importing it also puts the project root on ``sys.path`` for the project's own modules.
"""

from __future__ import annotations

import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"

if str(ROOT) not in sys.path:
    sys.path.insert(1, str(ROOT))


# --- database ----------------------------------------------------------------------------------------------


def server_url() -> urllib.parse.ParseResult:
    """``BENCH_DATABASE_URL``, else ``DATABASE_URL``, else the local socket as user postgres."""
    raw = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or ""
    if not raw.startswith("postgres"):
        raw = "postgres://postgres@/postgres?host=/var/run/postgresql"
    return urllib.parse.urlparse(raw)


def with_db(url: urllib.parse.ParseResult, name: str) -> str:
    query = "&".join(p for p in url.query.split("&") if p.startswith("host="))  # keep only the socket path
    return urllib.parse.urlunparse(url._replace(path=f"/{name}", query=query))


def admin_sql(url: urllib.parse.ParseResult, sql: str) -> None:
    import psycopg

    with psycopg.connect(with_db(url, "postgres"), autocommit=True) as conn:
        conn.execute(sql)


def create_database(url: urllib.parse.ParseResult, name: str) -> None:
    """A fresh, empty database ``name`` (dropped first if a previous run left it)."""
    admin_sql(url, f"DROP DATABASE IF EXISTS {name}")
    admin_sql(url, f"CREATE DATABASE {name}")


def drop_database(url: urllib.parse.ParseResult, name: str) -> None:
    """Drop ``name``, closing its connections; a failure is reported, not raised."""
    try:
        admin_sql(url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    except Exception as exc:  # noqa: BLE001 - report and go on
        print(f"note: could not drop {name}: {exc}", file=sys.stderr)


def migrate_and_seed(env: dict[str, str]) -> None:
    """Migrate the database of ``env`` and load the seed catalogue."""
    for command in (["migrate", "--noinput", "-v", "0"], ["load_catalog"]):
        subprocess.run(
            [str(PY), "manage.py", *command], cwd=ROOT, env=env, check=True, timeout=300, stdout=subprocess.DEVNULL
        )


def manage(env: dict[str, str], *command: str) -> str:
    """Run ``manage.py command`` with ``env``; returns its output."""
    return subprocess.run(
        [str(PY), "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True, text=True, timeout=300
    ).stdout


# --- server ------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cache_url() -> str:
    """The shared cache production configures when several processes serve the app (README): ``BENCH_CACHE_URL``,
    else Redis on 127.0.0.1:6379 (database 2) when it answers, else "" (each worker keeps its own cache)."""
    if "BENCH_CACHE_URL" in os.environ:
        return os.environ["BENCH_CACHE_URL"]
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            if sock.recv(16).startswith(b"+PONG"):
                return "redis://127.0.0.1:6379/2"
    except OSError:
        pass
    return ""


def env_for(database_url: str, **extra_env: str) -> dict[str, str]:
    """This process's environment with the production settings on ``database_url``, plus ``extra_env``."""
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "project.settings.production",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
            "DATABASE_URL": database_url,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_SECURE_SSL_REDIRECT": "false",
            "DJANGO_LOG_LEVEL": "WARNING",
            "CELERY_BROKER_URL": "",
            "CACHE_URL": cache_url(),
            **extra_env,
        }
    )
    return env


def start_gunicorn(
    port: int, workers: int, env: dict[str, str], log: Path, extra_args: Sequence[str] = ()
) -> subprocess.Popen:
    """gunicorn with ``workers`` sync workers on 127.0.0.1:``port``, its own output in ``log``."""
    with log.open("w") as out:
        return subprocess.Popen(
            [
                str(GUNICORN),
                "project.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(workers),
                "--log-level",
                "warning",
                *extra_args,
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=out,
            start_new_session=True,
        )


def stop_gunicorn(server: subprocess.Popen) -> None:
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)


def wait_for(port: int, deadline: float, log: Path, ok: Sequence[int] = (200,)) -> None:
    """Until GET /healthz answers with a status in ``ok``; gives up at ``deadline`` (``time.time()``)."""
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status in ok:
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not come up in time; see {log}")
