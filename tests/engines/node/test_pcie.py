"""PCIe slot placement rules (issue "Rules: PCIe slot placement"). Each row cites the source of its answer."""

import dataclasses

import pytest

from design.vocabulary import SlotForm
from engines.node.pcie import PCIE_GBYTES_PER_LANE, card_need_gbytes, link_gbytes
from messages import both

from .parts import (
    AS_4125GS_TNRT,
    BF3_B3220,
    BF3_B3240,
    CX6_HDR,
    CX7_2X200,
    CX7_NDR,
    CX7_NDR200,
    CX7_OCP,
    CX8_C8180,
    HGX_B200,
    HGX_B300,
    L40S,
    SWITCHED,
    SYS_421GE_TNRT3,
    SYS_822GS_NB3RT,
    SYS_822GS_NBRT,
    SYS_A21GE_NBRT,
    catalog,
    codes,
    comp,
    design,
    group,
    hgx_node,
    run,
    variant,
)

# Hypothetical servers for rules the sourced catalogue cannot reach (clearly named TEST-*).
GEN4_HGX = variant(
    SYS_822GS_NBRT, "TEST-GEN4-HGX", slots=tuple(dataclasses.replace(s, pcie_gen=4) for s in SYS_822GS_NBRT.slots)
)
UNKNOWN_GEN = variant(
    SYS_822GS_NBRT, "TEST-UNKNOWN-GEN", slots=tuple(dataclasses.replace(s, pcie_gen=None) for s in SYS_822GS_NBRT.slots)
)
UNKNOWN_FORM = variant(
    SYS_822GS_NBRT, "TEST-UNKNOWN-FORM", slots=tuple(dataclasses.replace(s, form=None) for s in SYS_822GS_NBRT.slots)
)
GEN4_SWITCHED = variant(
    SWITCHED,
    "TEST-GEN4-UPLINK",
    pcie_switches=tuple(dataclasses.replace(sw, uplink_gen=4) for sw in SWITCHED.pcie_switches),
)
CAT = catalog(GEN4_HGX, UNKNOWN_GEN, UNKNOWN_FORM, SWITCHED, GEN4_SWITCHED)


def b200(server=SYS_822GS_NBRT, *components, count=1):
    return design(group(server, comp(HGX_B200), *components, count=count))


