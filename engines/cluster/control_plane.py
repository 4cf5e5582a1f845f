"""The control plane and the services of a cluster offer: head and management nodes by cluster size, UFM where
the InfiniBand fabric passes the switches' embedded subnet manager, and the commercial lines a distributor's offer
carries (hardware support per year, installation and rack integration, NVIDIA AI Enterprise). Each service can be
declined in the design's ``services``; prices come from the service's ``ServicePrices`` (built from the settings
``QUOTE_SERVICE_*``, indicative) or stay null (on request), never a guessed figure. Pure: no Django. The lines'
descriptions are words, so the service gives them (``describe(part, years)``, in the result's language).

Result keys (validation): ``control_plane`` and ``services``, each ``{"bom": [{"part", "description",
"quantity", "unit_price_eur", "section", "indicative"}], "findings": [...]}``; ``section`` is the bill's
(``control_plane``, ``services``), ``unit_price_eur`` a string decimal or null.

Counts and their basis:

* cluster of 2 or more nodes below ``SUPERPOD_MIN_NODES`` (32, one DGX SuperPOD scalable unit): the DGX BasePOD
  control plane, "five control plane servers (two for cluster management and three Kubernetes (K8s) control
  plane nodes)" (NVIDIA DGX BasePOD deployment guide, A100, architecture) [V]; BCM "runs on a pair of head nodes
  in a High Availability (HA) configuration" (DGX BasePOD deployment guide, software overview) [V].
* from 32 nodes: the DGX SuperPOD control plane, "Two nodes used for Base Command Manager in HA; Three nodes for
  Kubernetes services designated for administrator access; Three nodes for Kubernetes services designated for
  non-privileged user access (such as Run:ai); Two nodes for Slurm login nodes" (NVIDIA DGX SuperPOD reference
  architecture, management servers) [V]. Its minimum per node: 2 x86 CPUs of 32 cores, 1 TB RAM, 2 x 7.68 TB
  NVMe, 2 x 960 GB SSD, a dual-port BlueField-3 (same page), which the description repeats. The catalogue holds
  no CPU-only server: each node is priced from ``QUOTE_SERVICE_CONTROL_NODE_EUR`` (indicative), or on request
  (null price) when that is unset.
* UFM, counted as the DGX SuperPOD H100 RA counts it: from ``SUPERPOD_MIN_NODES`` nodes a UFM appliance pair for
  each InfiniBand fabric of the design (compute and storage): its Table 7 lists 4 UFM appliances for the 127-node
  design, whose compute and storage fabrics are both InfiniBand, Table 8 two back-to-back UFM cables (one per
  pair) [D: from the two tables]; the DGX SuperPOD B200 RA's management rack shows 2 + 2 UFM beside its compute
  and storage switches [S]. Below, the fabric findings FABRIC_SM_LIMIT / FABRIC_SM_REQUIRED (the embedded SM's
  limit passed, or unmanaged switches) call for one pair. A pair, as the appliance runs in HA on two nodes
  (NVIDIA UFM Enterprise Appliance software user manual, "2 nodes configured") [V]; its orderable part number is
  not sourced, so the line is named and on request.
* What the offer leaves out (``left_out``): what the design's ``facility.supplied`` names, or, when it names
  nothing, what a design of its size usually finds on site. One server (not a rack-scale system) goes into a
  rack the site has, on its PDUs and its management network: no rack, PDUs, cords or management switch unless
  asked. Below ``CONTROL_PLANE_MIN_NODES`` (4) nodes no control plane unless asked: the DGX BasePOD RA's
  five management servers are sized for its 2 to 8 (NDR400) or 2 to 16 (NDR200) DGX systems ("Included in the
  reference architecture are five dual-socket x86 servers for system management", DGX BasePOD RA, Reference
  Architectures) [V], and its smallest tabulated bill is 4 nodes (RA-11127-001 V5 Table 4.2, catalog/seed/FACTS.md)
  [S]; for two or three nodes five servers would outnumber the GPU nodes, so the buyer is asked first.
* Rack-scale systems (GB200/GB300 NVL72): one part is one rack (the group's ``count`` is racks). The control plane
  is sized by compute trays, as the DGX SuperPOD GB200 RA counts them: "Each compute tray is considered an
  individual DGX node" (NVIDIA Mission Control systems administration guide, System Design) [V], so eight racks
  (144 trays) get the DGX SuperPOD control plane of 10 and, on an InfiniBand compute fabric, its UFM pair. The
  per-node support line counts each rack as one node (Supermicro sells the rack as one system). NVIDIA AI
  Enterprise is licensed per GPU, so each rack counts its GPUs: compute trays x GPUs per tray from the catalogue
  (72).
* NVIDIA AI Enterprise that comes with a GPU: the H100 NVL and H200 NVL include five years of it (catalogue fact
  ``ai_enterprise_included_years``, sources NV-H100PCIE-PB, NV-AIE-RA, NVAIE-BUNDLE), so their years up to those
  are not billed; a design of only such cards within them has no AI Enterprise line at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from design.contract import SUPPLIED_ITEMS
from design.jsontext import JsonObject
from design.model import DesignIn
from design.specs import GpuSpec, ServerSpec
from engines.catalog_view import CatalogView
from engines.findings.finding import Finding
from engines.findings.params.cluster import ControlPlaneAdded, ControlPlaneUfm, ServicesDeclined, ServicesOnRequest
from engines.findings.registry import finding

SUPERPOD_MIN_NODES = 32  # one DGX SuperPOD scalable unit (H100 RA: 32 nodes per SU)
CONTROL_PLANE_MIN_NODES = 4  # the DGX BasePOD RA's smallest tabulated bill (V5 Table 4.2: 4 nodes, 5 servers)
RACKS, POWER, OOB = "racks", "power", "oob"
HEAD_NODES = 2  # BCM in HA
UFM_APPLIANCES = 2  # UFM Enterprise appliance HA pair
UFM_CODES = ("FABRIC_SM_LIMIT", "FABRIC_SM_REQUIRED")
UFM_SUPERPOD = "superpod"  # the UFM finding's basis: a pair per InfiniBand fabric from one scalable unit
CONTROL_PLANE, SERVICES = "control_plane", "services"

# The part numbers of the lines (what ``describe`` is asked to say).
HEAD_NODE = "HEAD-NODE-BCM"
K8S_NODE = "MGMT-NODE-K8S"
K8S_ADMIN_NODE = "MGMT-NODE-K8S-ADMIN"
K8S_USER_NODE = "MGMT-NODE-K8S-USER"
SLURM_LOGIN_NODE = "MGMT-NODE-SLURM-LOGIN"
UFM_APPLIANCE = "UFM-ENTERPRISE-APPLIANCE"
SUPPORT = "SVC-SUPPORT-NODE-YEAR"
INSTALLATION = "SVC-INSTALL-RACK"
AI_ENTERPRISE = "NVAIE-GPU-YEAR"
CONTROL_NODES = (HEAD_NODE, K8S_NODE, K8S_ADMIN_NODE, K8S_USER_NODE, SLURM_LOGIN_NODE)

# The settings each price comes from (the service reads them; ServicePrices.of reads their values).
PRICE_SETTINGS = {
    "control_node": "QUOTE_SERVICE_CONTROL_NODE_EUR",
    "ufm_appliance": "QUOTE_SERVICE_UFM_APPLIANCE_EUR",
    "support_per_node_year": "QUOTE_SERVICE_SUPPORT_EUR_PER_NODE_YEAR",
    "install_per_rack": "QUOTE_SERVICE_INSTALL_EUR_PER_RACK",
    "aie_per_gpu_year": "QUOTE_SERVICE_AIE_EUR_PER_GPU_YEAR",
    "recable_per_cable": "QUOTE_SERVICE_RECABLE_EUR_PER_CABLE",
}

# What a line says, in the result's language: (part number, years) -> description; ``years`` is the support or
# subscription term for the per-year lines, 0 for the others.
Describe = Callable[[str, int], str]


def indicative_price(raw: object) -> Decimal | None:
    """An indicative price as the settings give it; unset or not a number: None (on request)."""
    if raw in (None, ""):
        return None
    try:
        value = Decimal(str(raw)).quantize(Decimal("0.01"))
    except InvalidOperation:
        return None
    return value if value >= 0 else None


@dataclass(frozen=True, slots=True)
class ServicePrices:
    """The indicative prices of the control-plane and service lines (None: on request)."""

    control_node: Decimal | None = None
    ufm_appliance: Decimal | None = None
    support_per_node_year: Decimal | None = None
    install_per_rack: Decimal | None = None
    aie_per_gpu_year: Decimal | None = None
    recable_per_cable: Decimal | None = (
        None  # an expansion's labour: one cable moved or added (engines.cluster.expansion)
    )

    @classmethod
    def of(cls, settings: Mapping[str, object]) -> ServicePrices:
        """The prices from the settings' raw values by name (``PRICE_SETTINGS``; missing: on request)."""
        return cls(**{field: indicative_price(settings.get(name)) for field, name in PRICE_SETTINGS.items()})


