"""Fixtures for the quote tests: designs from the seed catalogue, configurations, customers and users."""

from __future__ import annotations

import pytest

from tests.factories import ConfigurationFactory, StaffFactory


@pytest.fixture
def make_configuration(seeded_catalog):
    def make(document=None, **kwargs):
        # Created directly: the quote services must not depend on the configuration services.
        return ConfigurationFactory(**({"document": document} if document else {}), **kwargs)

    return make


@pytest.fixture
def configuration(make_configuration):
    return make_configuration()


@pytest.fixture
def customer() -> dict:
    return {
        "name": "Ada Lovelace",
        "company": "Analytical Engines B.V.",
        "email": "ada@example.nl",
        "country": "NL",
        "vat_number": "",
    }


@pytest.fixture
def staff(db):
    """A sales engineer: staff with ``quotes.issue_quote`` (issues reviewed quotes), not an approver."""
    return StaffFactory(username="sam", first_name="Sam", last_name="Sales", permissions=("issue_quote",))


@pytest.fixture
def approver(db):
    return StaffFactory(username="alex", permissions=("approve_quote",))


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


@pytest.fixture
def build(django_capture_on_commit_callbacks):
    """Run a service and everything it enqueues on commit (the document task runs eagerly in tests)."""

    def run(fn, /, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(**kwargs)

    return run
