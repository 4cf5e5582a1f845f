"""The service side of the control plane and the services (engines.cluster.control_plane plans them): their
indicative prices from settings (``QUOTE_SERVICE_*``) and what each line says, in the active language."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from engines.cluster.control_plane import (
    AI_ENTERPRISE,
    HEAD_NODE,
    INSTALLATION,
    K8S_ADMIN_NODE,
    K8S_NODE,
    K8S_USER_NODE,
    PRICE_SETTINGS,
    SLURM_LOGIN_NODE,
    SUPPORT,
    UFM_APPLIANCE,
    ServicePrices,
)


def service_prices() -> ServicePrices:
    """The indicative prices of the settings as they are now (unset or not a number: on request)."""
    return ServicePrices.of({name: getattr(settings, name, None) for name in PRICE_SETTINGS.values()})


def _control_node(part: str) -> str:
    return {
        HEAD_NODE: _("Head node, Base Command Manager in high availability"),
        K8S_NODE: _("Kubernetes control plane node"),
        K8S_ADMIN_NODE: _("Kubernetes node for administrator services"),
        K8S_USER_NODE: _("Kubernetes node for user services (Run:ai)"),
        SLURM_LOGIN_NODE: _("Slurm login node"),
    }.get(part, "")


def describe_line(part: str, years: int) -> str:
    """What a control-plane or service line says (engines.cluster.control_plane.Describe); ``years``: the term of
    the per-year lines."""
    if part == UFM_APPLIANCE:
        return _("NVIDIA UFM Enterprise appliance with its licence (high-availability pair)")
    if part == SUPPORT:
        return _("Hardware warranty and support, per node and year (%(years)s years)") % {"years": years}
    if part == INSTALLATION:
        return _("Installation and rack integration, per rack")
    if part == AI_ENTERPRISE:
        return _("NVIDIA AI Enterprise subscription, per GPU and year (%(years)s years)") % {"years": years}
    what = _control_node(part)
    spec = _("2 x86 CPUs of 32 cores or more, 1 TB RAM, NVMe and RAID-1 boot SSDs, BlueField-3 (NVIDIA RA minimum)")
    return f"{what}: {spec}"
