"""Issue #34, the hand-over: Slurm's topology.conf / topology.yaml and the IBDM fabric.topo come from the cabling
CSV's compute rows, name the same nodes and switches, and are read by their consumers (slurmctld where it is
installed; a reader of the IBDM format written from its documentation)."""

from __future__ import annotations

import csv
import getpass
import io
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import hostlist
import openpyxl
import pytest
import yaml

from configurator.examples import h200_training_cluster
from configurator.services import design_validate
from outputs.services import design_output
from tests.outputs.handover_parsers import (
    block_sizes_follow_slurms_rules,
    links_of,
    read_ibdm,
    read_topology_conf,
)

pytestmark = pytest.mark.django_db


def hgx(nodes: int) -> dict:
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = nodes
    return doc


def nvl72(racks: int) -> dict:
    return {
        "schema": "design/v1",
        "name": "nvl72",
        "node_groups": [{"name": "gpu", "count": racks, "server": "SRS-GB200-NVL72", "components": []}],
        "fabric": {"switch": "MQM9700-NS2F"},
    }


def text(result, name: str) -> str:
    return "".join(design_output(name=name, result=result, language="en").body)  # type: ignore[arg-type]


def compute_rows(result) -> list[dict[str, str]]:
    return [row for row in csv.DictReader(text(result, "cabling.csv").splitlines()) if row["network"] == "compute"]


def _end(name: str, port: str) -> tuple[str, str]:
    """A cabling-CSV end as the IBDM file names it (the format's documented mapping)."""
    if name.startswith("node-"):
        number, _, link = port.removeprefix("nic").partition(".")
        return f"{name}/mlx5_{int(number) - 1}", f"P{link or 1}"
    return name, "P" + port.removeprefix("p").replace(".", "/")


def csv_links(rows) -> set[frozenset[tuple[str, str]]]:
    return {frozenset((_end(r["a_end"], r["a_port"]), _end(r["z_end"], r["z_port"]))) for r in rows}


def cut_sheet(result) -> tuple[list[tuple], list[str]]:
    body = b"".join(design_output(name="cut-sheet.xlsx", result=result, language="en").body)  # type: ignore[arg-type]
    book = openpyxl.load_workbook(io.BytesIO(body), read_only=True)
    links = list(book["Links"].iter_rows(values_only=True))
    assert links[0][:2] == ("A-Node", "A-Port") and links[0][4:6] == ("Z-Node", "Z-Port")
    nodes = [row[0] for row in book["Nodes"].iter_rows(min_row=2, values_only=True)]
    return [row[:8] for row in links[1:]], nodes


def _sheet_row(r: dict[str, str]) -> tuple:
    """A cabling-CSV row as the cut-sheet's first columns (the tool's ports: 9/2, mlx5_2)."""
    a_port = _end(r["a_end"], r["a_port"])[1]
    if r["a_end"].startswith("node-"):
        device, panel = _end(r["a_end"], r["a_port"])
        a_port = device.split("/")[1] + ("" if panel == "P1" else "/" + panel[1:])
    else:
        a_port = a_port[1:]
    z_port = _end(r["z_end"], r["z_port"])[1][1:]
    u = lambda v: int(v) if v.isdigit() else (v or None)  # noqa: E731
    return (r["a_end"], a_port, r["a_rack"] or None, u(r["a_u"]), r["z_end"], z_port, r["z_rack"] or None, u(r["z_u"]))


CASES = [("hgx", 4), ("hgx", 64), ("hgx", 2048), ("nvl72", 2), ("nvl72", 8)]


