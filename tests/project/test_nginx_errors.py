"""nginx's own 502 and 504 (gunicorn down, gunicorn silent) answer the API's JSON error body with Retry-After under
/api/, so a CRM retries them as it retries the app's own 503; other pages keep nginx's plain page. deploy/nginx.conf
runs in a real nginx in front of no gunicorn at all, then of one that never answers."""

from __future__ import annotations

import http.client
import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.nginx


@pytest.fixture
def nginx_in_front_of(tmp_path):
    nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if nginx is None:
        pytest.skip("needs nginx (apt-get install nginx-light)")
    servers = []

    def start(upstream_port: int) -> int:
        port = free_port()
        conf = (ROOT / "deploy" / "nginx.conf").read_text()
        rendered = (
            conf.replace("server web:8000", f"server 127.0.0.1:{upstream_port}")
            .replace("listen 8080 default_server", f"listen 127.0.0.1:{port} default_server")
            .replace("proxy_read_timeout 60s;", "proxy_read_timeout 1s;")
        )
        assert "proxy_read_timeout 1s;" in rendered
        work = tmp_path / f"nginx-{port}"
        (work / "logs").mkdir(parents=True)
        (work / "nginx.conf").write_text(rendered)
        directives = f"daemon off; pid {work / 'nginx.pid'}; error_log {work / 'logs' / 'error.log'} warn;"
        server = subprocess.Popen(
            [nginx, "-p", str(work), "-c", str(work / "nginx.conf"), "-g", directives],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        servers.append(server)
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return port
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.1)

    yield start
    for server in servers:
        server.terminate()
        server.wait(timeout=20)


def _get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request("GET", path, headers={"Host": "localhost"})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def test_gunicorn_down_is_the_apis_json_502_with_retry_after(nginx_in_front_of):
    port = nginx_in_front_of(free_port())  # nothing listens there
    status, headers, body = _get(port, "/api/v1/quotes/")
    assert status == 502 and headers["content-type"] == "application/json" and headers["retry-after"] == "30"
    assert json.loads(body)["error"]["code"] == "service_unavailable"
    status, headers, body = _get(port, "/configure/")
    assert status == 502 and headers["content-type"].startswith("text/html") and b"<html>" in body


def test_gunicorn_silent_is_the_apis_json_504(nginx_in_front_of):
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # accepts connections, never answers
    try:
        port = nginx_in_front_of(silent.getsockname()[1])
        status, headers, body = _get(port, "/api/v1/designs/validate/")
        assert status == 504 and headers["content-type"] == "application/json" and headers["retry-after"] == "30"
        assert json.loads(body)["error"]["code"] == "gateway_timeout"
    finally:
        silent.close()
