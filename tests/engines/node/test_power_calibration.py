"""Power a facility can plan with: the node estimate calibrated against NVIDIA's published system maxima, its basis
stated, PSU redundancy checked both ways when it is not sourced, and no power finding on a refused board."""

import pytest

from design.specs import Cooling
from engines.node.power import FAN_MARGIN, MEMORY_AND_DRIVES_W, OPTIC_W_PER_PORT, network_power
from messages import both

from .parts import (
    AS_4125GS_TNRT,
    CX7_NDR,
    DAC_MCP4Y10,
    HGX_B200,
    HGX_H100,
    HGX_H200,
    L40S,
    QM9700,
    SYS_421GE_TNRT3,
    SYS_821GE_TNHR,
    SYS_822GS_NBRT,
    catalog,
    comp,
    design,
    group,
    hgx_node,
    run,
    variant,
)

# catalog/seed/FACTS.md "Power": DGX H100/H200 10.2 kW [DGX-H100-PWR], DGX B200 ~14.3 kW [DGX-B200-PWR], all three
# air-cooled [MLC-NV-DGXH100, MLC-NV-H200X8, DGXB200-AIR]
AIR = {"ref_system_cooling": Cooling.AIR}
H100_REF = variant(HGX_H100, "TEST-HGX-H100-REF", ref_system="DGX H100", ref_system_max_w=10200, **AIR)
H200_REF = variant(HGX_H200, "TEST-HGX-H200-REF", ref_system="DGX H200", ref_system_max_w=10200, **AIR)
B200_REF = variant(HGX_B200, "TEST-HGX-B200-REF", ref_system="DGX B200", ref_system_max_w=14300, **AIR)
TNHR_REF = variant(SYS_821GE_TNHR, "TEST-821-REF", accepts=frozenset({"TEST-HGX-H100-REF", "TEST-HGX-H200-REF"}))
NBRT_REF = variant(SYS_822GS_NBRT, "TEST-822-REF", accepts=frozenset({"TEST-HGX-B200-REF"}))
# 4 x 3000 W with no redundancy sourced: N+N = 6 kW, N+0 = 12 kW
TNHR_NO_REDUNDANCY = variant(
    SYS_821GE_TNHR, "TEST-821-4PSU", psu_count=4, psu_redundant=None, accepts=frozenset({"TEST-HGX-H100-REF"})
)
CAT = catalog(H100_REF, H200_REF, B200_REF, TNHR_REF, NBRT_REF, TNHR_NO_REDUNDANCY)


def basis(d, cat=CAT):
    r = run(d, cat)
    return next(f for f in r.findings if f.code == "POWER_ESTIMATE_BASIS"), r


@pytest.mark.parametrize(
    "server, board, peak, system",
    [
        # issue #13 item 3: the sum of parts was 7.9 kW for HGX H100; NVIDIA publishes 10.2 kW for DGX H100
        (TNHR_REF, H100_REF, 10200, "DGX H100"),
        (TNHR_REF, H200_REF, 10200, "DGX H200"),
        # ...and 10.7 kW for HGX B200 against about 14.3 kW for DGX B200
        (NBRT_REF, B200_REF, 14300, "DGX B200"),
    ],
)
def test_an_hgx_node_is_at_least_the_published_maximum_of_nvidias_system(server, board, peak, system):
    f, r = basis(design(hgx_node(server, board)))
    assert f.severity == "info"
    assert f.params.basis == "reference_system" and f.params.reference_system == system
    assert f.params.peak_w == peak and f.params.parts_w < peak
    assert r.totals["groups"][0]["peak_power_w_per_node"] == peak
    assert r.totals["power_basis"][0]["basis"] == "reference_system"
    assert f"NVIDIA publishes {peak:,} W as the maximum of {system}" in both(f).message.en
    assert "fans at full speed" in both(f).message.en and "ventilatoren op vol toerental" in both(f).message.nl


def test_a_node_without_a_reference_system_says_it_is_the_sum_of_parts():
    # 4 x L40S at 350 W in SYS-421GE-TNRT3: (1400 + 700 + 300) x 1.15 = 2,760 W, PSU losses not included
    f, r = basis(design(group(SYS_421GE_TNRT3, comp(L40S, 4))))
    expected = (4 * 350 + 700 + MEMORY_AND_DRIVES_W) * (1 + FAN_MARGIN)
    assert f.params.basis == "parts" and f.params.peak_w == round(expected)
    assert "PSU losses" in both(f).message.en
    assert r.totals["power_basis"][0]["reference_system"] is None


def test_a_sum_of_parts_above_the_reference_keeps_the_sum():
    # 8 NICs with optics on top of the DGX figure's GPUs: if the parts ever exceed the maximum, the larger wins
    low_ref = variant(H100_REF, "TEST-HGX-H100-LOWREF", ref_system_max_w=5000)
    server = variant(SYS_821GE_TNHR, "TEST-821-LOW", accepts=frozenset({"TEST-HGX-H100-LOWREF"}))
    f, _ = basis(design(hgx_node(server, low_ref)), catalog(low_ref, server))
    parts = (8 * 700 + 700 + MEMORY_AND_DRIVES_W + 8 * CX7_NDR.watts + 8 * OPTIC_W_PER_PORT) * (1 + FAN_MARGIN)
    assert f.params.basis == "parts" and f.params.peak_w == round(parts)


