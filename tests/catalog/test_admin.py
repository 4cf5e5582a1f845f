"""Catalogue admin pages."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db


def test_server_changelist_reads_the_parts_in_one_join(admin_client, seeded_catalog):
    with CaptureQueriesContext(connection) as queries:
        resp = admin_client.get("/admin/catalog/server/")
    assert resp.status_code == 200 and b"SYS-821GE-TNHR" in resp.content
    part_reads = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT "catalog_part"')]
    assert part_reads == []  # with list_select_related the parts come with the servers, not one query each
