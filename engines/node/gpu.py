"""GPU and NVLink rules for one node group: accepted GPUs, one model per node, board and card counts,
NVLink bridges, NVSwitch.

Facts come from the specs (GpuSpec.bridge_sizes, nvswitch_count, ServerSpec.accepts, max_gpu_cards), never from
part-number branches. Sources: hardware.md §2 and its PCIe-card NVLink rule [NV-AIE-RA]; NCS seeds.
"""

from __future__ import annotations

from design.specs import BridgeSpec, GpuSpec, ServerSpec
from engines.findings.finding import Finding
from engines.findings.params.nodes import (
    GpuCompatibilityUnknown,
    GpuCompatibilityUnverified,
    GpuMixedModels,
    GpuNone,
    GpuNotAccepted,
    GpuTooMany,
    NvlinkBridgeCrossSocket,
    NvlinkBridgePartial,
    NvlinkBridgeSize,
    NvlinkBridgeTooMany,
    NvlinkBridgeUnsupported,
    NvlinkNoNvswitch,
    NvlinkNvswitchUnknown,
)
from engines.findings.registry import finding

from .context import GroupContext, Part
from .pcie import Placement

NVSWITCH_ADVISED_FROM = 8  # NCS seeds: "kiezen voor een systeem zonder NVSwitch bij 8 of meer GPU's" is a mistake


def gpu_findings(ctx: GroupContext) -> list[Finding]:
    out: list[Finding] = []
    out += not_accepted(ctx)
    out += mixed_models(ctx)
    out += too_many(ctx)
    out += no_gpu(ctx)
    out += bridges(ctx)
    out += nvswitch(ctx)
    return out


def is_pcie_gpu_server(server: ServerSpec) -> bool:
    """A server built for PCIe GPU cards (a card maximum or GPU card slots), which has no HGX baseboard socket."""
    return server.max_gpu_cards is not None or any(s.for_gpu for s in server.slots)


def gpu_acceptance(server: ServerSpec, gpu: GpuSpec) -> str:
    """Whether ``server`` takes ``gpu``, by the catalogue's data alone (the rule below explains each answer):
    "accepted", "rejected" (a board in a PCIe server, or missing from a complete list), "unverified" (missing from
    a partial list) or "unknown" (no sourced list). The wizard greys out only "rejected" choices."""
    if gpu.is_board and is_pcie_gpu_server(server):
        return "rejected"
    if not server.accepts:
        return "unknown"
    if gpu.part_number in server.accepts:
        return "accepted"
    return "rejected" if server.accepts_complete else "unverified"


def not_accepted(ctx: GroupContext) -> list[Finding]:
    """Rule: the server must take the GPU board or card (ServerSpec.accepts).

    * An HGX baseboard needs an HGX server: in a PCIe GPU server it is an error whatever the list says.
    * ``accepts_complete`` (the sources name the baseboard socket, as for the HGX servers): a GPU not in the
      list is an error.
    * An incomplete list (PCIe GPU servers: the GPUs the sources happen to name) that does not name the GPU:
      a warning to verify it with Supermicro, not an error.
    * An empty list means no sourced list at all: say it is unknown.
    Source: hardware.md §1a (SYS-821GE-TNHR: HGX H100 or HGX H200 8-GPU; SYS-421GE-TNRT3: "H100, L40S, A100,
    RTX 6000 Ada" listed; AS-4125GS-TNRT: no model named)."""
    server = ctx.known_server
    out = []
    for p in ctx.gpus:
        pn = p.spec.part_number
        verdict = gpu_acceptance(server, p.spec)
        if verdict == "rejected" and p.spec.is_board and is_pcie_gpu_server(server):
            out.append(_board_in_pcie_server(server, p))
        elif verdict == "unknown":
            out.append(
                finding(
                    p.path,
                    GpuCompatibilityUnknown(server=server.part_number, gpu=pn),
                )
            )
        elif verdict == "accepted":
            continue
        elif verdict == "rejected":
            out.append(
                finding(
                    p.path,
                    GpuNotAccepted(server=server.part_number, gpu=pn, accepts=sorted(server.accepts)),
                )
            )
        else:
            out.append(
                finding(
                    p.path,
                    GpuCompatibilityUnverified(server=server.part_number, gpu=pn, accepts=sorted(server.accepts)),
                )
            )
    return out


