"""Power budget and cooling for one node group.

Estimated peak draw per node (hardware.md §4 budget rule; ServeTheHome's rule of thumb for air-cooled GPU
servers [STH-ASR]):

    subtotal = sum of GPU TDP
             + sockets x CPU TDP            (ServerSpec.cpu_tdp_w; ASSUMED 350 W per socket when unknown)
             + 300 W memory and drives      (top of the 250-300 W range)
             + adapter watts                (AdapterSpec.watts; ASSUMED 25 W per adapter or integrated NIC when
                                             unknown, a ConnectX-7 400G OSFP is 24.9 W)
             + 9 W per adapter port optic   (ASSUMED: a 400G OSFP optic is 9 W max [NV-OSFP]; copper is ~0)
    peak     = subtotal x 1.15              (fan margin, the middle of the 10-20% range)

Compared with the capacity of the N supplies of an N+M configuration (ServerSpec.psu_capacity_w): above it is an
error, above 80% of it a warning, unknown capacity a warning. Every assumption is listed in the totals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .catalogue import Code
from .context import GroupContext
from .findings import Finding
from .registry import finding
from .specs import Cooling

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
    assumptions: list[dict] = field(default_factory=list)  # what was not sourced: {"kind": ..., values}
    unknown_gpu_tdp: list[str] = field(default_factory=list)

    @property
    def subtotal_w(self) -> float:
        return self.gpu_w + self.cpu_w + self.memory_w + self.adapters_w + self.optics_w

    @property
    def fans_w(self) -> float:
        return self.subtotal_w * FAN_MARGIN

    @property
    def peak_w(self) -> float:
        return self.subtotal_w + self.fans_w


def estimate(ctx: GroupContext) -> PowerEstimate:
    """Estimated peak draw of one node of the group (formula in the module docstring)."""
    server = ctx.server
    est = PowerEstimate()
    for p in ctx.gpus:
        if p.spec.tdp_w is None:
            est.unknown_gpu_tdp.append(p.spec.part_number)
        else:
            est.gpu_w += p.quantity * p.spec.gpu_count * p.spec.tdp_w
    sockets = server.cpu_sockets if server.cpu_sockets is not None else ASSUMED_SOCKETS
    if server.cpu_sockets is None:
        est.assumptions.append({"kind": "sockets", "sockets": ASSUMED_SOCKETS})
    if server.cpu_tdp_w is None:
        est.cpu_w = sockets * ASSUMED_CPU_TDP_W
        est.assumptions.append({"kind": "cpu_tdp", "watts": ASSUMED_CPU_TDP_W})
    else:
        est.cpu_w = sockets * server.cpu_tdp_w
    ports = 0
    for p in ctx.adapters:
        if p.spec.watts is None:
            est.adapters_w += p.quantity * ASSUMED_ADAPTER_W
            est.assumptions.append({"kind": "adapter", "part": p.spec.part_number, "watts": ASSUMED_ADAPTER_W})
        else:
            est.adapters_w += p.quantity * p.spec.watts
        ports += p.quantity * p.spec.ports
    if server.integrated_nics:
        est.adapters_w += server.integrated_nics * ASSUMED_ADAPTER_W
        ports += server.integrated_nics
        est.assumptions.append({"kind": "integrated_nics", "count": server.integrated_nics, "watts": ASSUMED_ADAPTER_W})
    if ports:
        est.optics_w = ports * OPTIC_W_PER_PORT
        est.assumptions.append({"kind": "optics", "watts": OPTIC_W_PER_PORT})
    return est


def power_findings(ctx: GroupContext, est: PowerEstimate) -> list[Finding]:
    """Rule: estimated peak draw must stay within the capacity of the N supplies of an N+M configuration (the M
    redundant supplies do not count); above 80% of it there is too little headroom. Source: hardware.md §4
    (budget rule, a derived rule; SYS-821GE-TNHR 6x 3 kW 4+2 = 12 kW), [STH-ASR]."""
    server = ctx.server
    path = f"{ctx.path}.server"
    out = []
    if est.unknown_gpu_tdp:
        out.append(finding(Code.POWER_ESTIMATE_INCOMPLETE, path, gpus=list(est.unknown_gpu_tdp)))
    cap = server.psu_capacity_w
    estimate_params = {
        "server": server.part_number,
        "peak_w": round(est.peak_w),
        "breakdown": {
            "gpu_w": est.gpu_w,
            "cpu_w": est.cpu_w,
            "memory_w": est.memory_w,
            "adapters_w": est.adapters_w + est.optics_w,
            "fan_pct": round(FAN_MARGIN * 100),
        },
        "assumptions": list(est.assumptions),
    }
    if cap is None or cap <= 0:
        out.append(finding(Code.POWER_CAPACITY_UNKNOWN, path, **estimate_params))
        return out
    fraction = est.peak_w / cap
    data = {
        **estimate_params,
        "capacity_w": cap,
        "fraction": round(fraction, 3),
        "load": fraction,
        "psu_count": server.psu_count,
        "psu_redundant": server.psu_redundant,
    }
    if fraction > 1:
        out.append(finding(Code.POWER_OVER_CAPACITY, path, **data))
    elif fraction > WARN_FRACTION:
        out.append(finding(Code.POWER_NEAR_CAPACITY, path, **data))
    return out


def cooling_findings(ctx: GroupContext) -> list[Finding]:
    """Rule: a liquid-cooled server needs a coolant distribution unit (CDU) or facility water.
    Source: hardware.md §1a (cooling column; GB200/GB300 NVL72 racks with an in-rack 250 kW CDU)."""
    server = ctx.server
    if server.cooling != Cooling.LIQUID:
        return []
    return [finding(Code.COOLING_LIQUID, f"{ctx.path}.server", server=server.part_number, nodes=ctx.group.count)]
