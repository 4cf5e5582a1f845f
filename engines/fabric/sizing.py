"""Fabric sizing: switch and link counts per tier from the switch's logical ports, the split of node-facing ports,
the oversubscription and the topology (README "Sizing arithmetic"). Pure arithmetic on counts.

Sizing in short (k = logical ports of the switch, s = split factor of node-facing ports):

* 1 tier when every endpoint (nodes x rails) fits on one switch (k x s ports).
* Leaf: down = floor(k d / (d + u)) logical ports to the nodes, up = k - down to the spines.
* Rail-optimized: an SU holds down x s nodes; each SU has one leaf per rail; a partial SU is wired full.
  Fat-tree: endpoints packed onto leaves by port count.
* 2 tiers while leaves <= k (each leaf needs at least one link to every spine); spines: the smallest count
  that divides every leaf's uplinks evenly and has ports for all of them.
* 3 tiers: spines split half down, half up; pods of at most k/2 leaves (whole SUs) with their own spines;
  the spines of position j in every pod form plane j, balanced over the core switches of that plane.
  Up to k pods (k^3/4 endpoints at 1:1); beyond, ``tiers`` 0 and the capacity reached.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import replace as _replace

from design.specs import SwitchSpec


@dataclass(frozen=True)
class Size:
    tiers: int
    down: int = 0
    up: int = 0
    nodes_per_unit: int = 0
    units: int = 0
    leaves: int = 0
    node_groups: tuple[tuple[int, int], ...] = ()  # (leaves, node links on each)
    spines: int = 0
    m: int = 0  # links per leaf-spine pair
    pods: int = 0
    leaves_per_pod: int = 0
    spines_per_pod: int = 0
    last_pod_spines: int = 0  # spines of the last pod, sized to its leaves (= spines_per_pod when it is full)
    spine_down: int = 0
    spine_up: int = 0
    spine_groups: tuple[tuple[int, int], ...] = ()  # (spines, leaf links on each)
    cores_per_plane: int = 0
    mc: int = 0  # links per spine-core pair
    cores: int = 0
    capacity: int = 0  # endpoints the largest fabric of this switch and ratio reaches (when infeasible)
    one_to_one: int = 0  # the last endpoints, on leaves of their own at 1:1 (``with_one_to_one_leaves``)


def balanced_uppers(lowers: int, uplinks: int, upper_ports: int) -> int | None:
    """Smallest number of upper switches that divides each lower switch's uplinks evenly and has ports for
    all of them (fabric.md section 0 rule 4), or None when even one link per pair overflows the uppers."""
    need = lowers * uplinks
    for n in range(max(1, -(-need // upper_ports)), uplinks + 1):
        if uplinks % n == 0 and n * upper_ports >= need:
            return n
    return None


def _groups(*pairs: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    return tuple((c, e) for c, e in pairs if c > 0 and e > 0)


def _up(n: int, step: int) -> int:
    """``n`` rounded up to a multiple of ``step``."""
    return -(-n // step) * step


def size_fabric(
    nodes: int, rails: int, k: int, split: int, oversub: tuple[int, int], topology: str, cage_ports: int = 1
) -> Size:
    """Switch and link counts. ``cage_ports``: logical ports per cage; down/up are kept to whole cages so a
    twin-port plug never serves a node and a spine at once. Two tiers are sized to the nodes quoted
    (``_two_tiers``); three tiers build whole pods of full-size leaves."""
    endpoints = nodes * rails
    if endpoints <= k * split:
        return Size(tiers=1, nodes_per_unit=nodes, units=1, leaves=1, node_groups=((1, endpoints),))
    two = _two_tiers(nodes, rails, k, split, oversub, topology, cage_ports)
    if two is not None:
        return two
    d, u = oversub
    down = k * d // (d + u) // cage_ports * cage_ports
    up = k - down
    per_leaf = down * split
    if topology == "rail-optimized":
        npu = per_leaf
        units = -(-nodes // npu)
        leaves = units * rails
    else:
        npu, units = nodes, 1
        leaves = -(-endpoints // per_leaf)
    node_groups = _node_groups(nodes, rails, npu, per_leaf, topology)
    base = Size(tiers=2, down=down, up=up, nodes_per_unit=npu, units=units, leaves=leaves, node_groups=node_groups)
    return _three_tiers(base, rails, k, topology, cage_ports, per_leaf)


def size_with_one_to_one(
    nodes: int, rails: int, k: int, split: int, oversub: tuple[int, int], topology: str, cage: int, one_to_one: int
) -> Size:
    """``size_fabric`` where the last ``one_to_one`` of the endpoints (one rail) connect at 1:1 on leaves of their
    own (``with_one_to_one_leaves``), when the others need two tiers; else all at the one ratio."""
    size = size_fabric(nodes, rails, k, split, oversub, topology, cage)
    if one_to_one <= 0 or rails != 1 or size.tiers != 2:
        return size
    others = size_fabric(nodes - one_to_one, rails, k, split, oversub, topology, cage)
    return with_one_to_one_leaves(others, one_to_one, k) or size


def with_one_to_one_leaves(size: Size, ports: int, k: int) -> Size | None:
    """``size`` (two tiers) with ``ports`` more endpoints on leaves of their own at 1:1: each such leaf takes as many
    of them as it has uplinks (the other leaves' ``up``), and the spines are balanced again over every leaf; None
    where that does not fit. The DGX SuperPOD H100 RA's storage fabric: "The storage devices are connected at a 1:1
    port to uplink ratio", beside the DGX ports "near 4:3" (its Table 8: 254 node links and 192 + 48 leaf-spine)."""
    per = one_to_one_per_leaf(size.up, size.down)
    if size.tiers != 2 or ports <= 0 or per <= 0:
        return None
    full, rem = divmod(ports, per)
    leaves = size.leaves + full + (1 if rem else 0)
    spines = balanced_uppers(leaves, size.up, k)
    if spines is None or leaves > k:
        return None
    return _replace(
        size,
        leaves=leaves,
        node_groups=size.node_groups + _groups((full, per), (1 if rem else 0, rem)),
        spines=spines,
        m=size.up // spines,
        spine_groups=((spines, leaves * size.up // spines),),
        one_to_one=ports,
    )


def one_to_one_per_leaf(up: int, down: int) -> int:
    """Endpoints a leaf at 1:1 takes: as many as its uplinks, on its node-facing ports (the uplinks follow them)."""
    return min(up, down)


def _node_groups(nodes: int, rails: int, npu: int, per_leaf: int, topology: str) -> tuple[tuple[int, int], ...]:
    """(leaves, node links on each): rail-optimized, full SUs of ``npu`` nodes and the last one's leaves;
    fat-tree, endpoints packed ``per_leaf`` to a leaf."""
    if topology == "rail-optimized":
        full, rem = divmod(nodes, npu)
        return _groups((full * rails, npu), (rails if rem else 0, rem))
    full, rem = divmod(nodes * rails, per_leaf)
    return _groups((full, per_leaf), (1 if rem else 0, rem))


def _leaf_layout(nodes: int, rails: int, down: int, split: int, topology: str, cage: int) -> tuple[int, int, int, int]:
    """Leaves when each takes at most ``down`` node-facing ports: (down ports actually needed, whole cages;
    nodes per scalable unit; units; leaves). Rail-optimized spreads the nodes evenly over the units, so a
    leaf carries no more downlinks (and no more uplinks) than its nodes need."""
    if topology == "rail-optimized":
        units = -(-nodes // (down * split))
        npu = -(-nodes // units)
        units = -(-nodes // npu)
        return _up(-(-npu // split), cage), npu, units, units * rails
    endpoints = nodes * rails
    leaves = -(-endpoints // (down * split))
    per = -(-endpoints // leaves)
    need = _up(-(-per // split), cage)
    return need, nodes, 1, -(-endpoints // (need * split))


def _two_tiers(
    nodes: int, rails: int, k: int, split: int, oversub: tuple[int, int], topology: str, cage: int
) -> Size | None:
    """The two-tier fabric with the fewest switches for these nodes, or None when two tiers cannot hold them.

    Every leaf takes D node-facing ports (whole cages) and U >= D u / d uplinks (whole cages, D + U <= k), so
    a leaf is never more oversubscribed than asked; spines are the smallest balanced count for U
    (``balanced_uppers``). All splits D/U are tried: fewest switches first, then fewest leaf-spine links. A
    full SU at 1:1 on a QM9700 stays 32/32 (NVIDIA's tables); 16 nodes get 16/16 leaves and 2 spines, 48
    nodes at 2:1 leaves of 24 nodes with 12 uplinks and 3 spines."""
    d, u = oversub
    best: tuple[tuple[int, int], Size] | None = None
    seen: set[tuple[int, int]] = set()
    for down in range(cage, k, cage):
        need, npu, units, leaves = _leaf_layout(nodes, rails, down, split, topology, cage)
        if leaves > k or (need, leaves) in seen or (best is not None and leaves + 1 >= best[0][0]):
            continue
        seen.add((need, leaves))
        for up in range(_up(-(-need * u // d), cage), k - need + 1, cage):
            if best is not None and leaves + -(-leaves * up // k) >= best[0][0]:
                break
            spines = balanced_uppers(leaves, up, k)
            if spines is None:
                continue
            key = (leaves + spines, leaves * up)
            if best is None or key < best[0]:
                best = (key, _two_tier_size(nodes, rails, split, topology, need, up, npu, units, leaves, spines, k))
    return best[1] if best else None


def _two_tier_size(
    nodes: int, rails: int, split: int, topology: str, down: int, up: int, npu: int, units: int, leaves: int,
    spines: int, k: int,
) -> Size:  # fmt: skip
    return Size(
        tiers=2,
        down=down,
        up=up,
        nodes_per_unit=npu,
        units=units,
        leaves=leaves,
        node_groups=_node_groups(nodes, rails, npu, down * split, topology),
        spines=spines,
        m=up // spines,
        spine_down=k,
        spine_groups=((spines, leaves * up // spines),),
    )


def _three_tiers(base: Size, rails: int, k: int, topology: str, cage_ports: int, per_leaf: int) -> Size:
    """Three tiers: spines non-blocking (half down, half up), pods of whole SUs; ``tiers`` 0 with the capacity
    reached when even three tiers do not hold the endpoints."""
    up, units, leaves, npu = base.up, base.units, base.leaves, base.nodes_per_unit
    spine_down = k // 2 // cage_ports * cage_ports
    spine_up = k - spine_down
    if topology == "rail-optimized":
        units_per_pod = spine_down // rails
        leaves_per_pod = units_per_pod * rails
        pods = -(-units // units_per_pod) if units_per_pod else 0
    else:
        leaves_per_pod = spine_down
        pods = -(-leaves // leaves_per_pod)
    spp = balanced_uppers(leaves_per_pod, up, spine_down) if leaves_per_pod else None
    cpp = balanced_uppers(pods, spine_up, k) if spp else None
    if not leaves_per_pod or spp is None or cpp is None:
        units_per_pod = leaves_per_pod // rails if topology == "rail-optimized" else 0
        per_pod = units_per_pod * npu * rails if topology == "rail-optimized" else leaves_per_pod * per_leaf
        return _replace(base, tiers=0, capacity=k * per_pod)
    m = up // spp
    # The last pod's spines are sized to its leaves (balanced as any pod's); planes it has no spine in simply
    # have one pod fewer on their cores.
    last = leaves - (pods - 1) * leaves_per_pod
    last_spp = balanced_uppers(last, up, spine_down) or spp
    spine_groups = _groups(((pods - 1) * spp, leaves_per_pod * m), (last_spp, last * (up // last_spp)))
    return _replace(
        base,
        tiers=3,
        spines=(pods - 1) * spp + last_spp,
        m=m,
        pods=pods,
        leaves_per_pod=leaves_per_pod,
        spines_per_pod=spp,
        last_pod_spines=last_spp,
        spine_down=spine_down,
        spine_up=spine_up,
        spine_groups=spine_groups,
        cores_per_plane=cpp,
        mc=spine_up // cpp,
        cores=spp * cpp,
    )


def split_options(switch: SwitchSpec, hca_speed: int) -> list[int]:
    """Split factors to try, largest first: an NDR200 HCA on an NDR port may use half a split port."""
    port = switch.port_speed_gbps
    if hca_speed and port and hca_speed < port and switch.max_split > 1:
        best = min(switch.max_split, port // hca_speed)
        return list(range(best, 0, -1))
    return [1]


def pod_downlinks(switch: SwitchSpec) -> int:
    """Downlinks of a three-tier spine (half its ports, whole cages): the most leaves one pod can hold."""
    cage = max(1, switch.logical_ports_per_cage)
    return switch.logical_ports // 2 // cage * cage


@dataclass(frozen=True)
class Reserve:
    """Switches a plan holds beyond what its links need, and the room they give."""

    switches: int  # built minus the fewest the links need by port count
    room_nodes: int  # nodes that could still be added without a new switch, at the asked ratio
    free_ports: dict[str, int]
    three_tier: bool


def growth_reserve(
    size: Size, nodes: int, rails: int, k: int, split: int, oversub: tuple[int, int], topology: str
) -> Reserve | None:
    """The reserve of a sized plan, or None when it has none. Two tiers: balanced spines (every leaf the same
    number of links to every spine) may need more spines than the uplinks fill. Three tiers: whole pods (the
    last pod gets a full pod's spines, the cores are sized for whole pods). Lower bound: leaves plus the
    switches whose ports the links alone fill (non-blocking spines carry up what comes from below)."""
    if size.tiers < 2:
        return None
    d, u = oversub
    endpoints = nodes * rails
    per_leaf = -(-(size.nodes_per_unit if topology == "rail-optimized" else -(-endpoints // size.leaves)) // split)
    need_up = -(-per_leaf * u // d)
    uplinks = size.leaves * need_up
    free_leaf = size.leaves * (k - size.up) - sum(c * -(-e // split) for c, e in size.node_groups)
    if size.tiers == 2:
        least = size.leaves + -(-uplinks // k)
        widest = min(k - size.up, size.up * d // u)
        capacity = (
            size.units * widest * split if topology == "rail-optimized" else size.leaves * widest * split // rails
        )
        free = {"leaf": free_leaf, "spine": size.spines * k - size.leaves * size.up}
    else:
        spines = -(-uplinks // size.spine_down)
        least = size.leaves + spines + -(-uplinks // k)
        # Leaves the built spines take: whole pods, and the last pod as far as its spines' down-ports reach.
        last = min(size.leaves_per_pod, (size.last_pod_spines or size.spines_per_pod) * size.spine_down // size.up)
        held = (size.pods - 1) * size.leaves_per_pod + last
        if topology == "rail-optimized":
            capacity = held // rails * size.nodes_per_unit
        else:
            capacity = held * size.down * split // rails
        free = {
            "leaf": free_leaf,
            "spine": size.spines * k - size.leaves * size.up - size.spines * size.spine_up,
            "core": size.cores * k - size.spines * size.spine_up,
        }
    built = size.leaves + size.spines + size.cores
    if built <= least:
        return None
    return Reserve(built - least, max(0, capacity - nodes), free, size.tiers == 3)