@pytest.mark.parametrize(
    "d, present, absent",
    [
        # Expert verdict: SYS-822GS-NBRT has 8 LP + 2 FHHL Gen5 x16 slots [DIST-PM]; 11 adapters do not fit.
        (
            b200(SYS_822GS_NBRT, comp(CX7_NDR, 8, "compute"), comp(BF3_B3220, 3, "storage")),
            {"PCIE_NO_FREE_SLOT"},
            set(),
        ),
        # 8 compute + 2 storage fill the 10 slots exactly [DIST-PM].
        (
            b200(SYS_822GS_NBRT, comp(CX7_NDR, 8, "compute"), comp(BF3_B3220, 2, "storage")),
            set(),
            {"PCIE_NO_FREE_SLOT"},
        ),
        # Three FHHL DPUs, two full-height slots: a full-height card does not fit a low-profile slot (PCI-SIG CEM).
        (b200(SYS_822GS_NBRT, comp(BF3_B3220, 3, "storage")), {"PCIE_NO_FREE_SLOT"}, set()),
        # An OCP 3.0 card fits only an OCP bay; the HGX B200 server has none [DIST-PM].
        (b200(SYS_822GS_NBRT, comp(CX7_OCP, 1, "storage")), {"PCIE_NO_FREE_SLOT"}, set()),
        # ...and SYS-421GE-TNRT3 has one AIOM/OCP 3.0 bay [DS-421TNRT3].
        (design(group(SYS_421GE_TNRT3, comp(L40S, 4), comp(CX7_OCP, 1, "storage"))), set(), {"PCIE_NO_FREE_SLOT"}),
        # Integrated ConnectX-8 on SYS-822GS-NB3RT: no slots for compute adapters [DIST-PM], [MLCT-822NB3].
        (
            design(group(SYS_822GS_NB3RT, comp(HGX_B300), comp(CX7_NDR, 8, "compute"))),
            {"PCIE_INTEGRATED_NICS"},
            {"PCIE_NO_FREE_SLOT"},
        ),
        # ...its two FHHL slots do take storage adapters [DIST-PM].
        (
            design(group(SYS_822GS_NB3RT, comp(HGX_B300), comp(BF3_B3220, 2, "storage"))),
            set(),
            {"PCIE_INTEGRATED_NICS", "PCIE_NO_FREE_SLOT"},
        ),
        # Without a role on an integrated-NIC server an adapter is taken as storage (documented inference).
        (design(group(SYS_822GS_NB3RT, comp(HGX_B300), comp(CX7_NDR, 2))), set(), {"PCIE_INTEGRATED_NICS"}),
        # NDR 400 needs 50 GB/s; Gen4 x16 gives 31.5 GB/s (fabric.md §5; [CX7-SPEC]).
        (b200(GEN4_HGX, comp(CX7_NDR, 8, "compute")), {"PCIE_LINK_BANDWIDTH"}, set()),
        # NDR200 needs 25 GB/s: a Gen4 x16 slot carries it (fabric.md §5).
        (b200(GEN4_HGX, comp(CX7_NDR200, 8, "compute")), set(), {"PCIE_LINK_BANDWIDTH"}),
        # HDR is a Gen4 card: a Gen5 slot is no bottleneck (hardware.md §3).
        (b200(SYS_822GS_NBRT, comp(CX6_HDR, 8, "compute")), set(), {"PCIE_LINK_BANDWIDTH"}),
        # ConnectX-8 800G is a Gen6 card; in a Gen5 slot it gets ~63 GB/s of its 100 GB/s [CX8-ID], [DOCA-CX8].
        (b200(SYS_822GS_NBRT, comp(CX8_C8180, 8, "compute")), {"PCIE_GEN6_IN_GEN5"}, {"PCIE_LINK_BANDWIDTH"}),
        # Unknown slot generation: say so, never guess (hardware.md §5).
        (b200(UNKNOWN_GEN, comp(CX7_NDR, 8, "compute")), {"PCIE_LINK_UNKNOWN"}, {"PCIE_LINK_BANDWIDTH"}),
        # A card of unknown size (MCX653105A-HDAT: HHHL or FHHL unknown, hardware.md §3) is placed but flagged.
        (b200(SYS_822GS_NBRT, comp(CX6_HDR, 2, "storage")), {"PCIE_FORM_UNKNOWN"}, {"PCIE_NO_FREE_SLOT"}),
        (b200(UNKNOWN_FORM, comp(CX7_NDR, 8, "compute")), {"PCIE_FORM_UNKNOWN"}, {"PCIE_NO_FREE_SLOT"}),
        # No sourced slot list (SYS-A21GE-NBRT, hardware.md §5): a warning, and no slot errors.
        (b200(SYS_A21GE_NBRT, comp(CX7_NDR, 12, "compute")), {"PCIE_SLOTS_UNKNOWN"}, {"PCIE_NO_FREE_SLOT"}),
        # Four NDR cards behind one Gen4 x16 uplink: 4 x 50 > 31.5 GB/s (PCIe arithmetic, fabric.md §5).
        (b200(GEN4_SWITCHED, comp(CX7_NDR, 8, "compute")), {"PCIE_SWITCH_UPLINK"}, set()),
        # Two NDR cards behind a Gen5 x16 uplink need 100 GB/s against 63 GB/s: also oversubscribed.
        (b200(SWITCHED, comp(CX7_NDR, 8, "compute")), {"PCIE_SWITCH_UPLINK"}, set()),
        # Two NDR200 cards need 50 GB/s: a Gen5 x16 uplink (63 GB/s) carries them.
        (b200(SWITCHED, comp(CX7_NDR200, 8, "compute")), set(), {"PCIE_SWITCH_UPLINK"}),
        # A ninth compute NIC cannot sit next to a GPU: GPUDirect RDMA is no longer local ([DIST-PM] 1:1).
        (b200(SYS_822GS_NBRT, comp(CX7_NDR, 9, "compute")), {"PCIE_NIC_NOT_GPU_LOCAL"}, {"PCIE_NO_FREE_SLOT"}),
    ],
)
def test_pcie_rules(d, present, absent):
    found = codes(d, CAT)
    assert present <= found, found
    assert not (absent & found), found


