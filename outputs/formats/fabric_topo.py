"""``fabric.topo``: the IBDM topology file that ``ibdiagnet -t`` and UFM's topology compare read, from the cabling
CSV's compute links. A section per system (``<type> <name>``, then ``P<port> -> <type> <name> P<port>`` lines, a
blank line after), every link listed from both sides. A host's system is one adapter, ``node-0001/mlx5_2``, its
port P1 (P2 for a NIC's link to a second plane); the mapping of the cabling CSV's NIC names to RDMA device names
is the comment block at the top of the file. A split switch port ``p9.2`` is panel port ``P9/2``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from configurator.result import ValidationResult
from engines.fabric.cabling import Row
from engines.fabric.model import NODE_LEAF
from outputs.format import OutputFormat
from outputs.links import compute_rows, rdma_device, switch_type, unavailable

HOST_TYPE = "HCA"


def switch_port(port: str) -> str:
    """A switch's panel port: ``p17`` → ``P17``, split half ``p9.2`` → ``P9/2``."""
    return "P" + port.removeprefix("p").replace(".", "/")


def render(result: ValidationResult, language: str) -> Iterator[str]:
    rows, _racks = compute_rows(result)
    return _lines(rows, switch_type(result))


def _lines(rows: Iterable[Row], switch: str) -> Iterator[str]:
    """The file from the compute rows, read as they come (none kept), its ports' names made once (a switch's
    ``p17`` → ``P17``, a node's ``nic3`` → ``mlx5_2`` ``P1``). A system's section is kept as text: a host's (a line
    a plane) as one string, a switch's as a list of lines, so that the 16,000 hosts of a 2,048-node fabric leave the
    garbage collector no container to track."""
    systems: dict[str, str | list[str]] = {}  # every system's section, in the order the rows name them
    nics: dict[str, str] = {}
    hosts: dict[str, tuple[str, str]] = {}  # a node NIC's RDMA device and port, by its cabling name
    panels: dict[str, str] = {}  # a switch port's panel port, by its cabling name

    for f in rows:
        a_end, a_port, z_end, z_port = f[0], f[1], f[2], f[3]
        z_panel = panels.get(z_port) or panels.setdefault(z_port, switch_port(z_port))
        if f[4] == NODE_LEAF:
            if (host := hosts.get(a_port)) is None:
                host = hosts[a_port] = rdma_device(a_port)
                nics.setdefault(a_port.partition(".")[0], host[0])
            a_kind, a_name, a_panel = HOST_TYPE, f"{a_end}/{host[0]}", host[1]
            section = systems.get(a_name) or f"{HOST_TYPE} {a_name}\n"
            systems[a_name] = f"{section}   {a_panel} -> {switch} {z_end} {z_panel}\n"
        else:
            a_kind, a_name = switch, a_end
            a_panel = panels.get(a_port) or panels.setdefault(a_port, switch_port(a_port))
            _section(systems, a_name, switch).append(f"   {a_panel} -> {switch} {z_end} {z_panel}\n")
        _section(systems, z_end, switch).append(f"   {z_panel} -> {a_kind} {a_name} {a_panel}\n")
    yield "# IBDM topology file (ibdiagnet -t): the compute fabric as cabled.\n"
    yield "# Host port map: cabling CSV NIC = RDMA device (system <node>/<device>, port P1; P2 = the NIC's 2nd plane)\n"
    for nic, device in sorted(nics.items(), key=lambda item: int(item[0].removeprefix("nic"))):
        yield f"#   {nic} = {device}\n"
    yield "\n"
    for section in systems.values():
        yield section if isinstance(section, str) else "".join(section)
        yield "\n"


def _section(systems: dict[str, str | list[str]], name: str, switch: str) -> list[str]:
    """A switch's section: its lines, the first naming it."""
    section = systems.get(name)
    if section is None:
        section = systems[name] = [f"{switch} {name}\n"]
    assert isinstance(section, list)
    return section


FORMAT = OutputFormat(name="fabric.topo", media_type="text/plain", render=render, unavailable=unavailable)
