"""The API's error body where Django is not the first to answer: a TRACE, an over-long request line (gunicorn,
then nginx) and an over-large body (nginx). Each is ``{"error": {"code", "message", "fields"}}`` as JSON.

The gunicorn and nginx tests start the real servers: gunicorn with the repository's gunicorn.conf.py on a Unix
socket of their own, nginx with deploy/nginx.conf on 127.0.0.1:8101 in front of it (only the listen address and
the upstream substituted). The nginx test is skipped when nginx is not installed. Every wait is bounded.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NGINX_PORT = 8101
LONG_QUERY = "/api/v1/catalog/parts/?q="


def _error(status: int, content_type: str, body: bytes) -> dict:
    assert content_type.startswith("application/json"), (status, content_type, body[:200])
    error = json.loads(body)["error"]
    assert error["code"] and error["message"] and error["fields"] == []
    return error


@pytest.mark.parametrize("method", ["TRACE", "TRACK"])
@pytest.mark.parametrize("who", ["anonymous", "client"])
def test_trace_under_the_api_is_a_405_in_the_error_body(client, api, method, who):
    http = client if who == "anonymous" else api
    response = http.generic(method, "/api/v1/designs/validate/")
    assert response.status_code == 405
    error = _error(405, response["Content-Type"], response.content)
    assert error["code"] == "method_not_allowed" and method in error["message"]
    assert "TRACE" not in response["Allow"] and "GET" in response["Allow"]


def test_trace_elsewhere_is_refused_too(client):
    assert client.generic("TRACE", "/").status_code == 405


@pytest.fixture(scope="module")
def gunicorn_socket():
    """gunicorn as production starts it (gunicorn.conf.py read from the working directory), on a Unix socket in a
    directory nginx's workers may enter."""
    work = Path(tempfile.mkdtemp(prefix="api-error-edges-"))
    work.chmod(0o755)
    sock = work / "gunicorn.sock"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_SETTINGS_MODULE="project.settings.test")
    log = (work / "gunicorn.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "project.wsgi:application", "--bind", f"unix:{sock}"]
        + ["--workers", "1", "--timeout", "30"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not sock.exists():
            assert server.poll() is None and time.monotonic() < deadline, (work / "gunicorn.log").read_text()[-2000:]
            time.sleep(0.2)
        yield work, sock
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=20)
        log.close()
        shutil.rmtree(work, ignore_errors=True)


def _unix_request(sock: Path, request: bytes) -> tuple[int, str, bytes]:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(20)
        conn.connect(str(sock))
        conn.sendall(request)
        response = http.client.HTTPResponse(conn)
        response.begin()
        return response.status, response.getheader("Content-Type", ""), response.read()


def test_gunicorn_answers_an_over_long_request_line_in_the_error_body(gunicorn_socket):
    _work, sock = gunicorn_socket
    path = LONG_QUERY + "a" * 5000  # over gunicorn.conf.py's limit_request_line (4,094)
    status, content_type, body = _unix_request(sock, f"GET {path} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
    assert status == 414
    assert _error(status, content_type, body)["code"] == "uri_too_long"
    # Below the limit the request reaches Django, which answers in the same body.
    status, content_type, body = _unix_request(sock, b"GET /api/v1/nope/ HTTP/1.1\r\nHost: localhost\r\n\r\n")
    assert status == 404 and _error(status, content_type, body)["code"] == "not_found"


def _nginx() -> str | None:
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


@pytest.fixture(scope="module")
def nginx_port(gunicorn_socket):
    nginx = _nginx()
    if nginx is None:
        pytest.skip("needs nginx (apt-get install nginx-light)")
    work, sock = gunicorn_socket
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    rendered = conf.replace("server web:8000", f"server unix:{sock}").replace(
        "listen 8080 default_server", f"listen 127.0.0.1:{NGINX_PORT} default_server"
    )
    assert str(sock) in rendered and f":{NGINX_PORT}" in rendered
    (work / "nginx.conf").write_text(rendered)
    (work / "logs").mkdir()
    directives = f"daemon off; pid {work / 'nginx.pid'}; error_log {work / 'logs' / 'error.log'} warn;"
    log = (work / "nginx.log").open("wb")
    server = subprocess.Popen(
        [nginx, "-p", str(work), "-c", str(work / "nginx.conf"), "-g", directives],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", NGINX_PORT), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, (work / "nginx.log").read_text()
                time.sleep(0.2)
        yield NGINX_PORT
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()


def _via_nginx(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request(method, path, body=body, headers={"Host": "localhost"})
        response = conn.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        conn.close()


def test_nginx_answers_trace_and_over_long_lines_in_the_error_body(nginx_port):
    status, content_type, body = _via_nginx(nginx_port, "TRACE", "/api/v1/designs/validate/")
    assert status == 405 and _error(status, content_type, body)["code"] == "method_not_allowed"
    for length in (5_000, 20_000):  # refused by gunicorn (over 4,094), then by nginx itself (over 16k)
        status, content_type, body = _via_nginx(nginx_port, "GET", LONG_QUERY + "a" * length)
        assert status == 414 and _error(status, content_type, body)["code"] == "uri_too_long", length
    status, content_type, body = _via_nginx(nginx_port, "POST", "/api/v1/designs/validate/", b"x" * (11 << 20))
    assert status == 413 and _error(status, content_type, body)["code"] == "too_large"
    # The app's own answers pass through as they are.
    status, content_type, body = _via_nginx(nginx_port, "GET", "/api/v1/catalog/parts/")
    assert status == 401 and _error(status, content_type, body)["code"] == "not_authenticated"
