"""The Slurm topology of a validated design, read from the cabling CSV's compute links: a two-level tree (every
node under exactly one leaf, one top switch above all leaves) or, for rack-scale NVLink systems, one block per
NVLink domain. Hostlist ranges are written by python-hostlist, Slurm's own syntax."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import hostlist

from .links import is_rack_scale, node_links, plane_of

if TYPE_CHECKING:
    from configurator.result import ValidationResult

TOP = "top"  # the one switch of the tree that reaches every leaf


@dataclass(frozen=True)
class Switch:
    name: str
    nodes: tuple[str, ...] = ()
    switches: tuple[str, ...] = ()


@dataclass(frozen=True)
class Block:
    name: str
    nodes: tuple[str, ...]


@dataclass(frozen=True)
class SlurmTopology:
    """``switches``: the tree (leaves first, then the top switch when there are several leaves); ``blocks`` and
    ``block_sizes``: one block per NVLink domain, for rack-scale systems (empty otherwise)."""

    switches: tuple[Switch, ...]
    blocks: tuple[Block, ...]
    block_sizes: tuple[int, ...]


def slurm_leaf(switch: str, rail_optimized: bool) -> str:
    """The Slurm leaf of a fabric leaf: a rail-optimized fabric's scalable unit (``su01`` of ``su01-leaf-r3``, as
    every rail leaf of an SU reaches its nodes in one hop), or the leaf itself."""
    if plane_of(switch) > 1 or switch.startswith("pl"):
        switch = switch.split("-", 1)[1]
    if rail_optimized and "-leaf-r" in switch:
        return switch.split("-leaf-r", 1)[0]
    return switch


def block_sizes(base: int, blocks: int) -> tuple[int, ...]:
    """Slurm's BlockSizes: the base block size, then power-of-two multiples of it up to the number of blocks."""
    sizes, factor = [], 1
    while factor <= blocks:
        sizes.append(base * factor)
        factor *= 2
    return tuple(sizes)


def ranges(names: tuple[str, ...] | list[str]) -> str:
    """A Slurm hostlist expression of the names (python-hostlist)."""
    return str(hostlist.collect_hostlist(list(names)))


def slurm_topology(result: ValidationResult) -> SlurmTopology:
    """The tree and the blocks of the design (OutputUnavailable ``no_fabric_plan`` without a cabled fabric)."""
    fabric = result.fabric_plan
    rail = fabric is not None and fabric.plan.topology == "rail-optimized"
    leaves: dict[str, list[str]] = {}
    placed: set[str] = set()
    racks: dict[str, list[str]] = {}
    site = result.site
    for link in node_links(result):
        if link.a_end in placed:
            continue
        placed.add(link.a_end)  # a node under exactly one leaf: the leaf of its first link
        leaf = slurm_leaf(link.z_end, rail) if site is None else site.switch(slurm_leaf(site.bare(link.z_end), rail))
        leaves.setdefault(leaf, []).append(link.a_end)
        racks.setdefault(link.a_rack, []).append(link.a_end)
    switches = [Switch(name, nodes=tuple(nodes)) for name, nodes in leaves.items()]
    if len(switches) > 1:
        switches.append(Switch(TOP, switches=tuple(leaves)))
    blocks: tuple[Block, ...] = ()
    sizes: tuple[int, ...] = ()
    if is_rack_scale(result) and racks:
        blocks = tuple(Block(f"nvl{i + 1:03d}", tuple(nodes)) for i, nodes in enumerate(racks.values()))
        sizes = block_sizes(min(len(b.nodes) for b in blocks), len(blocks))
    return SlurmTopology(tuple(switches), blocks, sizes)
