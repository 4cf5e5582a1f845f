"""The production chain with a real nginx: TLS terminator -> nginx (deploy/nginx.conf) -> gunicorn.

nginx runs the repository's own deploy/nginx.conf, with only its listen port (8202) and upstream (gunicorn on
127.0.0.1:8102) substituted; gunicorn runs the production settings on a SQLite file of its own. The TLS
terminator is played by connections from 127.0.0.1 (the address the file trusts); a client that reaches nginx
without it comes from 127.0.0.2 (also this machine, but not trusted).

Skipped when nginx is not installed (python3 dev.py test installs it), unless the environment variable CI is set:
then they fail, so CI can never pass by skipping them. Every wait is bounded.
"""

from __future__ import annotations

import http.client
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUNICORN_PORT, NGINX_PORT = 8102, 8202
HOST = "quotes.example.com"
TERMINATOR, STRANGER = "127.0.0.1", "127.0.0.2"
PASSWORD = "a-long-staff-password-" + "9" * 8

pytestmark = pytest.mark.nginx


def _nginx() -> str | None:
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin:/usr/local/nginx/sbin")


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    nginx = _nginx()
    if nginx is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but nginx is not installed (dev.py's APT_TEST_PACKAGES installs it)")
        pytest.skip("needs nginx (apt-get install nginx-light)")
    work = tmp_path_factory.mktemp("proxy-chain")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "AWS_", "CELERY_", "CACHE_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="project.settings.production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(60),
        DJANGO_ALLOWED_HOSTS=HOST,
        DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}",
        DJANGO_STATIC_ROOT=str(work / "static"),
        DJANGO_MEDIA_ROOT=str(work / "media"),
        DJANGO_LOG_LEVEL="WARNING",
        TRUSTED_PROXY_COUNT="1",  # as docker-compose.yml sets for the web service
        CELERY_BROKER_URL="",
    )
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=240)
    create = (
        "from django.contrib.auth.models import User; "
        f"User.objects.create_user('sales', password='{PASSWORD}', is_staff=True)"
    )
    subprocess.run([*manage, "shell", "-c", create], cwd=ROOT, env=env, check=True, timeout=60)

    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    rendered = conf.replace("server web:8000", f"server 127.0.0.1:{GUNICORN_PORT}").replace(
        "listen 8080 default_server", f"listen 127.0.0.1:{NGINX_PORT} default_server"
    )
    assert rendered.count(str(GUNICORN_PORT)) == 1 and rendered.count(str(NGINX_PORT)) == 1
    (work / "nginx.conf").write_text(rendered)
    (work / "logs").mkdir()

    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "project.wsgi", "--bind", f"127.0.0.1:{GUNICORN_PORT}"]
        + ["--workers", "1", "--timeout", "30"],
        cwd=ROOT,
        env=env,
        stdout=(work / "gunicorn.log").open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    global_directives = f"pid {work / 'nginx.pid'}; error_log {work / 'logs' / 'error.log'} warn;"
    nginx_proc = subprocess.Popen(
        [nginx, "-p", str(work), "-c", str(work / "nginx.conf"), "-g", f"daemon off; {global_directives}"],
        stdout=(work / "nginx.log").open("wb"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if _request("GET", "/healthz").status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or gunicorn.poll() is not None or nginx_proc.poll() is not None:
                logs = "".join(p.read_text() for p in (work / "gunicorn.log", work / "nginx.log"))
                raise AssertionError(f"the chain did not come up:\n{logs[-3000:]}")
            time.sleep(0.3)
        yield work
    finally:
        for proc in (nginx_proc, gunicorn):
            if proc.poll() is None:
                os.killpg(proc.pid, 15)
        for proc in (nginx_proc, gunicorn):
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                proc.wait(5)


class Answer:
    def __init__(self, response: http.client.HTTPResponse):
        self.status = response.status
        self.headers = response.headers
        self.body = response.read().decode("utf-8", "replace")

    def cookies(self) -> dict[str, str]:
        out = {}
        for header in self.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            out[name.strip()] = rest.split(";", 1)[0]
        return out


def _request(
    method: str,
    path: str,
    *,
    source: str = TERMINATOR,
    proto: str | None = None,
    forwarded_for: str | None = None,
    cookies: dict[str, str] | None = None,
    form: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
) -> Answer:
    """One request to nginx from ``source``, with the headers a TLS terminator (or a forger) would send."""
    from urllib.parse import urlencode

    conn = http.client.HTTPConnection("127.0.0.1", NGINX_PORT, timeout=15, source_address=(source, 0))
    sent = {"Host": HOST, **(headers or {})}
    if proto:
        sent["X-Forwarded-Proto"] = proto
    if forwarded_for:
        sent["X-Forwarded-For"] = forwarded_for
    if cookies:
        sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    body = None
    if form is not None:
        body = urlencode(form)
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        conn.request(method, path, body=body, headers=sent)
        return Answer(conn.getresponse())
    finally:
        conn.close()


def _login(*, client: str, password: str = PASSWORD, forged: str | None = None) -> Answer:
    """The staff login through the terminator, as a browser on https://quotes.example.com does it."""
    chain_for = f"{forged}, {client}" if forged else client  # the terminator appends the address it saw
    page = _request("GET", "/accounts/login/", proto="https", forwarded_for=chain_for)
    assert page.status == 200, (page.status, page.headers.get("Location"))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.body).group(1)
    return _request(
        "POST",
        "/accounts/login/",
        proto="https",
        forwarded_for=chain_for,
        cookies={"csrftoken": page.cookies()["csrftoken"]},
        form={"csrfmiddlewaretoken": token, "username": "sales", "password": password},
        headers={"Origin": f"https://{HOST}", "Referer": f"https://{HOST}/accounts/login/"},
    )


def test_login_behind_the_tls_terminator_passes_csrf_and_lands_on_the_dashboard_without_a_redirect_loop(chain):
    answer = _login(client="198.51.100.20")
    assert answer.status == 302, answer.body[:500]  # not 403 (CSRF) and not 301 (redirect to https)
    location = answer.headers["Location"]
    assert location.startswith("/") and "login" not in location

    session = {"sessionid": answer.cookies()["sessionid"]}
    dashboard = _request("GET", location, proto="https", forwarded_for="198.51.100.20", cookies=session)
    assert dashboard.status == 200, (dashboard.status, dashboard.headers.get("Location"))
    assert dashboard.headers["Strict-Transport-Security"].startswith("max-age=")


def test_plain_http_at_the_terminator_is_redirected_once_to_https(chain):
    first = _request("GET", "/accounts/login/", proto="http", forwarded_for="198.51.100.21")
    assert first.status == 301 and first.headers["Location"] == f"https://{HOST}/accounts/login/"
    second = _request("GET", "/accounts/login/", proto="https", forwarded_for="198.51.100.21")
    assert second.status == 200


def test_a_client_that_bypasses_the_terminator_cannot_claim_https(chain):
    """From an untrusted address X-Forwarded-Proto is not believed: the request is plain HTTP, so redirected."""
    answer = _request("GET", "/accounts/login/", source=STRANGER, proto="https", forwarded_for="203.0.113.9")
    assert answer.status == 301 and answer.headers["Location"].startswith("https://")


def test_login_lockout_counts_the_client_the_terminator_saw_not_the_terminator_nor_a_forged_address(chain):
    """Five failures of one client lock that client out however it forges the left of X-Forwarded-For; another
    client of the same load balancer still logs in."""
    statuses = [_login(client="198.51.100.30", password="wrong", forged=f"203.0.113.{n}").status for n in range(5)]
    assert statuses == [200] * 4 + [429]  # the form again with its error, then the lockout (AXES_FAILURE_LIMIT 5)
    locked = _login(client="198.51.100.30", forged="203.0.113.77")
    assert locked.status == 429 and "sessionid" not in locked.cookies()
    other = _login(client="198.51.100.31")
    assert other.status == 302


def _half_sent_bodies(count: int, *, source: str, forwarded_for: str | None = None) -> list[socket.socket]:
    """``count`` POSTs that announce 100 kB and send 10 bytes, left open (as a slow uplink or an attacker does)."""
    held = []
    extra = f"X-Forwarded-For: {forwarded_for}\r\n" if forwarded_for else ""
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", NGINX_PORT), timeout=10, source_address=(source, 0))
        sock.sendall(
            f"POST /accounts/login/ HTTP/1.1\r\nHost: {HOST}\r\n{extra}Content-Type: text/plain\r\n"
            f"Content-Length: 100000\r\n\r\n".encode()
            + b"x" * 10
        )
        held.append(sock)
    return held


@pytest.mark.parametrize(
    ("source", "slow_client", "next_client"),
    [
        (STRANGER, None, None),  # an office behind one NAT reaching nginx directly
        (TERMINATOR, "198.51.100.40", "198.51.100.40"),  # one office behind the load balancer
        (TERMINATOR, "198.51.100.41", "198.51.100.42"),  # every customer behind the load balancer
    ],
)
def test_fifty_half_sent_bodies_from_one_address_do_not_lock_out_the_next_request(
    chain, source, slow_client, next_client
):
    held = _half_sent_bodies(50, source=source, forwarded_for=slow_client)
    try:
        time.sleep(0.5)  # nginx has read all 50 request heads and waits for their bodies
        answer = _request("GET", "/healthz", source=source, forwarded_for=next_client)
        assert answer.status == 200, (answer.status, answer.body[:300])
    finally:
        for sock in held:
            sock.close()
