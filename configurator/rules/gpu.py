"""GPU and NVLink rules for one node group: accepted GPUs, one model per node, board and card counts,
NVLink bridges, NVSwitch.

Facts come from the specs (GpuSpec.bridge_sizes, nvswitch_count, ServerSpec.accepts, max_gpu_cards), never from
part-number branches. Sources: hardware.md §2 and its PCIe-card NVLink rule [NV-AIE-RA]; NCS seeds.
"""

from __future__ import annotations

from . import fmt
from .catalogue import Code, finding
from .context import GroupContext
from .findings import Finding
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


def is_pcie_gpu_server(server) -> bool:
    """A server built for PCIe GPU cards (a card maximum or GPU card slots), which has no HGX baseboard socket."""
    return server.max_gpu_cards is not None or any(s.for_gpu for s in server.slots)


def gpu_acceptance(server, gpu) -> str:
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
    server = ctx.server
    out = []
    for p in ctx.gpus:
        pn = p.spec.part_number
        verdict = gpu_acceptance(server, p.spec)
        if verdict == "rejected" and p.spec.is_board and is_pcie_gpu_server(server):
            out.append(_board_in_pcie_server(server, p))
        elif verdict == "unknown":
            out.append(
                finding(
                    Code.GPU_COMPATIBILITY_UNKNOWN,
                    p.path,
                    fmt.text(
                        f"We have no sourced GPU list for {server.part_number}, so {pn} is not verified.",
                        f"Voor {server.part_number} hebben we geen gedocumenteerde GPU-lijst; {pn} is niet "
                        f"gecontroleerd.",
                    ),
                    fmt.text(
                        "Check the GPU against the Supermicro datasheet.",
                        "Controleer de GPU tegen de Supermicro-datasheet.",
                    ),
                )
            )
        elif verdict == "accepted":
            continue
        elif verdict == "rejected":
            takes = ", ".join(sorted(server.accepts))
            out.append(
                finding(
                    Code.GPU_NOT_ACCEPTED,
                    p.path,
                    fmt.text(
                        f"{server.part_number} does not take {pn}; it takes {takes}.",
                        f"{server.part_number} ondersteunt {pn} niet; wel {takes}.",
                    ),
                    fmt.text(
                        f"Choose {fmt.plural(len(server.accepts), '', 'one of ')}{takes}, or a server built for {pn}.",
                        f"Kies {fmt.plural(len(server.accepts), '', 'een van ')}{takes}, of een server die voor "
                        f"{pn} gebouwd is.",
                    ),
                    gpu=pn,
                    accepts=sorted(server.accepts),
                )
            )
        else:
            takes = ", ".join(sorted(server.accepts))
            out.append(
                finding(
                    Code.GPU_COMPATIBILITY_UNVERIFIED,
                    p.path,
                    fmt.text(
                        f"The GPU list we have for {server.part_number} is partial: it names {takes}, not {pn}. "
                        f"{pn} may well be supported, but we cannot verify it.",
                        f"Onze GPU-lijst voor {server.part_number} is onvolledig: die noemt {takes}, niet {pn}. "
                        f"{pn} wordt misschien wel ondersteund, maar we kunnen het niet controleren.",
                    ),
                    fmt.text(
                        f"Verify with Supermicro that {server.part_number} supports {pn} before quoting, or choose "
                        f"{fmt.plural(len(server.accepts), '', 'one of ')}{takes}.",
                        f"Laat Supermicro bevestigen dat {server.part_number} {pn} ondersteunt voordat je offreert, "
                        f"of kies {fmt.plural(len(server.accepts), '', 'een van ')}{takes}.",
                    ),
                    gpu=pn,
                    accepts=sorted(server.accepts),
                )
            )
    return out


def _board_in_pcie_server(server, p) -> Finding:
    """An HGX baseboard needs a server with a baseboard socket; a PCIe GPU server has GPU card slots only."""
    pn = p.spec.part_number
    cards = ", ".join(sorted(server.accepts))
    if cards:
        fix = fmt.text(
            f"Choose an HGX server for {pn}, or PCIe GPU cards for {server.part_number} (for example {cards}).",
            f"Kies een HGX-server voor {pn}, of PCIe-GPU-kaarten voor {server.part_number} (bijvoorbeeld {cards}).",
        )
    else:
        fix = fmt.text(
            f"Choose an HGX server for {pn}, or PCIe GPU cards for {server.part_number}.",
            f"Kies een HGX-server voor {pn}, of PCIe-GPU-kaarten voor {server.part_number}.",
        )
    return finding(
        Code.GPU_NOT_ACCEPTED,
        p.path,
        fmt.text(
            f"{pn} is an HGX baseboard, which needs an HGX server; {server.part_number} is a PCIe GPU server with "
            f"slots for GPU cards and no baseboard socket.",
            f"{pn} is een HGX-baseboard en heeft een HGX-server nodig; {server.part_number} is een PCIe-GPU-server "
            f"met slots voor GPU-kaarten en zonder baseboard-aansluiting.",
        ),
        fix,
        gpu=pn,
        accepts=sorted(server.accepts),
        reason="form_factor",
    )


