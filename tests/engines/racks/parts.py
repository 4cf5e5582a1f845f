"""Inputs for the rack-planner tests, built as the service edge will build them.

Server heights, cooling and inlet counts are the catalogue's (hardware.md: SYS-821GE-TNHR 8U air, 6 PSUs;
SYS-421GE-TNHR2-LCC 4U liquid). Node and switch powers are test inputs, round numbers chosen to make the
arithmetic visible, not catalogue facts (switch power is unknown in the catalogue: fabric.md section 3).
"""

from engines.racks import Cooling, ElevationLabels, NodeGroup, PduOption, SwitchGroup, SwitchRole

HGX_W = 10_200  # estimated maximum per node (test input, the order of hardware.md's "about 10.2 kW")
MGMT_W = 200
LEAF_W = 1_000


def air_nodes(count: int, *, su: int | None = None, power_w: int | None = HGX_W, inlets: int | None = 6) -> NodeGroup:
    return NodeGroup(
        name="gpu",
        part="SYS-821GE-TNHR",
        count=count,
        height_u=8,
        power_w=power_w,
        cooling=Cooling.AIR,
        inlets=inlets,
        inlet_type="C20",
        su_nodes=su,
    )


def liquid_nodes(count: int, *, su: int | None = None, power_w: int | None = 10_000) -> NodeGroup:
    return NodeGroup(
        name="gpu",
        part="SYS-421GE-TNHR2-LCC",
        count=count,
        height_u=4,
        power_w=power_w,
        cooling=Cooling.LIQUID,
        inlets=4,
        inlet_type="C20",
        su_nodes=su,
    )


def mgmt(power_w: int | None = MGMT_W, height_u: int | None = 1) -> SwitchGroup:
    return SwitchGroup(role=SwitchRole.MANAGEMENT, part="MSN2201-CB2FC", count=1, height_u=height_u, power_w=power_w)


def leaves(count: int, power_w: int | None = LEAF_W, height_u: int | None = 1) -> SwitchGroup:
    return SwitchGroup(role=SwitchRole.LEAF, part="MQM9700-NS2F", count=count, height_u=height_u, power_w=power_w)


def spines(count: int, power_w: int | None = LEAF_W) -> SwitchGroup:
    return SwitchGroup(role=SwitchRole.SPINE, part="MQM9700-NS2F", count=count, height_u=1, power_w=power_w)


def cores(count: int, power_w: int | None = LEAF_W) -> SwitchGroup:
    return SwitchGroup(role=SwitchRole.CORE, part="MQM9700-NS2F", count=count, height_u=1, power_w=power_w)


PDU_22K = PduOption(part="PDU-3P-32A", rating_w=22_000, outlets=24, cord="IEC 60309 32A 3P+N+E", outlet_type="C19")
PDU_7K = PduOption(part="PDU-1P-32A", rating_w=7_000, outlets=12, cord="IEC 60309 32A 1P+N+E", outlet_type="C19")

EN = ElevationLabels(
    title="Rack elevation",
    node="Node",
    leaf="Leaf",
    spine="Spine",
    core="Core",
    management="Management",
    pdu="PDU",
    storage="Storage switch",
    inband="In-band switch",
    oob="Out-of-band switch",
    control="Control-plane server",
    ufm="UFM appliance",
    blank="Blank",
    count="×{n}",
    power="{kw} kW",
    power_at_least="at least {kw} kW",
    power_unknown="power unknown",
    feed="feed {feed}",
)
NL = ElevationLabels(
    title="Rackaanzicht",
    node="Server",
    leaf="Leaf-switch",
    spine="Spine-switch",
    core="Core-switch",
    management="Beheerswitch",
    pdu="PDU",
    storage="Opslagswitch",
    inband="In-band-switch",
    oob="Out-of-band-switch",
    control="Beheerserver",
    ufm="UFM-appliance",
    blank="Afdekplaat",
    count="×{n}",
    power="{kw} kW",
    power_at_least="minstens {kw} kW",
    power_unknown="vermogen onbekend",
    feed="voeding {feed}",
)
