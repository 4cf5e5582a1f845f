"""Node contents rules: CPUs, memory and drives of one node group against what its server takes.

Each check is a small function whose docstring states the rule and its source. A refusal needs evidence: a published
count exceeded (sockets, DIMM slots, bays, M.2 slots) or a physical mismatch (the CPU socket) is an error; a
combination the sources do not confirm (a CPU family the server's sources do not name) is a warning naming what to
confirm; a rule of best practice (balanced or identical DIMMs, every socket populated) is a warning. A fact the
catalogue does not hold (socket, channels, bays, TDP limit left unknown) never produces an error: the check is
skipped or says the fact is unknown, and a node that names no CPUs or memory is not checked for them. The service
adds the platform's default node set before these rules run and says where it could not
(engines/cluster/defaults.py). Pure Python: no Django, no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import cast

from design.specs import CpuSpec, DriveSpec, PartBase, ReferenceSystemSpec
from engines.findings.codes import Code
from engines.findings.finding import Finding
from engines.findings.registry import finding

from .context import GroupContext, Part

# Drive forms a bay takes: U.3 bays are backward compatible with U.2 NVMe drives, and U.3 drives run in U.2 NVMe
# bays (SFF-TA-1001, the U.3 tri-mode specification). Every other form fits its own bay only.
BAY_TAKES = {"U.2": frozenset({"U.2", "U.3"}), "U.3": frozenset({"U.2", "U.3"})}


def node_content_findings(ctx: GroupContext) -> list[Finding]:
    """Every node-contents rule for one node group (its server known)."""
    out: list[Finding] = []
    out += cpu_mixed(ctx)
    out += cpu_count(ctx)
    out += cpu_not_accepted(ctx)
    out += cpu_tdp(ctx)
    out += cpu_tdp_unknown(ctx)
    out += memory_mixed(ctx)
    out += memory_slots(ctx)
    out += memory_balance(ctx)
    out += memory_two_per_channel(ctx)
    out += memory_downclocked(ctx)
    out += memory_against_gpu_memory(ctx)
    out += drive_bays(ctx)
    out += drive_m2_slots(ctx)
    return out


def _qty(parts: Sequence[Part[PartBase]]) -> int:
    return sum(p.quantity for p in parts)


def _default_part(ctx: GroupContext, role: str) -> str | None:
    """The server's default part for ``role``: a part the server is known to take, to suggest in a fix."""
    return next((d.part_number for d in ctx.known_server.default_parts if d.role == role), None)


# An HGX baseboard of this many GPUs reaches its host through both sockets, half the GPUs each (NV-DGXH100-UG
# §1.2.3, Table 6: the DGX H100 on the HGX H100 8-GPU board).
HGX_SPLIT_GPUS = 8


def cpu_mixed(ctx: GroupContext) -> Iterator[Finding]:
    """Every socket of a node holds the same CPU model: multi-socket Xeon and EPYC systems support identical
    processors only. Source: ARK-DS / AMD-DS (scalability per SKU: 2S with identical processors)."""
    models = list(dict.fromkeys(p.spec.part_number for p in ctx.cpus))
    if len(models) > 1:
        yield finding(Code.NODE_CPU_MIXED, ctx.cpus[1].path, server=ctx.known_server.part_number, parts=models)


def cpu_count(ctx: GroupContext) -> Iterator[Finding]:
    """More CPUs than the published socket count do not fit (an error). Fewer boot, but a 2-socket server with one
    CPU loses the lanes (and the DIMM slots) of the empty socket, since the GPU platforms' PCIe slots and switches
    hang off both CPUs: a warning (NODE_CPU_SOCKET_EMPTY). On the host of an HGX 8-GPU board it is an error
    (NODE_CPU_SOCKET_EMPTY_HGX): the board's GPUs and the compute NICs beside them are split over both sockets, four
    and four, so half of them would have no host. Sources: hardware.md §1a (every GPU platform 2 sockets); ARK-DS /
    AMD-DS (PCIe lanes and memory channels are per socket); NV-DGXH100-UG §1.2.3, Table 6 (the ConnectX-7 of GPUs 0-3
    on CPU 0 and of GPUs 4-7 on CPU 1). Skipped while the socket count is unknown."""
    sockets = ctx.known_server.cpu_sockets
    count = _qty(ctx.cpus)
    if ctx.cpus and sockets is not None and count != sockets:
        hgx8 = any(g.is_board and g.gpu_count == HGX_SPLIT_GPUS for g in ctx.gpu_specs)
        empty = Code.NODE_CPU_SOCKET_EMPTY_HGX if hgx8 and sockets == 2 else Code.NODE_CPU_SOCKET_EMPTY
        yield finding(
            Code.NODE_CPU_COUNT if count > sockets else empty,
            ctx.cpus[0].path,
            server=ctx.known_server.part_number,
            sockets=sockets,
            cpus=count,
            part=ctx.cpus[0].spec.part_number,
        )


