"""The session store (project.sessions) reads a visitor's session as Django's database store does: a live
session comes back whole; an expired or unknown one starts afresh."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session

from project.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_it_is_the_configured_store():
    assert settings.SESSION_ENGINE == "project.sessions"


def test_a_live_session_loads_whole():
    store = SessionStore()
    store["configurator.drafts"] = ["abc", "déf"]
    store.save()
    again = SessionStore(store.session_key)
    assert again["configurator.drafts"] == ["abc", "déf"]
    assert again.session_key == store.session_key


def test_an_expired_or_unknown_session_starts_afresh():
    store = SessionStore()
    store["x"] = 1
    store.set_expiry(-60)
    store.save()
    assert Session.objects.filter(session_key=store.session_key).exists()
    expired = SessionStore(store.session_key)
    assert expired.load() == {} and expired.session_key is None
    unknown = SessionStore("0" * 32)
    assert "x" not in unknown and unknown.session_key is None