@pytest.mark.parametrize(("kind", "size"), CASES)
def test_every_cabling_row_once_in_the_fabric_topology_and_every_node_once_in_slurm(seeded_catalog, kind, size):
    result = design_validate(document=hgx(size) if kind == "hgx" else nvl72(size))
    rows = compute_rows(result)
    assert rows
    ends = read_ibdm(text(result, "fabric.topo"))
    assert len(ends) == 2 * len(rows)  # every link from both sides, each port once
    assert links_of(ends) == csv_links(rows)
    nodes = {r["a_end"] for r in rows if r["link_class"] == "node-leaf"}
    links, listed_nodes = cut_sheet(result)
    assert sorted(links) == sorted(_sheet_row(r) for r in rows)  # every row once, with both ends' rack and U
    assert nodes <= set(listed_nodes) and len(listed_nodes) == len(set(listed_nodes))
    conf = read_topology_conf(text(result, "topology.conf"))
    listed = [n for entry in conf.values() if "Switches" not in entry for n in entry.get("Nodes", [])]
    assert sorted(listed) == sorted(nodes)  # every node once, under one leaf or in one block
    doc = yaml.safe_load(text(result, "topology.yaml"))
    assert [t["cluster_default"] for t in doc] == [True]
    if kind == "hgx":
        top = [e for e in conf.values() if "Switches" in e]
        leaves = [name for name, e in conf.items() if "Switches" not in e]
        if len(leaves) > 1:
            assert len(top) == 1 and sorted(top[0]["Switches"]) == sorted(leaves)
        yaml_nodes = [
            n for s in doc[0]["tree"]["switches"] if "nodes" in s for n in hostlist.expand_hostlist(s["nodes"])
        ]
    else:
        racks = {r["a_rack"] for r in rows if r["link_class"] == "node-leaf"}
        blocks = [name for name in conf if name != "BlockSizes"]
        assert len(blocks) == len(racks) == size  # one block per NVLink domain (rack), one node per tray
        assert all(len(conf[b]["Nodes"]) == 18 for b in blocks)
        sizes = [int(s) for s in conf["BlockSizes"]["sizes"]]
        assert block_sizes_follow_slurms_rules(sizes, 18, len(blocks))
        assert doc[0]["block"]["block_sizes"] == sizes
        yaml_nodes = [n for b in doc[0]["block"]["blocks"] for n in hostlist.expand_hostlist(b["nodes"])]
    assert sorted(yaml_nodes) == sorted(nodes)


def test_swapping_two_leaf_ports_in_the_fabric_topology_gives_two_mismatches(seeded_catalog):
    result = design_validate(document=hgx(64))
    expected = csv_links(compute_rows(result))
    body = text(result, "fabric.topo")
    leaf = "su01-leaf-r1"

    def swap(line: str, system: str | None) -> str:  # P1 <-> P2 of the leaf, on both sides of its links
        parts = line.split()
        if system == leaf and parts and parts[0] in ("P1", "P2"):
            parts[0] = "P2" if parts[0] == "P1" else "P1"
            return "   " + " ".join(parts)
        if len(parts) == 5 and parts[3] == leaf and parts[4] in ("P1", "P2"):
            parts[4] = "P2" if parts[4] == "P1" else "P1"
            return "   " + " ".join(parts)
        return line

    out, system = [], None
    for line in body.splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            system = line.split()[1]
        out.append(swap(line, system))
    found = links_of(read_ibdm("\n".join(out) + "\n"))
    assert len(expected - found) == 2 and len(found - expected) == 2


def test_block_sizes_rules_reader_refuses_what_slurm_refuses():
    assert block_sizes_follow_slurms_rules([18, 36, 72], 18, 4)
    assert not block_sizes_follow_slurms_rules([18, 54], 18, 4)  # 3 x is not a power of two
    assert not block_sizes_follow_slurms_rules([36, 72], 18, 4)  # the first is the base block
    assert not block_sizes_follow_slurms_rules([18, 144], 18, 4)  # more than all the blocks


# --- slurmctld reads the tree topology.conf -------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _need(program: str) -> str:
    found = shutil.which(program) or next(
        (str(p) for p in (Path("/usr/sbin") / program, Path("/usr/bin") / program) if p.exists()), None
    )
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"{program} is not installed (dev.py's APT_TEST_PACKAGES installs slurmctld and munge)")
        pytest.skip(f"{program} is not installed (apt-get install slurmctld munge)")
    return found


def _wait(check, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)


