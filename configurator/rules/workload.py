"""Design-level rules: the GPU-NIC ratio and workload sizing.

These look across node groups (node count, fabric, workload), so they run once per design after the per-group
rules. Sizing arithmetic lives in sizing.py.
"""

from __future__ import annotations

from . import fmt
from .catalogue import Code, finding
from .context import GroupContext
from .design import DesignIn
from .findings import Finding
from .sizing import Sizing, size_workload

SEVENTY_B_CLASS = 60.0  # billion parameters: "70B-class" starts here
NVLINK_ADVISED_GBPS = 900  # H100-class; A100 is 600 (NCS seeds: 600 -> 900 GB/s is +50%)


def _nic_speed(ctx: GroupContext) -> int | None:
    """Line rate of one compute NIC of the group, Gb/s (all ports of the first compute adapter)."""
    for p in ctx.compute_adapters:
        if p.spec.speed_gbps:
            return p.spec.speed_gbps * p.spec.ports
    return ctx.server.integrated_nic_speed_gbps if ctx.server else None


def nic_findings(design: DesignIn, contexts: list[GroupContext]) -> list[Finding]:
    """Rules: (1) multi-node training (two or more nodes, or a fabric) wants one compute NIC per GPU; with fewer,
    k GPUs share each NIC and per-GPU inter-node bandwidth is divided by k (warning). (2) A design with a fabric
    needs compute NICs in every GPU node (error). (3) Compute NICs in a single node without a fabric carry no GPU
    traffic: removing them saves money (info). Integrated NICs count as compute NICs. Without a workload the
    design is treated as training. Source: fabric.md §0.1 (one NIC per GPU, rail-optimized); NCS seeds ("Voor
    single-node setups met één tot acht GPU's is NVLink via een HGX-baseboard voldoende en is InfiniBand niet
    nodig")."""
    out: list[Finding] = []
    multi_node = design.node_count >= 2 or design.fabric is not None
    training = design.workload is None or design.workload.kind == "training"
    # With no compute NIC anywhere the fabric planner reports FABRIC_NO_RAILS; this rule names the GPU group that
    # lacks them while others have them.
    any_nics = any(c.compute_nics_per_node for c in contexts if c.gpus_per_node)
    for ctx in contexts:
        gpus, nics = ctx.gpus_per_node, ctx.compute_nics_per_node
        subject = ctx.compute_adapters[0].path if ctx.compute_adapters else ctx.path
        if gpus and design.fabric is not None and nics == 0 and any_nics:
            out.append(
                finding(
                    Code.NIC_MISSING,
                    ctx.path,
                    fmt.text(
                        f"The design has a compute fabric, but the {gpus}-GPU nodes of group '{ctx.group.name}' "
                        f"have no compute NIC to connect to it.",
                        f"Het ontwerp heeft een compute-fabric, maar de nodes met {gpus} GPU's in groep "
                        f"'{ctx.group.name}' hebben geen compute-NIC om erop aan te sluiten.",
                    ),
                    fmt.text(
                        f"Add {gpus} compute NICs per node, one per GPU.",
                        f"Voeg {gpus} compute-NIC's per node toe, één per GPU.",
                    ),
                    gpus=gpus,
                    nics=0,
                )
            )
        elif gpus and multi_node and training and 0 < nics < gpus:
            out.append(_fewer_nics(ctx, subject, gpus, nics))
        adapters = sum(p.quantity for p in ctx.compute_adapters)
        if design.node_count == 1 and design.fabric is None and adapters:
            out.append(_not_needed(ctx, subject, adapters))
    return out


