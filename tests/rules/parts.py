"""Realistic part specs for engine tests and the benchmark, mirroring shared/reference/hardware.md.

Each spec carries the facts the reference sources (keys in brackets); what the reference leaves unknown is
left None here too, as the catalogue would. ``variant`` builds a clearly hypothetical variant of a real part
for rules the real catalogue cannot reach (a server whose slot sockets are known, for instance).
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from configurator.rules.design import ComponentIn, DesignIn, FabricIn, NodeGroupIn, WorkloadIn
from configurator.rules.specs import (
    AdapterSpec,
    BridgeSpec,
    CardForm,
    CatalogView,
    Connector,
    Cooling,
    GpuSpec,
    MediaEnd,
    MediaKind,
    MediaSpec,
    PartBase,
    PcieSwitchSpec,
    ServerSpec,
    SlotForm,
    SlotSpec,
    SwitchSpec,
    Top,
)

HGX_8GPU_SERVER_SLOTS = tuple(  # the 8 LP NIC slots "for 1:1 GPU-to-NIC networking" [DIST-PM]; NIC i by GPU i
    SlotSpec(name=f"NIC{i + 1}", form=SlotForm.LP, pcie_gen=5, lanes=16, gpus=(i,)) for i in range(8)
)
FHHL_2 = tuple(SlotSpec(name=f"FH{i + 1}", form=SlotForm.FHHL, pcie_gen=5, lanes=16) for i in range(2))

# --- servers (hardware.md §1a, §1b, §4) ----------------------------------------------------------------------

SYS_821GE_TNHR = ServerSpec(  # [STH-821], [MLC-821]; 6x 3 kW 4+2 = 12 kW; CPU TDP not sourced for the platform
    part_number="SYS-821GE-TNHR",
    name="Supermicro 8U HGX H100/H200",
    manufacturer="Supermicro",
    height_u=8,
    cpu_platform="Xeon 4th/5th Gen",
    cpu_sockets=2,
    cpu_tdp_w=None,
    dimm_slots=32,
    psu_count=6,
    psu_watts=3000,
    psu_redundant=2,
    cooling=Cooling.AIR,
    accepts=frozenset({"HGX-H100-8GPU", "HGX-H200-8GPU"}),
    accepts_complete=True,  # HGX: the sources name the baseboard the server takes
    slots_known=True,
    slots_complete=False,  # 8 LP in the tray; positions left and right of it are unverified
    slots=HGX_8GPU_SERVER_SLOTS,
)
SYS_822GS_NBRT = ServerSpec(  # [DIST-PM]: 8x Gen5 x16 LP + 2x Gen5 x16 FHHL, 6x 6.6 kW 3+3, Xeon 6 up to 350 W
    part_number="SYS-822GS-NBRT",
    name="Supermicro 8U HGX B200",
    manufacturer="Supermicro",
    height_u=8,
    cpu_platform="Xeon 6700/6500 P",
    cpu_sockets=2,
    cpu_tdp_w=350,
    dimm_slots=32,
    psu_count=6,
    psu_watts=6600,
    psu_redundant=3,
    cooling=Cooling.AIR,
    accepts=frozenset({"HGX-B200-8GPU"}),
    accepts_complete=True,  # HGX: the sources name the baseboard the server takes
    slots_known=True,
    slots_complete=True,
    slots=HGX_8GPU_SERVER_SLOTS + FHHL_2,
)
SYS_822GS_NB3RT = ServerSpec(  # [DIST-PM], [MLCT-822NB3]: 2x FHHL, 8 integrated ConnectX-8 800G
    part_number="SYS-822GS-NB3RT",
    name="Supermicro 8U HGX B300",
    manufacturer="Supermicro",
    height_u=8,
    cpu_platform="Xeon 6700 P",
    cpu_sockets=2,
    cpu_tdp_w=350,
    dimm_slots=32,
    psu_count=6,
    psu_watts=6600,
    psu_redundant=3,
    cooling=Cooling.AIR,
    accepts=frozenset({"HGX-B300-8GPU"}),
    accepts_complete=True,  # HGX: the sources name the baseboard the server takes
    slots_known=True,
    slots_complete=True,
    slots=FHHL_2,
    integrated_nics=8,
    integrated_nic_speed_gbps=800,
    integrated_nic_connector=Connector.OSFP,  # "8x 800G OSFP" [DIST-PM]
)
SYS_422GS_NBRT_LCC = ServerSpec(  # [DIST-PM]: liquid, 4x 6.6 kW 2+2, 8 LP + 2 FHHL
    part_number="SYS-422GS-NBRT-LCC",
    name="Supermicro 4U HGX B200 liquid",
    manufacturer="Supermicro",
    height_u=4,
    cpu_sockets=2,
    cpu_tdp_w=350,
    psu_count=4,
    psu_watts=6600,
    psu_redundant=2,
    cooling=Cooling.LIQUID,
    accepts=frozenset({"HGX-B200-8GPU"}),
    accepts_complete=True,  # HGX: the sources name the baseboard the server takes
    slots_known=True,
    slots_complete=True,
    slots=HGX_8GPU_SERVER_SLOTS + FHHL_2,
)
SYS_A21GE_NBRT = ServerSpec(  # [RN-A21GE]: 6x 5250 W 3+3; slot list not sourced (hardware.md §5)
    part_number="SYS-A21GE-NBRT",
    name="Supermicro HGX B200 (X13)",
    manufacturer="Supermicro",
    cpu_sockets=2,
    psu_count=6,
    psu_watts=5250,
    psu_redundant=3,
    cooling=Cooling.AIR,
    accepts=frozenset({"HGX-B200-8GPU"}),
    accepts_complete=True,  # HGX: the sources name the baseboard the server takes
    slots_known=False,
)
SYS_421GE_TNRT3 = ServerSpec(  # [DS-421TNRT3]: 8x Gen5 x16 FHFL GPU slots + AIOM/OCP 3.0, 4x 2700 W 2+2
    part_number="SYS-421GE-TNRT3",
    name="Supermicro 4U PCIe GPU",
    manufacturer="Supermicro",
    height_u=4,
    cpu_sockets=2,
    psu_count=4,
    psu_watts=2700,
    psu_redundant=2,
    cooling=Cooling.AIR,
    accepts=frozenset({"H100-NVL", "L40S"}),
    max_gpu_cards=8,
    slots_known=True,
    slots_complete=False,
    slots=tuple(SlotSpec(name=f"GPU{i + 1}", form=SlotForm.FHFL, pcie_gen=5, lanes=16, for_gpu=True) for i in range(8))
    + (SlotSpec(name="AIOM", form=SlotForm.OCP3),),
)
AS_4125GS_TNRT = ServerSpec(  # [SR-4125]: 9x Gen5 x16 FHFL; 4x 2000 W, redundancy mode unknown
    part_number="AS-4125GS-TNRT",
    name="Supermicro 4U PCIe GPU (AMD)",
    manufacturer="Supermicro",
    height_u=4,
    cpu_sockets=2,
    psu_count=4,
    psu_watts=2000,
    psu_redundant=None,
    cooling=Cooling.AIR,
    accepts=frozenset({"H100-NVL", "H200-NVL", "L40S", "RTX-PRO-6000-SE"}),
    max_gpu_cards=8,
    slots_known=True,
    slots_complete=True,
    slots=tuple(SlotSpec(name=f"S{i + 1}", form=SlotForm.FHFL, pcie_gen=5, lanes=16) for i in range(9)),
)

# --- GPUs (hardware.md §2) -------------------------------------------------------------------------------------

# NDR (400 Gb/s) is the advised fabric for Hopper and Blackwell clusters (distributor article seeds/000).
NDR_ADVISED = ("Hopper", "Blackwell", "Blackwell Ultra")


def _board(
    pn: str, model: str, gen: str, mem: float, nvl_gen: int, nvl: int, nvs: int | None, tdp: int, host: int = 5
) -> GpuSpec:
    return GpuSpec(
        part_number=pn,
        name=f"NVIDIA {pn}",
        manufacturer="NVIDIA",
        gpu_model=model,
        generation=gen,
        advised_fabric_gbps=400 if gen in NDR_ADVISED else None,
        is_board=True,
        gpu_count=8,
        memory_gb=mem,
        nvlink_gen=nvl_gen,
        nvlink_gbps=nvl,
        nvswitch_count=nvs,
        tdp_w=tdp,
        host_pcie_gen=host,
    )


HGX_A100 = _board("HGX-A100-8GPU", "A100 SXM4 80GB", "Ampere", 80, 3, 600, 6, 400, host=4)
HGX_H100 = _board("HGX-H100-8GPU", "H100 SXM5", "Hopper", 80, 4, 900, 4, 700)
HGX_H200 = _board("HGX-H200-8GPU", "H200 SXM", "Hopper", 141, 4, 900, 4, 700)
HGX_B200 = _board("HGX-B200-8GPU", "B200", "Blackwell", 180, 5, 1800, 2, 1000)
HGX_B300 = _board("HGX-B300-8GPU", "B300", "Blackwell Ultra", 288, 5, 1800, None, 1100, host=6)


def _card(
    pn: str, model: str, gen: str, mem: float, tdp: int, *, nvl_gen=None, nvl=None, bridges=(), host: int = 5
) -> GpuSpec:
    return GpuSpec(
        part_number=pn,
        name=f"NVIDIA {model}",
        manufacturer="NVIDIA",
        gpu_model=model,
        generation=gen,
        advised_fabric_gbps=400 if gen in NDR_ADVISED else None,
        memory_gb=mem,
        nvlink_gen=nvl_gen,
        nvlink_gbps=nvl,
        nvswitch_count=0,
        tdp_w=tdp,
        form=CardForm.FHFL,
        slot_width=2,
        bridge_sizes=frozenset(bridges),
        host_pcie_gen=host,
    )


H100_NVL = _card("H100-NVL", "H100 NVL", "Hopper", 94, 400, nvl_gen=4, nvl=600, bridges=(2,))
H200_NVL = _card("H200-NVL", "H200 NVL", "Hopper", 141, 600, nvl_gen=4, nvl=900, bridges=(2, 4))
L40S = _card("L40S", "L40S", "Ada", 48, 350, host=4)
RTX_PRO_6000 = _card("RTX-PRO-6000-SE", "RTX PRO 6000 Blackwell Server Edition", "Blackwell", 96, 600)

NVL2_BRIDGE = BridgeSpec(part_number="NVLINK-2WAY", name="NVLink bridge, 2-way", manufacturer="NVIDIA", ways=2)
NVL4_BRIDGE = BridgeSpec(part_number="NVLINK-4WAY", name="NVLink bridge, 4-way (NVL4)", manufacturer="NVIDIA", ways=4)

# --- adapters (hardware.md §3) ---------------------------------------------------------------------------------


def _nic(
    pn: str,
    family: str,
    ports: int,
    speed: int,
    conn: Connector,
    gen: int | None,
    form: CardForm | None,
    watts: float | None,
    **kw,
) -> AdapterSpec:
    return AdapterSpec(
        part_number=pn,
        name=f"NVIDIA {family}",
        manufacturer="NVIDIA",
        family=family,
        ports=ports,
        speed_gbps=speed,
        connector=conn,
        host_pcie_gen=gen,
        host_lanes=16 if gen else None,
        form=form,
        watts=watts,
        **kw,
    )


CX7_NDR = _nic(
    "MCX75310AAS-NEAT",
    "ConnectX-7",
    1,
    400,
    Connector.OSFP,
    5,
    CardForm.HHHL,
    24.9,
    top=Top.FLAT,
    price_eur=Decimal("2150"),
)  # [CX7-ID], [CX7-SPEC]; price: test figure, not a quote
CX7_NDR200 = _nic("MCX75310AAS-HEAT", "ConnectX-7", 1, 200, Connector.OSFP, 5, CardForm.HHHL, 16.7, top=Top.FLAT)
CX6_HDR = _nic("MCX653105A-HDAT", "ConnectX-6 VPI", 1, 200, Connector.QSFP56, 4, None, None)  # form, watts: U
CX7_2X200 = _nic(
    "MCX755106AS-HEAT", "ConnectX-7", 2, 200, Connector.QSFP112, 5, CardForm.HHHL, None, socket_direct=True
)
CX7_OCP = _nic("MCX75343AMS-NEAC", "ConnectX-7 OCP", 1, 400, Connector.OSFP, 5, CardForm.OCP3, 24.4)
CX8_C8180 = _nic(
    "900-9X81E-00EX-ST0", "ConnectX-8 C8180", 1, 800, Connector.OSFP, 6, CardForm.HHHL, None, socket_direct=True
)  # [CX8-ID], [DOCA-CX8]
BF3_B3140H = _nic(
    "900-9D3D4-00EN-HA0", "BlueField-3 B3140H SuperNIC", 1, 400, Connector.QSFP112, 5, CardForm.HHHL, None
)
BF3_B3220 = _nic(
    "900-9D3B6-00CV-AA0", "BlueField-3 B3220 DPU", 2, 200, Connector.QSFP112, 5, CardForm.FHHL, None, is_dpu=True
)
BF3_B3240 = _nic(
    "900-9D3B6-00CN-AB0",
    "BlueField-3 B3240 DPU",
    2,
    400,
    Connector.QSFP112,
    5,
    CardForm.FHHL,
    None,
    is_dpu=True,
    slot_width=2,
)

# --- fabric parts (for wrong-category tests) -------------------------------------------------------------------

QM9700 = SwitchSpec(
    part_number="MQM9700-NS2F",
    name="NVIDIA Quantum-2 QM9700",
    manufacturer="NVIDIA",
    generation="NDR",
    cages=32,
    cage_connector=Connector.OSFP,
    logical_ports_per_cage=2,
    port_speed_gbps=400,
    max_split=2,
    height_u=1,
    managed=True,
    top=Top.FINNED,
    embedded_sm_max_nodes=2048,
)
DAC_MCP4Y10 = MediaSpec(
    part_number="MCP4Y10-N001",
    name="NVIDIA 800G twin-port OSFP DAC 1 m",
    manufacturer="NVIDIA",
    kind=MediaKind.DAC,
    length_m=1.0,
    end_a=MediaEnd(connector=Connector.OSFP, speed_gbps=400, top=Top.FINNED, legs=2, twin=True),
    end_b=MediaEnd(connector=Connector.OSFP, speed_gbps=400, top=Top.FINNED, legs=2, twin=True),
)
NVME = PartBase(part_number="MZ-NVME-3T84", name="3.84 TB U.2 NVMe (test part)")

ALL_PARTS = [
    SYS_821GE_TNHR,
    SYS_822GS_NBRT,
    SYS_822GS_NB3RT,
    SYS_422GS_NBRT_LCC,
    SYS_A21GE_NBRT,
    SYS_421GE_TNRT3,
    AS_4125GS_TNRT,
    HGX_A100,
    HGX_H100,
    HGX_H200,
    HGX_B200,
    HGX_B300,
    H100_NVL,
    H200_NVL,
    L40S,
    RTX_PRO_6000,
    NVL2_BRIDGE,
    NVL4_BRIDGE,
    CX7_NDR,
    CX7_NDR200,
    CX6_HDR,
    CX7_2X200,
    CX7_OCP,
    CX8_C8180,
    BF3_B3140H,
    BF3_B3220,
    BF3_B3240,
    QM9700,
    DAC_MCP4Y10,
    NVME,
]


def catalog(*extra) -> CatalogView:
    """A catalogue view holding every part above, plus ``extra`` (hypothetical variants)."""
    return CatalogView(version="test", parts={p.part_number: p for p in [*ALL_PARTS, *extra]})


CATALOG = catalog()


def variant(spec, part_number: str, **changes):
    """A hypothetical variant of a real part, under its own part number."""
    return dataclasses.replace(spec, part_number=part_number, **changes)


# --- design builders -------------------------------------------------------------------------------------------


def comp(part, quantity: int = 1, role: str | None = None, slots=None) -> ComponentIn:
    pn = part if isinstance(part, str) else part.part_number
    return ComponentIn(part=pn, quantity=quantity, role=role, slots=tuple(slots) if slots is not None else None)


def group(server, *components: ComponentIn, count: int = 1, name: str = "gpu") -> NodeGroupIn:
    pn = server if isinstance(server, str) else server.part_number
    return NodeGroupIn(name=name, count=count, server=pn, components=tuple(components))


def design(*groups: NodeGroupIn, workload: tuple[str, float] | None = None, fabric: bool | str = False) -> DesignIn:
    """A design; ``fabric=True`` adds an NDR fabric on QM9700."""
    fab = None
    if fabric:
        fab = FabricIn(switch=fabric if isinstance(fabric, str) else QM9700.part_number)
    wl = WorkloadIn(kind=workload[0], model_parameters_billion=workload[1]) if workload else None
    return DesignIn(name="test", workload=wl, node_groups=tuple(groups), fabric=fab)


def hgx_node(server=SYS_821GE_TNHR, board=HGX_H200, nics: int = 8, nic=CX7_NDR, count: int = 1) -> NodeGroupIn:
    """The reference node: an HGX server, its board and one compute NIC per GPU."""
    components = [comp(board)]
    if nics:
        components.append(comp(nic, nics, role="compute"))
    return group(server, *components, count=count)


def as_json(d: DesignIn) -> dict:
    """The contract JSON of a DesignIn (for parse round trips)."""
    out: dict = {"schema": "design/v1", "name": d.name, "node_groups": []}
    if d.workload:
        out["workload"] = {"kind": d.workload.kind, "model_parameters_billion": d.workload.model_parameters_billion}
    for g in d.node_groups:
        comps = []
        for c in g.components:
            item: dict = {"part": c.part, "quantity": c.quantity}
            if c.role:
                item["role"] = c.role
            if c.slots is not None:
                item["slots"] = list(c.slots)
            comps.append(item)
        out["node_groups"].append({"name": g.name, "count": g.count, "server": g.server, "components": comps})
    if d.fabric:
        out["fabric"] = {
            "switch": d.fabric.switch,
            "oversubscription": d.fabric.oversubscription,
            "topology": d.fabric.topology,
        }
    return out


# Kept for the PCIe-switch rule: a hypothetical HGX server whose 8 NIC slots sit in pairs behind 4 switches with a
# Gen5 x16 uplink each (the shape of SYS-A22GA-NBRT's Broadcom PEX890xx switches [LSHW-A22GA]; mapping invented).
SWITCHED = variant(
    SYS_822GS_NBRT,
    "TEST-SWITCHED-HGX",
    slots=tuple(dataclasses.replace(s, pcie_switch=f"PEX{i // 2}") for i, s in enumerate(HGX_8GPU_SERVER_SLOTS))
    + FHHL_2,
    pcie_switches=tuple(
        PcieSwitchSpec(name=f"PEX{k}", uplink_gen=5, uplink_lanes=16, gpus=(2 * k, 2 * k + 1)) for k in range(4)
    ),
)


def run(d: DesignIn, cat: CatalogView = CATALOG):
    from configurator.rules.engine import validate_nodes

    return validate_nodes(d, cat)


def codes(d: DesignIn, cat: CatalogView = CATALOG) -> set[str]:
    return {f.code for f in run(d, cat).findings}


def errors(d: DesignIn, cat: CatalogView = CATALOG) -> set[str]:
    return {f.code for f in run(d, cat).findings if f.severity == "error"}