def cpu_not_accepted(ctx: GroupContext) -> Iterator[Finding]:
    """A CPU must fit the board's socket (LGA4677, LGA4710, SP5): another socket is a physical mismatch, an error.
    A CPU of the right socket but of a family the server's sources do not name is unverified, not refused
    (NODE_CPU_UNVERIFIED, a warning to confirm BIOS support with the vendor): the families listed are those the
    sources happen to show, sometimes one MLPerf unit's CPU (SYS-421GE-TNHR2-LCC ran a 5th Gen Xeon; a 4th Gen
    Xeon in the same LGA4677 socket is not thereby excluded). Source: the server's catalogue facts (cpu_socket,
    cpu_families; seed README), ARK-DS / AMD-DS for the CPU's socket. Skipped where the server's socket and
    families are unknown."""
    server = ctx.known_server
    for p in ctx.cpus:
        cpu: CpuSpec = p.spec
        socket_wrong = bool(server.cpu_socket and cpu.socket and cpu.socket != server.cpu_socket)
        family_wrong = bool(server.cpu_families and cpu.family and cpu.family not in server.cpu_families)
        if socket_wrong or family_wrong:
            yield finding(
                Code.NODE_CPU_NOT_ACCEPTED if socket_wrong else Code.NODE_CPU_UNVERIFIED,
                p.path,
                server=server.part_number,
                part=cpu.part_number,
                socket=cpu.socket,
                family=cpu.family,
                server_socket=server.cpu_socket,
                families=list(server.cpu_families),
                suggestion=_default_part(ctx, "cpu"),
                vendor=server.manufacturer or None,
            )


def cpu_tdp(ctx: GroupContext) -> Iterator[Finding]:
    """A CPU's TDP must be within what the server cools and powers per socket. Source: the server's cpu_tdp_w
    (SYS-822GS-NBRT 350 W, DIST-PM) and the CPU's TDP (ARK-DS, AMD-DS). Unknown on either side: not checked."""
    limit = ctx.known_server.cpu_tdp_w
    for p in ctx.cpus:
        if limit is not None and p.spec.tdp_w is not None and p.spec.tdp_w > limit:
            yield finding(
                Code.NODE_CPU_TDP,
                p.path,
                server=ctx.known_server.part_number,
                part=p.spec.part_number,
                tdp_w=p.spec.tdp_w,
                limit_w=limit,
            )


def cpu_tdp_unknown(ctx: GroupContext) -> Iterator[Finding]:
    """Where the server publishes a per-socket TDP limit and a CPU's TDP is not sourced, the limit cannot be
    checked: said, with the limit to confirm, never passed silently. Source: the server's cpu_tdp_w (DIST-PM)."""
    limit = ctx.known_server.cpu_tdp_w
    unknown = list(dict.fromkeys(p.spec.part_number for p in ctx.cpus if p.spec.tdp_w is None))
    if limit is not None and unknown:
        yield finding(
            Code.NODE_CPU_TDP_UNKNOWN,
            ctx.cpus[0].path,
            server=ctx.known_server.part_number,
            parts=unknown,
            limit_w=limit,
        )


def memory_mixed(ctx: GroupContext) -> Iterator[Finding]:
    """All DIMMs of a node are identical (same part: size, speed, ranks), so every channel is populated alike.
    Source: ARK-DS / AMD-DS memory configuration; the DGX and MLPerf units (MLC-NV-DGXH100, MLC-821) use one DIMM
    model."""
    models = list(dict.fromkeys(p.spec.part_number for p in ctx.memory))
    if len(models) > 1:
        yield finding(Code.MEMORY_MIXED, ctx.memory[1].path, server=ctx.known_server.part_number, parts=models)


def memory_slots(ctx: GroupContext) -> Iterator[Finding]:
    """A node holds at most as many DIMMs as the board has slots. Source: the server's dimm_slots (hardware.md
    §1a). Unknown slot count: not checked."""
    slots = ctx.known_server.dimm_slots
    count = _qty(ctx.memory)
    if ctx.memory and slots is not None and count > slots:
        yield finding(
            Code.MEMORY_TOO_MANY,
            ctx.memory[0].path,
            server=ctx.known_server.part_number,
            dimms=count,
            slots=slots,
            part=ctx.memory[0].spec.part_number,
        )


