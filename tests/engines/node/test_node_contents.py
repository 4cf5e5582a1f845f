"""Node contents rules (engines/node/node_contents.py): CPUs, memory and drives against what the server takes.

Each row cites where its expected answer comes from: the seed's facts (catalog/seed/catalog.json, source keys in
brackets) or the reference systems NVIDIA ships.
"""

from __future__ import annotations

import dataclasses

import pytest

from design.specs import CpuSpec, DefaultPartSpec, DriveBaySpec, DriveSpec, MemorySpec, ReferenceSystemSpec
from engines.catalog_view import CatalogView
from messages import both

from .parts import (
    ALL_PARTS,
    H100_NVL,
    HGX_B200,
    HGX_H100,
    SYS_421GE_TNRT3,
    SYS_821GE_TNHR,
    SYS_822GS_NBRT,
    comp,
    design,
    group,
    run,
)

XEON_8468 = CpuSpec(  # [ARK-DS]
    part_number="XEON-8468",
    name="Xeon Platinum 8468",
    family="Xeon 4th Gen Scalable (Sapphire Rapids)",
    socket="LGA4677",
    tdp_w=350,
    memory_channels=8,
    memory_speed_mts=4800,
    memory_speed_2dpc_mts=4400,
)
XEON_6787P = CpuSpec(  # [ARK-DS], [XEON6-CNEWS]: TDP not sourced per SKU
    part_number="XEON-6787P",
    name="Xeon 6787P",
    family="Xeon 6700P (Granite Rapids)",
    socket="LGA4710",
    memory_channels=8,
    memory_speed_mts=6400,
    memory_speed_2dpc_mts=5200,
)
EPYC_9474F = CpuSpec(  # [AMD-DS]
    part_number="EPYC-9474F",
    name="EPYC 9474F",
    family="EPYC 9004 (Genoa)",
    socket="SP5",
    tdp_w=360,
    memory_channels=12,
    memory_speed_mts=4800,
)
HOT_XEON6 = dataclasses.replace(XEON_6787P, part_number="TEST-XEON6-400W", tdp_w=400)  # hypothetical: above 350 W
DIMM_64 = MemorySpec(
    part_number="MTC40F2046S1RC48BA1", name="64 GB DDR5-4800", size_gb=64, speed_mts=4800
)  # [RS-MICRON]
DIMM_32 = MemorySpec(
    part_number="MTC20F2085S1RC48BA1", name="32 GB DDR5-4800", size_gb=32, speed_mts=4800
)  # [RS-MICRON]
BOOT_M2 = DriveSpec(  # [SMC-M2QVL]
    part_number="HDS-M2N4-960G0-E1-TXD-NON-080", name="960 GB M.2", use="boot", form_factor="M.2 2280"
)
U2_DATA = DriveSpec(  # [CB-PM9A3], [SPD-MZQL]
    part_number="MZQL27T6HBLA-00A07", name="7.68 TB U.2", use="data", form_factor="U.2", interface="nvme"
)

