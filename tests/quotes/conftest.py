"""Fixtures for the quote tests: designs from the seed catalogue, configurations, customers and users."""

from __future__ import annotations

import pytest

H200_NODE = [{"part": "HGX-H200-8GPU", "quantity": 1}, {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"}]


def design(
    count: int = 1,
    *,
    fabric: bool | None = None,
    components=None,
    server: str = "SYS-821GE-TNHR",
    name: str = "H200 cluster",
) -> dict:
    """A design of ``count`` HGX H200 nodes; with an InfiniBand fabric when ``fabric`` (default: count > 1)."""
    fabric = count > 1 if fabric is None else fabric
    return {
        "schema": "design/v1",
        "name": name,
        "node_groups": [
            {
                "name": "gpu",
                "count": count,
                "server": server,
                "components": components if components is not None else H200_NODE,
            }
        ],
        "fabric": {"switch": "MQM9700-NS2F", "oversubscription": "1:1", "topology": "rail-optimized"}
        if fabric
        else None,
    }


# The seed catalogue says: 9 NICs do not fit SYS-821GE-TNHR's 8 LP slots (PCIE_NO_FREE_SLOT, error);
# the HGX A100 system has no sourced PSU figures (POWER_CAPACITY_UNKNOWN, warning).
ERROR_DESIGN = design(
    components=[{"part": "HGX-H200-8GPU", "quantity": 1}, {"part": "MCX75310AAS-NEAT", "quantity": 9}]
)
WARNING_DESIGN = design(server="SYS-420GP-TNAR", components=[{"part": "HGX-A100-8GPU", "quantity": 1}])


@pytest.fixture
def make_configuration(seeded_catalog):
    from configurator.models import Configuration

    def make(document=None, **kwargs):
        # Created directly: the quote services must not depend on the wizard's draft services.
        document = document or design()
        return Configuration.objects.create(document=document, name=document.get("name", ""), **kwargs)

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
def staff(django_user_model):
    """A sales engineer: staff with ``quotes.issue_quote`` (issues reviewed quotes), not an approver."""
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user(
        "sam", "sam@ncs.nl", "pw", is_staff=True, first_name="Sam", last_name="Sales"
    )
    user.user_permissions.add(Permission.objects.get(codename="issue_quote", content_type__app_label="quotes"))
    return django_user_model.objects.get(pk=user.pk)  # fresh permission cache


@pytest.fixture
def approver(django_user_model):
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("alex", "alex@ncs.nl", "pw", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="approve_quote", content_type__app_label="quotes"))
    return django_user_model.objects.get(pk=user.pk)  # fresh permission cache


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
