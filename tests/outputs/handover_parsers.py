"""Readers of the hand-over formats, written from the formats' own documentation (not from the product's code):
the IBDM topology file, Slurm's topology.conf, and Slurm's BlockSizes rules."""

from __future__ import annotations

import re

import hostlist

LINE = re.compile(r"^\s+(\S+)\s+->\s+(\S+)\s+(\S+)\s+(\S+)\s*$")


def read_ibdm(text: str) -> dict[tuple[str, str], tuple[str, str]]:
    """(system, port) -> (remote system, remote port) of every connection line of an IBDM topology file; a
    ValueError when a link is not listed from both sides alike or a port is connected twice."""
    ends: dict[tuple[str, str], tuple[str, str]] = {}
    system = None
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#"):
            if not raw.strip():
                system = None
            continue
        match = LINE.match(raw)
        if match is None:
            if raw[0].isspace():
                raise ValueError(f"not a connection line: {raw!r}")
            _type, system = raw.split()[:2]
            continue
        if system is None:
            raise ValueError(f"connection outside a system section: {raw!r}")
        port, _rtype, remote, rport = match.groups()
        if (system, port) in ends:
            raise ValueError(f"{system} {port} connected twice")
        ends[(system, port)] = (remote, rport)
    for here, there in ends.items():
        if ends.get(there) != here:
            raise ValueError(f"{here} -> {there} is not listed from the other side")
    return ends


def links_of(ends: dict[tuple[str, str], tuple[str, str]]) -> set[frozenset[tuple[str, str]]]:
    return {frozenset((a, b)) for a, b in ends.items()}


def read_topology_conf(text: str) -> dict[str, dict[str, list[str]]]:
    """SwitchName or BlockName -> {"Nodes": [...], "Switches": [...]} of a Slurm topology.conf; BlockSizes under
    the key ``BlockSizes``."""
    out: dict[str, dict[str, list[str]]] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = dict(item.split("=", 1) for item in line.split())
        if "BlockSizes" in fields:
            out["BlockSizes"] = {"sizes": fields["BlockSizes"].split(",")}
            continue
        name = fields.get("SwitchName") or fields["BlockName"]
        out[name] = {key: hostlist.expand_hostlist(fields[key]) for key in ("Nodes", "Switches") if key in fields}
    return out


def block_sizes_follow_slurms_rules(sizes: list[int], base_block_nodes: int, blocks: int) -> bool:
    """Slurm's block plugin: the first size is the base block's node count; each further size is a power-of-two
    multiple of the first, ascending, none larger than all the blocks together."""
    if not sizes or sizes[0] != base_block_nodes:
        return False
    for previous, size in zip(sizes, sizes[1:], strict=False):
        if size <= previous:
            return False
    for size in sizes:
        factor, rest = divmod(size, sizes[0])
        if rest or factor & (factor - 1) or factor > blocks:
            return False
    return True
