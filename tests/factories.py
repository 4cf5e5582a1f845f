"""factory_boy factories of the models the tests store (users, configurations, acknowledgements, API clients),
and the design documents they hold: one home, so every test builds the same rows the same way."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from configurator.models import Configuration, WarningAcknowledgement

H200_NODE = [{"part": "HGX-H200-8GPU", "quantity": 1}, {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"}]
# A BlueField-3 for the storage network and a ConnectX-7 for in-band management, as the networks' tests add them.
STORAGE_ADAPTER = {"part": "900-9D3B6-00CN-AB0", "quantity": 1, "role": "storage"}
INBAND_ADAPTER = {"part": "MCX755106AS-HEAT", "quantity": 1, "role": "management"}


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


# The seed catalogue says: 11 NICs do not fit SYS-822GS-NBRT's complete list of 10 slots (PCIE_NO_FREE_SLOT, error;
# a 13th card in SYS-821GE-TNHR, whose 12-slot list is not complete, is a warning to confirm with Supermicro);
# the liquid-cooled HGX H100 system has no sourced PSU figures (POWER_CAPACITY_UNKNOWN, warning; an active part,
# so no lifecycle warning joins it).
ERROR_DESIGN = design(
    server="SYS-822GS-NBRT",
    components=[{"part": "HGX-B200-8GPU", "quantity": 1}, {"part": "MCX75310AAS-NEAT", "quantity": 11}],
)
WARNING_DESIGN = design(server="SYS-421GE-TNHR2-LCC", components=[{"part": "HGX-H100-8GPU", "quantity": 1}])


def grant(user, *codenames: str):
    """Give ``user`` these permissions (by codename) and forget the object's permission cache; returns it."""
    user.user_permissions.add(*Permission.objects.filter(codename__in=codenames))
    for attr in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        user.__dict__.pop(attr, None)
    return user


class UserFactory(factory.django.DjangoModelFactory):
    """A signed-in person; ``permissions=("issue_quote", ...)`` grants permissions by codename."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@ncs.nl")
    password = factory.django.Password("pw")

    @factory.post_generation
    def permissions(self, create, codenames, **kwargs):
        if create and codenames:
            self.user_permissions.add(*Permission.objects.filter(codename__in=codenames))


class StaffFactory(UserFactory):
    """A sales engineer (staff); permissions as given."""

    is_staff = True


class ConfigurationFactory(factory.django.DjangoModelFactory):
    """A stored design, created directly (as the quote tests need it: not through the wizard's services)."""

    class Meta:
        model = Configuration

    document = factory.LazyFunction(design)
    name = factory.LazyAttribute(lambda c: c.document.get("name", ""))


class WarningAcknowledgementFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = WarningAcknowledgement

    configuration = factory.SubFactory(ConfigurationFactory)
    code = "POWER_CAPACITY_UNKNOWN"
    subject = "node_groups[0]"
    reason = "Checked with the customer."


def set_price(*part_numbers: str, price=None, **fields) -> None:
    """A price list that prices these parts at ``price`` (None: not priced, quoted on request), and sets any other
    field given. Saved part by part, as the admin and the import do, so the engines' catalogue snapshot sees it."""
    from catalog.models import Part

    for part in Part.objects.filter(part_number__in=part_numbers) if part_numbers else Part.objects.all():
        part.list_price_eur = price
        for name, value in fields.items():
            setattr(part, name, value)
        part.save()