@dataclass(frozen=True)
class ClusterLine:
    """One control-plane or service line: ``price_eur`` a settings price (indicative), None on request."""

    section: str
    part: str
    description: str
    quantity: int
    price_eur: Decimal | None

    def to_json(self) -> JsonObject:
        return {
            "part": self.part,
            "description": self.description,
            "quantity": self.quantity,
            "unit_price_eur": None if self.price_eur is None else str(self.price_eur),
            "section": self.section,
            "indicative": self.price_eur is not None,  # a settings price is indicative; null is on request
        }


def _line(section: str, part: str, description: str, quantity: int, price: Decimal | None) -> ClusterLine:
    return ClusterLine(section=section, part=part, description=description, quantity=quantity, price_eur=price)


def _nvidia_gpus(design: DesignIn, catalog: CatalogView) -> list[tuple[int, int]]:
    """NVIDIA GPUs of the design as (GPUs, NVIDIA AI Enterprise years included with each): the GPU components of
    each node, and a rack-scale system's own GPUs (its trays come fitted, so its group lists none; none included)."""
    out: list[tuple[int, int]] = []
    for g in design.node_groups:
        server = catalog.get(g.server) if g.server else None
        if isinstance(server, ServerSpec) and server.rack_scale:
            out.append(((server.compute_trays or 0) * (server.gpus_per_tray or 0) * g.count, 0))
            continue
        for comp in g.components:
            spec = catalog.get(comp.part)
            if isinstance(spec, GpuSpec) and spec.manufacturer.upper() == "NVIDIA":
                out.append((comp.quantity * (spec.gpu_count or 1) * g.count, spec.ai_enterprise_included_years or 0))
    return out


