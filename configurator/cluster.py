"""The control plane and the services of a cluster offer: head and management nodes by cluster size, UFM where
the InfiniBand fabric passes the switches' embedded subnet manager, and the commercial lines a distributor's offer
carries (hardware support per year, installation and rack integration, NVIDIA AI Enterprise). Each service can be
declined in the design's ``services``; prices come from settings (``QUOTE_SERVICE_*``, indicative) or stay null
(on request), never a guessed figure.

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
* UFM: the fabric findings FABRIC_SM_LIMIT / FABRIC_SM_REQUIRED (the embedded SM's limit passed, or unmanaged
  switches): a UFM Enterprise appliance pair, as the appliance runs in HA on two nodes (NVIDIA UFM Enterprise
  Appliance software user manual, "2 nodes configured") [V]; its orderable part number is not sourced, so the
  line is named and on request.
* What the offer leaves out (``left_out``): what the design's ``facility.supplied`` names, or, when it names
  nothing, what a design of its size usually finds on site. One server (not a rack-scale system) goes into a
  rack the site has, on its PDUs and its management network: no rack, PDUs, cords or management switch unless
  asked. Below ``CONTROL_PLANE_MIN_NODES`` (4) nodes no control plane unless asked: the DGX BasePOD RA's
  five management servers are sized for its 2 to 8 (NDR400) or 2 to 16 (NDR200) DGX systems ("Included in the
  reference architecture are five dual-socket x86 servers for system management", DGX BasePOD RA, Reference
  Architectures) [V], and its smallest tabulated bill is 4 nodes (RA-11127-001 V5 Table 4.2, catalog/seed/FACTS.md)
  [S]; for two or three nodes five servers would outnumber the GPU nodes, so the buyer is asked first.
* Rack-scale systems (GB200/GB300 NVL72): one part is one rack (the group's ``count`` is racks). For the
  control-plane size and the per-node support line each rack counts as one node, not as its 18 compute trays: no
  source read (the DGX SuperPOD GB200 RA, the BCM manuals) sizes the head or management nodes, or a support
  contract, by compute tray, and Supermicro sells the rack as one system. NVIDIA AI Enterprise is licensed per GPU,
  so each rack counts its GPUs: compute trays x GPUs per tray from the catalogue (72).
* NVIDIA AI Enterprise that comes with a GPU: the H100 NVL and H200 NVL include five years of it (catalogue fact
  ``ai_enterprise_included_years``, sources NV-H100PCIE-PB, NV-AIE-RA, NVAIE-BUNDLE), so their years up to those
  are not billed; a design of only such cards within them has no AI Enterprise line at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from design.contract import SUPPLIED_ITEMS
from design.model import DesignIn
from design.specs import CatalogView, GpuSpec, ServerSpec
from engines.findings.finding import Finding
from engines.findings.params.cluster import ControlPlaneAdded, ControlPlaneUfm, ServicesDeclined, ServicesOnRequest
from engines.findings.registry import finding

SUPERPOD_MIN_NODES = 32  # one DGX SuperPOD scalable unit (H100 RA: 32 nodes per SU)
CONTROL_PLANE_MIN_NODES = 4  # the DGX BasePOD RA's smallest tabulated bill (V5 Table 4.2: 4 nodes, 5 servers)
RACKS, POWER, OOB = "racks", "power", "oob"
HEAD_NODES = 2  # BCM in HA
UFM_APPLIANCES = 2  # UFM Enterprise appliance HA pair
UFM_CODES = ("FABRIC_SM_LIMIT", "FABRIC_SM_REQUIRED")
CONTROL_PLANE, SERVICES = "control_plane", "services"


def _setting(name: str) -> Decimal | None:
    """An indicative price from settings; unset or not a number: None (on request)."""
    raw = getattr(settings, name, None)
    if raw in (None, ""):
        return None
    try:
        value = Decimal(str(raw)).quantize(Decimal("0.01"))
    except InvalidOperation:
        return None
    return value if value >= 0 else None


@dataclass(frozen=True)
class ClusterLine:
    """One control-plane or service line: ``price_eur`` a settings price (indicative), None on request."""

    section: str
    part: str
    description: str
    quantity: int
    price_eur: Decimal | None

    def to_json(self) -> dict[str, Any]:
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

    def to_json(self) -> dict[str, Any]:
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


def _roles(nodes: int) -> tuple[list[tuple[str, str, int]], str]:
    """The control plane's servers by role (part, description, count) for a cluster of ``nodes``, and its basis."""
    roles = [("HEAD-NODE-BCM", _("Head node, Base Command Manager in high availability"), HEAD_NODES)]
    if nodes < SUPERPOD_MIN_NODES:
        roles.append(("MGMT-NODE-K8S", _("Kubernetes control plane node"), 3))
        return roles, "basepod"
    roles += [
        ("MGMT-NODE-K8S-ADMIN", _("Kubernetes node for administrator services"), 3),
        ("MGMT-NODE-K8S-USER", _("Kubernetes node for user services (Run:ai)"), 3),
        ("MGMT-NODE-SLURM-LOGIN", _("Slurm login node"), 2),
    ]
    return roles, "superpod"