def _fewer_nics(ctx: GroupContext, subject: str, gpus: int, nics: int) -> Finding:
    share = gpus / nics
    share_en, share_nl = fmt.num(share, 1)
    speed = _nic_speed(ctx)
    if speed:
        per_gpu_en, per_gpu_nl = fmt.num(speed * nics / gpus)
        sp_en, sp_nl = fmt.num(speed)
        cost_en = f"; each GPU gets about {per_gpu_en} Gb/s to other nodes instead of {sp_en} Gb/s"
        cost_nl = f"; elke GPU krijgt zo'n {per_gpu_nl} Gb/s naar andere nodes in plaats van {sp_nl} Gb/s"
    else:
        cost_en = cost_nl = ""
    return finding(
        Code.NIC_FEWER_THAN_GPUS,
        subject,
        fmt.text(
            f"Each node has {gpus} GPUs but {nics} compute {fmt.plural(nics, 'NIC', 'NICs')}: every NIC is "
            f"shared by {share_en} GPUs{cost_en}. Gradient all-reduce between nodes slows down accordingly.",
            f"Elke node heeft {gpus} GPU's maar {nics} compute-NIC{fmt.plural(nics, '', chr(39) + 's')}: elke "
            f"NIC wordt gedeeld door {share_nl} GPU's{cost_nl}. De gradient-all-reduce tussen nodes wordt "
            f"navenant trager.",
        ),
        fmt.text(
            f"Use {gpus} compute NICs per node, one per GPU, each on its own rail.",
            f"Gebruik {gpus} compute-NIC's per node, één per GPU, elk op een eigen rail.",
        ),
        gpus=gpus,
        nics=nics,
    )


def _not_needed(ctx: GroupContext, subject: str, adapters: int) -> Finding:
    prices = [p.spec.price_eur * p.quantity for p in ctx.compute_adapters if p.spec.price_eur is not None]
    if prices and len(prices) == len(ctx.compute_adapters):
        saving = float(sum(prices))
        s_en, s_nl = fmt.num(saving)
        save_en, save_nl = (
            f" Removing {fmt.plural(adapters, 'it', 'them')} saves about EUR {s_en} (list price).",
            f" Weglaten bespaart zo'n € {s_nl} (lijstprijs).",
        )
    else:
        save_en = f" Removing {fmt.plural(adapters, 'it', 'them')} saves money."
        save_nl = " Weglaten bespaart geld."
    one = adapters == 1
    nics_en = f"{adapters} compute NIC carries" if one else f"{adapters} compute NICs carry"
    nics_nl = f"{adapters} compute-NIC draagt" if one else f"{adapters} compute-NIC's dragen"
    drop_en = "NIC, or keep it" if one else "NICs, or keep them"
    drop_nl = "compute-NIC weg, of houd hem" if one else "compute-NIC's weg, of houd ze"
    return finding(
        Code.NIC_NOT_NEEDED,
        subject,
        fmt.text(
            f"This is a single node without a compute fabric, so the {nics_en} no GPU traffic: NVLink does that "
            f"inside the node.{save_en}",
            f"Dit is één node zonder compute-fabric, dus de {nics_nl} geen GPU-verkeer: dat doet NVLink binnen "
            f"de node.{save_nl}",
        ),
        fmt.text(
            f"Remove the compute {drop_en} if you plan to add nodes and a fabric later.",
            f"Laat de {drop_nl} als je later nodes en een fabric wilt toevoegen.",
        ),
        nics=adapters,
    )