def _board_in_pcie_server(server: ServerSpec, p: Part[GpuSpec]) -> Finding:
    """An HGX baseboard needs a server with a baseboard socket; a PCIe GPU server has GPU card slots only."""
    pn = p.spec.part_number
    return finding(
        p.path,
        GpuNotAccepted(server=server.part_number, gpu=pn, accepts=sorted(server.accepts), reason="form_factor"),
    )


def mixed_models(ctx: GroupContext) -> list[Finding]:
    """Rule: one GPU model per node; NVLink and NVSwitch join identical GPUs only, and mixed boards and cards
    cannot share a node. Source: [NV-AIE-RA]; NCS seeds."""
    models = {p.spec.gpu_model or p.spec.part_number for p in ctx.gpus}
    if len(models) < 2:
        return []
    return [
        finding(
            ctx.gpus[1].path,
            GpuMixedModels(models=sorted(models)),
        )
    ]


def too_many(ctx: GroupContext) -> list[Finding]:
    """Rule: an HGX server takes exactly one baseboard; a PCIe GPU server takes at most max_gpu_cards cards.
    Source: hardware.md §1a (SYS-421GE-TNRT3: up to 8 double-width PCIe GPUs)."""
    server = ctx.known_server
    out = []
    boards = [p for p in ctx.gpus if p.spec.is_board]
    n_boards = sum(p.quantity for p in boards)
    if n_boards > 1:
        out.append(
            finding(
                boards[0].path,
                GpuTooMany(server=server.part_number, boards=n_boards),
            )
        )
    n_cards = sum(p.quantity for p in ctx.gpu_cards)
    if server.max_gpu_cards is not None and n_cards > server.max_gpu_cards:
        m = server.max_gpu_cards
        out.append(
            finding(
                ctx.gpu_cards[0].path,
                GpuTooMany(server=server.part_number, cards=n_cards, max_cards=m),
            )
        )
    return out


def no_gpu(ctx: GroupContext) -> list[Finding]:
    """Rule: a GPU server (one with a GPU list or a GPU-card maximum) without any GPU is almost certainly an
    incomplete design. Source: hardware.md §1a."""
    server = ctx.known_server
    if ctx.gpus or not (server.accepts or server.max_gpu_cards):
        return []
    return [
        finding(
            f"{ctx.path}.components",
            GpuNone(server=server.part_number, accepts=sorted(server.accepts)),
        )
    ]


def _bridgeable_cards(ctx: GroupContext) -> list[str]:
    """The catalogue's active PCIe GPU cards that take an NVLink bridge, for the fix text."""
    if ctx.catalog is None:
        return []
    cards = ctx.catalog.of_type(GpuSpec)
    return sorted(g.part_number for g in cards if not g.is_board and g.bridge_sizes and not g.retired)


def bridges(ctx: GroupContext) -> list[Finding]:
    """Rule: NVLink bridges only on PCIe GPUs that support them, in a supported size (H100 NVL: pairs only;
    H200 NVL: pairs or fours; L40S and RTX PRO 6000: none), and no more bridge sets than the GPUs can take.
    HGX boards use NVSwitch, not bridges. Source: [NV-AIE-RA], [H100NVL-S], [NV-DS]."""
    if not ctx.bridges:
        return []
    if not ctx.gpus:
        b = ctx.bridges[0]
        return [finding(b.path, NvlinkBridgeUnsupported(bridge=b.spec.part_number, reason="no_gpu"))]
    gpu = ctx.gpus[0].spec  # mixed models are an error of their own
    out = [f for b in ctx.bridges if (f := _bridge_fit(ctx, gpu, b)) is not None]
    return out or _bridge_count(ctx)