# Servers with the seed's node-contents facts: SYS-821GE-TNHR [STH-821, MLC-821], SYS-822GS-NBRT [DIST-PM].
S821 = dataclasses.replace(
    SYS_821GE_TNHR,
    cpu_socket="LGA4677",
    cpu_families=("Xeon 4th Gen Scalable (Sapphire Rapids)", "Xeon 5th Gen Scalable (Emerald Rapids)"),
    memory_channels_per_socket=8,
    dimms_per_channel=2,
    drive_bays=(DriveBaySpec(count=16, form_factor="U.2", interface="nvme"),),
    default_parts=(DefaultPartSpec(role="cpu", part_number="XEON-8468", quantity=2),),
)
S822 = dataclasses.replace(
    SYS_822GS_NBRT,
    cpu_socket="LGA4710",
    cpu_families=("Xeon 6700P (Granite Rapids)",),
    memory_channels_per_socket=8,
    dimms_per_channel=2,
    m2_slots=2,
    drive_bays=(DriveBaySpec(count=8, form_factor="E1.S", interface="nvme"),),
)
# A PCIe GPU server of the same LGA4677 platform [DS-421TNRT3, ARK-DS]
S421 = dataclasses.replace(
    SYS_421GE_TNRT3,
    cpu_sockets=2,
    cpu_socket="LGA4677",
    cpu_families=("Xeon 4th Gen Scalable (Sapphire Rapids)",),
    memory_channels_per_socket=8,
    dimms_per_channel=2,
)
REFERENCE = (  # catalog.services.reference_systems(): [MLC-NV-DGXH100], [NV-DGXB200-UG], each on its own board
    ReferenceSystemSpec(
        system="NVIDIA DGX H100",
        gpu_memory_gb=640,
        system_memory_gb=2048,
        source="MLC-NV-DGXH100",
        board="HGX-H100-8GPU",
    ),
    ReferenceSystemSpec(
        system="NVIDIA DGX B200",
        gpu_memory_gb=1440,
        system_memory_gb=2048,
        source="NV-DGXB200-UG",
        board="HGX-B200-8GPU",
    ),
)
NODE_PARTS = [XEON_8468, XEON_6787P, EPYC_9474F, HOT_XEON6, DIMM_64, DIMM_32, BOOT_M2, U2_DATA]
CAT = CatalogView(
    version="test",
    parts={p.part_number: p for p in [*ALL_PARTS, S821, S822, S421, *NODE_PARTS]},
    reference_systems=REFERENCE,
)


def node(server, *components, gpu=HGX_H100):
    return design(group(server, comp(gpu), *components))


def complete(server=S821, cpu=XEON_8468, cpus=2, dimm=DIMM_64, dimms=32, boot=1, gpu=HGX_H100, extra=()):
    """The MLPerf SYS-821GE-TNHR unit [MLC-821]: 2x Xeon 8468, 32x 64 GB, one M.2 boot drive."""
    return node(server, comp(cpu, cpus), comp(dimm, dimms), comp(BOOT_M2, boot), *extra, gpu=gpu)


def findings(d):
    return run(d, CAT).findings


def codes(d):
    return {f.code for f in findings(d)}