def workload_findings(design: DesignIn, contexts: list[GroupContext]) -> tuple[list[Finding], Sizing | None]:
    """Rules: size the workload (sizing.py) against the design's GPUs. Not fitting one GPU: tensor parallelism
    inside the NVLink domain is required (info). Not fitting one node: the job spans nodes (info), which needs
    enough GPUs in total (error) and a compute fabric between the nodes (error, WORKLOAD_NEEDS_FABRIC). 70B-class
    training on NVLink of 600 GB/s or less: H100-class 900 GB/s advised (warning). With mixed GPU groups the
    smallest GPU memory and the fewest GPUs per node are used (the conservative choice).
    Source: NCS seeds; sizing.py for the bytes per parameter."""
    wl = design.workload
    if wl is None:
        return [], None
    gpu_groups = [c for c in contexts if c.gpus and all(g.memory_gb for g in c.gpu_specs)]
    if not gpu_groups:
        return [
            finding(
                Code.WORKLOAD_NOT_SIZED,
                "workload",
                fmt.text(
                    "The design has no GPU with known memory, so we cannot size the workload against it.",
                    "Het ontwerp heeft geen GPU met bekend geheugen, dus we kunnen de workload er niet tegen afzetten.",
                ),
                fmt.text("Add GPUs to the node groups.", "Voeg GPU's toe aan de nodegroepen."),
            )
        ], None
    mem = min(g.memory_gb for c in gpu_groups for g in c.gpu_specs)
    per_node = min(c.gpus_per_node for c in gpu_groups)
    sizing = size_workload(wl.kind, wl.model_parameters_billion, mem, per_node)
    gpu_nodes = sum(c.group.count for c in gpu_groups)
    total_gpus = sum(c.group.count * c.gpus_per_node for c in gpu_groups)
    out: list[Finding] = []
    p_en, p_nl = fmt.num(wl.model_parameters_billion, 1)
    need_en, need_nl = fmt.num(sizing.memory_needed_gb)
    use_en, use_nl = fmt.num(sizing.usable_gb_per_gpu, 1)
    bpp_en, bpp_nl = fmt.num(sizing.bytes_per_param, 1)
    kind_nl = "training" if wl.kind == "training" else "inferentie"
    basis_en = (
        f"{wl.kind} of a {p_en}B-parameter model needs about {need_en} GB ({bpp_en} bytes per parameter); "
        f"one GPU offers {use_en} GB usable (90% of {fmt.num_en(mem, 1)} GB)"
    )
    basis_nl = (
        f"{kind_nl} van een model met {p_nl} miljard parameters vraagt zo'n {need_nl} GB ({bpp_nl} bytes "
        f"per parameter); één GPU biedt {use_nl} GB bruikbaar (90% van {fmt.num_nl(mem, 1)} GB)"
    )
    data = sizing.to_dict()
    if not sizing.fits_one_gpu:
        out.append(
            finding(
                Code.WORKLOAD_TENSOR_PARALLEL,
                "workload",
                fmt.text(
                    f"The model does not fit one GPU: {basis_en}. It needs at least {sizing.min_gpus} GPUs with "
                    f"tensor parallelism inside the NVLink domain.",
                    f"Het model past niet op één GPU: {basis_nl}. Het vraagt minstens {sizing.min_gpus} GPU's met "
                    f"tensor parallelism binnen het NVLink-domein.",
                ),
                fmt.text(
                    "Keep the tensor-parallel group inside one node, where NVLink carries it.",
                    "Houd de tensor-parallelle groep binnen één node, waar NVLink het verkeer draagt.",
                ),
                **data,
            )
        )
    if not sizing.fits_one_node:
        out.append(
            finding(
                Code.WORKLOAD_SPANS_NODES,
                "workload",
                fmt.text(
                    f"The model does not fit one node of {per_node} GPUs: it needs at least {sizing.min_gpus} GPUs, "
                    f"so at least {sizing.min_nodes} nodes, and the job spans nodes over the compute fabric.",
                    f"Het model past niet in één node met {per_node} GPU's: het vraagt minstens {sizing.min_gpus} "
                    f"GPU's, dus minstens {sizing.min_nodes} nodes, en de job loopt over de compute-fabric.",
                ),
                fmt.text(
                    "Plan pipeline or data parallelism between nodes and tensor parallelism within them.",
                    "Plan pipeline- of dataparallelisme tussen nodes en tensor parallelism binnen een node.",
                ),
                **data,
            )
        )
    if total_gpus < sizing.min_gpus:
        out.append(
            finding(
                Code.WORKLOAD_NOT_ENOUGH_GPUS,
                "node_groups",
                fmt.text(
                    f"Not enough GPU memory: {basis_en}, so at least {sizing.min_gpus} GPUs "
                    f"({sizing.min_nodes} nodes of {per_node}); the design has {total_gpus} in {gpu_nodes} "
                    f"{fmt.plural(gpu_nodes, 'node', 'nodes')}.",
                    f"Te weinig GPU-geheugen: {basis_nl}, dus minstens {sizing.min_gpus} GPU's "
                    f"({sizing.min_nodes} nodes van {per_node}); het ontwerp heeft er {total_gpus} in {gpu_nodes} "
                    f"{fmt.plural(gpu_nodes, 'node', 'nodes')}.",
                ),
                fmt.text(
                    f"Raise the node count to at least {sizing.min_nodes}, or choose GPUs with more memory.",
                    f"Verhoog het aantal nodes naar minstens {sizing.min_nodes}, of kies GPU's met meer geheugen.",
                ),
                total_gpus=total_gpus,
                **data,
            )
        )
    if not sizing.fits_one_node and design.fabric is None and gpu_nodes >= 2:
        out.append(
            finding(
                Code.WORKLOAD_NEEDS_FABRIC,
                "fabric",
                fmt.text(
                    f"The model needs at least {sizing.min_nodes} nodes, so the job spans nodes, but the design "
                    f"has no compute fabric. Without one the {gpu_nodes} nodes cannot train it together.",
                    f"Het model vraagt minstens {sizing.min_nodes} nodes, dus de job loopt over meerdere nodes, "
                    f"maar het ontwerp heeft geen compute-fabric. Zonder fabric kunnen de {gpu_nodes} nodes het "
                    f"niet samen trainen.",
                ),
                fmt.text(
                    "Add a compute fabric (for example NDR InfiniBand, rail-optimized) with one NIC per GPU.",
                    "Voeg een compute-fabric toe (bijvoorbeeld NDR InfiniBand, rail-optimized) met één NIC per GPU.",
                ),
                min_nodes=sizing.min_nodes,
                nodes=gpu_nodes,
            )
        )
    if wl.kind == "training" and wl.model_parameters_billion >= SEVENTY_B_CLASS:
        out.extend(_nvlink_bandwidth(gpu_groups, p_en, p_nl))
    return out, sizing


