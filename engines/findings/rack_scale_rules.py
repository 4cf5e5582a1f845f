# ruff: noqa: E501  (message ids and sources are kept whole, one line each, as translators see them)
"""Rule registry entries of the rack-scale NVLink systems (GB200/GB300 NVL72): one catalogue part is one whole
rack, a node group's ``count`` is racks (contract design/v1, round 3)."""

from __future__ import annotations

from .codes import Code
from .fabric_codes import FabricCode
from .rule import INFO, E, Rule, W, gettext_noop, rule

_DGX_GB200 = "NVIDIA DGX GB200 User Guide, Hardware (18 compute trays, 9 NVLink switch trays, 2 management switches, power shelves)"
_ENT_RA = "NVIDIA Enterprise RA GB300 NVL72, System Hardware & Components ('Full rack requiring up to 142 kW')"

RULES: tuple[Rule, ...] = (
    rule(
        Code.RACK_SYSTEM_COMPLETE,
        E,
        gettext_noop("A rack-scale system comes complete"),
        gettext_noop(
            "A GB200 or GB300 NVL72 rack is ordered as one system: its GPUs, Grace CPUs, compute NICs, BlueField-3 DPUs, drives, NVLink switch trays and power shelves come with it, so a design lists no components for it."
        ),
        _DGX_GB200 + "; " + _ENT_RA,
        ("engines.node.context.resolve_group",),
    ),
    rule(
        Code.RACK_SYSTEM_POWER,
        INFO,
        gettext_noop("Power of a rack-scale system"),
        gettext_noop(
            "A rack-scale system's power is the whole rack's published figure (its compute trays, NVLink switch trays and power shelves), not a sum of parts."
        ),
        _ENT_RA + "; ServeTheHome on the DGX GB200 NVL72 (120 kW) [S]",
        ("engines.node.power.power_findings",),
    ),
    rule(
        Code.RACK_SYSTEM_POWER_UNKNOWN,
        W,
        gettext_noop("Power of a rack-scale system not sourced"),
        gettext_noop(
            "The catalogue holds no published power for this rack, so the plan cannot size its feeds; a sum of parts would miss the NVLink switch trays and power-shelf losses."
        ),
        "catalogue (rack_power_w)",
        ("engines.node.power.power_findings",),
    ),
    rule(
        Code.RACK_SYSTEM_COOLING,
        INFO,
        gettext_noop("A rack-scale system needs facility water"),
        gettext_noop(
            "NVL72 racks are liquid-cooled (CPUs, GPUs and NVLink switches on cold plates) through an in-rack coolant distribution unit; the data centre supplies the water loop to it. They cannot run in an air-cooled hall."
        ),
        "Supermicro SRS-GB200-NVL72 / SRS-GB300-NVL72 product pages (in-rack 250 kW CDU) [S]; " + _DGX_GB200,
        ("engines.node.power.cooling_findings",),
    ),
    rule(
        Code.NVLINK_DOMAIN_PER_RACK,
        INFO,
        gettext_noop("Each rack is its own 72-GPU NVLink domain"),
        gettext_noop(
            "The GPUs of one NVL72 rack share one NVLink domain; racks are joined by the compute fabric. NVLink 5's 'up to 576 GPUs in one NVLink domain' is a specification of the NVLink Switch, not a product the catalogue can order."
        ),
        "NVIDIA Mission Control manual, NVLink Technology ('Support for up to 576 GPUs in a single NVLink domain'); NVIDIA DGX SuperPOD GB200 RA-11338-001 (NVLink within the rack, InfiniBand between racks)",
        ("engines.node.engine.validate_nodes",),
    ),
    rule(
        FabricCode.RACK_SCALE_ONE_RACK,
        INFO,
        gettext_noop("One NVL72 rack needs no compute fabric"),
        gettext_noop(
            "The 72 GPUs of one rack talk over NVLink; a compute fabric joins racks. Its endpoints are the rack's compute trays, each with its own compute NICs."
        ),
        "NVIDIA DGX SuperPOD GB200 RA-11338-001, Network Fabrics (multi-node NVLink within the rack, compute InfiniBand fabric between racks)",
        ("engines.fabric.check.check_design_fabric",),
    ),
    rule(
        Code.NVLINK_DOMAINS_MIXED,
        INFO,
        gettext_noop("One fabric mixes 72-GPU and 8-GPU NVLink domains"),
        gettext_noop(
            "The compute fabric joins NVL72 racks, whose compute trays have 4 compute NICs each, and 8-GPU servers with 8. It is planned at the servers' rails with the ports each kind really has, each tray's NICs on 4 of the rails. A job that spans both kinds can use tensor parallelism only within the smaller NVLink domain, the server's 8 GPUs."
        ),
        _DGX_GB200
        + " (4x ConnectX-7 per compute tray); NVIDIA DGX SuperPOD GB200 RA-11338-001, Network Fabrics (72 GPUs in one NVLink domain per rack); hardware.md (8-GPU HGX NVLink domain)",
        ("engines.cluster.systems.mixed_domains",),
    ),
)
