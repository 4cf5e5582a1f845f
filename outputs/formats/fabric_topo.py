"""``fabric.topo``: the IBDM topology file that ``ibdiagnet -t`` and UFM's topology compare read, from the cabling
CSV's compute links. A section per system (``<type> <name>``, then ``P<port> -> <type> <name> P<port>`` lines, a
blank line after), every link listed from both sides. A host's system is one adapter, ``node-0001/mlx5_2``, its
port P1 (P2 for a NIC's link to a second plane); the mapping of the cabling CSV's NIC names to RDMA device names
is the comment block at the top of the file. A split switch port ``p9.2`` is panel port ``P9/2``."""

from __future__ import annotations

from collections.abc import Iterator

from configurator.result import ValidationResult
from outputs.format import OutputFormat
from outputs.links import Link, compute_links, rdma_device, switch_type, unavailable

HOST_TYPE = "HCA"


def switch_port(port: str) -> str:
    """A switch's panel port: ``p17`` → ``P17``, split half ``p9.2`` → ``P9/2``."""
    return "P" + port.removeprefix("p").replace(".", "/")


def render(result: ValidationResult, language: str) -> Iterator[str]:
    links = compute_links(result)
    return _lines(links, switch_type(result))


def _lines(links: list[Link], switch: str) -> Iterator[str]:
    systems: dict[str, tuple[str, list[str]]] = {}
    nics: dict[str, str] = {}

    def end(name: str, port: str, node: bool) -> tuple[str, str, str]:
        if node:
            device, panel = rdma_device(port)
            nics.setdefault(port.partition(".")[0], device)
            return HOST_TYPE, f"{name}/{device}", panel
        return switch, name, switch_port(port)

    for link in links:
        a = end(link.a_end, link.a_port, link.node_link)
        z = end(link.z_end, link.z_port, False)
        systems.setdefault(a[1], (a[0], []))[1].append(f"{a[2]} -> {z[0]} {z[1]} {z[2]}")
        systems.setdefault(z[1], (z[0], []))[1].append(f"{z[2]} -> {a[0]} {a[1]} {a[2]}")
    yield "# IBDM topology file (ibdiagnet -t): the compute fabric as cabled.\n"
    yield "# Host port map: cabling CSV NIC = RDMA device (system <node>/<device>, port P1; P2 = the NIC's 2nd plane)\n"
    for nic, device in sorted(nics.items(), key=lambda item: int(item[0].removeprefix("nic"))):
        yield f"#   {nic} = {device}\n"
    yield "\n"
    for name, (kind, lines) in systems.items():
        yield f"{kind} {name}\n"
        for line in lines:
            yield f"   {line}\n"
        yield "\n"


FORMAT = OutputFormat(name="fabric.topo", media_type="text/plain", render=render, unavailable=unavailable)