@dataclass(frozen=True)
class LeftOut:
    """What the offer leaves out because the site has it (``items``, a subset of design.contract.SUPPLIED_ITEMS)
    and why: ``basis`` "design" (the design's ``facility.supplied``) or "size" (the default for its size)."""

    items: frozenset[str]
    basis: str

    def __contains__(self, item: str) -> bool:
        return item in self.items

    def to_json(self) -> JsonObject:
        """The result's ``left_out``: ``items`` in the contract's order and their ``basis``."""
        return {"items": [i for i in SUPPLIED_ITEMS if i in self.items], "basis": self.basis}


def _one_server(design: DesignIn, catalog: CatalogView) -> bool:
    """One node that is a server, not a rack-scale system (which comes as a rack of its own)."""
    if design.node_count != 1:
        return False
    server = catalog.get(design.node_groups[0].server)
    return not (isinstance(server, ServerSpec) and server.rack_scale)


def left_out(design: DesignIn, catalog: CatalogView) -> LeftOut:
    """What the offer leaves out: the design's ``facility.supplied``, else its size's default (one server: racks,
    power, out-of-band network and control plane; fewer than CONTROL_PLANE_MIN_NODES nodes: the control plane)."""
    given = design.facility.supplied
    if given is not None:
        return LeftOut(frozenset(given), "design")
    items = set()
    if design.node_count < CONTROL_PLANE_MIN_NODES:
        items.add(CONTROL_PLANE)
    if _one_server(design, catalog):
        items |= {RACKS, POWER, OOB}
    return LeftOut(frozenset(items), "size")