def _nvlink_bandwidth(gpu_groups: list[GroupContext], p_en: str, p_nl: str) -> list[Finding]:
    out, seen = [], set()
    for ctx in gpu_groups:
        gpu = ctx.gpus[0].spec
        if gpu.part_number in seen:
            continue
        seen.add(gpu.part_number)
        bw = gpu.nvlink_gbps if gpu.has_nvlink or gpu.bridge_sizes else None
        if bw is not None and bw >= NVLINK_ADVISED_GBPS:
            continue
        if bw is None:
            have_en = "has no NVLink, so tensor parallelism runs over PCIe"
            have_nl = "heeft geen NVLink, dus tensor parallelism loopt via PCIe"
        else:
            have_en = f"has {fmt.num_en(bw)} GB/s NVLink per GPU"
            have_nl = f"heeft {fmt.num_nl(bw)} GB/s NVLink per GPU"
        out.append(
            finding(
                Code.WORKLOAD_NVLINK_BANDWIDTH,
                ctx.gpus[0].path,
                fmt.text(
                    f"Training a {p_en}B-parameter model needs tensor parallelism over 8 GPUs, and {gpu.part_number} "
                    f"{have_en}. It works, but communication becomes the bottleneck sooner; H100-class NVLink at "
                    f"900 GB/s (+50% over A100's 600 GB/s) or better is the sensible minimum.",
                    f"Training van een model met {p_nl} miljard parameters vraagt tensor parallelism over 8 GPU's, "
                    f"en {gpu.part_number} {have_nl}. Het kan, maar communicatie wordt eerder de bottleneck; "
                    f"NVLink van H100-klasse met 900 GB/s (50% meer dan de 600 GB/s van A100) of beter is het "
                    f"verstandige minimum.",
                ),
                fmt.text(
                    "Choose HGX H100, H200 or B200 for this model size.",
                    "Kies HGX H100, H200 of B200 voor dit modelformaat.",
                ),
                nvlink_gbps=bw,
            )
        )
    return out
