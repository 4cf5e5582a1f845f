"""The out-of-band management network: where its switches stand, how many, their uplinks and their media (rules
in ``engines.networks.plan``'s docstring, sources in ``engines.networks.sources``).

Placement (``networks.oob.placement``): ``central`` puts the out-of-band switches in management racks, as the DGX
SuperPOD RAs rack them (SPOD-H100-OOB-CENTRAL), ``per-rack`` one in each rack. Absent: central where the racks are
sparse, per-rack where they are dense: the fullest compute rack's management ports (its nodes' BMCs and its PDUs)
against ``DENSE_RACK_PORTS``, half of an SN2201's 48. Central sizing groups the ports by scalable unit, as the RA
does: ceil(ports of a unit / 48) switches for each unit of the compute fabric (the H100 RA's 317 ports over 4 SU
are 80 a unit, 2 SN2201 each: its 8, where one pool of 317 would need 7), in no more groups than one pool would
need switches.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from design.model import Default, NetworkIn
from design.specs import MediaSpec, SwitchSpec
from design.vocabulary import Connector, Protocol
from engines.catalog_view import CatalogView
from engines.fabric.media import SLACK_M, Side, item_quantity, select_media
from engines.fabric.rack_model import IN_RACK_M
from engines.findings import Finding, finding
from engines.findings.params.networks import (
    NetworkMediaNotCatalogued,
    NetworkNoSwitch,
    NetworkOobExtraSwitches,
    NetworkOobNotManagement,
    NetworkOobPlacement,
    NetworkOobUplinkPorts,
)

from .model import INBAND, OOB, STORAGE, NetworkPlan, OobDevices

CENTRAL, PER_RACK = "central", "per-rack"
DENSE_RACK_PORTS = 24  # management ports in the fullest compute rack from which each rack gets its own switch
OOB_SWITCHES = ("SN2201",)
UPLINK_SPEED_GBPS = 100  # SN2201's QSFP28 uplinks (SN2201-UPLINKS)
OOB_UPLINKS = 2  # uplinks per out-of-band switch into the in-band network (SPOD-H100-OOB-UPLINKS)
UPLINK_RUN_M = 10.0  # an out-of-band leaf to its aggregation switches in another rack of the row (an assumption)
DEVICE_LEAF, LEAF_UPLINK = "device-leaf", "leaf-uplink"  # the out-of-band link classes


@dataclass(frozen=True)
class RackSide:
    """What the rack plan gives the out-of-band network: its rack PDUs and in-rack management switches, the
    management ports of its fullest compute rack (``densest``: BMCs and PDUs), and whether the rack plan was built
    without per-rack management switches because the out-of-band switches stand in management racks
    (``central``; the pipeline builds it so whenever the placement is central)."""

    pdus: int = 0
    switches: int = 0
    switch_part: str | None = None
    densest: int = 0
    central: bool = False
    racks: int = 0  # every rack of the plan (one: the switch stays in it)
    cord_run_m: float | None = None  # central: the longest cord run from a rack to the management racks' switches


def oob_placement(entry: NetworkIn | None | Default, densest: int, racks: int = 0) -> tuple[str, str]:
    """(placement, basis) of the out-of-band switches: the design's ``networks.oob.placement`` (basis
    ``design``), else per-rack for a cluster in one rack (basis ``rack``: no management rack for one switch), else
    central below ``DENSE_RACK_PORTS`` management ports in the fullest compute rack and per-rack from there (basis
    ``density``)."""
    if isinstance(entry, NetworkIn) and entry.placement:
        return entry.placement, "design"
    if racks == 1:
        return PER_RACK, "rack"
    return (PER_RACK if densest >= DENSE_RACK_PORTS else CENTRAL), "density"


def catalogued_switch(catalog: CatalogView, named: str | None, defaults: tuple[str, ...]) -> SwitchSpec | None:
    """The switch ``named``, else the first of ``defaults`` the catalogue has (None: not catalogued)."""
    for pn in (named,) if named else defaults:
        spec = catalog.get(pn)
        if isinstance(spec, SwitchSpec):
            return spec
    return None


def oob_leaf_switch(catalog: CatalogView, named: str | None) -> SwitchSpec | None:
    """The out-of-band switch: the one ``named`` (the design's, else the racks' own), else the RAs' default."""
    return catalogued_switch(catalog, named, OOB_SWITCHES)