@pytest.mark.parametrize(
    "d, code, present",
    [
        # MLC-821: the vendor's own unit passes every CPU, memory and drive rule (2 DIMMs per channel is an info)
        (complete(), "NODE_CPU_COUNT", False),
        (complete(), "MEMORY_UNBALANCED", False),
        (complete(), "MEMORY_BELOW_REFERENCE", False),  # 2,048 GB for 640 GB = 3.2, DGX H100's own ratio
        # hardware.md §1a: three CPUs exceed the 2 sockets (an error); in the host of an HGX 8-GPU board one CPU
        # leaves four GPUs and their NICs without a host (NV-DGXH100-UG §1.2.3, Table 6: an error)
        (complete(cpus=1), "NODE_CPU_COUNT", False),
        (complete(cpus=1), "NODE_CPU_SOCKET_EMPTY_HGX", True),
        (complete(cpus=1), "NODE_CPU_SOCKET_EMPTY", False),
        (complete(cpus=3), "NODE_CPU_COUNT", True),
        # a PCIe GPU server boots with one CPU and loses the empty socket's lanes and slots: a warning
        (node(S421, comp(XEON_8468), comp(DIMM_64, 16), gpu=H100_NVL), "NODE_CPU_SOCKET_EMPTY", True),
        (node(S421, comp(XEON_8468), comp(DIMM_64, 16), gpu=H100_NVL), "NODE_CPU_SOCKET_EMPTY_HGX", False),
        # ARK-DS: identical processors in every socket
        (node(S821, comp(XEON_8468), comp(EPYC_9474F), comp(DIMM_64, 32)), "NODE_CPU_MIXED", True),
        # cpu_socket LGA4677 vs SP5 (AMD-DS), Xeon 6 (LGA4710) in an X13 board
        (complete(cpu=EPYC_9474F), "NODE_CPU_NOT_ACCEPTED", True),
        (complete(cpu=XEON_6787P), "NODE_CPU_NOT_ACCEPTED", True),
        (complete(server=S822, cpu=XEON_6787P, gpu=HGX_B200), "NODE_CPU_NOT_ACCEPTED", False),
        # SYS-822GS-NBRT takes up to 350 W per socket [DIST-PM]; unknown TDP (6787P) is not checked
        (complete(server=S822, cpu=HOT_XEON6, gpu=HGX_B200), "NODE_CPU_TDP", True),
        (complete(server=S822, cpu=XEON_6787P, gpu=HGX_B200), "NODE_CPU_TDP", False),
        (complete(cpu=XEON_8468), "NODE_CPU_TDP", False),  # SYS-821GE-TNHR's limit is unknown
        # one DIMM model per node
        (complete(extra=(comp(DIMM_32, 16),), dimms=16), "MEMORY_MIXED", True),
        # 32 DIMM slots [hardware.md §1a]
        (complete(dimms=48), "MEMORY_TOO_MANY", True),
        # 2 sockets x 8 channels [ARK-DS]: 16 or 32 balance, 24 and 12 do not
        (complete(dimms=16), "MEMORY_UNBALANCED", False),
        (complete(dimms=24), "MEMORY_UNBALANCED", True),
        (complete(dimms=12), "MEMORY_UNBALANCED", True),
        # 1 DIMM per channel is full speed; 2 per channel lowers it [ARK-DS]
        (complete(dimms=16), "MEMORY_TWO_PER_CHANNEL", False),
        (complete(dimms=32), "MEMORY_TWO_PER_CHANNEL", True),
        # 16 x 32 GB = 512 GB for 640 GB of HGX H100 is below DGX H100's 3.2 [MLC-NV-DGXH100]
        (complete(dimm=DIMM_32, dimms=16), "MEMORY_BELOW_REFERENCE", True),
        # 32 x 64 GB = 2,048 GB for HGX B200's 1,440 GB: exactly DGX B200 [NV-DGXB200-UG]
        (complete(server=S822, cpu=XEON_6787P, gpu=HGX_B200), "MEMORY_BELOW_REFERENCE", False),
        # drive bays: 16 U.2 NVMe in SYS-821GE-TNHR [STH-821]; 8 E1.S only in SYS-822GS-NBRT [DIST-PM]
        (complete(extra=(comp(U2_DATA, 16),)), "DRIVE_NO_BAY", False),
        (complete(extra=(comp(U2_DATA, 17),)), "DRIVE_NO_BAY", True),
        (complete(server=S822, cpu=XEON_6787P, gpu=HGX_B200, extra=(comp(U2_DATA, 1),)), "DRIVE_NO_BAY", True),
        # M.2 slots: 2 in SYS-822GS-NBRT [DIST-PM]; unknown on SYS-821GE-TNHR, so not checked
        (complete(server=S822, cpu=XEON_6787P, gpu=HGX_B200, boot=2), "DRIVE_M2_SLOTS", False),
        (complete(server=S822, cpu=XEON_6787P, gpu=HGX_B200, boot=3), "DRIVE_M2_SLOTS", True),
        (complete(boot=4), "DRIVE_M2_SLOTS", False),
    ],
)
def test_node_content_rules(d, code, present):
    assert (code in codes(d)) is present


def test_the_vendors_own_units_raise_no_error_or_warning_of_their_own():
    """MLC-821 (SYS-821GE-TNHR with HGX H100) and DGX-B200-like SYS-822GS-NBRT: no node-contents error or warning."""
    for d in (complete(), complete(server=S822, cpu=XEON_6787P, gpu=HGX_B200)):
        mine = [f for f in findings(d) if f.code.startswith(("NODE_", "MEMORY_", "DRIVE_"))]
        assert not [f for f in mine if f.severity != "info"], mine