def test_contract_example_message_for_too_many_adapters():
    # contracts/design-v1.md: "SYS-821GE-TNHR has 8 low-profile PCIe 5.0 x16 slots; 9 adapters need one each."
    # Its slot list is not complete (STH-821 counts 8 LP slots plus unnamed positions; issue #13 item 4: eight
    # ConnectX-7 plus one BlueField-3 is a common build), so the ninth card is a warning to confirm, not an error.
    r = run(design(hgx_node(nics=9)))
    f = next(f for f in r.findings if f.code == "PCIE_NO_FREE_SLOT_UNVERIFIED")
    assert f.severity == "warning"
    assert r.valid
    assert f.subject == "node_groups[0].components[1]"
    assert both(f).message.en.startswith(
        "SYS-821GE-TNHR has 8 low-profile PCIe 5.0 x16 slots; 9 adapters need one each."
    )
    assert both(f).fix.en == (
        "Remove one adapter, or choose a server with more slots. Or confirm with Supermicro that SYS-821GE-TNHR has "
        "a position for every card (9 in all)."
    )
    assert "unverified" in both(f).message.en  # slots_complete False: other positions are not verified
    assert both(f).message.nl.startswith("SYS-821GE-TNHR heeft 8 low-profile PCIe 5.0 x16-slots; 9 adapters hebben")


def test_placement_puts_nic_i_next_to_gpu_i_on_rail_i():
    # Rail-optimized: NIC i of every node by GPU i, on rail i (fabric.md §0.1); storage to the FHHL slots.
    r = run(b200(SYS_822GS_NBRT, comp(BF3_B3220, 1, "storage"), comp(CX7_NDR, 8, "compute")))
    slots = {s["slot"]: s for s in r.placement[0]["slots"]}
    for i in range(8):
        assert slots[f"LP{i + 1}"]["part"] == CX7_NDR.part_number
        assert slots[f"LP{i + 1}"]["rail"] == i and slots[f"LP{i + 1}"]["gpus"] == [i]
    assert slots["FHHL1"]["part"] == BF3_B3220.part_number and slots["FHHL1"]["role"] == "storage"
    assert slots["FHHL2"]["part"] is None and slots["FHHL2"]["usable"]


def test_storage_adapters_keep_clear_of_the_gpu_slots():
    # HHHL storage cards go to the non-GPU slots first, leaving the GPU-local ones for compute NICs.
    r = run(b200(SYS_822GS_NBRT, comp(CX7_2X200, 2, "storage")))
    taken = {s["slot"] for s in r.placement[0]["slots"] if s["part"]}
    assert taken == {"FHHL1", "FHHL2"}


def test_role_is_inferred_when_missing():
    # Documented inference: single-port >= 200G non-DPU is compute; dual-port or DPU is storage.
    r = run(b200(SYS_822GS_NBRT, comp(CX7_NDR, 8), comp(BF3_B3240, 1)))
    roles = {s["part"]: s["role"] for s in r.placement[0]["slots"] if s["part"]}
    assert roles == {CX7_NDR.part_number: "compute", BF3_B3240.part_number: "storage"}


@pytest.mark.parametrize(
    "slots, code",
    [
        (["LP1", "LP2", "LP3", "LP4", "LP5", "LP6", "LP7", "LP9"], "PCIE_UNKNOWN_SLOT"),  # no LP9 [DIST-PM]
        (["LP1", "LP1", "LP3", "LP4", "LP5", "LP6", "LP7", "LP8"], "PCIE_SLOT_USED_TWICE"),
    ],
)
def test_explicit_slot_errors(slots, code):
    r = run(b200(SYS_822GS_NBRT, comp(CX7_NDR, 8, "compute", slots=slots)))
    f = next(f for f in r.findings if f.code == code)
    assert f.severity == "error" and f.subject == "node_groups[0].components[1].slots"


def test_slot_used_twice_across_components():
    r = run(
        b200(
            SYS_822GS_NBRT, comp(CX7_NDR, 1, "compute", slots=["FHHL1"]), comp(BF3_B3220, 1, "storage", slots=["FHHL1"])
        )
    )
    f = next(f for f in r.findings if f.code == "PCIE_SLOT_USED_TWICE")
    assert "FHHL1 already holds MCX75310AAS-NEAT" in both(f).message.en