def test_the_published_maximum_is_checked_against_the_supplies_without_the_estimate_headroom():
    # 10.2 kW of 12 kW (4+2 x 3 kW, STH-821) is 85%: a published maximum is the worst case already, so no
    # near-capacity warning; 14.3 kW of 19.8 kW (3+3 x 6.6 kW, DIST-PM) is 72%.
    for server, board in ((TNHR_REF, H200_REF), (NBRT_REF, B200_REF)):
        codes = {f.code for f in run(design(hgx_node(server, board)), CAT).findings}
        assert not codes & {"POWER_NEAR_CAPACITY", "POWER_OVER_CAPACITY"}, codes


def test_over_even_all_supplies_is_an_error_when_the_redundancy_is_unknown():
    # 2 x 3 kW: 6 kW < 10.2 kW. With a board the server's sources do not name (unverified), an error.
    small = variant(
        TNHR_NO_REDUNDANCY, "TEST-821-2PSU", psu_count=2, accepts=frozenset({"HGX-H100-8GPU"}), accepts_complete=False
    )
    r = run(design(hgx_node(small, H100_REF)), catalog(H100_REF, small))
    f = next(f for f in r.findings if f.code == "POWER_OVER_CAPACITY")
    assert f.severity == "error" and f.params.psu_redundant == 0 and f.params.capacity_w == 6000


def test_over_the_supplies_of_the_vendors_own_configuration_is_a_warning_to_confirm():
    # Issue #20: the same 2 x 3 kW server with the board its sources name, on its own supplies, is the vendor's
    # shipping configuration: an estimate above its supplies is a warning to confirm with the vendor, not a refusal.
    small = variant(TNHR_NO_REDUNDANCY, "TEST-821-2PSU", psu_count=2)
    r = run(design(hgx_node(small, H100_REF)), catalog(H100_REF, small))
    assert "POWER_OVER_CAPACITY" not in {f.code for f in r.findings} and r.valid
    f = next(f for f in r.findings if f.code == "POWER_ESTIMATE_ABOVE_SUPPLIES")
    assert f.severity == "warning" and f.params.capacity_w == 6000 and f.params.peak_w == 10200
    assert "Confirm the node's power budget with Supermicro" in both(f).fix.en
    assert "Supermicro" in both(f).fix.nl


def test_unknown_redundancy_says_only_n_plus_0_holds():
    r = run(design(hgx_node(TNHR_NO_REDUNDANCY, H100_REF)), CAT)
    f = next(f for f in r.findings if f.code == "POWER_REDUNDANCY_N_PLUS_0")
    assert f.severity == "warning"
    assert (f.params.n_plus_n_w, f.params.n_plus_0_w) == (6000, 12000)
    assert "With N+N (2+2, 6,000 W) the load would be 170%" in both(f).message.en
    assert "(N+0, 12,000 W, 85%)" in both(f).message.en
    assert "zonder redundantie" in both(f).message.nl
    assert not any(f.code == "POWER_CAPACITY_UNKNOWN" for f in r.findings)


def test_unknown_redundancy_says_n_plus_n_holds():
    # AS-4125GS-TNRT: 4 x 2000 W [SR-4125]; 2 x L40S: (700 + 700 + 300) x 1.15 = 1,955 W of 4,000 W
    r = run(design(group(AS_4125GS_TNRT, comp(L40S, 2))))
    f = next(f for f in r.findings if f.code == "POWER_REDUNDANCY_N_PLUS_N")
    assert f.severity == "info" and "holds with full redundancy" in both(f).message.en


def test_a_refused_board_gets_no_power_error():
    # HGX B200 is refused in SYS-821GE-TNHR (its sources name HGX H100/H200); its 14 kW is no second error
    r = run(design(hgx_node(board=HGX_B200)))
    errors = [f.code for f in r.findings if f.severity == "error"]
    assert errors == ["GPU_NOT_ACCEPTED"]


def test_network_power_counts_sourced_parts_and_lists_the_unknown():
    # MCP4Y10 0.2 W [NV-LX-CU]; QM9700 power not sourced (catalog/seed/README.md): listed, never zero
    parts = {p.part_number: p for p in (QM9700, DAC_MCP4Y10)}
    net = network_power([(QM9700.part_number, 2), (DAC_MCP4Y10.part_number, 10)], parts)
    assert net.switches_w == (2 * QM9700.watts if QM9700.watts is not None else 0)
    assert net.media_w == pytest.approx(10 * DAC_MCP4Y10.watts if DAC_MCP4Y10.watts is not None else 0)
    assert (QM9700.part_number in net.unknown) is (QM9700.watts is None)
