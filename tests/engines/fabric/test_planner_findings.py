"""Findings the planner must get right (audit): HDR on NDR, unknown SM status, missing media classes, rails
beyond the radix, and the wording of the subnet-manager and generation findings."""

import dataclasses

import pytest

from design.model import DesignInputError, RackIn
from engines.fabric.check import check_hdr_for_new_gpus
from engines.fabric.model import NODE_LEAF
from engines.fabric.plan import plan_fabric
from engines.fabric.request import parse_fabric_request, resolve
from engines.findings.fabric_codes import FabricCode
from engines.findings.finding import Severity
from messages import both, rule_entries
from messages.base import article

from .parts import (
    CATALOG,
    CX6_HDR,
    CX7_NDR,
    CX8,
    ETH_100G,
    MEDIA,
    Q3400,
    QM8700,
    QM9700,
    QM9790,
    SN4600C,
    SWITCHES,
    catalog,
)


def plan(nodes, rails=8, switch=QM9700, hca=CX7_NDR, **kw):
    kw.setdefault("catalog", CATALOG)
    return plan_fabric(nodes=nodes, rails=rails, switch=switch, hca=hca, **kw)


def finding(p, code):
    return next(f for f in p.findings if f.code == code)


def codes(p) -> set[str]:
    return {f.code for f in p.findings}


# --- 1. HDR adapter on an NDR switch -----------------------------------------------------------------------


def test_hdr_adapter_on_ndr_switch_in_rack_is_beyond_reach_not_no_cable():
    # 4 nodes x 8 rails = 32 ports: one QM9700 in the nodes' rack. Split 2 (4 x 200G per cage) has no cable;
    # whole ports take MCP7Y60 (twin 2x200G OSFP -> 2x QSFP56), up to 2 m; the given in-rack run is 2 m + 0.5 m.
    p = plan(4, hca=CX6_HDR, rack=RackIn(in_rack_m=2))
    assert FabricCode.NO_CABLE not in codes(p)
    # no HDR optics in the catalogue: the longest splitter is a catalogue limit, a warning (issue #20)
    reach = finding(p, FabricCode.REACH_NOT_CATALOGUED)
    assert reach.severity == Severity.WARNING and reach.params.bom_incomplete is True
    assert reach.params.required_m == 2.5 and reach.params.longest_m == 2 and reach.params.rack_field == "in_rack_m"
    assert "at least 2.5 m" in both(reach).message.en and "reaches 2 m" in both(reach).message.en
    assert "minstens 2,5 m" in both(reach).message.nl and "reikt 2 m" in both(reach).message.nl
    # The fix names the fabric step's field a user fills in, not the design's field path
    assert "“Cable run within a rack (m)”" in both(reach).fix.en and "at most 1.5 m" in both(reach).fix.en
    assert "rack.in_rack_m" not in both(reach).fix.en
    assert "“Kabellengte binnen een rack (m)”" in both(reach).fix.nl and "hooguit 1,5 m" in both(reach).fix.nl
    speed = finding(p, FabricCode.SPEED_MISMATCH)
    assert "runs at 200 Gb/s" in both(speed).message.en and speed.params.link_gbps == 200
    assert p.split == 1 and p.link(NODE_LEAF).speed_gbps == 200


def test_hdr_adapter_on_ndr_switch_with_a_shorter_in_rack_run_takes_the_2m_splitter():
    # The rack override shortens the run: 1.5 m + 0.5 m slack = 2 m, which MCP7Y60-H002 reaches.
    p = plan(4, hca=CX6_HDR, rack=RackIn(in_rack_m=1.5))
    assert not codes(p) & {FabricCode.NO_CABLE, FabricCode.BEYOND_REACH, FabricCode.REACH_NOT_CATALOGUED}
    assert {part: q for part, q, _ in p.link(NODE_LEAF).parts} == {"MCP7Y60-H002": 16}


def test_hdr_adapter_on_ndr_leaves_over_a_row_run_is_beyond_reach_of_the_splitter():
    p = plan(64, hca=CX6_HDR, rack=RackIn(node_to_leaf_m=15))
    reach = finding(p, FabricCode.REACH_NOT_CATALOGUED)
    assert reach.severity == Severity.WARNING and not p.bom_complete
    assert reach.params.rack_field == "node_to_leaf_m" and reach.params.distance_m == 15


