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

from . import fmt
from .catalogue import Code, finding
from .context import GroupContext
from .findings import Finding
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
    assumptions: list[tuple[str, str]] = field(default_factory=list)
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
        est.assumptions.append(
            (
                f"socket count not sourced, {ASSUMED_SOCKETS} assumed",
                f"aantal sockets niet gedocumenteerd, {ASSUMED_SOCKETS} aangenomen",
            )
        )
    if server.cpu_tdp_w is None:
        est.cpu_w = sockets * ASSUMED_CPU_TDP_W
        est.assumptions.append(
            (
                f"CPU TDP not sourced, {ASSUMED_CPU_TDP_W} W per socket assumed",
                f"CPU-TDP niet gedocumenteerd, {ASSUMED_CPU_TDP_W} W per socket aangenomen",
            )
        )
    else:
        est.cpu_w = sockets * server.cpu_tdp_w
    ports = 0
    for p in ctx.adapters:
        if p.spec.watts is None:
            est.adapters_w += p.quantity * ASSUMED_ADAPTER_W
            est.assumptions.append(
                (
                    f"{p.spec.part_number} power not sourced, {fmt.num_en(ASSUMED_ADAPTER_W)} W assumed",
                    f"vermogen {p.spec.part_number} niet gedocumenteerd, {fmt.num_nl(ASSUMED_ADAPTER_W)} W aangenomen",
                )
            )
        else:
            est.adapters_w += p.quantity * p.spec.watts
        ports += p.quantity * p.spec.ports
    if server.integrated_nics:
        est.adapters_w += server.integrated_nics * ASSUMED_ADAPTER_W
        ports += server.integrated_nics
        est.assumptions.append(
            (
                f"{server.integrated_nics} integrated NICs, {fmt.num_en(ASSUMED_ADAPTER_W)} W each assumed",
                f"{server.integrated_nics} ingebouwde NIC's, {fmt.num_nl(ASSUMED_ADAPTER_W)} W per stuk aangenomen",
            )
        )
    if ports:
        est.optics_w = ports * OPTIC_W_PER_PORT
        est.assumptions.append(
            (
                f"optics {fmt.num_en(OPTIC_W_PER_PORT)} W per adapter port assumed (a 400G optic; "
                f"copper draws almost nothing)",
                f"optiek {fmt.num_nl(OPTIC_W_PER_PORT)} W per adapterpoort aangenomen "
                f"(een 400G-transceiver; koper verbruikt vrijwel niets)",
            )
        )
    return est