def _bridge_fit(ctx: GroupContext, gpu: GpuSpec, b: Part[BridgeSpec]) -> Finding | None:
    """The finding for one bridge the GPU cannot take (a baseboard, no connector, a size it lacks), or None."""
    if gpu.is_board:
        return finding(
            b.path, NvlinkBridgeUnsupported(bridge=b.spec.part_number, gpu=gpu.part_number, reason="baseboard")
        )
    if not gpu.bridge_sizes:
        return finding(
            b.path,
            NvlinkBridgeUnsupported(
                bridge=b.spec.part_number, gpu=gpu.part_number, reason="no_connector", bridgeable=_bridgeable_cards(ctx)
            ),
        )
    if b.spec.ways not in gpu.bridge_sizes:
        return finding(
            b.path,
            NvlinkBridgeSize(
                bridge=b.spec.part_number, gpu=gpu.part_number, ways=b.spec.ways, supported=sorted(gpu.bridge_sizes)
            ),
        )
    return None


def _bridge_count(ctx: GroupContext) -> list[Finding]:
    """More GPUs joined by bridges than the node has (error), or some GPUs left unbridged."""
    n_gpus = ctx.gpus_per_node
    joined = sum(b.quantity * b.spec.ways for b in ctx.bridges)
    if joined > n_gpus:
        sets = sum(b.quantity for b in ctx.bridges)
        return [finding(ctx.bridges[0].path, NvlinkBridgeTooMany(sets=sets, joined=joined, gpus=n_gpus))]
    if joined < n_gpus:
        return [finding(ctx.bridges[0].path, NvlinkBridgePartial(joined=joined, gpus=n_gpus))]
    return []


def nvswitch(ctx: GroupContext) -> list[Finding]:
    """Rule: with 8 or more GPUs in a node and no NVSwitch, only bridged pairs (or fours) talk at NVLink speed;
    without bridges all GPU-to-GPU traffic crosses PCIe. An HGX board whose NVSwitch count is not sourced
    (HGX B300) gets an info. Source: NCS seeds ("Zonder NVSwitch kunnen GPU's alleen in paren direct
    communiceren ... belangrijk in systemen met 8 of meer GPU's"); hardware.md §2."""
    n = ctx.gpus_per_node
    if not ctx.gpus:
        return []
    gpu = ctx.gpus[0].spec
    path = ctx.gpus[0].path
    if gpu.is_board and gpu.nvswitch_count is None:
        return [
            finding(
                path,
                NvlinkNvswitchUnknown(gpu=gpu.part_number),
            )
        ]
    if n < NVSWITCH_ADVISED_FROM or (gpu.is_board and gpu.nvswitch_count):
        return []
    bridge_ways = max(b.spec.ways for b in ctx.bridges) if ctx.bridges and gpu.bridge_sizes else None
    return [
        finding(
            path,
            NvlinkNoNvswitch(gpus=n, bridge_ways=bridge_ways),
        )
    ]


def bridge_sockets(ctx: GroupContext, placement: Placement) -> list[Finding]:
    """Rule: bridged PCIe GPUs should sit under the same CPU socket; across sockets is "acceptable but not
    recommended" (NVIDIA). The check asks whether the bridge groups can all be formed from GPUs that share a
    socket, given where the GPU cards were placed. Unknown sockets are not guessed. Source: [NV-AIE-RA]."""
    if not ctx.bridges or not ctx.gpu_cards or not ctx.gpu_cards[0].spec.bridge_sizes:
        return []
    per_socket: dict[int, int] = {}
    for s in placement.slots:
        if s.part is not None and s.part.role == "gpu":
            if s.spec.cpu_socket is None:
                return []
            per_socket[s.spec.cpu_socket] = per_socket.get(s.spec.cpu_socket, 0) + 1
    if len(per_socket) < 2:
        return []
    out = []
    for b in ctx.bridges:
        ways = b.spec.ways
        possible = sum(n // ways for n in per_socket.values())
        if b.quantity <= possible:
            continue
        cross = b.quantity - possible
        out.append(
            finding(
                b.path,
                NvlinkBridgeCrossSocket(
                    per_socket={str(k): v for k, v in per_socket.items()}, bridges=b.quantity, cross=cross, ways=ways
                ),
            )
        )
    return out
