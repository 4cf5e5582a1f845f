"""Webhooks: registration (secret once), URL safety, signed delivery verified as a receiver would, retries."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from unittest import mock

import pytest

from api.models import Webhook, WebhookDelivery
from api.tasks import webhook_deliver

HOOKS = "/api/v1/webhooks/"
PUBLIC_IP = "93.184.215.14"


def _resolves_to(*addresses):
    def fake(host, port, *args, **kwargs):
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses
        ]

    return mock.patch("socket.getaddrinfo", side_effect=fake)


def verify(secret: str, headers, body: bytes) -> bool:
    """What a receiver does: recompute HMAC-SHA256 over '<timestamp>.<body>' and compare in constant time."""
    expected = hmac.new(
        secret.encode(), headers["X-Webhook-Timestamp"].encode() + b"." + body, hashlib.sha256
    ).hexdigest()
    return hmac.compare_digest(headers["X-Webhook-Signature"], f"sha256={expected}")


class Receiver:
    """A fake CRM endpoint on loopback that records requests and answers the given status codes in turn."""

    def __init__(self, statuses=(200,)):
        self.requests: list[tuple[dict, bytes]] = []
        self.statuses = list(statuses)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests.append((dict(self.headers), body))
                status = receiver.statuses.pop(0) if len(receiver.statuses) > 1 else receiver.statuses[0]
                self.send_response(status)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = HTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hooks/crm"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings):
    settings.DEBUG = True  # loopback targets are only allowed in DEBUG
    rec = Receiver()
    yield rec
    rec.close()


def test_register_returns_the_secret_once(api):
    with _resolves_to(PUBLIC_IP):
        response = api.post(HOOKS, {"url": "https://crm.example.com/hooks"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["secret"].startswith("whsec_")
    assert body["events"] == ["quote.approved", "quote.failed", "quote.ready"]
    listed = api.get(HOOKS).json()["results"]
    assert listed[0]["url"] == "https://crm.example.com/hooks"
    assert "secret" not in listed[0]
    assert "secret" not in api.get(f"{HOOKS}{body['id']}/").json()


@pytest.mark.parametrize(
    ("url", "addresses"),
    [
        ("http://127.0.0.1/hook", ["127.0.0.1"]),
        ("http://localhost/hook", ["127.0.0.1", "::1"]),
        ("http://10.1.2.3/hook", ["10.1.2.3"]),
        ("http://192.168.1.10/hook", ["192.168.1.10"]),
        ("http://169.254.169.254/latest/meta-data", ["169.254.169.254"]),
        ("http://[::1]/hook", ["::1"]),
        ("http://[fe80::1]/hook", ["fe80::1"]),
        ("http://0.0.0.0/hook", ["0.0.0.0"]),
        ("http://rebind.example.com/hook", [PUBLIC_IP, "10.0.0.5"]),  # every address must be public
        ("http://[::ffff:127.0.0.1]/hook", ["::ffff:127.0.0.1"]),
        ("ftp://crm.example.com/hook", [PUBLIC_IP]),
        ("https://user:pw@crm.example.com/hook", [PUBLIC_IP]),
    ],
)
def test_unsafe_urls_are_refused(api, url, addresses):
    with _resolves_to(*addresses):
        response = api.post(HOOKS, {"url": url}, format="json")
    assert response.status_code == 400, (url, response.content)
    assert response.json()["error"]["fields"][0]["path"] == "url"
    assert not Webhook.objects.exists()


def test_unresolvable_host_is_refused(api):
    with mock.patch("socket.getaddrinfo", side_effect=socket.gaierror("no such host")):
        response = api.post(HOOKS, {"url": "https://nowhere.invalid/hook"}, format="json")
    assert response.status_code == 400


def test_webhooks_are_per_client(api, other_api):
    with _resolves_to(PUBLIC_IP):
        hook = api.post(HOOKS, {"url": "https://crm.example.com/a"}, format="json").json()
    assert other_api.get(f"{HOOKS}{hook['id']}/").status_code == 404
    assert other_api.delete(f"{HOOKS}{hook['id']}/").status_code == 404
    assert other_api.get(HOOKS).json()["count"] == 0


def test_quote_ready_is_delivered_signed(
    api, receiver, design, customer, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = str(tmp_path)
    hook = api.post(HOOKS, {"url": receiver.url, "events": ["quote.ready"]}, format="json").json()
    with django_capture_on_commit_callbacks(execute=True):
        quote = api.post(
            "/api/v1/quotes/", {"design": design, "customer": customer, "crm_reference": "OPP-1"}, format="json"
        ).json()

    assert len(receiver.requests) == 1
    headers, body = receiver.requests[0]
    assert verify(hook["secret"], headers, body)
    assert not verify("whsec_wrong", headers, body)
    assert headers["X-Webhook-Event"] == "quote.ready"
    event = json.loads(body)
    assert event["event"] == "quote.ready"
    assert event["id"] == headers["X-Webhook-Id"]
    assert event["data"]["quote"]["id"] == quote["id"]
    assert event["data"]["quote"]["doc_status"] == "ready"
    assert event["data"]["quote"]["crm_reference"] == "OPP-1"
    assert event["data"]["quote"]["document_url"].endswith(f"/api/v1/quotes/{quote['id']}/document.pdf")

    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "succeeded"
    attempt = delivery.attempt_log.get()
    assert (attempt.number, attempt.status_code, attempt.error) == (1, 200, "")
    log = api.get(f"{HOOKS}{hook['id']}/deliveries/").json()["results"]
    assert log[0]["attempt_log"][0]["status_code"] == 200


def test_other_clients_do_not_get_my_events(
    api, other_api, receiver, design, customer, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = str(tmp_path)
    other_api.post(HOOKS, {"url": receiver.url}, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        api.post("/api/v1/quotes/", {"design": design, "customer": customer}, format="json")
    assert receiver.requests == []


def test_failures_are_retried_with_backoff_and_recorded(api, settings):
    settings.DEBUG = True
    receiver = Receiver(statuses=[500, 503, 200])
    try:
        hook = api.post(HOOKS, {"url": receiver.url}, format="json").json()
        webhook = Webhook.objects.get(pk=hook["id"])
        delivery = WebhookDelivery.objects.create(
            webhook=webhook, event="quote.ready", payload={"id": "evt", "event": "quote.ready", "data": {}}
        )
        settings.CELERY_TASK_ALWAYS_EAGER = False  # let the task use Celery's retry (apply() runs it at once)
        with mock.patch("api.tasks.backoff_seconds", wraps=lambda n: 30 * 2 ** (n - 1)) as backoff:
            webhook_deliver.apply(args=[delivery.pk])
    finally:
        receiver.close()
    delivery.refresh_from_db()
    assert delivery.status == "succeeded"
    assert [(a.number, a.status_code) for a in delivery.attempt_log.all()] == [(1, 500), (2, 503), (3, 200)]
    assert [c.args[0] for c in backoff.call_args_list] == [1, 2]
    ids = {h["X-Webhook-Id"] for h, _b in receiver.requests}
    assert len(ids) == 1  # the same event id on every retry, so receivers can drop repeats


def test_gives_up_after_the_last_attempt(api, settings):
    from api.tasks import MAX_ATTEMPTS

    settings.DEBUG = True
    receiver = Receiver(statuses=[500])
    try:
        hook = api.post(HOOKS, {"url": receiver.url}, format="json").json()
        delivery = WebhookDelivery.objects.create(webhook_id=hook["id"], event="quote.failed", payload={})
        settings.CELERY_TASK_ALWAYS_EAGER = False
        webhook_deliver.apply(args=[delivery.pk])
    finally:
        receiver.close()
    delivery.refresh_from_db()
    assert delivery.status == "failed"
    assert delivery.attempt_log.count() == MAX_ATTEMPTS
    assert webhook_deliver.apply(args=[delivery.pk]).get() == "skipped"  # idempotent: no more attempts


def test_delivery_refuses_a_url_that_now_resolves_privately(api):
    with _resolves_to(PUBLIC_IP):
        hook = api.post(HOOKS, {"url": "https://crm.example.com/hook"}, format="json").json()
    delivery = WebhookDelivery.objects.create(webhook_id=hook["id"], event="quote.ready", payload={})
    with _resolves_to("10.0.0.7"):
        webhook_deliver.apply(args=[delivery.pk])
    delivery.refresh_from_db()
    assert delivery.status == "failed"
    assert "not a public address" in delivery.attempt_log.get().error


def test_ping_sends_a_signed_test_event(api, receiver, django_capture_on_commit_callbacks):
    hook = api.post(HOOKS, {"url": receiver.url}, format="json").json()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{HOOKS}{hook['id']}/ping/")
    assert response.status_code == 202
    headers, body = receiver.requests[0]
    assert headers["X-Webhook-Event"] == "ping"
    assert verify(hook["secret"], headers, body)


def test_update_and_delete(api):
    with _resolves_to(PUBLIC_IP):
        hook = api.post(HOOKS, {"url": "https://crm.example.com/a"}, format="json").json()
        patched = api.patch(f"{HOOKS}{hook['id']}/", {"events": ["quote.failed"], "is_active": False}, format="json")
    assert patched.status_code == 200
    assert patched.json()["events"] == ["quote.failed"] and patched.json()["is_active"] is False
    assert api.delete(f"{HOOKS}{hook['id']}/").status_code == 204


def test_unknown_event_is_400(api):
    with _resolves_to(PUBLIC_IP):
        response = api.post(HOOKS, {"url": "https://crm.example.com/a", "events": ["quote.eaten"]}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["fields"][0]["path"].startswith("events")


def test_admin_shows_attempts_and_refuses_private_urls(admin_client, make_client):
    client, _token, _http = make_client("crm-admin")
    with _resolves_to(PUBLIC_IP):
        webhook = Webhook.objects.create(client=client, url="https://crm.example.com/hook")
    delivery = WebhookDelivery.objects.create(webhook=webhook, event="quote.ready", payload={}, attempts=1)
    delivery.attempt_log.create(number=1, status_code=502, error="HTTP 502", duration_ms=120)
    page = admin_client.get(f"/admin/api/webhookdelivery/{delivery.pk}/change/")
    assert page.status_code == 200
    assert "HTTP 502" in page.content.decode()

    with _resolves_to("10.0.0.1"):
        response = admin_client.post(
            "/admin/api/webhook/add/",
            {
                "client": client.pk,
                "url": "http://intranet.example.com/",
                "events": '["quote.ready"]',
                "description": "",
                "is_active": "on",
            },
        )
    assert response.status_code == 200  # the form again, with the error
    assert "not a public address" in response.content.decode()
    assert Webhook.objects.count() == 1
