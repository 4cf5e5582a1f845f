"""Replay the design documents the test suite sends through the doors, to prove a change leaves every answer
byte for byte as it was.

    # 1. record every document the suite validates (and every fabric request it plans), once, on the old code:
    python bench/doors_replay.py record corpus.jsonl -- tests/api tests/configurator
    # 2. answer the corpus with a version of the code, and compare two versions' answers:
    python bench/doors_replay.py answer corpus.jsonl before.txt        # on the old code
    python bench/doors_replay.py answer corpus.jsonl after.txt         # on the new code
    diff before.txt after.txt && echo identical

``record`` runs pytest with this file as a plugin: ``configurator.services.design_validate`` and
``fabric_plan_build`` (what the API, the CLI and the wizard call) are wrapped to write each JSON-serialisable
input to the corpus. ``answer`` validates every distinct input against the seeded catalogue in a fresh SQLite
database and prints one line per input: its digest and the digest of the JSON the door would answer (the API's
``result.to_json()`` as the CLI prints it), or the error it raised.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_ENV = "DOORS_REPLAY_OUT"
LOADED_AT = re.compile(r"(\b\d{4}\.\d+\.\d+)\+\d{14,}-\d+")  # a catalogue version's load time


# --- the pytest plugin ------------------------------------------------------------------------------------------
def pytest_sessionstart(session) -> None:
    out = os.environ.get(OUT_ENV)
    if not out:
        return
    import configurator.services as services

    path = f"{out}.{os.getpid()}"

    def wrap(name: str, kind: str, argument: str):
        original = getattr(services, name)

        def recorded(**kwargs):
            try:
                line = json.dumps({"kind": kind, "input": kwargs[argument], "language": kwargs.get("language")})
            except (TypeError, ValueError):
                line = None
            if line is not None:
                with open(path, "a", encoding="utf-8") as f:
                    f.write(line + "\n")
            return original(**kwargs)

        setattr(services, name, recorded)

    wrap("design_validate", "validate", "document")
    wrap("fabric_plan_build", "fabric", "request")


# --- the commands -----------------------------------------------------------------------------------------------
def record(corpus: Path, pytest_args: list[str]) -> int:
    env = {**os.environ, OUT_ENV: str(corpus), "PYTHONPATH": str(ROOT), "DJANGO_ALLOW_ASYNC_UNSAFE": "true"}
    code = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "bench.doors_replay", *pytest_args], cwd=ROOT, env=env
    ).returncode
    seen: set[str] = set()
    with corpus.open("w", encoding="utf-8") as out:
        for part in sorted(corpus.parent.glob(corpus.name + ".*")):
            for line in part.read_text(encoding="utf-8").splitlines():
                if line not in seen:
                    seen.add(line)
                    out.write(line + "\n")
            part.unlink()
    print(f"{len(seen)} distinct inputs recorded in {corpus} (pytest exit {code})")
    return 0


def answer(corpus: Path, out: Path) -> int:
    db = Path(tempfile.mkdtemp()) / "replay.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    sys.path.insert(0, str(ROOT))
    home = "project" if (ROOT / "project" / "settings").is_dir() else "configurator"  # before the move
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", f"{home}.settings.test")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from catalog.services import catalog_load_seed

    catalog_load_seed()
    from configurator import services

    lines = []
    for raw in corpus.read_text(encoding="utf-8").splitlines():
        item = json.loads(raw)
        key = hashlib.sha256(raw.encode()).hexdigest()[:16]
        try:
            if item["kind"] == "validate":
                result = services.design_validate(document=item["input"], language=item["language"])
            else:
                result = services.fabric_plan_build(request=item["input"], language=item["language"])
            text = json.dumps(result.to_json(), ensure_ascii=False, default=str)
            text = LOADED_AT.sub(r"\1", text)
            lines.append(f"{key} {hashlib.sha256(text.encode()).hexdigest()[:16]} {len(text)}")
        except Exception as exc:  # noqa: BLE001 - an input the doors refuse: its error is part of the answer
            said = LOADED_AT.sub(r"\1", str(exc))
            lines.append(f"{key} {type(exc).__name__}: {said[:200]!r}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} answers written to {out}")
    return 0


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "record":
        rest = argv[2:]
        return record(Path(argv[1]).resolve(), rest[1:] if rest[:1] == ["--"] else rest)
    if len(argv) == 3 and argv[0] == "answer":
        return answer(Path(argv[1]).resolve(), Path(argv[2]).resolve())
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