def test_unknown_facts_never_give_an_error():
    """A server whose node facts are unknown (a SYS-821GE-TNHR without socket, families, channels, bays or
    M.2 slots) is not checked for them: an AMD CPU, 40 U.2 drives and 9 M.2 drives raise nothing. The channel count
    then comes from the CPU (12 on EPYC 9004 [AMD-DS]), so 7 DIMMs are still unbalanced."""
    unknown = dataclasses.replace(
        SYS_821GE_TNHR,
        cpu_socket="",
        cpu_families=(),
        memory_channels_per_socket=None,
        dimms_per_channel=None,
        m2_slots=None,
        drive_bays=(),
        default_parts=(),
    )
    cat = CatalogView(version="t", parts={**CAT.parts, unknown.part_number: unknown})
    plain = design(
        group(
            unknown,
            comp(HGX_H100),
            comp(EPYC_9474F, 2),
            comp(DIMM_64, 7),
            comp(U2_DATA, 40),
            comp(BOOT_M2, 9),
        )
    )
    found = {f.code for f in run(plain, cat).findings}
    assert not found & {"NODE_CPU_NOT_ACCEPTED", "NODE_CPU_TDP", "DRIVE_NO_BAY", "DRIVE_M2_SLOTS", "MEMORY_TOO_MANY"}
    assert "MEMORY_UNBALANCED" in found


def test_errors_say_what_to_change_in_both_languages():
    (three,) = [f for f in findings(complete(cpus=3)) if f.code == "NODE_CPU_COUNT"]
    assert three.severity == "error" and three.subject == "node_groups[0].components[1]"
    assert "2 CPU sockets; 3 CPUs do not fit" in both(three).message.en
    (one_cpu,) = [f for f in findings(complete(cpus=1)) if f.code == "NODE_CPU_SOCKET_EMPTY_HGX"]
    assert one_cpu.severity == "error" and one_cpu.subject == "node_groups[0].components[1]"
    said = both(one_cpu)
    assert "both of its 2 CPU sockets" in said.message.en and "with 1 CPU, half the GPUs" in said.message.en
    assert "met 1 CPU heeft de helft van de GPU's" in said.message.nl
    assert said.fix.en == "Set the quantity of XEON-8468 to 2."
    assert said.fix.nl == "Zet het aantal XEON-8468 op 2."
    (amd,) = [f for f in findings(complete(cpu=EPYC_9474F)) if f.code == "NODE_CPU_NOT_ACCEPTED"]
    assert "XEON-8468" in both(amd).fix.en  # the server's default CPU, one it is known to take
    (odd,) = [f for f in findings(complete(dimms=24)) if f.code == "MEMORY_UNBALANCED"]
    assert both(odd).fix.en == "Set the quantity of MTC40F2046S1RC48BA1 to 16 or 32 (the same number on every channel)."


def test_two_dimms_per_channel_says_by_how_much():
    """Xeon 4th Gen: 4,800 MT/s at 1 DPC, 4,400 MT/s at 2 DPC [ARK-DS]; Dutch number format 4.400."""
    (f,) = [f for f in findings(complete(dimms=32)) if f.code == "MEMORY_TWO_PER_CHANNEL"]
    said = both(f)
    assert "4,400 MT/s instead of 4,800 MT/s (8% slower)" in said.message.en
    assert "4.400 MT/s in plaats van 4.800 MT/s (8% langzamer)" in said.message.nl
    unknown = dataclasses.replace(XEON_8468, part_number="TEST-XEON-NO-2DPC", memory_speed_2dpc_mts=None)
    cat = CatalogView(version="t", parts={**CAT.parts, unknown.part_number: unknown}, reference_systems=REFERENCE)
    (g,) = [g for g in run(complete(cpu=unknown), cat).findings if g.code == "MEMORY_TWO_PER_CHANNEL"]
    assert g.params.drop_pct is None and "do not say by how much" in both(g).message.en


def test_memory_below_reference_names_the_nvidia_system_and_the_amount():
    """The yardstick is NVIDIA's own system on the same GPU: DGX H100, 2,048 GB for 640 GB [MLC-NV-DGXH100], so
    an HGX H100 node needs 2,048 GB, not the 911 GB that DGX B200's lower ratio would give (issue #20)."""
    (f,) = [f for f in findings(complete(dimm=DIMM_32, dimms=16)) if f.code == "MEMORY_BELOW_REFERENCE"]
    assert f.severity == "warning"
    assert f.params.needed_gb == 2048 and f.params.ref_system == "NVIDIA DGX H100"
    assert "NVIDIA DGX H100" in both(f).message.en and "2,048 GB" in both(f).fix.en
    assert "B200" not in both(f).message.en
    without = CatalogView(version="t", parts=CAT.parts)  # no reference systems: nothing to compare with
    assert "MEMORY_BELOW_REFERENCE" not in {f.code for f in run(complete(dimm=DIMM_32, dimms=16), without).findings}


