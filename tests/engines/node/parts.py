"""Part specs for the engine tests, built from the seed catalogue (catalog/seed/catalog.json) by the snapshot's
own conversion (configurator.snapshot.seed_view), so the tests run on the facts the product sells.

Where a test needs a fact the seed does not state (a slot list, a card form the sources leave unknown) or a part
the seed does not hold, the spec is a *test variant* of a seed part made with ``dataclasses.replace``; each
override below says why. ``variant`` builds further clearly hypothetical variants under their own part numbers.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from configurator.snapshot import seed_view
from design.model import ComponentIn, DesignIn, FabricIn, NodeGroupIn, WorkloadIn
from design.specs import PartBase, PcieSwitchSpec, SlotSpec
from design.vocabulary import CardForm, SlotForm
from engines.catalog_view import CatalogView

SEED = seed_view()


def seeded(part_number: str, **test_facts):
    """The seed's spec of ``part_number``, with ``test_facts`` replaced (a test variant under the same number)."""
    spec = SEED.parts[part_number]
    return dataclasses.replace(spec, **test_facts) if test_facts else spec


def variant(spec, part_number: str, **changes):
    """A hypothetical variant of a real part, under its own part number."""
    return dataclasses.replace(spec, part_number=part_number, **changes)


# The SYS-821GE-TNHR's 8 LP NIC slots as the tests know them: PCIe 5.0 x16, NIC i by GPU i, named NIC1..NIC8
# (the seed names them LP1..LP8 and leaves their generation, width and GPU affinity unknown).
HGX_8GPU_SERVER_SLOTS = tuple(
    SlotSpec(name=f"NIC{i + 1}", form=SlotForm.LP, pcie_gen=5, lanes=16, gpus=(i,)) for i in range(8)
)

# --- servers -----------------------------------------------------------------------------------------------------

SYS_821GE_TNHR = seeded("SYS-821GE-TNHR", slots=HGX_8GPU_SERVER_SLOTS)
SYS_822GS_NBRT = seeded("SYS-822GS-NBRT")
# the CPU power the tests count (Xeon 6 up to 350 W [DIST-PM]); the seed leaves these servers' unknown
SYS_822GS_NB3RT = seeded("SYS-822GS-NB3RT", cpu_tdp_w=350)
SYS_422GS_NBRT_LCC = seeded("SYS-422GS-NBRT-LCC", cpu_tdp_w=350)
# an HGX B200 server whose slot list no source gives (hardware.md section 5): a variant of the SYS-822GS-NBRT
SYS_A21GE_NBRT = variant(
    SYS_822GS_NBRT, "SYS-A21GE-NBRT", slots_known=False, slots_complete=False, slots=(), psu_watts=5250
)
# the tests also place H100 NVL cards in it (the seed lists only the L40S as accepted)
SYS_421GE_TNRT3 = seeded("SYS-421GE-TNRT3", accepts=frozenset({"H100-NVL", "L40S"}))
# a complete slot list of nine FHFL slots named S1..S9, taking the PCIe GPUs the tests use
AS_4125GS_TNRT = seeded(
    "AS-4125GS-TNRT",
    accepts=frozenset({"H100-NVL", "H200-NVL", "L40S", "RTX-PRO-6000-SE"}),
    slots_complete=True,
    slots=tuple(SlotSpec(name=f"S{i + 1}", form=SlotForm.FHFL, pcie_gen=5, lanes=16) for i in range(9)),
)

# --- GPUs --------------------------------------------------------------------------------------------------------

# The power tests check the documented formula, so the boards here carry no NVIDIA reference-system calibration
# (test_power_calibration adds it back on a variant).
_UNCALIBRATED = {"ref_system": "", "ref_system_max_w": None}
# the A100 as an active part of a known generation (the seed marks it end of life and leaves the generation out)
HGX_A100 = seeded("HGX-A100-8GPU", generation="Ampere", lifecycle="active", **_UNCALIBRATED)
HGX_H100 = seeded("HGX-H100-8GPU", **_UNCALIBRATED)
HGX_H200 = seeded("HGX-H200-8GPU", **_UNCALIBRATED)
HGX_B200 = seeded("HGX-B200-8GPU", **_UNCALIBRATED)
HGX_B300 = seeded("HGX-B300-8GPU", **_UNCALIBRATED)
# the card form the slot rules need (the seed leaves the NVL cards' form unknown)
H100_NVL = seeded("H100-NVL", form=CardForm.FHFL)
H200_NVL = seeded("H200-NVL", form=CardForm.FHFL)
L40S = seeded("L40S", generation="Ada")
RTX_PRO_6000 = seeded("RTX-PRO-6000-SE")

# the tests name the bridges NVLINK-2WAY and NVLINK-4WAY
NVL2_BRIDGE = variant(seeded("NVLINK-BRIDGE-2WAY"), "NVLINK-2WAY")
NVL4_BRIDGE = variant(seeded("NVLINK-BRIDGE-4WAY"), "NVLINK-4WAY")

# --- adapters ----------------------------------------------------------------------------------------------------

CX7_NDR = seeded("MCX75310AAS-NEAT", price_eur=Decimal("2150"))  # price: a test figure, not a quote
CX7_NDR200 = seeded("MCX75310AAS-HEAT")
CX6_HDR = seeded("MCX653105A-HDAT")
CX7_2X200 = seeded("MCX755106AS-HEAT")
CX7_OCP = seeded("MCX75343AMS-NEAC")
CX8_C8180 = seeded("900-9X81E-00EX-ST0")
BF3_B3140H = seeded("900-9D3D4-00EN-HA0")
BF3_B3240 = seeded("900-9D3B6-00CN-AB0")
# a dual-port 200G FHHL DPU (the B3220's shape), which the seed does not hold: a variant of the B3240
BF3_B3220 = variant(BF3_B3240, "900-9D3B6-00CV-AA0", speed_gbps=200, slot_width=None, socket_direct=False)

# --- fabric parts (for wrong-category tests) -----------------------------------------------------------------------

QM9700 = seeded("MQM9700-NS2F")
DAC_MCP4Y10 = seeded("MCP4Y10-N001")
NVME = PartBase(part_number="MZ-NVME-3T84", name="3.84 TB U.2 NVMe (test part)")  # a part of no known kind

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
    slots=tuple(
        dataclasses.replace(s, pcie_switch=f"PEX{i // 2}") if s.gpus else s for i, s in enumerate(SYS_822GS_NBRT.slots)
    ),
    pcie_switches=tuple(
        PcieSwitchSpec(name=f"PEX{k}", uplink_gen=5, uplink_lanes=16, gpus=(2 * k, 2 * k + 1)) for k in range(4)
    ),
)


def run(d: DesignIn, cat: CatalogView = CATALOG):
    from engines.node.engine import validate_nodes

    return validate_nodes(d, cat)


def codes(d: DesignIn, cat: CatalogView = CATALOG) -> set[str]:
    return {f.code for f in run(d, cat).findings}


def errors(d: DesignIn, cat: CatalogView = CATALOG) -> set[str]:
    return {f.code for f in run(d, cat).findings if f.severity == "error"}
