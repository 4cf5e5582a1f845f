"""GPU and NVLink rules (issue "NVLink errors" and "Warnings"). Each row cites the source of its answer."""

import dataclasses

import pytest

from messages import both

from .parts import (
    AS_4125GS_TNRT,
    CX7_NDR,
    H100_NVL,
    H200_NVL,
    HGX_B200,
    HGX_B300,
    HGX_H100,
    HGX_H200,
    L40S,
    NVL2_BRIDGE,
    NVL4_BRIDGE,
    RTX_PRO_6000,
    SYS_421GE_TNRT3,
    SYS_821GE_TNHR,
    SYS_822GS_NB3RT,
    catalog,
    codes,
    comp,
    design,
    errors,
    group,
    hgx_node,
    run,
    variant,
)

# Hypothetical: SYS-421GE-TNRT3 with its GPU slots split over the two CPU sockets (the real mapping is not sourced).
TNRT3_SOCKETS = variant(
    SYS_421GE_TNRT3,
    "TEST-TNRT3-SOCKETS",
    accepts=frozenset({"H100-NVL", "H200-NVL", "L40S"}),
    slots=tuple(
        dataclasses.replace(s, cpu_socket=i // 4) if s.for_gpu else s for i, s in enumerate(SYS_421GE_TNRT3.slots)
    ),
)
CAT = catalog(TNRT3_SOCKETS)


@pytest.mark.parametrize(
    "d, present, absent",
    [
        # Expert verdict: SYS-821GE-TNHR takes HGX H100 or H200 8-GPU [STH-821]; with 8x CX-7 NDR it is valid.
        (design(hgx_node()), set(), {"GPU_NOT_ACCEPTED", "GPU_TOO_MANY", "GPU_MIXED_MODELS", "NVLINK_NO_NVSWITCH"}),
        (design(hgx_node(board=HGX_H100)), set(), {"GPU_NOT_ACCEPTED"}),
        # Expert verdict: the same server with HGX B200 is invalid (hardware.md §1a: B200 needs the X14 systems).
        (design(hgx_node(board=HGX_B200)), {"GPU_NOT_ACCEPTED"}, set()),
        # One baseboard per HGX server (hardware.md §1a).
        (design(group(SYS_821GE_TNHR, comp(HGX_H200, 2))), {"GPU_TOO_MANY"}, set()),
        # SYS-421GE-TNRT3: up to 8 double-width PCIe GPUs [DS-421TNRT3]; the overflow is one error, not two.
        (design(group(SYS_421GE_TNRT3, comp(L40S, 10))), {"GPU_TOO_MANY"}, {"PCIE_NO_FREE_SLOT"}),
        # Mixing GPU models within a node ([NV-AIE-RA]: NVLink joins identical GPUs).
        (design(group(SYS_421GE_TNRT3, comp(L40S, 4), comp(H100_NVL, 4))), {"GPU_MIXED_MODELS"}, set()),
        # A GPU server without GPUs.
        (design(group(SYS_821GE_TNHR, comp(CX7_NDR, 8, "compute"))), {"GPU_NONE"}, set()),
        # L40S and RTX PRO 6000: no NVLink bridge [NV-AIE-RA], [NV-DS].
        (design(group(SYS_421GE_TNRT3, comp(L40S, 2), comp(NVL2_BRIDGE, 1))), {"NVLINK_BRIDGE_UNSUPPORTED"}, set()),
        (
            design(group(AS_4125GS_TNRT, comp(RTX_PRO_6000, 2), comp(NVL2_BRIDGE, 1))),
            {"NVLINK_BRIDGE_UNSUPPORTED"},
            set(),
        ),
        # HGX boards use NVSwitch, not bridges (hardware.md §2 notes).
        (design(group(SYS_821GE_TNHR, comp(HGX_H200), comp(NVL2_BRIDGE, 1))), {"NVLINK_BRIDGE_UNSUPPORTED"}, set()),
        # H100 NVL: pairs only [NV-AIE-RA], [H100NVL-S].
        (design(group(SYS_421GE_TNRT3, comp(H100_NVL, 4), comp(NVL4_BRIDGE, 1))), {"NVLINK_BRIDGE_SIZE"}, set()),
        (
            design(group(SYS_421GE_TNRT3, comp(H100_NVL, 4), comp(NVL2_BRIDGE, 2))),
            set(),
            {"NVLINK_BRIDGE_SIZE", "NVLINK_BRIDGE_TOO_MANY", "NVLINK_BRIDGE_PARTIAL"},
        ),
        # H200 NVL: pairs or fours [NV-AIE-RA] ("supports NVL4 and NVL2 bridges").
        (design(group(AS_4125GS_TNRT, comp(H200_NVL, 8), comp(NVL4_BRIDGE, 2))), set(), {"NVLINK_BRIDGE_SIZE"}),
        (design(group(AS_4125GS_TNRT, comp(H200_NVL, 8), comp(NVL2_BRIDGE, 4))), set(), {"NVLINK_BRIDGE_SIZE"}),
        # Five 2-way sets would join 10 GPUs; the node has 8.
        (design(group(SYS_421GE_TNRT3, comp(H100_NVL, 8), comp(NVL2_BRIDGE, 5))), {"NVLINK_BRIDGE_TOO_MANY"}, set()),
        # Two 2-way sets on 8 GPUs: 4 left on PCIe (info), and 8 GPUs without NVSwitch (NCS seeds: only pairs).
        (
            design(group(SYS_421GE_TNRT3, comp(H100_NVL, 8), comp(NVL2_BRIDGE, 2))),
            {"NVLINK_BRIDGE_PARTIAL", "NVLINK_NO_NVSWITCH"},
            set(),
        ),
        # 8 PCIe GPUs, no NVSwitch and no bridges: all GPU-to-GPU traffic over PCIe (NCS seeds).
        (design(group(SYS_421GE_TNRT3, comp(L40S, 8))), {"NVLINK_NO_NVSWITCH"}, set()),
        # Below 8 GPUs the NVSwitch advice does not apply (NCS seeds: "8 of meer GPU's").
        (design(group(SYS_421GE_TNRT3, comp(L40S, 4))), set(), {"NVLINK_NO_NVSWITCH"}),
        # HGX B300: NVSwitch count not sourced (hardware.md §2, §5).
        (design(group(SYS_822GS_NB3RT, comp(HGX_B300))), {"NVLINK_NVSWITCH_UNKNOWN"}, {"NVLINK_NO_NVSWITCH"}),
    ],
)
def test_gpu_rules(d, present, absent):
    found = codes(d, CAT)
    assert present <= found, found
    assert not (absent & found), found


def test_expert_verdicts_on_the_reference_node():
    # Issue: "SYS-821GE-TNHR + HGX-H200-8GPU + 8x MCX75310AAS-NEAT valid; same with HGX-B200-8GPU invalid".
    assert run(design(hgx_node())).valid
    assert run(design(hgx_node(count=4), fabric=True)).valid
    assert not run(design(hgx_node(board=HGX_B200))).valid


def test_not_accepted_names_what_the_server_takes():
    f = next(f for f in run(design(hgx_node(board=HGX_B200))).findings if f.code == "GPU_NOT_ACCEPTED")
    assert f.subject == "node_groups[0].components[0]"
    assert "SYS-821GE-TNHR does not take HGX-B200-8GPU" in both(f).message.en
    assert (
        "HGX-H100-8GPU, HGX-H200-8GPU" in both(f).message.en and "ondersteunt HGX-B200-8GPU niet" in both(f).message.nl
    )


def test_no_nvswitch_message_says_only_pairs_talk_at_nvlink_speed():
    r = run(design(group(SYS_421GE_TNRT3, comp(H100_NVL, 8), comp(NVL2_BRIDGE, 4))))
    f = next(f for f in r.findings if f.code == "NVLINK_NO_NVSWITCH")
    assert "only the bridged pairs talk at NVLink speed" in both(f).message.en
    assert "alleen de overbrugde paren" in both(f).message.nl


@pytest.mark.parametrize(
    "gpu_slots, warned",
    [
        # [NV-AIE-RA]: bridge cards under the same CPU socket; across sockets "acceptable but not recommended".
        (["GPU4", "GPU5"], True),  # GPU4 on socket 0, GPU5 on socket 1 (TEST-TNRT3-SOCKETS)
        (["GPU1", "GPU2"], False),
    ],
)
def test_bridged_gpus_under_different_sockets(gpu_slots, warned):
    d = design(group(TNRT3_SOCKETS, comp(H200_NVL, 2, slots=gpu_slots), comp(NVL2_BRIDGE, 1)))
    assert ("NVLINK_BRIDGE_CROSS_SOCKET" in codes(d, CAT)) is warned


def test_auto_placement_keeps_bridged_groups_within_a_socket():
    # 8 H200 NVL in NVL4 groups: 4 per socket, so both 4-way bridges stay under one CPU.
    d = design(group(TNRT3_SOCKETS, comp(H200_NVL, 8), comp(NVL4_BRIDGE, 2)))
    found = codes(d, CAT)
    assert not {"NVLINK_BRIDGE_CROSS_SOCKET", "NVLINK_BRIDGE_SIZE", "NVLINK_BRIDGE_TOO_MANY"} & found
    # (8 x 600 W H200 NVL do exceed the 5.4 kW of 2 of 4 x 2700 W supplies: a power error, not a bridge one)
    assert errors(d, CAT) == {"POWER_OVER_CAPACITY"}


# --- partial and definitive GPU lists (audit: compatibility lists) ----------------------------------------------
# HGX servers' lists are definitive: the sources name the baseboard (accepts_complete). PCIe GPU servers' lists
# hold only the GPUs the sources happen to name (hardware.md §1a: SYS-421GE-TNRT3 lists "H100, L40S, A100, RTX 6000
# Ada"; AS-4125GS-TNRT names no model), so a GPU they do not name is unverified, not refused.
TNRT3_NO_LIST = variant(SYS_421GE_TNRT3, "TEST-TNRT3-NO-LIST", accepts=frozenset())
LIST_CAT = catalog(TNRT3_NO_LIST)


@pytest.mark.parametrize(
    "d, present, absent",
    [
        # A PCIe card the partial list does not name: a warning to verify, not an error.
        (
            design(group(SYS_421GE_TNRT3, comp(RTX_PRO_6000, 4))),
            {"GPU_COMPATIBILITY_UNVERIFIED"},
            {"GPU_NOT_ACCEPTED", "GPU_COMPATIBILITY_UNKNOWN"},
        ),
        # A card the partial list names: nothing to say.
        (
            design(group(SYS_421GE_TNRT3, comp(L40S, 4))),
            set(),
            {"GPU_NOT_ACCEPTED", "GPU_COMPATIBILITY_UNVERIFIED", "GPU_COMPATIBILITY_UNKNOWN"},
        ),
        # An HGX board in a PCIe GPU server is an error whatever the list says: the board needs an HGX server.
        (design(group(SYS_421GE_TNRT3, comp(HGX_H200))), {"GPU_NOT_ACCEPTED"}, {"GPU_COMPATIBILITY_UNVERIFIED"}),
        (design(group(TNRT3_NO_LIST, comp(HGX_H200))), {"GPU_NOT_ACCEPTED"}, {"GPU_COMPATIBILITY_UNKNOWN"}),
        # No list at all: unknown (info), as before.
        (design(group(TNRT3_NO_LIST, comp(L40S, 4))), {"GPU_COMPATIBILITY_UNKNOWN"}, {"GPU_NOT_ACCEPTED"}),
        # A definitive HGX list refuses a PCIe card it does not name.
        (design(group(SYS_821GE_TNHR, comp(L40S, 4))), {"GPU_NOT_ACCEPTED"}, {"GPU_COMPATIBILITY_UNVERIFIED"}),
    ],
)
def test_partial_and_definitive_gpu_lists(d, present, absent):
    found = codes(d, LIST_CAT)
    assert present <= found, found
    assert not (absent & found), found


def test_gpu_off_a_partial_list_is_a_warning_that_says_to_verify_and_is_still_placed():
    r = run(design(group(SYS_421GE_TNRT3, comp(RTX_PRO_6000, 4))))
    f = next(f for f in r.findings if f.code == "GPU_COMPATIBILITY_UNVERIFIED")
    assert f.severity == "warning" and r.valid
    assert "The GPU list we have for SYS-421GE-TNRT3 is partial: it names H100-NVL, L40S, not RTX-PRO-6000-SE" in (
        both(f).message.en
    )
    assert "Verify with Supermicro that SYS-421GE-TNRT3 supports RTX-PRO-6000-SE" in both(f).fix.en
    assert "onvolledig" in both(f).message.nl and "Laat Supermicro bevestigen" in both(f).fix.nl
    placed = [s["slot"] for s in r.placement[0]["slots"] if s["part"] == "RTX-PRO-6000-SE"]
    assert len(placed) == 4 and not r.placement[0]["unplaced"]


def test_board_in_a_pcie_server_says_it_needs_an_hgx_server():
    f = next(f for f in run(design(group(SYS_421GE_TNRT3, comp(HGX_H200)))).findings if f.code == "GPU_NOT_ACCEPTED")
    assert f.severity == "error"
    assert "HGX-H200-8GPU is an HGX baseboard, which needs an HGX server" in both(f).message.en
    assert "SYS-421GE-TNRT3 is a PCIe GPU server" in both(f).message.en
    assert "heeft een HGX-server nodig" in both(f).message.nl
    assert both(f).fix.en.startswith("Choose an HGX server for HGX-H200-8GPU, or PCIe GPU cards for SYS-421GE-TNRT3")


def test_gpu_off_a_definitive_list_is_refused_with_the_list_in_both_languages():
    f = next(f for f in run(design(group(SYS_822GS_NB3RT, comp(HGX_H200)))).findings if f.code == "GPU_NOT_ACCEPTED")
    assert both(f).message.en == "SYS-822GS-NB3RT does not take HGX-H200-8GPU; it takes HGX-B300-8GPU."
    assert both(f).fix.en == "Choose HGX-B300-8GPU, or a server built for HGX-H200-8GPU."
    assert both(f).fix.nl == "Kies HGX-B300-8GPU, of een server die voor HGX-H200-8GPU gebouwd is."


def test_a_bridge_on_a_card_without_nvlink_points_to_the_catalogues_bridgeable_cards():
    d = design(group(SYS_421GE_TNRT3, comp(L40S, 2), comp(NVL2_BRIDGE, 1)))
    f = next(f for f in run(d).findings if f.code == "NVLINK_BRIDGE_UNSUPPORTED")
    assert f.params.bridgeable == ["H100-NVL", "H200-NVL"]
    assert "H100-NVL, H200-NVL" in both(f).fix.en and "H100-NVL, H200-NVL" in both(f).fix.nl
    # A retired card drops out; with none left the fix names no card.
    old = dataclasses.replace(H100_NVL, lifecycle="eol")
    f = next(f for f in run(d, catalog(old)).findings if f.code == "NVLINK_BRIDGE_UNSUPPORTED")
    assert f.params.bridgeable == ["H200-NVL"]
    bare = catalog()
    bare = dataclasses.replace(bare, parts={k: v for k, v in bare.parts.items() if not k.endswith("-NVL")})
    f = next(f for f in run(d, bare).findings if f.code == "NVLINK_BRIDGE_UNSUPPORTED")
    assert f.params.bridgeable == [] and "cards that take an NVLink bridge" in both(f).fix.en