def test_slurmctld_reads_the_tree_topology(seeded_catalog, tmp_path):
    slurmctld, munged, mungekey, scontrol = (_need(p) for p in ("slurmctld", "munged", "mungekey", "scontrol"))
    result = design_validate(document=hgx(64))
    topology = text(result, "topology.conf")
    expected = read_topology_conf(topology)
    nodes = sorted({r["a_end"] for r in compute_rows(result) if r["link_class"] == "node-leaf"})
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    for sub in ("state", "spool"):
        (tmp_path / sub).mkdir()
    key = tmp_path / "munge.key"
    subprocess.run([mungekey, "--create", f"--keyfile={key}"], check=True, capture_output=True)
    key.chmod(0o600)
    sock = run / "munge.sock"
    subprocess.run(
        [munged, "--force", f"--socket={sock}", f"--key-file={key}", f"--log-file={tmp_path / 'munged.log'}",
         f"--pid-file={run / 'munged.pid'}", f"--seed-file={tmp_path / 'munged.seed'}"],
        check=True, capture_output=True,
    )  # fmt: skip
    conf = tmp_path / "slurm.conf"
    (tmp_path / "topology.conf").write_text(topology)
    conf.write_text(
        "\n".join(
            [
                "ClusterName=handover",
                "SlurmctldHost=localhost(127.0.0.1)",
                f"SlurmUser={getpass.getuser()}",
                f"SlurmctldPort={_free_port()}",
                f"SlurmdPort={_free_port()}",
                "AuthType=auth/munge",
                "CredType=cred/munge",
                f"AuthInfo=socket={sock}",
                f"StateSaveLocation={tmp_path / 'state'}",
                f"SlurmdSpoolDir={tmp_path / 'spool'}",
                f"SlurmctldPidFile={tmp_path / 'slurmctld.pid'}",
                f"SlurmctldLogFile={tmp_path / 'slurmctld.log'}",
                "TopologyPlugin=topology/tree",
                "SelectType=select/linear",
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "MpiDefault=none",
                f"NodeName={hostlist.collect_hostlist(nodes)} State=CLOUD NodeAddr=127.0.0.1 CPUs=1",
                "PartitionName=all Nodes=ALL Default=YES",
            ]
        )
        + "\n"
    )
    env = {**os.environ, "SLURM_CONF": str(conf)}
    ctld = subprocess.Popen(
        [slurmctld, "-D", "-f", str(conf)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        shown: list[str] = []

        def answered() -> bool:
            out = subprocess.run([scontrol, "show", "topology"], env=env, capture_output=True, text=True)
            shown[:] = [out.stdout] if out.returncode == 0 and "SwitchName=" in out.stdout else []
            return bool(shown)

        _wait(answered)
        log = (tmp_path / "slurmctld.log").read_text() if (tmp_path / "slurmctld.log").exists() else ""
        assert shown, f"scontrol show topology gave nothing; slurmctld log:\n{log[-3000:]}"
        read = read_topology_conf(
            "\n".join(
                " ".join(p for p in line.split() if not p.startswith(("Level=", "LinkSpeed=")))
                for line in shown[0].splitlines()
            )
        )
        assert set(read) == {name for name in expected if name != "BlockSizes"}
        for name, entry in expected.items():
            assert read[name]["Nodes"] == entry["Nodes"] if "Nodes" in entry else sorted(read[name]["Nodes"]) == nodes
            if "Switches" in entry:
                assert sorted(read[name]["Switches"]) == sorted(entry["Switches"])
    finally:
        ctld.terminate()
        ctld.wait(timeout=20)
        pid = run / "munged.pid"
        if pid.exists():
            os.kill(int(pid.read_text().split()[0]), 15)


def test_the_cut_sheet_streams_its_rows_as_it_writes_them(seeded_catalog):
    # 2,048 nodes are 49,000 links: the workbook leaves in pieces, the first long before the last row is read, and
    # the pieces joined are the workbook every row of which the test above checks.
    result = design_validate(document=hgx(2048))
    pieces = iter(design_output(name="cut-sheet.xlsx", result=result, language="en").body)
    first = next(pieces)
    assert first.startswith(b"PK") and len(first) < 10_000  # the workbook's frame, before any sheet row
    rest = list(pieces)
    assert len(rest) > 20
    book = openpyxl.load_workbook(io.BytesIO(first + b"".join(rest)), read_only=True)
    assert book.sheetnames == ["Links", "Nodes"]
    assert sum(1 for _ in book["Links"].iter_rows()) == len(compute_rows(result)) + 1  # the header and every link
