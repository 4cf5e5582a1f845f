"""``topology.yaml``: the same Slurm topology as topology.conf, in the YAML file of Slurm 25.05 and later: one
topology with ``cluster_default: true`` (the tree, or the blocks of rack-scale NVLink systems)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import yaml

from configurator.result import ValidationResult
from outputs.format import OutputFormat
from outputs.links import unavailable
from outputs.slurmtopo import SlurmTopology, ranges, slurm_topology


def document(topology: SlurmTopology) -> list[dict[str, Any]]:
    """The YAML document: a list of one topology, the cluster's default."""
    if topology.blocks:
        block = {
            "block_sizes": list(topology.block_sizes),
            "blocks": [{"block": b.name, "nodes": ranges(b.nodes)} for b in topology.blocks],
        }
        return [{"topology": "nvlink", "cluster_default": True, "block": block}]
    switches = [
        {"switch": s.name, "nodes": ranges(s.nodes)} if s.nodes else {"switch": s.name, "children": ranges(s.switches)}
        for s in topology.switches
    ]
    return [{"topology": "fabric", "cluster_default": True, "tree": {"switches": switches}}]


def render(result: ValidationResult, language: str) -> Iterator[str]:
    text = yaml.safe_dump(document(slurm_topology(result)), sort_keys=False, default_flow_style=False)
    return iter(("---\n", text))


FORMAT = OutputFormat(name="topology.yaml", media_type="application/yaml", render=render, unavailable=unavailable)