# --- issue #20: evidence for refusals, and the down-clock note ----------------------------------------------------

DIMM_5600 = dataclasses.replace(DIMM_64, part_number="TEST-DIMM-64-5600", speed_mts=5600)
CPU_OTHER_FAMILY = dataclasses.replace(XEON_8468, part_number="TEST-XEON-OTHER", family="Xeon (a family not listed)")
EVIDENCE_CAT = CatalogView(
    version="test-20",
    parts={**CAT.parts, DIMM_5600.part_number: DIMM_5600, CPU_OTHER_FAMILY.part_number: CPU_OTHER_FAMILY},
    reference_systems=REFERENCE,
)


def _evidence(d):
    return run(d, EVIDENCE_CAT).findings


def test_faster_dimms_say_they_run_at_the_cpus_speed_one_and_two_per_channel():
    """Xeon 4th Gen: 4,800 MT/s at 1 DPC, 4,400 at 2 DPC [ARK-DS]; DDR5-5600 DIMMs run at those speeds."""
    (one,) = [f for f in _evidence(complete(dimm=DIMM_5600, dimms=16)) if f.code == "MEMORY_DOWNCLOCKED"]
    assert one.severity == "info" and (one.params.dimm_mts, one.params.runs_mts) == (5600, 4800)
    assert "rated at 5,600 MT/s, but XEON-8468 runs memory at up to 4,800 MT/s" in both(one).message.en
    assert "5.600 MT/s" in both(one).message.nl
    (two,) = [f for f in _evidence(complete(dimm=DIMM_5600, dimms=32)) if f.code == "MEMORY_DOWNCLOCKED"]
    assert two.params.runs_mts == 4400 and two.params.two_per_channel is True
    assert "MEMORY_DOWNCLOCKED" not in {f.code for f in _evidence(complete())}  # DDR5-4800 on a 4,800 CPU


def test_a_cpu_family_the_sources_do_not_name_is_a_warning_a_socket_mismatch_an_error():
    (f,) = [f for f in _evidence(complete(cpu=CPU_OTHER_FAMILY)) if f.code.startswith("NODE_CPU_")]
    assert f.code == "NODE_CPU_UNVERIFIED" and f.severity == "warning"
    assert "XEON-8468" in both(f).fix.en and "Bevestig de BIOS-ondersteuning" in both(f).fix.nl
    amd = [f for f in _evidence(complete(cpu=EPYC_9474F)) if f.code.startswith("NODE_CPU_")]
    assert [f.code for f in amd] == ["NODE_CPU_NOT_ACCEPTED"] and amd[0].severity == "error"


def test_unbalanced_and_mixed_dimms_are_warnings_not_errors():
    for d, code in (
        (complete(dimms=24), "MEMORY_UNBALANCED"),
        (complete(extra=(comp(DIMM_32, 16),), dimms=16), "MEMORY_MIXED"),
    ):
        (f,) = [f for f in findings(d) if f.code == code]
        assert f.severity == "warning", code


def test_a_cpu_of_unknown_tdp_against_a_published_limit_is_said():
    unknown = dataclasses.replace(XEON_6787P, part_number="TEST-XEON6-NO-TDP", tdp_w=None)
    cat = CatalogView(version="t", parts={**CAT.parts, unknown.part_number: unknown}, reference_systems=REFERENCE)
    d = complete(server=S822, cpu=unknown, gpu=HGX_B200)
    (f,) = [f for f in run(d, cat).findings if f.code == "NODE_CPU_TDP_UNKNOWN"]
    assert f.params.limit_w == 350 and "350 W" in both(f).message.en
