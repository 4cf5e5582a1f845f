"""``topology.conf``: Slurm's topology file. The tree plugin's ``SwitchName=… Nodes=…`` / ``SwitchName=… Switches=…``
lines (every node under exactly one leaf, one top switch reaching all); for rack-scale NVLink systems the block
plugin's ``BlockName=… Nodes=…`` per NVLink domain (one Slurm node per compute tray) and ``BlockSizes``."""

from __future__ import annotations

from collections.abc import Iterator

from configurator.result import ValidationResult
from outputs.format import OutputFormat
from outputs.links import unavailable
from outputs.slurmtopo import SlurmTopology, ranges, slurm_topology


def render(result: ValidationResult, language: str) -> Iterator[str]:
    return _lines(slurm_topology(result))


def _lines(topology: SlurmTopology) -> Iterator[str]:
    if topology.blocks:
        yield "# Slurm topology.conf (TopologyPlugin=topology/block): one block per NVLink domain\n"
        for block in topology.blocks:
            yield f"BlockName={block.name} Nodes={ranges(block.nodes)}\n"
        yield f"BlockSizes={','.join(str(s) for s in topology.block_sizes)}\n"
        return
    yield "# Slurm topology.conf (TopologyPlugin=topology/tree)\n"
    for switch in topology.switches:
        if switch.nodes:
            yield f"SwitchName={switch.name} Nodes={ranges(switch.nodes)}\n"
        else:
            yield f"SwitchName={switch.name} Switches={ranges(switch.switches)}\n"


FORMAT = OutputFormat(name="topology.conf", media_type="text/plain", render=render, unavailable=unavailable)