def central_switches(ports: int, per: int, units: int) -> int:
    """Central out-of-band switches: the ports spread over the compute fabric's scalable units and ceil(a unit's
    ports / ``per``) switches for each unit (SPOD-H100-OOB-CENTRAL), in no more groups than one pool of the ports
    fills switches (a small cluster of many small units is not given a switch per unit)."""
    if ports <= 0:
        return 0
    groups = central_groups(ports, per, units)
    per_group = -(-ports // groups)
    return groups * -(-per_group // per)


def central_groups(ports: int, per: int, units: int) -> int:
    """The groups central out-of-band switches are counted by: the scalable units, at most as many as one pool of
    the ports fills switches, at least one."""
    return max(1, min(units, -(-ports // per)))


def plan_oob(
    entry: NetworkIn | Default,
    devices: OobDevices,
    racks: RackSide,
    catalog: CatalogView,
    findings: list[Finding],
    target: SwitchSpec | None,
    units: int = 1,
) -> NetworkPlan | None:
    """The out-of-band network, central or per rack (module docstring)."""
    given = entry if isinstance(entry, NetworkIn) else NetworkIn()
    subject = f"networks.{OOB}"
    leaf = oob_leaf_switch(catalog, given.switch or racks.switch_part)
    if leaf is None or not leaf.management or leaf.rj45_ports <= 0:
        kind = NetworkOobNotManagement if leaf is not None else NetworkNoSwitch
        findings.append(
            finding(subject, kind(network=OOB, switch=given.switch or (leaf.part_number if leaf is not None else None)))
        )
        return None
    per = leaf.rj45_ports
    placement, in_racks, leaves, own = _leaves(entry, devices, racks, leaf, units)
    # SPOD-H100-OOB-UPLINKS: two 100 GbE uplinks from every out-of-band switch into the in-band network, which
    # takes them on its own switches: no aggregation switches.
    uplinks = OOB_UPLINKS * leaves
    bom: dict[str, int] = {leaf.part_number: leaves - in_racks} if leaves > in_racks else {}
    run = racks.cord_run_m if placement == CENTRAL else None
    media_findings, media = _oob_media(catalog, leaf, target, (devices.ports, run), uplinks, bom, subject)
    own.extend(media_findings)
    return NetworkPlan(
        network=OOB,
        switch=leaf.part_number,
        leaf_switches=leaves,
        node_links=devices.ports,
        nodes=devices.bmcs,
        ports_per_node=1,
        ports_used=(("leaf", devices.ports + uplinks),),
        bom=tuple(bom.items()),
        sources=("SPOD-H100-OOB", "ERA-OOB", "SPOD-H100-OOB-CENTRAL", "SPOD-H100-OOB-UPLINKS", "SN2201-UPLINKS"),
        findings=tuple(own),
        oob=devices,
        rack_switches=in_racks,
        placement=placement,
        uplink_switch=target.part_number if target is not None else None,
        uplinks=uplinks,
        oob_media=media,
        ports_per_switch=per,
    )


def _leaves(
    entry: NetworkIn | Default, devices: OobDevices, racks: RackSide, leaf: SwitchSpec, units: int
) -> tuple[str, int, int, list[Finding]]:
    """(placement, switches in the racks, all switches, findings): central switches counted by scalable unit
    and none in the racks, or the racks' own with more where their ports run out (a finding says so); the
    placement finding first."""
    subject, per = f"networks.{OOB}", leaf.rj45_ports
    placement, basis = oob_placement(entry, racks.densest, racks.racks)
    if racks.switches and not racks.central:  # the rack plan has one in each rack: its caller chose per-rack
        placement = PER_RACK
    own: list[Finding] = []
    groups = 0
    if placement == CENTRAL:  # the rack plan was told (RackSide.central): no switch of it stands in a rack
        in_racks, leaves = 0, central_switches(devices.ports, per, units)
        groups = central_groups(devices.ports, per, units)
    else:
        in_racks = racks.switches if racks.switch_part in (None, leaf.part_number) else 0
        leaves = max(in_racks, -(-devices.ports // per)) if devices.ports else in_racks
        if leaves > in_racks:
            extra = NetworkOobExtraSwitches(
                switch=leaf.part_number, extra=leaves - in_racks, in_racks=in_racks, ports=devices.ports
            )
            own.append(finding(subject, extra))
    said = NetworkOobPlacement(
        placement=placement,
        basis=basis,
        densest=racks.densest,
        threshold=DENSE_RACK_PORTS,
        switch=leaf.part_number,
        switches=leaves,
        ports=devices.ports,
        units=groups,
    )
    return placement, in_racks, leaves, [finding(subject, said), *own]


def _oob_media(
    catalog: CatalogView,
    leaf: SwitchSpec,
    target: SwitchSpec | None,
    cords: tuple[int, float | None],
    uplinks: int,
    bom: dict[str, int],
    subject: str,
) -> tuple[list[Finding], tuple[tuple[str, str, float], ...]]:
    """1 GbE RJ45 patch cords for every device port and the uplinks' cables (from the management switch's
    QSFP28 cages to the in-band switch's, or to a like cage on the customer's network): into the bill when the
    catalogue has them, else a finding that names what to quote separately (no cable is invented). ``cords``: the
    device ports and the run their cords must reach: None where a device and its rack's management switch share
    the rack (the shortest active cord for an in-rack run), else the longest run from a rack to the switches in the
    management racks (``RackSide.cord_run_m``); an uplink runs to the in-band switches elsewhere in the row
    (``UPLINK_RUN_M``). Also returns the media chosen per link class (class, part label, length) for the cabling
    list."""
    out: list[Finding] = []
    media: list[tuple[str, str, float]] = []
    ports, run = cords
    rj45 = [
        m
        for m in catalog.of_type(MediaSpec)
        if m.end_a.connector == m.end_b.connector == Connector.RJ45
        and m.end_a.speed_gbps >= 1
        and not m.retired
        and (m.length_m or 0) >= (IN_RACK_M if run is None else run) + SLACK_M
    ]
    if rj45 and ports:
        cord = min(rj45, key=lambda m: (m.length_m or 0, m.part_number))
        bom[cord.part_number] = bom.get(cord.part_number, 0) + ports
        media.append((DEVICE_LEAF, cord.part_number, float(cord.length_m or 0)))
    elif ports:
        missing = NetworkMediaNotCatalogued(links=ports, connector="RJ45", speed_gbps=1, length_m=run)
        out.append(finding(subject, missing))
    if uplinks:
        side = Side(leaf.cage_connector, leaf.top, False, 1, leaf.part_number, True)
        far = side
        if target is not None:
            lpc = target.logical_ports_per_cage
            far = Side(target.cage_connector, target.top, lpc >= 2, lpc, target.part_number, True)
        result = select_media(
            catalog, side, far, speed_gbps=UPLINK_SPEED_GBPS, distance_m=UPLINK_RUN_M, protocol=Protocol.ETHERNET
        )
        if result.choice is None:
            connector = leaf.cage_connector.value if leaf.cage_connector else None
            out.append(
                finding(
                    subject,
                    NetworkMediaNotCatalogued(links=uplinks, connector=connector, speed_gbps=UPLINK_SPEED_GBPS),
                )
            )
        else:
            for item in result.choice.items:
                qty = item_quantity(item, ((uplinks, 1),), ((uplinks, 1),), uplinks)
                bom[item.part.part_number] = bom.get(item.part.part_number, 0) + qty
            media.append((LEAF_UPLINK, result.choice.label, result.choice.length_m))
    return out, tuple(media)


def uplink_ports(plan: NetworkPlan, uplinks: int) -> NetworkPlan:
    """The network the out-of-band uplinks land on, their ports counted on its leaves, and a finding when its
    leaves (sized for the nodes) have fewer free ports than the uplinks need (SPOD-H100-OOB-UPLINKS)."""
    used = dict(plan.ports_used)
    total = next((t for tier, _u, t in plan.fabric.ports if tier == "leaf"), 0) if plan.fabric else 0
    free = max(0, total - used.get("leaf", 0))
    own = plan.findings
    if uplinks > free:  # an error: the leaves cannot take them (issue: never valid with a warning)
        subject = f"networks.{plan.network}"
        own = (*own, finding(subject, NetworkOobUplinkPorts(network=plan.network, uplinks=uplinks, free=free)))
    used["leaf"] = used.get("leaf", 0) + uplinks
    return replace(plan, oob_uplinks=uplinks, ports_used=tuple(used.items()), findings=own)


def uplink_target(plans: dict[str, NetworkPlan | None], catalog: CatalogView) -> tuple[str, SwitchSpec] | None:
    """The switch the out-of-band leaves uplink into: the in-band network's (SPOD-H100-OOB-UPLINKS), else the
    converged north-south network's (an Ethernet storage network that in-band rides on), else None: the
    customer's own network."""
    for key in (INBAND, STORAGE):
        plan = plans.get(key)
        if plan is None or not plan.switch:
            continue
        spec = catalog.get(plan.switch)
        if isinstance(spec, SwitchSpec) and spec.protocol == Protocol.ETHERNET:
            return key, spec
    return None