def control_nodes(design: DesignIn, catalog: CatalogView) -> int:
    """The nodes the control plane is sized for: each server a node, each rack-scale system its compute trays
    (module docstring)."""
    count = 0
    for g in design.node_groups:
        server = catalog.get(g.server) if g.server else None
        trays = server.compute_trays if isinstance(server, ServerSpec) and server.rack_scale else None
        count += g.count * (trays or 1)
    return count


def _roles(nodes: int) -> tuple[list[tuple[str, int]], str]:
    """The control plane's servers by role (part, count) for a cluster of ``nodes``, and its basis."""
    roles = [(HEAD_NODE, HEAD_NODES)]
    if nodes < SUPERPOD_MIN_NODES:
        roles.append((K8S_NODE, 3))
        return roles, "basepod"
    roles += [(K8S_ADMIN_NODE, 3), (K8S_USER_NODE, 3), (SLURM_LOGIN_NODE, 2)]
    return roles, "superpod"


def ufm_appliances(nodes: int, codes: set[str], ib_fabrics: int) -> tuple[int, str | None]:
    """The UFM appliances and why (module docstring): a pair per InfiniBand fabric from one scalable unit
    (``UFM_SUPERPOD``), else a pair where the fabric findings call for one (the first such code), else none."""
    if nodes >= SUPERPOD_MIN_NODES and ib_fabrics:
        return UFM_APPLIANCES * ib_fabrics, UFM_SUPERPOD
    called = sorted(codes & set(UFM_CODES))
    return (UFM_APPLIANCES, called[0]) if called else (0, None)


def control_plane_devices(
    design: DesignIn, catalog: CatalogView, codes: set[str], leave: LeftOut, ib_fabrics: int
) -> list[tuple[str, int]]:
    """The servers the control plane adds, as (line part, count): the head and management nodes unless the site
    has its own, the UFM appliances (``UFM_APPLIANCE``, counted by ``ufm_appliances``). The rack plan racks each in
    the management racks under its line's part; each has a BMC on the out-of-band network (the DGX SuperPOD H100
    RA's cable list gives the management and UFM nodes their out-of-band ports)."""
    if design.node_count < 2:
        return []
    nodes = control_nodes(design, catalog)
    count, _because = ufm_appliances(nodes, codes, ib_fabrics)
    ufm = [(UFM_APPLIANCE, count)] if count else []
    if CONTROL_PLANE in leave:
        return ufm
    roles, _basis = _roles(nodes)
    return roles + ufm


def control_plane_step(design: DesignIn, catalog: CatalogView, codes: set[str], leave: LeftOut, ib_fabrics: int) -> int:
    """The servers the design's control plane gains by the time the cluster is one scalable unit (the DGX SuperPOD
    control plane and its UFM pairs, from ``SUPERPOD_MIN_NODES``) beyond those it has now (``control_plane_devices``);
    0 from one unit on. The rack plan keeps their places free in the management racks, so growing past the step
    moves nothing racked below them. A control plane the design's ``facility.supplied`` leaves out stays out; one
    left out for the cluster's size (fewer than CONTROL_PLANE_MIN_NODES nodes) comes with growth."""
    if design.node_count < 2 or control_nodes(design, catalog) >= SUPERPOD_MIN_NODES:
        return 0
    now = sum(n for _part, n in control_plane_devices(design, catalog, codes, leave, ib_fabrics))
    then, _because = ufm_appliances(SUPERPOD_MIN_NODES, codes, ib_fabrics)
    if CONTROL_PLANE not in leave or leave.basis != "design":
        roles, _basis = _roles(SUPERPOD_MIN_NODES)
        then += sum(n for _part, n in roles)
    return max(0, then - now)


