"""Two web machines and two worker machines (bench/_machines.py: their own ports and media directories, production
settings), sharing one PostgreSQL database, one Redis and one S3 object store: quotes requested through either web
machine are built by both workers from the one queue, and either web machine serves every document.

Needs DATABASE_URL (PostgreSQL: the machines are separate processes), redis-server and moto (a dev dependency);
skips without them, fails under CI.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import time

import pytest
from django.db import connection

from tests.factories import design

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]
QUOTES = 6


@pytest.fixture
def machines(tmp_path, seeded_catalog):
    reasons = []
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        reasons.append("DATABASE_URL pointing at PostgreSQL")
    if shutil.which("redis-server") is None:
        reasons.append("redis-server")
    if reasons:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but this test needs {' and '.join(reasons)}")
        pytest.skip(f"needs {' and '.join(reasons)}")
    from bench._machines import Machines, ObjectStore, RedisServer
    from tests.quotes.test_quotes_worker import _test_database_url

    (tmp_path / "redis").mkdir()
    redis = RedisServer(tmp_path / "redis")
    redis.start()
    store = ObjectStore(tmp_path / "s3.log")
    pool = Machines(tmp_path, _test_database_url(), redis, store)
    try:
        yield pool
    finally:
        pool.stop_all()
        store.stop()
        redis.stop()
        connection.close()


def _call(port: int, token: str, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Host": "127.0.0.1", "Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_two_workers_build_from_one_queue_and_either_web_machine_serves_the_documents(machines):
    from api.models import ApiClient

    client = ApiClient(name="crm", scope="quote")
    token = client.set_new_token()
    client.save()
    web = [machines.web("web-a", workers=1), machines.web("web-b", workers=1)]
    machines.worker("worker-a", delay=1.0)
    machines.worker("worker-b", delay=1.0)

    ids = []
    for n in range(QUOTES):
        customer = {"name": f"Customer {n}", "company": "Lab B.V.", "email": f"c{n}@example.nl", "country": "NL"}
        status, body = _call(web[n % 2], token, "POST", "/api/v1/quotes/", {"design": design(), "customer": customer})
        assert status == 202, body[:300]
        ids.append(json.loads(body)["id"])

    deadline = time.monotonic() + 120
    pending = set(ids)
    while pending and time.monotonic() < deadline:
        for pk in list(pending):
            status, body = _call(web[pk % 2], token, "GET", f"/api/v1/quotes/{pk}/")
            assert status == 200, body[:300]
            if json.loads(body)["doc_status"] == "ready":
                pending.discard(pk)
        time.sleep(0.5)
    assert not pending, f"not ready: {pending}"

    built = {name: machines.built_by(name) for name in ("worker-a", "worker-b")}
    assert sum(built.values()) == QUOTES and min(built.values()) >= 1, built  # both took from the one queue
    for pk in ids:
        pdfs = []
        for port in web:
            status, body = _call(port, token, "GET", f"/api/v1/quotes/{pk}/document.pdf")
            assert status == 200 and body.startswith(b"%PDF"), (port, status, body[:200])
            pdfs.append(body)
        assert pdfs[0] == pdfs[1]
    assert len(machines.store.keys()) == 2 * QUOTES  # a PDF and an XLSX each, in the shared store only
    for name in ("web-a", "web-b", "worker-a", "worker-b"):
        assert not any(machines.media(name).iterdir()), name
