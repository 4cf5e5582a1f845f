"""The design the quote and picture benchmarks build: ``count`` x SYS-821GE-TNHR with an HGX H200 board and eight
ConnectX-7 adapters each, on a rail-optimized MQM9700 fabric from two nodes (the contract's example, sized)."""

from __future__ import annotations

# With ``networks``: a BlueField-3 for the storage network and a ConnectX-7 for in-band management in every node.
NETWORK_ADAPTERS = [
    {"part": "900-9D3B6-00CN-AB0", "quantity": 1, "role": "storage"},
    {"part": "MCX755106AS-HEAT", "quantity": 1, "role": "management"},
]


def design(count: int, *, networks: bool = False) -> dict:
    return {
        "schema": "design/v1",
        "name": f"{count} x HGX H200",
        "node_groups": [
            {
                "name": "gpu",
                "count": count,
                "server": "SYS-821GE-TNHR",
                "components": [
                    {"part": "HGX-H200-8GPU", "quantity": 1},
                    {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
                    *(NETWORK_ADAPTERS if networks else []),
                ],
            }
        ],
        "fabric": {"switch": "MQM9700-NS2F"} if count > 1 else None,
    }