def power_findings(ctx: GroupContext, est: PowerEstimate) -> list[Finding]:
    """Rule: estimated peak draw must stay within the capacity of the N supplies of an N+M configuration (the M
    redundant supplies do not count); above 80% of it there is too little headroom. Source: hardware.md §4
    (budget rule, a derived rule; SYS-821GE-TNHR 6x 3 kW 4+2 = 12 kW), [STH-ASR]."""
    server = ctx.server
    path = f"{ctx.path}.server"
    out = []
    if est.unknown_gpu_tdp:
        listed = ", ".join(est.unknown_gpu_tdp)
        out.append(
            finding(
                Code.POWER_ESTIMATE_INCOMPLETE,
                path,
                fmt.text(
                    f"The TDP of {listed} is unknown, so its GPUs are left out of the power estimate, which is "
                    f"therefore too low.",
                    f"De TDP van {listed} is onbekend; de GPU's tellen daarom niet mee in de vermogensschatting, "
                    f"die dus te laag is.",
                ),
                fmt.text(
                    "Check the GPU power in the NVIDIA datasheet before quoting.",
                    "Controleer het GPU-vermogen in de NVIDIA-datasheet voordat je offreert.",
                ),
            )
        )
    cap = server.psu_capacity_w
    peak_en, peak_nl = fmt.num(est.peak_w)
    breakdown_en, breakdown_nl = _breakdown(est)
    basis_en, basis_nl = _basis(est)
    if cap is None or cap <= 0:
        out.append(
            finding(
                Code.POWER_CAPACITY_UNKNOWN,
                path,
                fmt.text(
                    f"Estimated peak per node is {peak_en} W ({breakdown_en}), but the PSU configuration of "
                    f"{server.part_number} is not sourced, so we cannot check it against the supplies.{basis_en}",
                    f"Het geschatte piekverbruik per node is {peak_nl} W ({breakdown_nl}), maar de "
                    f"voedingsconfiguratie van {server.part_number} is niet gedocumenteerd; we kunnen het niet "
                    f"tegen de voedingen afzetten.{basis_nl}",
                ),
                fmt.text(
                    "Confirm the PSU count, wattage and redundancy with Supermicro.",
                    "Bevestig aantal, vermogen en redundantie van de voedingen bij Supermicro.",
                ),
                peak_w=round(est.peak_w),
            )
        )
        return out
    n = server.psu_count - server.psu_redundant
    fraction = est.peak_w / cap
    cap_en, cap_nl = fmt.num(cap)
    pct_en, pct_nl = fmt.pct(fraction)
    supplies_en = (
        f"{cap_en} W from the {n} of {server.psu_count} supplies that carry the load ({n}+{server.psu_redundant})"
    )
    supplies_nl = (
        f"{cap_nl} W van de {n} van {server.psu_count} voedingen die de last dragen ({n}+{server.psu_redundant})"
    )
    data = {"peak_w": round(est.peak_w), "capacity_w": cap, "fraction": round(fraction, 3)}
    if fraction > 1:
        out.append(
            finding(
                Code.POWER_OVER_CAPACITY,
                path,
                fmt.text(
                    f"Estimated peak per node is {peak_en} W ({breakdown_en}), {pct_en} of {supplies_en}. "
                    f"Under full load the node loses redundancy or shuts down.{basis_en}",
                    f"Het geschatte piekverbruik per node is {peak_nl} W ({breakdown_nl}), {pct_nl} van "
                    f"{supplies_nl}. Onder volle last verliest de node zijn redundantie of valt hij uit.{basis_nl}",
                ),
                fmt.text(
                    "Choose lower-power GPUs or fewer of them, cap the GPU power, or choose a server with larger "
                    "supplies.",
                    "Kies zuiniger GPU's of minder GPU's, begrens het GPU-vermogen, of kies een server met "
                    "zwaardere voedingen.",
                ),
                **data,
            )
        )
    elif fraction > WARN_FRACTION:
        out.append(
            finding(
                Code.POWER_NEAR_CAPACITY,
                path,
                fmt.text(
                    f"Estimated peak per node is {peak_en} W ({breakdown_en}), {pct_en} of {supplies_en}. That "
                    f"leaves little headroom above the 80% we advise.{basis_en}",
                    f"Het geschatte piekverbruik per node is {peak_nl} W ({breakdown_nl}), {pct_nl} van "
                    f"{supplies_nl}. Dat laat weinig ruimte boven de 80% die wij adviseren.{basis_nl}",
                ),
                fmt.text(
                    "Acceptable if the GPUs rarely peak together; otherwise cap GPU power or choose larger supplies.",
                    "Acceptabel als de GPU's zelden tegelijk pieken; begrens anders het GPU-vermogen of kies "
                    "zwaardere voedingen.",
                ),
                **data,
            )
        )
    return out


def _breakdown(est: PowerEstimate) -> tuple[str, str]:
    g, c, m, a = (fmt.num(x) for x in (est.gpu_w, est.cpu_w, est.memory_w, est.adapters_w + est.optics_w))
    fans = round(FAN_MARGIN * 100)
    en = f"GPUs {g[0]} W, CPUs {c[0]} W, memory and drives {m[0]} W"
    nl = f"GPU's {g[1]} W, CPU's {c[1]} W, geheugen en schijven {m[1]} W"
    if est.adapters_w + est.optics_w:
        en += f", adapters and optics {a[0]} W"
        nl += f", adapters en optiek {a[1]} W"
    return en + f", plus {fans}% for fans", nl + f", plus {fans}% voor ventilatoren"


def _basis(est: PowerEstimate) -> tuple[str, str]:
    """' Assumptions: ...' sentence closing a power finding, so the reader sees what was not sourced."""
    if not est.assumptions:
        return "", ""
    return (
        " Assumptions: " + "; ".join(en for en, _ in est.assumptions) + ".",
        " Aannames: " + "; ".join(nl for _, nl in est.assumptions) + ".",
    )


def cooling_findings(ctx: GroupContext) -> list[Finding]:
    """Rule: a liquid-cooled server needs a coolant distribution unit (CDU) or facility water.
    Source: hardware.md §1a (cooling column; GB200/GB300 NVL72 racks with an in-rack 250 kW CDU)."""
    server = ctx.server
    if server.cooling != Cooling.LIQUID:
        return []
    count = ctx.group.count
    nodes_en = "the node needs" if count == 1 else f"the {count} nodes need"
    nodes_nl = "de node heeft" if count == 1 else f"de {count} nodes hebben"
    return [
        finding(
            Code.COOLING_LIQUID,
            f"{ctx.path}.server",
            fmt.text(
                f"{server.part_number} is liquid-cooled: {nodes_en} a coolant distribution unit (CDU) or facility "
                "water in the data centre.",
                f"{server.part_number} is vloeistofgekoeld: {nodes_nl} een coolant distribution unit (CDU) of "
                f"facilitair koelwater in het datacenter nodig.",
            ),
            fmt.text(
                "Confirm the site's water loop, or add a CDU to the quote.",
                "Bevestig de koelwatervoorziening op locatie, of neem een CDU op in de offerte.",
            ),
        )
    ]
