#!/usr/bin/env python3
"""The project's two entry points, for a machine that has nothing but Python 3.11+.

    python3 dev.py run    # virtualenv, install, migrate, seed the catalogue, serve on http://127.0.0.1:8000
    python3 dev.py test   # virtualenv, install with test extras, run the whole test suite

Both install the locked versions: requirements/base.txt (run) and requirements/dev.txt (test, with the dev extras).

`run` uses SQLite and in-process tasks unless DATABASE_URL / CELERY_BROKER_URL say otherwise.
`test` honours DATABASE_URL and CELERY_BROKER_URL too (.ci/run points them at PostgreSQL and Redis).
Extra arguments after `test` go to pytest; the suite runs on one worker a core, at most four (`-n 0`: one process).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PY = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
# The app needs no system library (the offer PDF is ReportLab's, its fonts in outputs/fonts). The test set-up installs
# what WeasyPrint (the quote benchmark's one-page floor) and the browser tests need, and the nginx the proxy-chain
# tests run deploy/nginx.conf in; only where apt and root are available.
APT_TEST_PACKAGES = [
    "libpango-1.0-0",
    "libpangoft2-1.0-0",
    "libharfbuzz-subset0",
    "chromium",
    "nginx-light",
    "redis-server",
    "slurmctld",  # tests/outputs/test_handover.py starts it on a generated slurm.conf and topology.conf
    "munge",
]
# The lock files (`make lock` writes them from pyproject.toml with uv): every package pinned, with its hashes.
LOCKS = {"": ROOT / "requirements" / "base.txt", "dev": ROOT / "requirements" / "dev.txt"}


def sh(*args: str | Path, env: dict | None = None) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], cwd=ROOT, check=True, env=env)


def ensure_system(packages: list[str]) -> None:
    """Install missing Debian packages when we can (root with apt); otherwise say what is missing."""
    if not shutil.which("dpkg-query"):
        return
    missing = [
        p
        for p in packages
        if subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True).stdout
        != "install ok installed"
    ]
    if not missing:
        return
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], check=False, env=env)
    else:
        print(f"note: system packages missing ({', '.join(missing)}); PDF or browser tests may not work", flush=True)


def ensure_venv(extras: str) -> None:
    """The virtualenv with exactly the locked versions (requirements/*.txt, hashes checked), then the project."""
    if not PY.exists():
        sh(sys.executable, "-m", "venv", VENV)
    lock = LOCKS[extras]
    stamp = VENV / f".installed-{extras or 'base'}"
    digest = hashlib.sha256(lock.read_bytes() + (ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    sh(PY, "-m", "pip", "install", "-q", "--upgrade", "pip")
    sh(PY, "-m", "pip", "install", "-q", "--require-hashes", "-r", lock)
    sh(PY, "-m", "pip", "install", "-q", "--no-deps", "-e", ".")
    stamp.write_text(digest)


def run() -> None:
    ensure_venv("")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "project.settings.local"}
    sh(PY, "manage.py", "migrate", "--noinput", env=env)
    sh(PY, "manage.py", "load_catalog", env=env)
    sh(PY, "manage.py", "ensure_demo_users", env=env)
    sh(PY, "manage.py", "runserver", "127.0.0.1:8000", env=env)


def workers(args: list[str]) -> list[str]:
    """pytest-xdist's worker count for a run that names none: one a core, at most four (each worker has its own test
    database and Redis database); ``-n 0`` or ``-p no:xdist`` runs in one process. Tests go to whichever worker is
    free (``--dist load``): ``loadfile`` would run one item of a parametrised test whose items share an id."""
    named = any(a in ("-n", "--numprocesses", "no:xdist") or a.startswith(("-n", "--numprocesses=")) for a in args)
    if named:
        return []
    return ["-n", str(max(1, min(os.cpu_count() or 1, 4)))]


def test(args: list[str]) -> int:
    ensure_system(APT_TEST_PACKAGES)
    ensure_venv("dev")
    env = {**os.environ}
    env.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run([str(PY), "-m", "pytest", *workers(args), *args], cwd=ROOT, env=env).returncode


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in {"run", "test"}:
        print(__doc__)
        return 2
    if sys.argv[1] == "run":
        run()
        return 0
    return test(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
