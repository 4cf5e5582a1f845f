"""Shared fixtures: the seeded catalogue is loaded once per test database.

Imports are inside the fixtures so that the engine tests (tests/rules, tests/fabric) run without Django.
"""

import pytest


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    from catalog.services import catalog_load_seed

    with django_db_blocker.unblock():
        catalog_load_seed()


@pytest.fixture
def seeded_catalog(db):
    """The seed catalogue, reloaded if a transactional test flushed it."""
    from catalog.models import Part
    from catalog.services import catalog_load_seed
    from configurator.snapshot import clear_cache

    if not Part.objects.exists():
        catalog_load_seed()
    clear_cache()
    return Part.objects
