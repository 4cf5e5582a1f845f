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


def _allow(settings, receiver: Receiver) -> Receiver:
    """A loopback receiver is refused unless the operator allows its network and port (DEBUG changes nothing)."""
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.WEBHOOK_ALLOWED_PORTS = [receiver.server.server_port]
    return receiver


@pytest.fixture
def receiver(settings):
    rec = _allow(settings, Receiver())
    yield rec
    rec.close()


def test_register_returns_the_secret_once(api):
    with _resolves_to(PUBLIC_IP):
        response = api.post(HOOKS, {"url": "https://crm.example.com/hooks"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["secret"].startswith("whsec_")
    assert body["events"] == ["quote.accepted", "quote.approved", "quote.declined", "quote.failed", "quote.ready"]
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
        ("http://sixtofour.example.com/hook", ["2002:7f00:1::1"]),  # 6to4 of 127.0.0.1
        ("http://sixtofour.example.com/hook", ["2002:a9fe:a9fe::1"]),  # 6to4 of the metadata address
        ("http://teredo.example.com/hook", ["2001:0:4136:e378:8000:63bf:f5ff:fffe"]),  # Teredo client 10.0.0.1
        ("http://nat64.example.com/hook", ["64:ff9b::a9fe:a9fe"]),  # NAT64 of 169.254.169.254
        ("http://nat64.example.com/hook", ["64:ff9b:1::a00:5"]),  # local-use NAT64 of 10.0.0.5
        ("http://compat.example.com/hook", ["::7f00:1"]),  # IPv4-compatible 127.0.0.1
        ("http://isatap.example.com/hook", ["2a00:1450:4001::5efe:c0a8:101"]),  # ISATAP 192.168.1.1
        ("http://crm.example.com:8080/hook", [PUBLIC_IP]),  # ports 80 and 443 only
        ("https://crm.example.com:6379/hook", [PUBLIC_IP]),
        ("https://crm.example.com:0/hook", [PUBLIC_IP]),  # port 0 is no port to call, not the default
        ("http://crm.example.com:00/hook", [PUBLIC_IP]),
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


def test_public_ipv6_and_nat64_of_a_public_address_are_accepted(api):
    with _resolves_to("2606:2800:21f:cb07:6820:80da:af6b:8b2c", "64:ff9b::5db8:d70e"):
        response = api.post(HOOKS, {"url": "https://crm.example.com/hook"}, format="json")
    assert response.status_code == 201, response.content


def test_the_refusal_never_repeats_what_the_resolver_answered(api):
    with _resolves_to("10.11.12.13"):
        response = api.post(HOOKS, {"url": "https://crm.example.com/hook"}, format="json")
    assert response.status_code == 400
    assert "10.11.12.13" not in response.content.decode()
    assert "crm.example.com" in response.json()["error"]["fields"][0]["message"]


def test_the_address_check_runs_with_debug_on(api, settings):
    settings.DEBUG = True
    with _resolves_to("127.0.0.1"):
        response = api.post(HOOKS, {"url": "http://localhost/hook"}, format="json")
    assert response.status_code == 400
    assert not Webhook.objects.exists()


def test_ping_answers_202_when_the_broker_is_down_and_the_delivery_is_recorded(api, django_capture_on_commit_callbacks):
    from kombu.exceptions import OperationalError

    with _resolves_to(PUBLIC_IP):
        hook = api.post(HOOKS, {"url": "https://crm.example.com/hook"}, format="json").json()
    broker_down = mock.patch("api.tasks.webhook_deliver.delay", side_effect=OperationalError("connection refused"))
    with broker_down, django_capture_on_commit_callbacks(execute=True):
        response = api.post(f"{HOOKS}{hook['id']}/ping/")
    assert response.status_code == 202, response.content
    (delivery_id,) = response.json()["deliveries"]
    delivery = WebhookDelivery.objects.get(pk=delivery_id)
    assert delivery.status == "pending" and delivery.event == "ping" and delivery.claimed_at is None


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
    receiver = _allow(settings, Receiver(statuses=[500, 503, 200]))
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

    receiver = _allow(settings, Receiver(statuses=[500]))
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
    assert "public addresses only" in delivery.attempt_log.get().error


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
    assert "public addresses only" in response.content.decode()
    assert Webhook.objects.count() == 1


def _rebinding(first, then):
    """A resolver that answers ``first`` on the first lookup and ``then`` on every later one (DNS rebinding)."""
    calls = []

    def fake(host, port, *args, **kwargs):
        calls.append(host)
        address = first if len(calls) == 1 else then
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    return mock.patch("socket.getaddrinfo", side_effect=fake), calls


def test_delivery_connects_only_to_the_address_it_checked(settings):
    from api.tasks import post

    settings.DEBUG = False
    resolver, lookups = _rebinding(PUBLIC_IP, "127.0.0.1")
    connected = []

    def refuse(address, *args, **kwargs):
        connected.append(address[0])
        raise ConnectionRefusedError("test: no network")

    with resolver, mock.patch("socket.create_connection", side_effect=refuse), pytest.raises(OSError):
        post("https://crm.example.com/hook", b"{}", {})
    assert connected == [PUBLIC_IP]
    assert "127.0.0.1" not in connected
    assert lookups == ["crm.example.com"]  # resolved once: the answer that was checked is the one used


def test_delivery_refuses_a_host_with_any_private_address(settings):
    from django.core.exceptions import ValidationError

    from api.tasks import post

    settings.DEBUG = False
    with (
        _resolves_to(PUBLIC_IP, "127.0.0.1"),
        mock.patch("socket.create_connection") as connect,
        pytest.raises(ValidationError),
    ):
        post("http://crm.example.com/hook", b"{}", {})
    connect.assert_not_called()


def test_connection_keeps_the_host_name_for_host_header_and_sni():
    from api.tasks import _PinnedHTTPConnection, _PinnedHTTPSConnection

    plain = _PinnedHTTPConnection("crm.example.com", 80, addresses=[PUBLIC_IP])
    tls = _PinnedHTTPSConnection("crm.example.com", 443, addresses=[PUBLIC_IP])
    assert plain.host == tls.host == "crm.example.com"
    sock = mock.MagicMock()
    with (
        mock.patch("socket.create_connection", return_value=sock) as connect,
        mock.patch.object(tls._context, "wrap_socket") as wrap,
    ):
        tls.connect()
    connect.assert_called_once_with((PUBLIC_IP, 443), mock.ANY)
    wrap.assert_called_once_with(sock, server_hostname="crm.example.com")


def _pending_delivery(make_client, **fields):
    client, _token, _http = make_client("crm-sweep")
    with _resolves_to(PUBLIC_IP):
        webhook = Webhook.objects.create(client=client, url="https://crm.example.com/hook")
    return WebhookDelivery.objects.create(webhook=webhook, event="quote.ready", payload={}, **fields)


def test_sweep_leaves_deliveries_waiting_for_their_retry_alone(make_client):
    from datetime import timedelta

    from django.utils import timezone

    from api.tasks import webhook_retry_pending

    now = timezone.now()
    waiting = _pending_delivery(make_client, attempts=1, next_attempt_at=now + timedelta(minutes=2))
    overdue = WebhookDelivery.objects.create(
        webhook=waiting.webhook, event="quote.ready", payload={}, attempts=1, next_attempt_at=now - timedelta(hours=1)
    )
    in_flight = WebhookDelivery.objects.create(
        webhook=waiting.webhook,
        event="quote.ready",
        payload={},
        next_attempt_at=now - timedelta(hours=1),
        claimed_at=now - timedelta(seconds=5),
    )
    with mock.patch("api.tasks.webhook_deliver.delay") as delay:
        assert webhook_retry_pending() == 1
    assert [c.args[0] for c in delay.call_args_list] == [overdue.pk]
    assert in_flight.pk not in [c.args[0] for c in delay.call_args_list]


def test_a_delivery_is_not_sent_before_its_next_attempt(make_client):
    from datetime import timedelta

    from django.utils import timezone

    delivery = _pending_delivery(make_client, attempts=1, next_attempt_at=timezone.now() + timedelta(minutes=2))
    with mock.patch("api.tasks.post") as post:
        assert webhook_deliver.apply(args=[delivery.pk]).get() == "skipped"
    post.assert_not_called()


def test_only_one_of_two_claims_wins(make_client):
    from api.tasks import claim_delivery

    delivery = _pending_delivery(make_client)
    assert claim_delivery(delivery.pk) is True
    assert claim_delivery(delivery.pk) is False
    delivery.refresh_from_db()
    assert delivery.claimed_at is not None and delivery.attempts == 1


def test_an_expired_claim_can_be_taken_over(make_client):
    from django.utils import timezone

    from api.tasks import CLAIM_LEASE, claim_delivery

    delivery = _pending_delivery(make_client, claimed_at=timezone.now() - CLAIM_LEASE * 2)
    assert claim_delivery(delivery.pk) is True


def test_a_failed_attempt_schedules_the_next_and_releases_the_claim(make_client):
    from datetime import timedelta

    from django.utils import timezone

    delivery = _pending_delivery(make_client)
    with mock.patch("api.tasks.post", return_value=503):
        assert webhook_deliver.apply(args=[delivery.pk]).get() == "retry-pending"  # in-process mode
    delivery.refresh_from_db()
    assert delivery.status == "pending" and delivery.claimed_at is None
    due_in = delivery.next_attempt_at - timezone.now()
    assert timedelta(seconds=20) < due_in <= timedelta(seconds=30)  # backoff after attempt 1
    with mock.patch("api.tasks.post", return_value=200) as post:
        assert webhook_deliver.apply(args=[delivery.pk]).get() == "skipped"  # not due yet
    post.assert_not_called()


def test_a_scheduled_retry_that_was_overtaken_does_not_send_again(make_client):
    from api.tasks import claim_delivery

    delivery = _pending_delivery(make_client, attempts=2)
    # The retry scheduled after attempt 1 arrives after someone already made attempt 2.
    assert claim_delivery(delivery.pk, after_attempt=1) is False
    assert claim_delivery(delivery.pk, after_attempt=2) is True