def test_full_height_card_in_a_low_profile_slot_does_not_fit():
    # PCI-SIG CEM: an FHHL card does not fit an LP slot (specs.CARD_FITS).
    r = run(b200(SYS_822GS_NBRT, comp(BF3_B3220, 1, "storage", slots=["LP3"])))
    f = next(f for f in r.findings if f.code == "PCIE_CARD_DOES_NOT_FIT")
    assert "LP3" in both(f).message.en and "FHHL" in both(f).fix.en
    assert r.placement[0]["unplaced"] == [
        {
            "part": BF3_B3220.part_number,
            "component": "node_groups[0].components[1]",
            "quantity": 1,
            "reason": "does not fit the chosen slot",
        }
    ]


def test_explicit_compute_nic_away_from_gpus_warns():
    r = run(b200(SYS_822GS_NBRT, comp(CX7_NDR, 1, "compute", slots=["FHHL1"])))
    assert "PCIE_NIC_NOT_GPU_LOCAL" in {f.code for f in r.findings}


def test_gen4_link_message_has_the_arithmetic():
    # NDR 400 = 50 GB/s; Gen4 x16 = 16 x 1.969 = 31.5 GB/s -> ~252 Gb/s (fabric.md §5).
    f = next(
        f for f in run(b200(GEN4_HGX, comp(CX7_NDR, 8, "compute")), CAT).findings if f.code == "PCIE_LINK_BANDWIDTH"
    )
    assert "50 GB/s" in both(f).message.en and "31.5 GB/s" in both(f).message.en and "252 Gb/s" in both(f).message.en
    assert "31,5 GB/s" in both(f).message.nl and "252 Gb/s" in both(f).message.nl
    assert f.params.cap_gbps == 252


def test_gen6_card_fix_mentions_socket_direct():
    f = next(
        f for f in run(b200(SYS_822GS_NBRT, comp(CX8_C8180, 8, "compute"))).findings if f.code == "PCIE_GEN6_IN_GEN5"
    )
    assert "504 Gb/s" in both(f).message.en and "Socket Direct" in both(f).fix.en and "Socket Direct" in both(f).fix.nl


def test_pcie_per_lane_constants():
    # Gen5: 32 GT/s x 128/130 / 8; Gen6 FLIT: 8 GB/s x 242/256 (documented in pcie.py).
    assert PCIE_GBYTES_PER_LANE[5] == pytest.approx(32 * 128 / 130 / 8, abs=1e-3)
    assert PCIE_GBYTES_PER_LANE[4] == pytest.approx(16 * 128 / 130 / 8, abs=1e-3)
    assert PCIE_GBYTES_PER_LANE[6] == pytest.approx(8 * 242 / 256, abs=1e-3)
    assert link_gbytes(4, 16) == pytest.approx(31.5, abs=0.1)
    assert link_gbytes(None, 16) is None
    assert card_need_gbytes(CX7_NDR) == 50


def test_gpu_cards_go_to_gpu_slots():
    # SYS-421GE-TNRT3: 8 FHFL GPU slots + OCP bay [DS-421TNRT3].
    r = run(design(group(SYS_421GE_TNRT3, comp(L40S, 8))))
    gpu_slots = [s for s in r.placement[0]["slots"] if s["for_gpu"]]
    assert all(s["part"] == "L40S" for s in gpu_slots)
    assert not r.placement[0]["unplaced"]


def test_placement_cost_does_not_depend_on_count():
    one = run(b200(SYS_822GS_NBRT, comp(CX7_NDR, 8, "compute"), count=1))
    many = run(b200(SYS_822GS_NBRT, comp(CX7_NDR, 8, "compute"), count=10_000))
    assert one.placement == many.placement


def test_four_full_length_slots_overflow_names_the_card():
    # AS-4125GS-TNRT: 9 FHFL slots [SR-4125]; 8 GPUs + 2 DPUs = 10 cards.
    r = run(design(group(AS_4125GS_TNRT, comp(L40S, 8), comp(BF3_B3220, 2, "storage"))))
    f = next(f for f in r.findings if f.code == "PCIE_NO_FREE_SLOT")
    assert "9 full-height full-length (FHFL) PCIe 5.0 x16 slots; 10 cards need one each" in both(f).message.en


def test_slot_forms_are_reported_for_the_slot_map():
    r = run(design(group(SYS_421GE_TNRT3, comp(L40S, 2))))
    forms = {s["slot"]: s["form"] for s in r.placement[0]["slots"]}
    assert forms["GPU1"] == SlotForm.FHFL and forms["AIOM1"] == SlotForm.OCP3