def _channels(ctx: GroupContext) -> tuple[int | None, int]:
    """(channels per socket, populated sockets): the server's channel count, else the CPU's; the sockets that
    hold a CPU (all of them while the design names no CPU)."""
    cpu = ctx.cpus[0].spec if ctx.cpus else None
    channels = ctx.known_server.memory_channels_per_socket or (cpu.memory_channels if cpu else None)
    populated = _qty(ctx.cpus) if ctx.cpus else (ctx.known_server.cpu_sockets or 0)
    if ctx.known_server.cpu_sockets is not None:
        populated = min(populated, ctx.known_server.cpu_sockets)
    return channels, populated


def memory_balance(ctx: GroupContext) -> Iterator[Finding]:
    """DIMMs are balanced over all channels of every populated socket: the count is a whole multiple of sockets ×
    channels (one or two per channel), or memory bandwidth is uneven and some channels idle. Source: ARK-DS /
    AMD-DS (channels per socket); seed README (defaults put the same number of DIMMs on every channel, as the DGX
    and MLPerf units do). Unknown channel count: not checked."""
    channels, populated = _channels(ctx)
    count = _qty(ctx.memory)
    if not ctx.memory or channels is None or populated <= 0:
        return
    total_channels = channels * populated
    per_channel_max = ctx.known_server.dimms_per_channel
    if count % total_channels == 0 and (per_channel_max is None or count // total_channels <= per_channel_max):
        return
    options = [total_channels * k for k in range(1, (per_channel_max or 2) + 1)]
    slots = ctx.known_server.dimm_slots
    options = [n for n in options if slots is None or n <= slots]
    yield finding(
        Code.MEMORY_UNBALANCED,
        ctx.memory[0].path,
        server=ctx.known_server.part_number,
        dimms=count,
        channels=total_channels,
        sockets=populated,
        options=options,
        part=ctx.memory[0].spec.part_number,
    )


def memory_two_per_channel(ctx: GroupContext) -> Iterator[Finding]:
    """One DIMM per channel runs at full speed; two per channel lower it (Xeon 4th Gen 4,800 → 4,400 MT/s, Xeon 6
    6,400 → 5,200 MT/s). Says by how much when the server or the CPU gives both speeds, never beyond the DIMM's own
    speed. Source: ARK-DS, XEON6-CNEWS (the CPU's speeds); the server's own figures first where known."""
    channels, populated = _channels(ctx)
    if not ctx.memory or channels is None or populated <= 0:
        return
    count = _qty(ctx.memory)
    if count % (channels * populated) or count // (channels * populated) != 2:
        return
    cpu = ctx.cpus[0].spec if ctx.cpus else None
    one = ctx.known_server.memory_speed_1dpc_mts or (cpu.memory_speed_mts if cpu else None)
    two = ctx.known_server.memory_speed_2dpc_mts or (cpu.memory_speed_2dpc_mts if cpu else None)
    dimm = ctx.memory[0].spec.speed_mts
    if dimm is not None:
        one = min(one, dimm) if one is not None else None
        two = min(two, dimm) if two is not None else None
    known = one is not None and two is not None and two < one
    drop_pct = round(100 * (one - two) / one) if one is not None and two is not None and known else None
    yield finding(
        Code.MEMORY_TWO_PER_CHANNEL,
        ctx.memory[0].path,
        server=ctx.known_server.part_number,
        dimms=count,
        channels=channels * populated,
        speed_1dpc=one if known else None,
        speed_2dpc=two if known else None,
        drop_pct=drop_pct,
        cpu=cpu.part_number if cpu else None,
    )


def memory_downclocked(ctx: GroupContext) -> Iterator[Finding]:
    """DIMMs rated faster than the memory speed the CPU (or the server) supports run at that lower speed: DDR5-5600
    RDIMMs on a Xeon 4th Gen (DDR5-4800 at one DIMM per channel) run at 4,800 MT/s. A note, not a fault: the
    system boots and the DIMMs clock down. Only DIMMs rated above the one-DIMM speed are noted (the slower second
    DIMM per channel is MEMORY_TWO_PER_CHANNEL's); at two per channel the speed they run at is the two-DIMM speed.
    Source: ARK-DS, XEON6-CNEWS, AMD-DS (the CPU's speeds); RS-MICRON, SO-CWM (the DIMM's speed). Unknown speeds:
    not compared."""
    if not ctx.memory or ctx.memory[0].spec.speed_mts is None:
        return
    channels, populated = _channels(ctx)
    count = _qty(ctx.memory)
    two = bool(channels and populated and count == 2 * channels * populated)
    cpu = ctx.cpus[0].spec if ctx.cpus else None
    one = ctx.known_server.memory_speed_1dpc_mts or (cpu.memory_speed_mts if cpu else None)
    limit = one
    if two:
        limit = ctx.known_server.memory_speed_2dpc_mts or (cpu.memory_speed_2dpc_mts if cpu else None) or one
    dimm = ctx.memory[0].spec
    if one is not None and limit is not None and dimm.speed_mts is not None and dimm.speed_mts > one:
        yield finding(
            Code.MEMORY_DOWNCLOCKED,
            ctx.memory[0].path,
            server=ctx.known_server.part_number,
            part=dimm.part_number,
            dimm_mts=dimm.speed_mts,
            runs_mts=limit,
            cpu=cpu.part_number if cpu else None,
            two_per_channel=two,
        )


def reference_for(ctx: GroupContext) -> ReferenceSystemSpec | None:
    """NVIDIA's own 8-GPU system on the group's GPU board (DGX H100 for HGX H100, DGX B200 for HGX B200), the
    yardstick of the memory rule for that GPU; None where NVIDIA's system for it is not in the seed."""
    systems = ctx.catalog.reference_systems if ctx.catalog is not None else ()
    boards = {p.spec.part_number for p in ctx.gpus}
    return next((r for r in systems if r.board and r.board in boards), None)


def memory_against_gpu_memory(ctx: GroupContext) -> Iterator[Finding]:
    """System memory should not fall below the ratio to GPU memory that NVIDIA's own 8-GPU system on the same GPU
    ships with (DGX H100: 2 TB for 640 GB, 3.2; NVIDIA's H200 system: 2 TB for 1,128 GB, 1.82; DGX B200: 2 TB for
    1,440 GB, 1.42): data loading, checkpoints and pinned buffers are staged in host memory. A GPU without such a
    system in the seed (HGX B300, the PCIe cards) is not compared, rather than measured against another
    generation. Source: catalog.services.reference_systems() (MLC-NV-DGXH100, MLC-NV-H200X8, NV-DGXB200-UG).
    Unknown DIMM size or GPU memory: not compared."""
    ref = reference_for(ctx)
    gpu_gb = ctx.gpu_memory_gb_per_node
    if ref is None or not ctx.gpus or not gpu_gb or not ctx.memory:
        return
    if any(p.spec.size_gb is None for p in ctx.memory):
        return
    system_gb = sum(p.quantity * cast(int, p.spec.size_gb) for p in ctx.memory)
    needed = math.ceil(gpu_gb * ref.system_memory_gb / ref.gpu_memory_gb - 1e-9)
    if system_gb < needed:
        yield finding(
            Code.MEMORY_BELOW_REFERENCE,
            ctx.memory[0].path,
            server=ctx.known_server.part_number,
            system_gb=system_gb,
            gpu_gb=round(gpu_gb),
            needed_gb=needed,
            ratio=round(system_gb / gpu_gb, 2),
            ref_system=ref.system,
            ref_ratio=round(ref.memory_ratio, 2),
            ref_source=ref.source,
        )


def drive_bays(ctx: GroupContext) -> Iterator[Finding]:
    """Drives (other than M.2) fit the bays of their form factor and interface: a U.2 NVMe drive needs a U.2 or
    U.3 NVMe bay, an E1.S drive an E1.S bay. Source: the server's drive bays (STH-821, SR-4125, DS-421TNRT3,
    DIST-PM). Servers whose bays are not sourced, and drives of unknown form, are not checked."""
    bays = ctx.known_server.drive_bays
    if not bays:
        return
    by_form: dict[tuple[str, str], list[Part[DriveSpec]]] = {}
    for p in ctx.drives:
        drive: DriveSpec = p.spec
        if drive.is_m2 or not drive.form_factor:
            continue
        by_form.setdefault((drive.form_factor, drive.interface), []).append(p)
    for (form, interface), parts in by_form.items():
        takes = BAY_TAKES.get(form, frozenset({form}))
        fitting = sum(b.count for b in bays if b.form_factor in takes and (not interface or b.interface == interface))
        count = _qty(parts)
        if count > fitting:
            yield finding(
                Code.DRIVE_NO_BAY,
                parts[0].path,
                server=ctx.known_server.part_number,
                form=form,
                interface=interface,
                drives=count,
                bays=fitting,
                server_bays=[f"{b.count}x {b.form_factor} {b.interface}" for b in bays],
            )


def drive_m2_slots(ctx: GroupContext) -> Iterator[Finding]:
    """M.2 drives (the boot drives) fit the board's M.2 slots. Source: the server's m2_slots (DIST-PM, SR-4125).
    Unknown slot count: not checked."""
    m2 = [p for p in ctx.drives if p.spec.is_m2]
    slots = ctx.known_server.m2_slots
    count = _qty(m2)
    if m2 and slots is not None and count > slots:
        yield finding(Code.DRIVE_M2_SLOTS, m2[0].path, server=ctx.known_server.part_number, drives=count, slots=slots)