def mixed_models(ctx: GroupContext) -> list[Finding]:
    """Rule: one GPU model per node; NVLink and NVSwitch join identical GPUs only, and mixed boards and cards
    cannot share a node. Source: [NV-AIE-RA]; NCS seeds."""
    models = {p.spec.gpu_model or p.spec.part_number for p in ctx.gpus}
    if len(models) < 2:
        return []
    listed = ", ".join(sorted(models))
    return [
        finding(
            Code.GPU_MIXED_MODELS,
            ctx.gpus[1].path,
            fmt.text(
                f"This node mixes GPU models ({listed}); NVLink only joins identical GPUs, so the node cannot work "
                f"as one GPU domain.",
                f"Deze node mengt GPU-modellen ({listed}); NVLink verbindt alleen identieke GPU's, dus de node kan "
                f"niet als één GPU-domein werken.",
            ),
            fmt.text(
                "Use one GPU model per node; put other GPUs in a node group of their own.",
                "Gebruik één GPU-model per node; zet andere GPU's in een eigen nodegroep.",
            ),
            models=sorted(models),
        )
    ]


def too_many(ctx: GroupContext) -> list[Finding]:
    """Rule: an HGX server takes exactly one baseboard; a PCIe GPU server takes at most max_gpu_cards cards.
    Source: hardware.md §1a (SYS-421GE-TNRT3: up to 8 double-width PCIe GPUs)."""
    server = ctx.server
    out = []
    boards = [p for p in ctx.gpus if p.spec.is_board]
    n_boards = sum(p.quantity for p in boards)
    if n_boards > 1:
        out.append(
            finding(
                Code.GPU_TOO_MANY,
                boards[0].path,
                fmt.text(
                    f"{server.part_number} holds one GPU baseboard; the design has {n_boards}.",
                    f"{server.part_number} heeft plaats voor één GPU-baseboard; het ontwerp heeft er {n_boards}.",
                ),
                fmt.text(
                    "Use one baseboard per node and raise the node count instead.",
                    "Gebruik één baseboard per node en verhoog in plaats daarvan het aantal nodes.",
                ),
                boards=n_boards,
            )
        )
    n_cards = sum(p.quantity for p in ctx.gpu_cards)
    if server.max_gpu_cards is not None and n_cards > server.max_gpu_cards:
        m = server.max_gpu_cards
        out.append(
            finding(
                Code.GPU_TOO_MANY,
                ctx.gpu_cards[0].path,
                fmt.text(
                    f"{server.part_number} takes up to {m} PCIe GPU {fmt.plural(m, 'card', 'cards')}; the design "
                    f"has {n_cards}.",
                    f"{server.part_number} neemt maximaal {m} PCIe-GPU-{fmt.plural(m, 'kaart', 'kaarten')}; het "
                    f"ontwerp heeft er {n_cards}.",
                ),
                fmt.text(
                    f"Use at most {m} GPU cards per node and add nodes for the rest.",
                    f"Gebruik maximaal {m} GPU-kaarten per node en voeg nodes toe voor de rest.",
                ),
                cards=n_cards,
                max_cards=m,
            )
        )
    return out


def no_gpu(ctx: GroupContext) -> list[Finding]:
    """Rule: a GPU server (one with a GPU list or a GPU-card maximum) without any GPU is almost certainly an
    incomplete design. Source: hardware.md §1a."""
    server = ctx.server
    if ctx.gpus or not (server.accepts or server.max_gpu_cards):
        return []
    takes = ", ".join(sorted(server.accepts)) or "PCIe GPU cards"
    takes_nl = ", ".join(sorted(server.accepts)) or "PCIe-GPU-kaarten"
    return [
        finding(
            Code.GPU_NONE,
            f"{ctx.path}.components",
            fmt.text(
                f"{server.part_number} is a GPU server, but this node group lists no GPU.",
                f"{server.part_number} is een GPU-server, maar deze nodegroep noemt geen GPU.",
            ),
            fmt.text(
                f"Add the GPUs ({takes}), or choose a server without GPU bays for this role.",
                f"Voeg de GPU's toe ({takes_nl}), of kies voor deze rol een server zonder GPU-plaatsen.",
            ),
        )
    ]


