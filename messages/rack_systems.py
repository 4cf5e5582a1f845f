"""Messages of the rack-scale NVLink systems' findings (GB200/GB300 NVL72: one part is one rack)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engines.findings.params.rack_systems import (
    FabricRackScaleOneRack,
    NvlinkDomainPerRack,
    NvlinkDomainsMixed,
    RackSystemComplete,
    RackSystemCooling,
    RackSystemPower,
    RackSystemPowerUnknown,
)

from .base import num, renders


@renders(RackSystemComplete)
def _complete(p: RackSystemComplete) -> tuple[str, str]:
    return (
        _(
            "%(server)s is a rack-scale system that comes complete (GPUs, Grace CPUs, compute NICs, DPUs, drives, "
            "NVLink switch trays and power shelves), so %(part)s is not added to it."
        )
        % p.as_dict(),
        _("Remove %(part)s from this node group; the group's count is the number of racks.") % p.as_dict(),
    )


@renders(RackSystemPower)
def _power(p: RackSystemPower) -> tuple[str, str]:
    values = {**p.as_dict(), "power": num(p.rack_power_w), "total": num(p.total_w)}
    return (
        ngettext(
            "%(server)s draws up to %(power)s W per rack as published, its compute trays, NVLink switch trays and "
            "power shelves included.",
            "%(server)s draws up to %(power)s W per rack as published, its compute trays, NVLink switch trays and "
            "power shelves included: %(total)s W for the %(racks)s racks.",
            p.racks,
        )
        % values,
        _("Check that the site can feed %(power)s W to each rack.") % values,
    )


@renders(RackSystemPowerUnknown)
def _power_unknown(p: RackSystemPowerUnknown) -> tuple[str, str]:
    return (
        _(
            "The catalogue holds no published power for %(server)s, so the rack's feed and the cluster's power are "
            "unknown."
        )
        % p.as_dict(),
        _("Ask Supermicro for the rack's maximum power before the site is planned."),
    )


@renders(RackSystemCooling)
def _cooling(p: RackSystemCooling) -> tuple[str, str]:
    if p.cdu_kw:
        message = ngettext(
            "%(server)s is liquid-cooled through its in-rack %(cdu)s kW coolant distribution unit (CDU): the site "
            "supplies a facility water loop to the rack. The water temperature and flow it needs are not in the "
            "catalogue.",
            "%(server)s is liquid-cooled through its in-rack %(cdu)s kW coolant distribution unit (CDU): the site "
            "supplies a facility water loop to each of the %(racks)s racks. The water temperature and flow they need "
            "are not in the catalogue.",
            p.racks,
        ) % {**p.as_dict(), "cdu": num(p.cdu_kw)}
    else:
        message = (
            ngettext(
                "%(server)s is liquid-cooled through an in-rack coolant distribution unit (CDU): the site supplies a "
                "facility water loop to the rack. The water temperature and flow it needs are not in the catalogue.",
                "%(server)s is liquid-cooled through an in-rack coolant distribution unit (CDU): the site supplies a "
                "facility water loop to each of the %(racks)s racks. The water temperature and flow they need are not "
                "in the catalogue.",
                p.racks,
            )
            % p.as_dict()
        )
    return message, _("Confirm the facility water (supply temperature and flow) with Supermicro and the site.")


@renders(NvlinkDomainPerRack)
def _domain_per_rack(p: NvlinkDomainPerRack) -> tuple[str, str]:
    return (
        _(
            "The %(racks)s racks of %(server)s are %(racks)s NVLink domains of %(domain_gpus)s GPUs each, not one "
            "domain of %(gpus)s GPUs: the racks are joined by the compute fabric. NVLink 5's \"up to 576 GPUs in one "
            'NVLink domain" is a specification of the NVLink Switch, not a product that can be ordered.'
        )
        % p.as_dict(),
        _(
            "Keep tensor parallelism within one rack (%(domain_gpus)s GPUs) and spread data or pipeline parallelism "
            "over the racks through the compute fabric."
        )
        % p.as_dict(),
    )


@renders(FabricRackScaleOneRack)
def _one_rack(p: FabricRackScaleOneRack) -> tuple[str, str]:
    return (
        _("One %(server)s rack holds its %(gpus)s GPUs in one NVLink domain: it needs no compute fabric.")
        % p.as_dict(),
        _("Remove the fabric, or keep it only to prepare for more racks."),
    )


@renders(NvlinkDomainsMixed)
def _domains_mixed(p: NvlinkDomainsMixed) -> tuple[str, str]:
    values = {**p.as_dict(), "ports": num(p.ports)}
    return (
        _(
            "The compute fabric joins %(racks)s NVL72 racks (NVLink domains of %(rack_domain_gpus)s GPUs, compute "
            "trays of %(tray_rails)s NICs) and %(servers)s servers (NVLink domains of %(server_domain_gpus)s GPUs, "
            "%(rails)s NICs): it is planned on %(rails)s rails for the %(ports)s ports they have, each tray's "
            "%(tray_rails)s NICs on %(tray_rails)s of the rails. A job that spans both kinds can use tensor "
            "parallelism only within the smaller domain, %(server_domain_gpus)s GPUs."
        )
        % values,
        _(
            "Run jobs that need tensor parallelism across more than %(server_domain_gpus)s GPUs on the NVL72 racks "
            "alone, or plan the two kinds as separate fabrics."
        )
        % values,
    )