def test_a_default_run_no_medium_reaches_is_an_assumption_not_an_error():
    # Without a distance from the design the in-rack run is the 2 m default (+0.5 m), which no HDR splitter
    # reaches: the plan takes the 2 m MCP7Y60 and warns that the runs must stay within 1.5 m.
    p = plan(4, hca=CX6_HDR)
    assert not codes(p) & {FabricCode.NO_CABLE, FabricCode.BEYOND_REACH, FabricCode.REACH_NOT_CATALOGUED}
    f = finding(p, FabricCode.DISTANCE_ASSUMED)
    assert f.severity == Severity.WARNING
    assert (f.params.default_m, f.params.planned_m, f.params.link_class) == (2, 1.5, NODE_LEAF)
    assert {part: q for part, q, _ in p.link(NODE_LEAF).parts} == {"MCP7Y60-H002": 16}
    assert "at most 1.5 m" in both(f).message.en and "hooguit 1,5 m" in both(f).message.nl
    assert "“Cable run within a rack (m)”" in both(f).fix.en and "in_rack_m" not in both(f).fix.en


# --- 2. unknown subnet-manager status ---------------------------------------------------------------------


def test_unknown_managed_status_is_said_not_read_as_unmanaged():
    unknown = dataclasses.replace(QM9700, managed=None)
    p = plan(64, switch=unknown)
    assert not codes(p) & {FabricCode.SM_REQUIRED, FabricCode.SM_EMBEDDED, FabricCode.SM_LIMIT}
    f = finding(p, FabricCode.SM_UNKNOWN)
    assert f.severity == Severity.WARNING
    assert "subnet-manager status of MQM9700-NS2F is not known from the sources: plan UFM or an SM host" in (
        both(f).message.en
    )
    assert "niet bekend" in both(f).message.nl and "UFM" in both(f).message.nl
    assert "unmanaged" not in both(f).message.en
    # True and False keep their findings.
    assert FabricCode.SM_EMBEDDED in codes(plan(64))
    assert FabricCode.SM_REQUIRED in codes(plan(64, switch=QM9790))


def test_subnet_manager_findings_count_endpoints_not_servers():
    # 128 nodes x 8 rails = 1,024 HCA ports + 48 switches = 1,072: endpoints in the SM's sense, not servers.
    p = plan(128)
    f = finding(p, FabricCode.SM_EMBEDDED)
    assert "1,072 InfiniBand endpoints (HCA ports and switches" in both(f).message.en
    assert "1.072 InfiniBand-eindpunten (HCA-poorten en switches" in both(f).message.nl
    assert "nodes" not in both(f).message.en.split("SHARP")[0].replace("1,072", "")
    req = finding(plan(128, switch=QM9790), FabricCode.SM_REQUIRED)
    assert "1,072 InfiniBand endpoints (HCA ports and switches)" in both(req).message.en
    assert "InfiniBand-eindpunten (HCA-poorten en switches)" in both(req).message.nl
    limit = finding(plan(512), FabricCode.SM_LIMIT)
    assert "InfiniBand endpoints (HCA ports and switches)" in both(limit).message.en
    assert "InfiniBand-eindpunten" in both(limit).message.nl
    rules = {e["code"]: e for e in rule_entries()}
    for code in (FabricCode.SM_EMBEDDED, FabricCode.SM_LIMIT):
        rule = rules[code]
        assert "endpoints" in rule["explanation"]["en"] and "eindpunten" in rule["explanation"]["nl"]
        assert "InfiniBand nodes" not in rule["explanation"]["en"]


# --- 3. an 800G adapter on a 400G switch (integrated ConnectX-8: see tests/configurator/test_validation_service.py) ---


def test_xdr_adapter_on_ndr_switch_warns_and_points_to_quantum_x800():
    p = plan(4, hca=CX8, catalog=catalog(*SWITCHES, Q3400, CX8, *MEDIA))
    f = finding(p, FabricCode.SPEED_MISMATCH)
    assert "800 Gb/s" in both(f).message.en and "400 Gb/s" in both(f).message.en and f.params.link_gbps == 400
    assert "XDR" in both(f).fix.en and "Q3400" in both(f).fix.en and "XDR-adapters" in both(f).fix.nl


def test_faster_adapter_fix_names_the_switch_the_catalogue_holds_at_that_speed():
    """The advised switch comes from the catalogue: without an 800 Gb/s switch the fix asks for the speed only."""
    f = finding(plan(4, hca=CX8), FabricCode.SPEED_MISMATCH)
    assert f.params.advised_switch is None and "800 Gb/s ports" in both(f).fix.en
    newer = dataclasses.replace(Q3400, part_number="Q3450-LD", name="Quantum-X800 Q3450-LD")
    f = finding(plan(4, hca=CX8, catalog=catalog(*SWITCHES, newer, CX8, *MEDIA)), FabricCode.SPEED_MISMATCH)
    assert f.params.advised_switch == "Q3450-LD" and "Q3450-LD" in both(f).fix.en


# --- 4. media classes the catalogue does not have --------------------------------------------------------


