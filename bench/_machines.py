"""Several "machines" on one host: web processes and workers that share only what separate machines share (one
PostgreSQL database, one Redis as broker and cache, one S3-compatible object store for the quote documents), each
with its own port, its own media directory and the production settings. Used by bench/machines.py and by
tests/project/test_many_machines.py.

The object store is moto's S3 server (a dev dependency) on a free port; Redis is a redis-server of its own on a
free port, never the shared one.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _server  # noqa: E402

BUCKET = "quote-documents"
REGION = "eu-central-1"


def _wait_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start on port {port}") from None
            time.sleep(0.1)


class RedisServer:
    """redis-server on a free port of its own, without persistence: stop() loses its data, as a Redis restarted
    without a disk does."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.port = _server.free_port()
        self.proc: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise FileNotFoundError("redis-server")
        args = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen(
            [*args, "--dir", str(self.directory)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        _wait_port(self.port, self.proc, "redis-server", timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)  # a frozen server cannot act on SIGTERM
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def freeze(self) -> None:
        """SIGSTOP: connections are still accepted by the kernel, nothing is ever answered."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)


class ObjectStore:
    """moto's S3 server with one empty bucket."""

    def __init__(self, log: Path):
        self.port = _server.free_port()
        code = (
            "import time; from moto.server import ThreadedMotoServer; "
            f"ThreadedMotoServer(ip_address='127.0.0.1', port={self.port}).start(); time.sleep(10**6)"
        )
        with log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-c", code], stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        _wait_port(self.port, self.proc, "moto's S3 server")
        import boto3

        self.client = boto3.client("s3", **self.credentials())
        self.client.create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": REGION})

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def credentials(self) -> dict[str, str]:
        return {
            "endpoint_url": self.endpoint,
            "region_name": REGION,
            "aws_access_key_id": "machines",
            "aws_secret_access_key": "machines-secret",
        }

    def keys(self) -> list[str]:
        return sorted(o["Key"] for o in self.client.list_objects_v2(Bucket=BUCKET).get("Contents", []))

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(10)


class Machines:
    """Web processes and workers started as separate machines (see the module docstring)."""

    def __init__(self, work: Path, database_url: str, redis: RedisServer, store: ObjectStore):
        self.work, self.database_url, self.redis, self.store = work, database_url, redis, store
        self.procs: dict[str, subprocess.Popen] = {}

    def media(self, name: str) -> Path:
        return self.work / name / "media"

    def env(self, name: str, **extra: str) -> dict[str, str]:
        (self.work / name).mkdir(parents=True, exist_ok=True)
        self.media(name).mkdir(exist_ok=True)
        return _server.env_for(
            self.database_url,
            CELERY_BROKER_URL=self.redis.url(0),
            CACHE_URL=self.redis.url(1),
            DJANGO_MEDIA_ROOT=str(self.media(name)),
            AWS_STORAGE_BUCKET_NAME=BUCKET,
            AWS_S3_ENDPOINT_URL=self.store.endpoint,
            AWS_S3_REGION_NAME=REGION,
            AWS_ACCESS_KEY_ID="machines",
            AWS_SECRET_ACCESS_KEY="machines-secret",
            API_THROTTLE_RATE="100000/min",
            API_THROTTLE_WRITE_RATE="100000/min",
            **extra,
        )

    def web(self, name: str, *, workers: int = 2) -> int:
        """gunicorn as machine ``name``; returns its port once /healthz answers 200."""
        port = _server.free_port()
        log = self.work / name / "gunicorn.log"
        self.procs[name] = _server.start_gunicorn(port, workers, self.env(name), log)
        _server.wait_for(port, time.time() + 60, log)
        return port

    def worker(self, name: str, *, delay: float = 0.0) -> subprocess.Popen:
        """A Celery worker as machine ``name`` (prefork, one process, as production runs it per core)."""
        log = self.work / name / "worker.log"
        args = [sys.executable, "-m", "celery", "-A", "project", "worker", "-P", "prefork", "-c", "1"]
        args += ["-l", "info", "-n", f"{name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
        env = self.env(name, QUOTE_BUILD_DELAY_SECONDS=str(delay))
        with log.open("wb") as out:
            proc = subprocess.Popen(
                args, cwd=_server.ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.procs[name] = proc
        deadline = time.monotonic() + 90
        while b" ready." not in log.read_bytes():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"worker {name} did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.2)
        return proc

    def built_by(self, name: str) -> int:
        """How many document builds machine ``name``'s worker finished."""
        return (self.work / name / "worker.log").read_text().count("succeeded in")

    def stop(self, name: str) -> None:
        proc = self.procs.pop(name)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)

    def stop_all(self) -> None:
        for name in list(self.procs):
            self.stop(name)