def bridges(ctx: GroupContext) -> list[Finding]:
    """Rule: NVLink bridges only on PCIe GPUs that support them, in a supported size (H100 NVL: pairs only;
    H200 NVL: pairs or fours; L40S and RTX PRO 6000: none), and no more bridge sets than the GPUs can take.
    HGX boards use NVSwitch, not bridges. Source: [NV-AIE-RA], [H100NVL-S], [NV-DS]."""
    if not ctx.bridges:
        return []
    out = []
    if not ctx.gpus:
        b = ctx.bridges[0]
        return [
            finding(
                Code.NVLINK_BRIDGE_UNSUPPORTED,
                b.path,
                fmt.text(
                    f"{b.spec.part_number} is an NVLink bridge, but this node has no GPU to bridge.",
                    f"{b.spec.part_number} is een NVLink-brug, maar deze node heeft geen GPU om te overbruggen.",
                ),
                fmt.text(
                    "Remove the bridge, or add the PCIe GPUs it is meant for.",
                    "Verwijder de brug, of voeg de PCIe-GPU's toe waarvoor hij bedoeld is.",
                ),
            )
        ]
    gpu = ctx.gpus[0].spec  # mixed models are an error of their own
    for b in ctx.bridges:
        ways = b.spec.ways
        if gpu.is_board:
            out.append(
                finding(
                    Code.NVLINK_BRIDGE_UNSUPPORTED,
                    b.path,
                    fmt.text(
                        f"{gpu.part_number} is an HGX baseboard: its GPUs are joined by NVSwitch on the board, so "
                        f"the NVLink bridge {b.spec.part_number} has nothing to connect.",
                        f"{gpu.part_number} is een HGX-baseboard: de GPU's zijn op het board via NVSwitch "
                        f"verbonden, dus NVLink-brug {b.spec.part_number} heeft niets te verbinden.",
                    ),
                    fmt.text("Remove the bridge.", "Verwijder de brug."),
                )
            )
        elif not gpu.bridge_sizes:
            out.append(
                finding(
                    Code.NVLINK_BRIDGE_UNSUPPORTED,
                    b.path,
                    fmt.text(
                        f"{gpu.part_number} has no NVLink bridge connector, so {b.spec.part_number} cannot be "
                        f"fitted; these GPUs talk to each other over PCIe only.",
                        f"{gpu.part_number} heeft geen NVLink-brugconnector, dus {b.spec.part_number} past er niet "
                        f"op; deze GPU's communiceren onderling alleen via PCIe.",
                    ),
                    fmt.text(
                        "Remove the bridge; for NVLink between PCIe cards choose H100 NVL or H200 NVL.",
                        "Verwijder de brug; kies voor NVLink tussen PCIe-kaarten H100 NVL of H200 NVL.",
                    ),
                    gpu=gpu.part_number,
                )
            )
        elif ways not in gpu.bridge_sizes:
            sizes = " or ".join(f"{s}-way" for s in sorted(gpu.bridge_sizes))
            sizes_nl = " of ".join(f"{s}-weg" for s in sorted(gpu.bridge_sizes))
            out.append(
                finding(
                    Code.NVLINK_BRIDGE_SIZE,
                    b.path,
                    fmt.text(
                        f"{b.spec.part_number} joins {ways} GPUs, but {gpu.part_number} supports {sizes} bridges only.",
                        f"{b.spec.part_number} verbindt {ways} GPU's, maar {gpu.part_number} ondersteunt alleen "
                        f"{sizes_nl}-bruggen.",
                    ),
                    fmt.text(f"Use a {sizes} bridge.", f"Gebruik een {sizes_nl}-brug."),
                    ways=ways,
                    supported=sorted(gpu.bridge_sizes),
                )
            )
    if out:
        return out
    n_gpus = ctx.gpus_per_node
    joined = sum(b.quantity * b.spec.ways for b in ctx.bridges)
    if joined > n_gpus:
        sets = sum(b.quantity for b in ctx.bridges)
        out.append(
            finding(
                Code.NVLINK_BRIDGE_TOO_MANY,
                ctx.bridges[0].path,
                fmt.text(
                    f"{sets} bridge {fmt.plural(sets, 'set joins', 'sets join')} {joined} GPUs, but the node has "
                    f"{n_gpus}.",
                    f"{sets} brugset{fmt.plural(sets, '', 's')} {fmt.plural(sets, 'verbindt', 'verbinden')} "
                    f"{joined} GPU's, maar de node heeft er {n_gpus}.",
                ),
                fmt.text(
                    "Order one bridge set per group of GPUs it joins.",
                    "Bestel één brugset per groep GPU's die hij verbindt.",
                ),
                joined=joined,
                gpus=n_gpus,
            )
        )
    elif joined < n_gpus:
        left = n_gpus - joined
        out.append(
            finding(
                Code.NVLINK_BRIDGE_PARTIAL,
                ctx.bridges[0].path,
                fmt.text(
                    f"The bridges join {joined} of the {n_gpus} GPUs; the other {left} talk over PCIe only.",
                    f"De bruggen verbinden {joined} van de {n_gpus} GPU's; de andere {left} communiceren alleen "
                    f"via PCIe.",
                ),
                fmt.text(
                    "Add bridge sets if those GPUs work on the same job.",
                    "Voeg brugsets toe als die GPU's aan dezelfde job werken.",
                ),
                joined=joined,
                gpus=n_gpus,
            )
        )
    return out


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
                Code.NVLINK_NVSWITCH_UNKNOWN,
                path,
                fmt.text(
                    f"The number of NVSwitch chips on {gpu.part_number} is not published in our sources; NVIDIA "
                    f"lists the board as NVSwitch-based, but we cannot show the count.",
                    f"Het aantal NVSwitch-chips op {gpu.part_number} staat niet in onze bronnen; NVIDIA noemt het "
                    f"board NVSwitch-gebaseerd, maar het aantal kunnen we niet tonen.",
                ),
                fmt.text(
                    "No action needed; check the NVIDIA HGX documentation if the count matters.",
                    "Geen actie nodig; controleer de NVIDIA HGX-documentatie als het aantal ertoe doet.",
                ),
            )
        ]
    if n < NVSWITCH_ADVISED_FROM or (gpu.is_board and gpu.nvswitch_count):
        return []
    if ctx.bridges and gpu.bridge_sizes:
        ways = max(b.spec.ways for b in ctx.bridges)
        group_en = "pairs" if ways == 2 else f"groups of {ways}"
        group_nl = "paren" if ways == 2 else f"groepen van {ways}"
        msg_en = (
            f"{n} GPUs without NVSwitch: only the bridged {group_en} talk at NVLink speed; all other "
            f"GPU-to-GPU traffic crosses PCIe."
        )
        msg_nl = (
            f"{n} GPU's zonder NVSwitch: alleen de overbrugde {group_nl} praten op NVLink-snelheid; al het "
            f"andere GPU-verkeer gaat via PCIe."
        )
    else:
        msg_en = f"{n} GPUs without NVSwitch or NVLink bridges: all GPU-to-GPU traffic crosses PCIe."
        msg_nl = f"{n} GPU's zonder NVSwitch of NVLink-bruggen: al het GPU-verkeer gaat via PCIe."
    return [
        finding(
            Code.NVLINK_NO_NVSWITCH,
            path,
            fmt.text(msg_en, msg_nl),
            fmt.text(
                "For training that spreads a model over all GPUs, choose an HGX system with NVSwitch; for "
                "independent inference jobs this is fine.",
                "Kies voor training die een model over alle GPU's verdeelt een HGX-systeem met NVSwitch; voor "
                "losse inferentiejobs is dit prima.",
            ),
            gpus=n,
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
        layout_en = ", ".join(f"{n} on CPU {sock}" for sock, n in sorted(per_socket.items()))
        layout_nl = ", ".join(f"{n} op CPU {sock}" for sock, n in sorted(per_socket.items()))
        if b.quantity == 1:
            which_en, which_nl = f"the {ways}-way bridge must join", f"moet de {ways}-weg-brug"
        else:
            which_en = f"{cross} of the {b.quantity} {ways}-way bridges must join"
            which_nl = f"{fmt.plural(cross, 'moet', 'moeten')} {cross} van de {b.quantity} {ways}-weg-bruggen"
        out.append(
            finding(
                Code.NVLINK_BRIDGE_CROSS_SOCKET,
                b.path,
                fmt.text(
                    f"The GPUs sit {layout_en}, so {which_en} GPUs under different CPU sockets. NVIDIA calls that "
                    f"acceptable but not recommended.",
                    f"De GPU's zitten {layout_nl}, dus {which_nl} GPU's onder verschillende CPU-sockets verbinden. "
                    f"NVIDIA noemt dat acceptabel maar niet aanbevolen.",
                ),
                fmt.text(
                    f"Use a GPU count per CPU socket that is a multiple of {ways}, or place the GPUs explicitly.",
                    f"Gebruik per CPU-socket een aantal GPU's dat een veelvoud van {ways} is, of plaats de GPU's "
                    f"expliciet.",
                ),
                per_socket={str(k): v for k, v in per_socket.items()},
            )
        )
    return out