def test_no_slot_for_a_nic_says_the_gpus_hold_the_full_height_slots_and_the_ocp_bay_takes_ocp_cards():
    # SYS-421GE-TNRT3: 8 FHFL GPU slots + 1 AIOM/OCP 3.0 bay [DS-421TNRT3]; 8 L40S fill the FHFL slots, and an HHHL
    # ConnectX-7 does not fit the OCP bay. The fix names the catalogue's OCP 3.0 card of the same line.
    r = run(design(group(SYS_421GE_TNRT3, comp(L40S, 8), comp(CX7_NDR, 1, "storage"))))
    # The list leaves open only the AIOM bay's kind (OCP 3.0), which an HHHL card never fits: a refusal (issue #20).
    f = next(f for f in r.findings if f.code == "PCIE_NO_FREE_SLOT")
    assert f.severity == "error" and f.params.published_count is True
    en, nl = both(f).message.en, both(f).message.nl
    assert "1 of the 1" not in en and "fits only" not in en
    assert (
        "MCX75310AAS-NEAT is a half-height (HHHL) card: the 8 full-height slots it fits are taken by the 8 L40S GPU "
        "cards, and the free OCP 3.0 bay AIOM1 takes only OCP 3.0 cards, so it has no slot." in en
    )
    assert (
        "MCX75310AAS-NEAT is een half-height (HHHL) kaart: de 8 full-height slots waar hij in past, zijn bezet door "
        "de 8 L40S-GPU-kaarten, en de vrije OCP 3.0-bay AIOM1 neemt alleen OCP 3.0-kaarten, dus heeft hij geen slot."
        in nl
    )
    assert both(f).fix.en.startswith(
        "Use an OCP 3.0 ConnectX-7 adapter (MCX75343AMS-NEAC) in the free OCP 3.0 bay AIOM1, use fewer GPU cards"
    )
    assert both(f).fix.nl.startswith(
        "Gebruik een OCP 3.0 ConnectX-7-adapter (MCX75343AMS-NEAC) in de vrije OCP 3.0-bay AIOM1, gebruik minder "
        "GPU-kaarten"
    )


def test_an_ocp_card_without_an_ocp_bay_is_pointed_to_its_pcie_version():
    f = next(
        f for f in run(b200(SYS_822GS_NBRT, comp(CX7_OCP, 1, "storage"))).findings if f.code == "PCIE_NO_FREE_SLOT"
    )
    assert "MCX75343AMS-NEAC is an OCP 3.0 card and none of them takes it." in both(f).message.en
    assert both(f).fix.en.startswith("Choose the PCIe (HHHL) version of the card (MCX75310AAS-NEAT)")


def test_slot_summary_says_unknown_pcie_in_words():
    # The AIOM bay's PCIe generation and width are not sourced [DS-421TNRT3].
    r = run(design(group(SYS_421GE_TNRT3, comp(L40S, 8), comp(CX7_NDR, 1, "storage"))))
    # The list leaves open only the AIOM bay's kind (OCP 3.0), which an HHHL card never fits: a refusal (issue #20).
    f = next(f for f in r.findings if f.code == "PCIE_NO_FREE_SLOT")
    assert f.severity == "error" and f.params.published_count is True
    assert "1 OCP 3.0 slot of unknown PCIe generation and width" in both(f).message.en
    assert "1 OCP 3.0 slot met onbekende PCIe-generatie en -breedte" in both(f).message.nl
    assert "(generation unknown)" not in both(f).message.en and "(lanes unknown)" not in both(f).message.en
    assert "onbekend)" not in both(f).message.nl


def test_link_unknown_says_what_is_unknown_in_words():
    f = next(
        f for f in run(b200(UNKNOWN_GEN, comp(CX7_NDR, 8, "compute")), CAT).findings if f.code == "PCIE_LINK_UNKNOWN"
    )
    assert (
        "LP1 is an x16 slot of unknown PCIe generation and MCX75310AAS-NEAT is a PCIe 5.0 x16 card"
        in both(f).message.en
    )
    assert "LP1 is een x16-slot met onbekende PCIe-generatie en MCX75310AAS-NEAT is een PCIe 5.0 x16-kaart" in (
        both(f).message.nl
    )