def test_xdr_fabric_says_the_catalogue_has_no_800g_osfp_media():
    # This test catalogue holds no XDR media: a catalogue gap, so a warning with the bill marked incomplete.
    p = plan(16, switch=Q3400, hca=CX8)
    f = finding(p, FabricCode.MEDIA_NOT_CATALOGUED)
    assert f.severity == "warning" and FabricCode.NO_CABLE not in codes(p)
    assert "The bill of materials leaves these links out, so it is incomplete." in both(f).message.en
    assert "stuklijst" in both(f).message.nl
    assert p.to_dict()["bom_complete"] is False and p.to_dict()["uncabled_links"] == ["node-leaf"]
    assert both(f).message.en.startswith("We offer no 800 Gb/s OSFP cables or optics yet")
    assert "we can quote the cabling separately" in both(f).message.en
    assert "ask us to quote the 800 Gb/s OSFP cabling" in both(f).fix.en
    assert "nog geen kabels of optiek voor 800 Gb/s OSFP" in both(f).message.nl and "vraag ons" in both(f).fix.nl
    assert f.params.missing_media == [{"connector": "OSFP", "speed_gbps": 800}]
    assert "joins" not in both(f).message.en


def test_100g_qsfp28_fabric_says_the_catalogue_has_no_qsfp28_media():
    p = plan(16, switch=SN4600C, hca=ETH_100G)
    f = finding(p, FabricCode.MEDIA_NOT_CATALOGUED)
    assert f.severity == "warning"
    assert "no 100 Gb/s QSFP28 cables or optics yet" in both(f).message.en
    assert "100 Gb/s QSFP28" in both(f).message.nl and "100 Gb/s QSFP28" in both(f).fix.en


def test_connectors_with_media_but_no_joining_cable_keep_the_join_message():
    # NDR OSFP adapter on an HDR QSFP56 switch: both connectors have media, none joins them.
    f = finding(plan(64, switch=QM8700, hca=CX7_NDR), FabricCode.NO_CABLE)
    assert both(f).message.en.startswith("No catalogue cable or optic set joins") and not hasattr(
        f.params, "missing_media"
    )


def test_an_unknown_hca_connector_stays_unknown_visibly():
    nameless = dataclasses.replace(CX7_NDR, part_number="X-NIC", connector=None, top=None)
    f = finding(plan(4, hca=nameless), FabricCode.MEDIA_NOT_CATALOGUED)
    assert f.severity == "warning"
    assert "not known from the sources" in both(f).message.en and "niet bekend" in both(f).message.nl
    assert f.params.unknown_connector is True


# --- 5. rails beyond what a rail-optimized fabric can wire ------------------------------------------------


def test_rails_beyond_a_pod_explain_the_rail_limit_and_suggest_fat_tree():
    # QM9700, k = 64: 100 nodes x 40 rails -> 4 SUs of 32 nodes, 160 leaves > 64 (two tiers); a three-tier pod
    # holds whole SUs under spines of 32 downlinks, fewer than the 40 leaves of one SU.
    p = plan(100, rails=40)
    f = finding(p, FabricCode.PORTS_EXCEEDED)
    assert p.tiers == 0 and f.params.max_rails == 32 and f.params.leaves == 160
    assert "reach at most 0" not in both(f).message.en and "at most 32 rails" in both(f).message.en
    assert "hooguit 32 rails" in both(f).message.nl and "fat-tree" in both(f).fix.en and "fat-tree" in both(f).fix.nl
    # The same nodes and rails as a fat tree: sized.
    assert plan(100, rails=40, topology="fat-tree").tiers == 3


def test_absurd_rails_are_bad_input_naming_rails():
    req = parse_fabric_request({"nodes": 4, "rails": 100, "switch": "MQM9700-NS2F"})
    with pytest.raises(DesignInputError) as info:
        resolve(req, catalog())
    assert set(info.value.errors) == {"rails"}
    assert "at most 64 rails" in info.value.errors["rails"] and "fat-tree" in info.value.errors["rails"]
    # A fat tree packs endpoints by port count: not an input error.
    fat = parse_fabric_request({"nodes": 4, "rails": 100, "switch": "MQM9700-NS2F", "topology": "fat-tree"})
    assert resolve(fat, catalog())[0].part_number == "MQM9700-NS2F"
    # Everything on one switch is wireable, if odd.
    one = parse_fabric_request({"nodes": 1, "rails": 100, "switch": "MQM9700-NS2F"})
    resolve(one, catalog())


# --- 6. wording -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("HDR", "an"),
        ("NDR", "an"),
        ("XDR", "an"),
        ("EDR", "an"),
        ("QDR", "a"),
        ("Spectrum-3", "a"),
        ("InfiniBand", "an"),
        ("Ethernet", "an"),
        ("200 Gb/s", "a"),
        ("800 Gb/s", "an"),
        ("11", "an"),
        ("110", "a"),
    ],
)
def test_article(word, expected):
    assert article(word) == expected


def test_hdr_switch_reads_an_hdr_switch():
    f = check_hdr_for_new_gpus(QM8700, "Hopper", 400, CATALOG)
    assert "is an HDR switch" in both(f).message.en and "is een HDR-switch" in both(f).message.nl
