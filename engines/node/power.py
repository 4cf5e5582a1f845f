"""Power budget and cooling for one node group.

Estimated peak draw per node (hardware.md §4 budget rule; ServeTheHome's rule of thumb for air-cooled GPU
servers [STH-ASR]):

    subtotal = sum of GPU TDP
             + CPU TDP                      (the node's CPUs, named or the platform's defaults: CpuSpec.tdp_w
                                             each; a node without CPUs: sockets x the platform's highest TDP,
                                             ServerSpec.cpu_tdp_w; ASSUMED 350 W per socket where neither is
                                             sourced)
             + 300 W memory and drives      (top of the 250-300 W range)
             + adapter watts                (AdapterSpec.watts; ASSUMED 25 W per adapter or integrated NIC when
                                             unknown, a ConnectX-7 400G OSFP is 24.9 W)
             + 9 W per adapter port optic   (ASSUMED: a 400G OSFP optic is 9 W max [NV-OSFP]; copper is ~0)
    parts    = subtotal x 1.15              (fan margin, the middle of the 10-20% range)

Calibration: the sum of parts leaves out the HGX baseboard and its NVSwitch chips, fans at full speed and the
losses of the supplies. NVIDIA publishes the maximum input power of its own 8-GPU systems (DGX H100/H200 10.2 kW,
DGX B200 about 14.3 kW, DGX B300 about 14 kW, DGX A100 6.5 kW; GpuSpec.ref_system_max_w, sources in
catalog/seed/README.md "Power calibration basis"). A maximum calibrates only a node of the same form and cooling as
the system it was published for: the same 8-GPU baseboard (the maximum is stored on the board) and the same cooling
(GpuSpec.ref_system_cooling, from the seed's reference_systems: DGX H100/H200 and DGX B200 are air-cooled, and an
air-cooled system's maximum includes its fans at full speed). For such a node the peak is the larger of the sum of
parts and that published maximum (basis "reference_system"). Where the cooling of either is not sourced (DGX B300,
DGX A100), a missing fact never chooses the optimistic figure: the published maximum of that closest NVIDIA system
still bounds the peak from below, and the basis says the comparison is unconfirmed (``reference_unconfirmed``). Only
a known difference (a liquid-cooled chassis against an air-cooled system) leaves the sum of parts (basis "parts"),
and the basis names the maximum it did not apply and why.
The sum of parts was 7.9 kW for an HGX H100 node and 10.7 kW for HGX B200, about 77% and 75% of the maxima.
The basis is stated in an info finding (POWER_ESTIMATE_BASIS) and in ``totals.power_basis``, including where
the CPU figure comes from (``cpu_basis``: "cpus", "platform_limit" or "assumed").

Compared with the capacity of the N supplies of an N+M configuration (ServerSpec.psu_capacity_w): above it is an
error, except for the vendor's own shipping configuration (the HGX baseboard the server's sources name, on the
server's catalogued supplies), which is never refused on an estimate: there it is a warning to confirm with the vendor
(POWER_ESTIMATE_ABOVE_SUPPLIES). Above 80% of it a warning (for a sum-of-parts estimate; a published maximum is the
worst case already), unknown capacity a warning. When the PSU count and wattage are known but the redundancy is not,
both N+N (half the supplies) and N+0 (all of them) are checked and the finding says which holds. A group whose GPU
the server refuses gets no capacity finding (the refusal is the one error that matters). Every assumption is listed
in the totals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

from design.jsontext import JsonObject
from design.specs import GpuSpec, MediaSpec, ServerSpec, SwitchSpec
from design.vocabulary import Cooling, MediaKind
from engines.findings.finding import Finding
from engines.findings.params.power import (
    CoolingLiquid,
    EstimateFields,
    PowerAssumption,
    PowerCapacityUnknown,
    PowerEstimateAboveSupplies,
    PowerEstimateBasis,
    PowerEstimateIncomplete,
    PowerNearCapacity,
    PowerOverCapacity,
    PowerRedundancyNPlus0,
    PowerRedundancyNPlusN,
    ReferenceSkipped,
    ReferenceUnconfirmed,
)
from engines.findings.params.rack_systems import RackSystemCooling, RackSystemPower, RackSystemPowerUnknown
from engines.findings.registry import finding

from .context import GroupContext
from .totals import GroupTotals, PowerBasis

ASSUMED_CPU_TDP_W = 350  # Xeon 6700P / 5th Gen Xeon top bins; hardware.md §1a "up to 350 W"
ASSUMED_SOCKETS = 2  # every GPU server in hardware.md §1a is dual-socket but GH200
MEMORY_AND_DRIVES_W = 300
ASSUMED_ADAPTER_W = 25.0
OPTIC_W_PER_PORT = 9.0
FAN_MARGIN = 0.15
WARN_FRACTION = 0.80


@dataclass
class PowerEstimate:
    gpu_w: float = 0.0
    cpu_w: float = 0.0
    memory_w: float = MEMORY_AND_DRIVES_W
    adapters_w: float = 0.0
    optics_w: float = 0.0
    assumptions: list[PowerAssumption] = field(default_factory=list)  # what was not sourced: {"kind": ..., values}
    unknown_gpu_tdp: list[str] = field(default_factory=list)
    reference_system: str = ""  # NVIDIA's own system on the node's baseboard (DGX H100)
    reference_w: float | None = None  # its published maximum input power
    cpu_basis: str = "assumed"  # cpus (the node's CPUs' TDP), platform_limit (the server's highest), assumed
    cpu_parts: list[str] = field(default_factory=list)  # the CPUs whose TDP was used
    # a published maximum not applied, and why: {"system", "reference_w", "reason", "server_cooling",
    # "reference_cooling"}; reason "cooling" (they differ)
    reference_skipped: ReferenceSkipped | None = None
    # a published maximum applied although the cooling of the node or of the system is not sourced (the closest
    # NVIDIA system's figure, never the lower sum of parts): {"system", "reference_w", "server_cooling",
    # "reference_cooling"}
    reference_unconfirmed: ReferenceUnconfirmed | None = None

    @property
    def subtotal_w(self) -> float:
        return self.gpu_w + self.cpu_w + self.memory_w + self.adapters_w + self.optics_w

    @property
    def fans_w(self) -> float:
        return self.subtotal_w * FAN_MARGIN

    @property
    def parts_w(self) -> float:
        """The sum of parts with the fan margin."""
        return self.subtotal_w + self.fans_w

    @property
    def basis(self) -> str:
        """ "reference_system" when the published system maximum sets the peak, else "parts"."""
        return "reference_system" if self.reference_w is not None and self.reference_w > self.parts_w else "parts"

    @property
    def peak_w(self) -> float:
        return max(self.parts_w, self.reference_w or 0.0)

    def basis_params(self) -> PowerBasis:
        """The basis of the estimate (the totals' power basis of each group)."""
        return {
            "basis": self.basis,
            "parts_w": round(self.parts_w),
            "reference_system": self.reference_system or None,
            "reference_w": self.reference_w,
            "cpu_basis": self.cpu_basis,
            "cpu_parts": list(self.cpu_parts),
            "cpu_w": self.cpu_w,
            "reference_skipped": self.reference_skipped,
            "reference_unconfirmed": self.reference_unconfirmed if self.basis == "reference_system" else None,
        }

    def fields(self, server: str) -> EstimateFields:
        """The figures every power-estimate finding of ``server`` states."""
        return {
            "server": server,
            "peak_w": round(self.peak_w),
            "breakdown": {
                "gpu_w": self.gpu_w,
                "cpu_w": self.cpu_w,
                "memory_w": self.memory_w,
                "adapters_w": self.adapters_w + self.optics_w,
                "fan_pct": round(FAN_MARGIN * 100),
            },
            "assumptions": list(self.assumptions),
            "basis": self.basis,
            "parts_w": round(self.parts_w),
            "reference_system": self.reference_system or None,
            "reference_w": self.reference_w,
            "cpu_basis": self.cpu_basis,
            "cpu_parts": list(self.cpu_parts),
            "cpu_w": self.cpu_w,
            "reference_skipped": self.reference_skipped,
            "reference_unconfirmed": self.reference_unconfirmed if self.basis == "reference_system" else None,
        }


def estimate(ctx: GroupContext) -> PowerEstimate:
    """Estimated peak draw of one node of the group (formula in the module docstring)."""
    server = ctx.known_server
    est = PowerEstimate()
    if server.rack_scale:
        return _rack_estimate(server, est)
    for p in ctx.gpus:
        if p.spec.tdp_w is None:
            est.unknown_gpu_tdp.append(p.spec.part_number)
        else:
            est.gpu_w += p.quantity * p.spec.gpu_count * p.spec.tdp_w
        if p.spec.is_board and p.spec.ref_system_max_w:
            _reference(est, server, p.spec, float(p.spec.ref_system_max_w) * p.quantity)
    _cpu_power(ctx, est)
    ports = 0
    for a in ctx.adapters:
        if a.spec.watts is None:
            est.adapters_w += a.quantity * ASSUMED_ADAPTER_W
            est.assumptions.append({"kind": "adapter", "part": a.spec.part_number, "watts": ASSUMED_ADAPTER_W})
        else:
            est.adapters_w += a.quantity * a.spec.watts
        ports += a.ports_cabled  # optics only on the ports the design cables
    if server.integrated_nics:
        est.adapters_w += server.integrated_nics * ASSUMED_ADAPTER_W
        ports += server.integrated_nics
        est.assumptions.append({"kind": "integrated_nics", "count": server.integrated_nics, "watts": ASSUMED_ADAPTER_W})
    if ports:
        est.optics_w = ports * OPTIC_W_PER_PORT
        est.assumptions.append({"kind": "optics", "watts": OPTIC_W_PER_PORT})
    return est


def _rack_estimate(server: ServerSpec, est: PowerEstimate) -> PowerEstimate:
    """A rack-scale system's peak is the whole rack's published power (trays, NVLink switch trays, power-shelf
    losses), never a sum of parts: ``rack_power_w`` (GB300 NVL72 "Full rack requiring up to 142 kW", NVIDIA
    Enterprise RA). Not sourced: the rack's GPU set is reported as of unknown power, so the totals stay unknown."""
    est.memory_w = 0.0
    if server.rack_power_w is None:
        est.unknown_gpu_tdp.append(server.part_number)
        return est
    est.reference_w, est.reference_system = float(server.rack_power_w), server.part_number
    return est


def _reference(est: PowerEstimate, server: ServerSpec, board: GpuSpec, ref_w: float) -> None:
    """Rule: a published system maximum calibrates only a node of the same form (the board it was published for)
    and the same cooling; an air-cooled 10U DGX maximum, fans included, says nothing of a liquid-cooled 4U chassis.
    Where the cooling of either is not sourced, the missing fact must not choose the optimistic figure: the maximum
    of the closest NVIDIA system (the one on the same board) is applied, and the basis says it is unconfirmed.
    Sources: the seed's reference_systems (MLC-NV-DGXH100, MLC-NV-H200X8 'Air-cooled'; DGXB200-AIR); DGX B300 about
    14 kW (NV-DS), DGX A100 6.5 kW (DGX-A100-PWR)."""
    ours, theirs = server.cooling, board.ref_system_cooling
    server_cooling, reference_cooling = str(ours) if ours else None, str(theirs) if theirs else None
    if ours is not None and theirs is not None and ours != theirs:
        est.reference_skipped = {
            "system": board.ref_system,
            "reference_w": ref_w,
            "reason": "cooling",
            "server_cooling": server_cooling,
            "reference_cooling": reference_cooling,
        }
        return
    if ours is None or theirs is None:
        est.reference_unconfirmed = {
            "system": board.ref_system,
            "reference_w": ref_w,
            "server_cooling": server_cooling,
            "reference_cooling": reference_cooling,
        }
    if est.reference_w is None or ref_w > est.reference_w:
        est.reference_w, est.reference_system = ref_w, board.ref_system


def _cpu_power(ctx: GroupContext, est: PowerEstimate) -> None:
    """The CPUs' share of the estimate: the TDP of each CPU the node holds (named in the design or added as the
    platform's default set); a CPU of unknown TDP counts the assumed 350 W and says so. A node without CPUs counts
    every socket at the platform's highest TDP, or at the assumed 350 W where that is not sourced either."""
    server = ctx.known_server
    if ctx.cpus:
        unknown = False
        for p in ctx.cpus:
            tdp = p.spec.tdp_w
            if tdp is None:
                unknown = True
                tdp = ASSUMED_CPU_TDP_W
                est.assumptions.append({"kind": "cpu_tdp", "watts": ASSUMED_CPU_TDP_W, "part": p.spec.part_number})
            est.cpu_w += p.quantity * tdp
            est.cpu_parts.append(p.spec.part_number)
        est.cpu_basis = "assumed" if unknown else "cpus"
        return
    sockets = server.cpu_sockets if server.cpu_sockets is not None else ASSUMED_SOCKETS
    if server.cpu_sockets is None:
        est.assumptions.append({"kind": "sockets", "sockets": ASSUMED_SOCKETS})
    if server.cpu_tdp_w is None:
        est.cpu_w = sockets * ASSUMED_CPU_TDP_W
        est.assumptions.append({"kind": "cpu_tdp", "watts": ASSUMED_CPU_TDP_W})
        est.cpu_basis = "assumed"
    else:
        est.cpu_w = sockets * server.cpu_tdp_w
        est.cpu_basis = "platform_limit"


def power_findings(ctx: GroupContext, est: PowerEstimate, *, refused: bool = False) -> list[Finding]:
    """Rule: estimated peak draw must stay within the capacity of the N supplies of an N+M configuration (the M
    redundant supplies do not count); above 80% of it there is too little headroom. With the redundancy not
    sourced, N+N and N+0 are both checked. ``refused``: the server refuses the group's GPU, so no capacity finding
    (one refusal does not cascade). Source: hardware.md §4 (budget rule, a derived rule; SYS-821GE-TNHR 6x 3 kW
    4+2 = 12 kW), [STH-ASR]; the calibration in the module docstring."""
    server = ctx.known_server
    path = f"{ctx.path}.server"
    if server.rack_scale:
        return _rack_power_findings(ctx, path)
    out = []
    if est.unknown_gpu_tdp:
        out.append(finding(path, PowerEstimateIncomplete(gpus=list(est.unknown_gpu_tdp))))
    fields = est.fields(server.part_number)
    if ctx.gpus:
        out.append(finding(path, PowerEstimateBasis(**fields)))
    if refused:
        return out
    shipping = shipping_configuration(ctx)
    if server.psu_redundant is None and server.psu_count and server.psu_watts:
        return out + _redundancy_unknown(server, est, path, fields, shipping)
    cap = server.psu_capacity_w
    if cap is None or cap <= 0:
        out.append(finding(path, PowerCapacityUnknown(**fields, shipping=shipping)))
        return out
    # the capacity is known, so are the supplies' count and redundancy
    count, redundant = cast(int, server.psu_count), cast(int, server.psu_redundant)
    out += _capacity(server, est, path, fields, shipping, count, redundant)
    return out


def _rack_power_findings(ctx: GroupContext, path: str) -> list[Finding]:
    """Rule: a rack-scale system's power is its published rack figure; its power shelves are part of it, so there
    is no supply-capacity check of an estimate. Not sourced: a warning, the plan's power stays unknown."""
    server = ctx.known_server
    if server.rack_power_w is None:
        return [finding(path, RackSystemPowerUnknown(server=server.part_number, racks=ctx.group.count))]
    return [
        finding(
            path,
            RackSystemPower(
                server=server.part_number,
                racks=ctx.group.count,
                rack_power_w=server.rack_power_w,
                power_shelves=server.power_shelves,
                power_shelf_w=server.power_shelf_w,
                total_w=server.rack_power_w * ctx.group.count,
            ),
        )
    ]


def shipping_configuration(ctx: GroupContext) -> bool:
    """The vendor's own shipping configuration: a catalogued HGX server with the GPU baseboard its sources name
    (``accepts``), on the server's catalogued supplies (the design cannot change those). Such a node is never
    refused on an estimate; the vendor sized its supplies for that board. PCIe card servers are not: how many cards
    of which model a vendor ships on which supplies is not what a partial GPU list says."""
    return bool(ctx.gpus) and all(p.spec.is_board and p.spec.part_number in ctx.known_server.accepts for p in ctx.gpus)


def _capacity(
    server: ServerSpec,
    est: PowerEstimate,
    path: str,
    fields: EstimateFields,
    shipping: bool,
    count: int,
    redundant: int,
) -> list[Finding]:
    cap = (count - redundant) * cast(int, server.psu_watts)  # known wherever a capacity is checked
    fraction = est.peak_w / cap
    if fraction > 1:
        # An estimate above the supplies of the vendor's own configuration is a question for the vendor, not a refusal.
        kind = PowerEstimateAboveSupplies if shipping else PowerOverCapacity
        over = kind(
            **fields,
            shipping=shipping,
            capacity_w=cap,
            fraction=round(fraction, 3),
            load=fraction,
            psu_count=count,
            psu_redundant=redundant,
            vendor=server.manufacturer or None,
        )
        return [finding(path, over)]
    # The 80% headroom covers the uncertainty of a sum-of-parts estimate; a published system maximum is already
    # the worst case (every part at its maximum, fans at full speed), so only the supplies' capacity applies.
    if fraction > WARN_FRACTION and est.basis == "parts":
        near = PowerNearCapacity(
            **fields,
            shipping=shipping,
            capacity_w=cap,
            fraction=round(fraction, 3),
            load=fraction,
            psu_count=count,
            psu_redundant=redundant,
        )
        return [finding(path, near)]
    return []


def _redundancy_unknown(
    server: ServerSpec, est: PowerEstimate, path: str, fields: EstimateFields, shipping: bool
) -> list[Finding]:
    """PSU count and wattage known, redundancy not: say whether the peak holds with N+N (half the supplies carry
    the load) or only with N+0 (all of them); above all of them it is over capacity."""
    count, watts = cast(int, server.psu_count), cast(int, server.psu_watts)
    half = count // 2
    kind: type[PowerRedundancyNPlusN | PowerRedundancyNPlus0]
    if half and est.peak_w <= half * watts:
        kind = PowerRedundancyNPlusN
    elif est.peak_w <= count * watts:
        kind = PowerRedundancyNPlus0
    else:
        return _capacity(server, est, path, fields, shipping, count, 0)
    said = kind(
        **fields,
        shipping=shipping,
        psu_count=count,
        psu_watts=watts,
        n_plus_n_w=half * watts,
        n_plus_0_w=count * watts,
        load_n_plus_n=est.peak_w / (half * watts) if half else None,
        load_n_plus_0=est.peak_w / (count * watts),
    )
    return [finding(path, said)]


@dataclass(frozen=True)
class NetworkPower:
    """The power of a fabric's bill: its switches', its transceivers' and active cables' (W), and the part numbers
    without a sourced figure (``unknown``, never counted as zero)."""

    switches_w: float
    media_w: float
    unknown: list[str]


def network_power(bom: list[tuple[str, int]], parts: Mapping[str, object]) -> NetworkPower:
    """Switch and transceiver (and active cable) power of a fabric bill of materials, from the catalogue's
    per-part ``watts`` (``NetworkPower``).
    Passive fibres and twisted-pair patch cords draw nothing and are skipped; an unknown figure is listed, never
    counted as zero.
    ``parts`` maps part numbers to specs (SwitchSpec, MediaSpec)."""
    switches = media = 0.0
    unknown: list[str] = []
    for pn, qty in bom:
        spec = parts.get(pn)
        if isinstance(spec, SwitchSpec):
            if spec.watts is None:
                unknown.append(pn)
            else:
                switches += qty * spec.watts
        elif isinstance(spec, MediaSpec):
            if spec.kind in (MediaKind.FIBRE, MediaKind.PATCH):
                continue
            if spec.watts is None:
                unknown.append(pn)
            else:
                media += qty * spec.watts
    return NetworkPower(switches_w=switches, media_w=media, unknown=sorted(set(unknown)))


@dataclass(frozen=True)
class ClusterPower:
    """The cluster's one power total: the nodes' estimated peak, the fabric's switches and its transceivers and
    active cables, less the node-end optics the node estimates assumed where the fabric plan has its own.

    ``unknown`` is the one list of what the sum leaves out: part numbers (GPU, switch, transceiver) without a
    sourced power figure and node groups without an estimate. With anything unknown ``total_w`` is a lower bound.
    The validation result states it twice under the names other systems read: ``cluster_power_w`` /
    ``cluster_power_at_least`` and the rack plan's ``facility_power_known_w`` / ``facility_power_w`` (null when
    anything is unknown), all from this one object."""

    nodes_w: float
    switches_w: float
    media_w: float
    replaced_w: float
    unknown: tuple[str, ...]

    @property
    def total_w(self) -> int:
        return round(self.nodes_w - self.replaced_w + self.switches_w + self.media_w)

    @property
    def complete(self) -> bool:
        return not self.unknown

    def to_dict(self) -> JsonObject:
        net_unknown = [u for u in self.unknown if not u.startswith("node_groups[")]
        return {
            "switch_power_w": round(self.switches_w),
            "transceiver_power_w": round(self.media_w),
            "network_power_unknown": net_unknown,
            "node_optics_replaced_w": round(self.replaced_w),
            "cluster_power_w": self.total_w,
            "cluster_power_at_least": not self.complete,
            "power_unknown": list(self.unknown),
        }


def cluster_power(
    groups: Sequence[GroupTotals], bom: list[tuple[str, int]] | None, parts: Mapping[str, object]
) -> ClusterPower:
    """The one cluster total (ClusterPower). ``groups``: the node engine's per-group totals (count,
    ``peak_power_w_per_node``, ``optics_w_per_node``, ``power_unknown_parts``); ``bom``: the bill of materials of
    the design's fabric (None without one); ``parts``: part number to spec. The node estimates assume 9 W per
    adapter port for the node-end optic; with a fabric plan the plan's own transceivers replace that assumption, so
    it is taken out once here (with its fan margin, as it was added)."""
    net = network_power(list(bom or ()), parts)
    nodes = replaced = 0.0
    unknown: list[str] = list(net.unknown)
    for g in groups:
        peak = g.get("peak_power_w_per_node")
        if peak is None:
            unknown.append(f"node_groups[{g['node_group']}]")
            continue
        nodes += g["count"] * peak
        unknown += g.get("power_unknown_parts", [])
        if bom:
            replaced += g["count"] * g.get("optics_w_per_node", 0.0) * (1 + FAN_MARGIN)
    return ClusterPower(
        nodes_w=nodes,
        switches_w=net.switches_w,
        media_w=net.media_w,
        replaced_w=replaced,
        unknown=tuple(dict.fromkeys(unknown)),
    )


def cooling_findings(ctx: GroupContext) -> list[Finding]:
    """Rule: a liquid-cooled server needs a coolant distribution unit (CDU) or facility water.
    Source: hardware.md §1a (cooling column; GB200/GB300 NVL72 racks with an in-rack 250 kW CDU)."""
    server = ctx.known_server
    if server.rack_scale:
        return [
            finding(
                f"{ctx.path}.server",
                RackSystemCooling(server=server.part_number, racks=ctx.group.count, cdu_kw=server.cdu_kw),
            )
        ]
    if server.cooling != Cooling.LIQUID:
        return []
    return [finding(f"{ctx.path}.server", CoolingLiquid(server=server.part_number, nodes=ctx.group.count))]
