"""/healthz and the production settings guard."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client):
    resp = client.get("/healthz")
    body = resp.json()
    assert resp.status_code == 200
    assert body["database"]["ok"] is True and body["broker"]["ok"] is True


@pytest.mark.django_db
def test_healthz_is_503_when_the_broker_is_unreachable(client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    resp = client.get("/healthz")
    assert resp.status_code == 503
    assert resp.json()["broker"]["ok"] is False


def _check_production(env):
    full = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    full.update(env, DJANGO_SETTINGS_MODULE="project.settings.production")
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        capture_output=True,
        text=True,
        env=full,
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = _check_production({"DATABASE_URL": "sqlite:///tmp.db", "DJANGO_ALLOWED_HOSTS": "x.example.com"})
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def _env_example_secret_key() -> str:
    for line in (ROOT / ".env.example").read_text().splitlines():
        if line.startswith("DJANGO_SECRET_KEY="):
            return line.partition("=")[2]
    raise AssertionError(".env.example lists no DJANGO_SECRET_KEY")


@pytest.mark.parametrize(
    "key",
    [
        _env_example_secret_key(),  # the sample everyone copies
        "local-development-key-not-for-production",  # the development default
        "django-insecure-" + "a1b2c3d4e5" * 5,  # startproject's marker
        "x" * 49 + "Q",  # long enough but only two characters
        "Zq8!x7Rw2#Lm4^Pb6&Tn0*Vs9",  # random but shorter than 50
        "0123456789" * 6 + "0123",  # 64 characters, 10 distinct, but one short sequence repeated
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_",  # the alphabet in order
        # human phrases of 60 characters: long, but a few dozen bits of entropy, not hundreds
        "our gpu configurator signs its sessions with this long phrase!",
        "correct-horse-battery-staple-for-the-gpu-configurator-in-2026",
        "ThisIsMyVerySecretKeyForTheConfiguratorInProductionUse2026!!",
        "Mijn-Geheime-Sleutel-Voor-De-Configurator-Van-NCS-In-Groenlo!",
    ],
)
def test_production_refuses_sample_and_short_secret_keys(key):
    result = _check_production(
        {"DATABASE_URL": "sqlite:///tmp.db", "DJANGO_ALLOWED_HOSTS": "x.example.com", "DJANGO_SECRET_KEY": key}
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_random_keys_from_the_usual_generators_pass_the_guard():
    """token_urlsafe (as the docs say), token_hex and Django's startproject generator: 300 keys each pass."""
    code = (
        "import secrets\n"
        "from django.core.management.utils import get_random_secret_key as django_key\n"
        "from project.settings.production import secret_key_problem\n"
        "makers = (lambda: secrets.token_urlsafe(60), lambda: secrets.token_urlsafe(38),\n"
        "          lambda: secrets.token_hex(32))\n"
        "keys = [make() for _ in range(100) for make in makers] + [django_key() for _ in range(100)]\n"
        "print(sorted({secret_key_problem(k) or 'ok' for k in keys}))\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DATABASE_URL="sqlite:///tmp.db",
        DJANGO_ALLOWED_HOSTS="x.example.com",
        DJANGO_SECRET_KEY="k" * 20 + "-Zq8!x7Rw2#Lm4^Pb6&Tn0*Vs9" + "y" * 20,
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert result.stdout.strip() == "['ok']", result.stdout + result.stderr


def test_a_worker_without_settings_runs_production_unless_debug_is_asked_for(tmp_path):
    """`celery -A project worker` as the README starts it: production settings by default, never DEBUG."""
    code = "import os, project.celery; print(os.environ['DJANGO_SETTINGS_MODULE'])"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    plain = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert plain.stdout.strip() == "project.settings.production", plain.stderr
    debug = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**env, "DJANGO_DEBUG": "true"}, cwd=ROOT
    )
    assert debug.stdout.strip() == "project.settings.local", debug.stderr


def test_production_passes_deploy_checks_with_its_secrets():
    result = _check_production(
        {
            "DATABASE_URL": "sqlite:///tmp.db",
            "DJANGO_ALLOWED_HOSTS": "x.example.com",
            "DJANGO_SECRET_KEY": "k" * 20 + "-Zq8!x7Rw2#Lm4^Pb6&Tn0*Vs9" + "y" * 20,
        }
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_sends_the_language_cookie_over_https_only():
    code = (
        "from django.conf import settings as s; "
        "print(s.LANGUAGE_COOKIE_SECURE, s.LANGUAGE_COOKIE_SAMESITE, s.SESSION_COOKIE_SECURE)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(
        DJANGO_SETTINGS_MODULE="project.settings.production",
        DATABASE_URL="sqlite:///tmp.db",
        DJANGO_ALLOWED_HOSTS="x.example.com",
        DJANGO_SECRET_KEY="k" * 20 + "-Zq8!x7Rw2#Lm4^Pb6&Tn0*Vs9" + "y" * 20,
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert result.stdout.split() == ["True", "Lax", "True"], result.stderr


def test_a_configured_bucket_switches_documents_to_s3_storage():
    code = (
        "import django; django.setup(); from django.core.files.storage import default_storage as s; "
        "s._setup(); print(type(s._wrapped).__name__, s.bucket_name, s.endpoint_url)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "AWS_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="project.settings.local",
        AWS_STORAGE_BUCKET_NAME="quotes-docs",
        AWS_S3_ENDPOINT_URL="http://127.0.0.1:9000",
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["S3Storage", "quotes-docs", "http://127.0.0.1:9000"]


def test_compose_puts_a_buffering_proxy_with_timeouts_in_front_of_gunicorn():
    """Two half-sent requests must not starve compose's two sync gunicorn workers: nginx reads requests whole,
    with header and body timeouts and a body limit, and only it publishes a port."""
    import re

    import yaml

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert "name" not in compose  # docker-compose v1 refuses a top-level name
    services = compose["services"]
    assert services["proxy"]["image"].startswith("nginx")
    assert "ports" not in services["web"] and services["proxy"]["ports"]
    assert services["web"]["environment"]["TRUSTED_PROXY_COUNT"] == "1"
    mount = next(v for v in services["proxy"]["volumes"] if v.endswith("/etc/nginx/nginx.conf:ro"))
    conf = (ROOT / mount.split(":")[0]).read_text()
    settings = dict(re.findall(r"^\s*(\w+)\s+([^;#]+);", conf, re.M))
    assert settings["client_header_timeout"] == "10s" and settings["client_body_timeout"] == "30s"
    assert settings["client_max_body_size"] == "10m"
    assert settings["proxy_request_buffering"].strip() == "on" and settings["proxy_buffering"].strip() == "on"
    assert "server web:8000" in conf