def _control_plane(
    design: DesignIn,
    catalog: CatalogView,
    basis: tuple[set[str], int],
    leave: LeftOut,
    prices: ServicePrices,
    describe: Describe,
) -> tuple[list[ClusterLine], list[Finding]]:
    """``basis``: the findings' codes so far and the design's InfiniBand fabrics (compute and storage)."""
    if design.node_count < 2:
        return [], []
    nodes = control_nodes(design, catalog)
    lines: list[ClusterLine] = []
    findings: list[Finding] = []
    if CONTROL_PLANE not in leave:
        roles, kind = _roles(nodes)
        price = prices.control_node
        lines = [_line(CONTROL_PLANE, part, describe(part, 0), n, price) for part, n in roles]
        servers = sum(n for _p, n in roles)
        added = ControlPlaneAdded(servers=servers, nodes=nodes, basis=kind, priced=price is not None)
        findings.append(finding("node_groups", added))
    ufm, because = ufm_appliances(nodes, *basis)
    if ufm and because:
        lines.append(_line(CONTROL_PLANE, UFM_APPLIANCE, describe(UFM_APPLIANCE, 0), ufm, prices.ufm_appliance))
        priced = prices.ufm_appliance is not None
        findings.append(finding("fabric", ControlPlaneUfm(appliances=ufm, because=because, priced=priced)))
    return lines, findings


def _services(
    design: DesignIn, catalog: CatalogView, racks: int, prices: ServicePrices, describe: Describe
) -> tuple[list[ClusterLine], list[Finding]]:
    s = design.services
    nodes = design.node_count
    lines: list[ClusterLine] = []
    declined: list[str] = []
    if nodes == 0:
        return [], []
    if s.support_years:
        lines.append(
            _line(
                SERVICES,
                SUPPORT,
                describe(SUPPORT, s.support_years),
                nodes * s.support_years,
                prices.support_per_node_year,
            )
        )
    else:
        declined.append("support")
    if s.installation and racks:
        lines.append(_line(SERVICES, INSTALLATION, describe(INSTALLATION, 0), racks, prices.install_per_rack))
    elif not s.installation:
        declined.append("installation")
    counted = _nvidia_gpus(design, catalog)
    gpus = sum(n for n, _included in counted)
    years = max(1, s.support_years)
    # GPU-years to bill: a card that comes with NVIDIA AI Enterprise (H100 NVL, H200 NVL: five years) pays only the
    # years of the offer beyond those (catalogue fact ai_enterprise_included_years, with its source)
    paid = sum(n * max(0, years - included) for n, included in counted)
    if s.ai_enterprise and paid:
        lines.append(_line(SERVICES, AI_ENTERPRISE, describe(AI_ENTERPRISE, years), paid, prices.aie_per_gpu_year))
    elif not s.ai_enterprise and gpus:
        declined.append("ai_enterprise")
    findings = [finding("services", ServicesDeclined(declined=declined))] if declined else []
    return lines, findings


def cluster_lines(
    design: DesignIn,
    catalog: CatalogView,
    *,
    racks: int,
    codes: set[str],
    leave: LeftOut,
    prices: ServicePrices,
    describe: Describe,
    ib_fabrics: int = 0,
) -> tuple[list[ClusterLine], list[ClusterLine], list[Finding]]:
    """(control-plane lines, service lines, their findings) of the design; ``describe`` says each line;
    ``ib_fabrics``: the design's InfiniBand fabrics (compute and storage), which count its UFM appliances."""
    cp, cp_findings = _control_plane(design, catalog, (codes, ib_fabrics), leave, prices, describe)
    sv, sv_findings = _services(design, catalog, racks, prices, describe)
    findings = cp_findings + sv_findings
    unpriced = sum(1 for line in cp + sv if line.price_eur is None)
    if unpriced:
        findings.append(finding("services", ServicesOnRequest(lines=unpriced)))
    return cp, sv, findings