def control_plane_servers(design: DesignIn, codes: set[str], leave: LeftOut) -> int:
    """The servers the control plane adds (head and management nodes unless the site has its own, and the UFM
    appliances where the fabric's findings call for them): each has a BMC on the out-of-band network (the DGX
    SuperPOD H100 RA's cable list gives the management and UFM nodes their out-of-band ports)."""
    nodes = design.node_count
    if nodes < 2:
        return 0
    ufm = UFM_APPLIANCES if codes & set(UFM_CODES) else 0
    if CONTROL_PLANE in leave:
        return ufm
    roles, _basis = _roles(nodes)
    return sum(n for _p, _w, n in roles) + ufm


def _control_plane(design: DesignIn, codes: set[str], leave: LeftOut) -> tuple[list[ClusterLine], list[Finding]]:
    nodes = design.node_count
    if nodes < 2:
        return [], []
    lines: list[ClusterLine] = []
    findings: list[Finding] = []
    if CONTROL_PLANE not in leave:
        spec = _("2 x86 CPUs of 32 cores or more, 1 TB RAM, NVMe and RAID-1 boot SSDs, BlueField-3 (NVIDIA RA minimum)")
        roles, basis = _roles(nodes)
        price = _setting("QUOTE_SERVICE_CONTROL_NODE_EUR")
        lines = [_line(CONTROL_PLANE, part, f"{what}: {spec}", n, price) for part, what, n in roles]
        servers = sum(n for _p, _w, n in roles)
        findings.append(finding("node_groups", ControlPlaneAdded(servers=servers, nodes=nodes, basis=basis)))
    ufm = sorted(codes & set(UFM_CODES))
    if ufm:
        lines.append(
            _line(
                CONTROL_PLANE,
                "UFM-ENTERPRISE-APPLIANCE",
                _("NVIDIA UFM Enterprise appliance with its licence (high-availability pair)"),
                UFM_APPLIANCES,
                _setting("QUOTE_SERVICE_UFM_APPLIANCE_EUR"),
            )
        )
        findings.append(finding("fabric", ControlPlaneUfm(appliances=UFM_APPLIANCES, because=ufm[0])))
    return lines, findings


def _services(design: DesignIn, catalog: CatalogView, racks: int) -> tuple[list[ClusterLine], list[Finding]]:
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
                "SVC-SUPPORT-NODE-YEAR",
                _("Hardware warranty and support, per node and year (%(years)s years)") % {"years": s.support_years},
                nodes * s.support_years,
                _setting("QUOTE_SERVICE_SUPPORT_EUR_PER_NODE_YEAR"),
            )
        )
    else:
        declined.append("support")
    if s.installation and racks:
        lines.append(
            _line(
                SERVICES,
                "SVC-INSTALL-RACK",
                _("Installation and rack integration, per rack"),
                racks,
                _setting("QUOTE_SERVICE_INSTALL_EUR_PER_RACK"),
            )
        )
    elif not s.installation:
        declined.append("installation")
    counted = _nvidia_gpus(design, catalog)
    gpus = sum(n for n, _included in counted)
    years = max(1, s.support_years)
    # GPU-years to bill: a card that comes with NVIDIA AI Enterprise (H100 NVL, H200 NVL: five years) pays only the
    # years of the offer beyond those (catalogue fact ai_enterprise_included_years, with its source)
    paid = sum(n * max(0, years - included) for n, included in counted)
    if s.ai_enterprise and paid:
        lines.append(
            _line(
                SERVICES,
                "NVAIE-GPU-YEAR",
                _("NVIDIA AI Enterprise subscription, per GPU and year (%(years)s years)") % {"years": years},
                paid,
                _setting("QUOTE_SERVICE_AIE_EUR_PER_GPU_YEAR"),
            )
        )
    elif not s.ai_enterprise and gpus:
        declined.append("ai_enterprise")
    findings = [finding("services", ServicesDeclined(declined=declined))] if declined else []
    return lines, findings


def cluster_lines(
    design: DesignIn, catalog: CatalogView, *, racks: int, codes: set[str], language: str, leave: LeftOut
) -> tuple[list[ClusterLine], list[ClusterLine], list[Finding]]:
    """(control-plane lines, service lines, their findings) of the design; descriptions in ``language``."""
    with translation.override(language):
        cp, cp_findings = _control_plane(design, codes, leave)
        sv, sv_findings = _services(design, catalog, racks)
    findings = cp_findings + sv_findings
    unpriced = sum(1 for line in cp + sv if line.price_eur is None)
    if unpriced:
        findings.append(finding("services", ServicesOnRequest(lines=unpriced)))
    return cp, sv, findings
