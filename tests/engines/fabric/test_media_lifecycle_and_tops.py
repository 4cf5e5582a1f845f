"""Buildable media from the seed catalogue: no discontinued part while an active one reaches, plug tops honoured
at both ends (an unknown top is said, not assumed silently), named discontinued parts warned with their
replacement, and HDR leaf-spine runs quoted only with an HDR cable the catalogue has."""

import dataclasses
from decimal import Decimal

import pytest

from design.model import ComponentIn, DesignIn, NodeGroupIn, RackIn
from design.specs import MediaSpec
from design.vocabulary import Top
from engines.catalog_view import CatalogView
from engines.fabric.model import LEAF_SPINE, NODE_LEAF
from engines.fabric.plan import plan_fabric
from engines.findings import Code
from engines.findings.fabric_codes import FabricCode
from engines.node.engine import validate_nodes
from messages import both

pytestmark = pytest.mark.django_db


@pytest.fixture
def view(seeded_catalog):
    from configurator.snapshot import catalog_snapshot

    return catalog_snapshot(max_age=0)


def without(view: CatalogView, *prefixes: str) -> CatalogView:
    return CatalogView(
        version=view.version + "-cut",
        parts={pn: p for pn, p in view.parts.items() if not pn.startswith(prefixes)},
        reference_systems=view.reference_systems,
    )


def with_parts(view: CatalogView, *parts) -> CatalogView:
    return CatalogView(version=view.version + "-plus", parts={**view.parts, **{p.part_number: p for p in parts}})


def plan(view, nodes=4, switch="MQM9700-NS2F", hca="MCX755106AS-HEAT", **rack):
    return plan_fabric(
        nodes=nodes,
        rails=8,
        switch=view.get(switch),
        hca=view.get(hca) if hca else None,
        catalog=view,
        rack=RackIn(**rack) if rack else None,
    )


def node_parts(p) -> list[str]:
    return [part for part, _qty, _role in p.link(NODE_LEAF).parts]


def codes(p) -> list[str]:
    return [f.code for f in p.findings]


# --- lifecycle ---------------------------------------------------------------------------------------------


def test_short_run_to_qsfp112_cards_takes_transceivers_not_the_discontinued_splitter(view):
    # 1 m from leaf to ConnectX-7 QSFP112 cards: the MCP7Y10 splitter DAC reaches and is cheaper, but NVIDIA lists
    # it as discontinued ("use transceivers"), so the active transceiver route wins.
    assert view.get("MCP7Y10-N002").lifecycle == "discontinued"
    p = plan(view, node_to_leaf_m=1.0)
    parts = node_parts(p)
    assert not any(pn.startswith("MCP7Y10") for pn in parts)
    assert "MMA1Z00-NS400" in parts and "MMA4Z00-NS" in parts
    assert FabricCode.MEDIA_DISCONTINUED not in codes(p)


def test_discontinued_medium_only_when_nothing_active_reaches_and_then_said_with_replacement(view):
    # No QSFP112 transceiver and no HDR splitter to QSFP56 ends (which ConnectX-7's QSFP112 cage takes, NV-LX-OV):
    # only the discontinued splitter joins the ends.
    cut = without(view, "MMA1Z00", "MCP7Y60")
    p = plan(cut, node_to_leaf_m=1.0)
    assert all(pn.startswith("MCP7Y10") for pn in node_parts(p))
    f = next(f for f in p.findings if f.code == FabricCode.MEDIA_DISCONTINUED)
    said = both(f)
    assert f.params.part.startswith("MCP7Y10") and "MMA4Z00-NS" in said.message.en
    assert "discontinued" in said.message.en and "uitgefaseerd" in said.message.nl
    assert f.severity == "warning"


def test_the_planner_skips_a_cheaper_end_of_life_management_switch(view):
    old = dataclasses.replace(view.get("SN2201"), part_number="SN2100-OLD", lifecycle="eol", price_eur=1)
    assert plan(with_parts(view, old), nodes=16).management_switch == "SN2201"
    alone = with_parts(without(view, "SN2201"), old)
    assert plan(alone, nodes=16).management_switch == "SN2100-OLD"  # nothing active: the old one, not none


def test_a_design_that_names_a_discontinued_part_gets_a_warning_with_the_replacement(view):
    design = DesignIn(
        node_groups=(
            NodeGroupIn(
                name="gpu",
                count=2,
                server="SYS-821GE-TNHR",
                components=(
                    ComponentIn(part="HGX-H100-8GPU", quantity=1),
                    ComponentIn(part="MCP7Y10-N001", quantity=2),
                ),
            ),
        )
    )
    findings = validate_nodes(design, view).findings
    f = next(f for f in findings if f.code == Code.PART_DISCONTINUED)
    assert f.subject == "node_groups[0].components[1]" and f.severity == "warning"
    said = both(f)
    assert "MCP7Y10-N001" in said.message.en and "MMA1Z00-NS400" in said.message.en
    assert "MMA1Z00-NS400" in said.fix.en and "vervanger" in said.fix.nl
    assert Code.PART_WRONG_CATEGORY in {f.code for f in findings}  # a cable is still no node component


def test_a_discontinued_fabric_switch_or_hca_is_warned_where_the_request_names_it(view):
    switch = dataclasses.replace(view.get("MQM9700-NS2F"), lifecycle="eol", replacement="")
    hca = dataclasses.replace(view.get("MCX75310AAS-NEAT"), lifecycle="discontinued", replacement="MCX75310AAS-NEAX")
    p = plan_fabric(nodes=4, rails=8, switch=switch, hca=hca, catalog=view)
    found = {f.subject: f for f in p.findings if f.code == Code.PART_DISCONTINUED}
    assert set(found) == {"fabric.switch", "fabric.hca"}
    assert "No replacement is known" in both(found["fabric.switch"]).message.en
    assert "MCX75310AAS-NEAX" in both(found["fabric.hca"]).fix.en
    # The HCA taken from the nodes is checked there, not again as the fabric's.
    p = plan_fabric(nodes=4, rails=8, switch=view.get("MQM9700-NS2F"), hca=hca, catalog=view, hca_named=False)
    assert Code.PART_DISCONTINUED not in codes(p)


# --- plug tops ---------------------------------------------------------------------------------------------


def test_connectx7_osfp_cards_get_flat_top_ends_and_no_top_warning(view):
    p = plan(view, hca="MCX75310AAS-NEAT", node_to_leaf_m=1.0)
    (part,) = set(node_parts(p))
    medium = view.get(part)
    assert medium.end_b.top == Top.FLAT and medium.end_a.top == Top.FINNED
    assert FabricCode.PLUG_TOP_UNKNOWN not in codes(p)


def test_a_cable_whose_card_end_is_finned_never_goes_into_a_flat_top_card(view):
    finned = [
        dataclasses.replace(m, part_number=m.part_number + "-F", end_b=dataclasses.replace(m.end_b, top=Top.FINNED))
        for m in view.of_type(MediaSpec)
        if m.part_number.startswith("MCP7Y00")
    ]
    cut = with_parts(without(view, "MCP7Y00"), *finned)
    p = plan(cut, hca="MCX75310AAS-NEAT", node_to_leaf_m=1.0)
    assert not any(pn.endswith("-F") for pn in node_parts(p))


def test_an_unknown_plug_top_is_a_warning_and_a_known_fit_wins_over_it(view):
    unknown = [
        dataclasses.replace(
            m,
            part_number=m.part_number + "-U",
            end_b=dataclasses.replace(m.end_b, top=None),
            price_eur=(m.price_eur or 0) / 2,
        )
        for m in view.of_type(MediaSpec)
        if m.part_number.startswith("MCP7Y00")
    ]
    both_kinds = with_parts(view, *unknown)
    p = plan(both_kinds, hca="MCX75310AAS-NEAT", node_to_leaf_m=1.0)
    assert not any(pn.endswith("-U") for pn in node_parts(p))  # cheaper, but its top is not known
    only_unknown = with_parts(without(view, "MCP7Y00", "MMA4Z00", "MMS4X00"), *unknown)
    p = plan(only_unknown, hca="MCX75310AAS-NEAT", node_to_leaf_m=1.0)
    assert all(pn.endswith("-U") for pn in node_parts(p))
    f = next(f for f in p.findings if f.code == FabricCode.PLUG_TOP_UNKNOWN)
    said = both(f)
    assert f.params.medium.endswith("-U") and "plug top" in said.message.en
    assert "MCX75310AAS-NEAT" in said.message.en and "stekkerbovenkant" in said.fix.nl


# --- HDR ---------------------------------------------------------------------------------------------------


def test_hdr_leaf_spine_beyond_the_longest_catalogued_aoc_says_no_longer_cable_is_known(view):
    p = plan(view, nodes=32, switch="MQM8700-HS2F", hca="MCX653105A-HDAT", leaf_to_spine_m=40.0)
    assert p.tiers == 2 and p.link(LEAF_SPINE).parts == ()
    f = next(f for f in p.findings if f.code == FabricCode.REACH_NOT_CATALOGUED)
    assert f.params.cables_only is True and f.params.longest_m == 30 and f.severity == "warning"
    assert "The bill of materials leaves these links out" in both(f).message.en
    said = both(f)
    assert "no longer cable of this kind is known" in said.message.en and "niet bekend" in said.message.nl


def test_any_longer_hdr_aoc_the_catalogue_has_is_taken(view):
    aoc30 = view.get("MFS1S00-H030E")
    aoc50 = dataclasses.replace(aoc30, part_number="MFS1S00-H050E", name="HDR AOC 50 m", length_m=50.0)
    p = plan(with_parts(view, aoc50), nodes=32, switch="MQM8700-HS2F", hca="MCX653105A-HDAT", leaf_to_spine_m=40.0)
    assert p.link(LEAF_SPINE).cable_part == "MFS1S00-H050E"
    assert not set(codes(p)) & {FabricCode.BEYOND_REACH, FabricCode.REACH_NOT_CATALOGUED}


# --- XDR media (issue #20): 200G-PAM4 plugs never mix with 100G-PAM4 ones -----------------------------------------


def _cheap(view, pn):
    """The seed part at a price that would win every comparison, to show a rule, not a price, keeps it out."""
    return dataclasses.replace(view.get(pn), part_number=pn + "-CHEAP", price_eur=Decimal("1"))


def test_a_cheaper_xdr_optic_never_goes_into_an_ndr_switch_cage(view):
    # An 800G XDR twin-port plug "cannot downshift to 100G-PAM4" (NV-XDR-LX): not in a 400G QM9700 cage.
    cheap = with_parts(view, _cheap(view, "980-9IAH1-00XM00"))
    p = plan(cheap, nodes=64, hca="MCX75310AAS-NEAT")
    for lk in p.links:
        assert not any(part.startswith("980-9IAH1") for part, _q, _r in lk.parts), lk.name


def test_a_cheaper_xdr_copper_cable_never_links_ndr_switches(view):
    cheap = with_parts(view, _cheap(view, "980-9IAM3-00X002"))
    p = plan(cheap, nodes=64, hca="MCX75310AAS-NEAT", leaf_to_spine_m=1.5)
    assert not any(part.startswith("980-9IAM") for part, _q, _r in p.link(LEAF_SPINE).parts)


def test_an_xdr_switch_optic_is_never_paired_with_a_400g_card_optic(view):
    # ConnectX-7 (400G) on Quantum-X800: the XDR twin-port optic (800G per MPO) does not link to a 400G optic.
    cheap = with_parts(view, _cheap(view, "980-9IAH1-00XM00"))
    p = plan(cheap, nodes=16, switch="Q3400-RA", hca="MCX75310AAS-NEAT")
    parts = set(node_parts(p))
    assert not any(pn.startswith("980-9IAH1") for pn in parts) or "MMS4X00-NS400" not in parts
    assert "980-9IAT0-00XM00" not in parts


def test_connectx8_on_quantum_x800_takes_the_xdr_optics_and_single_mode_fibre(view):
    p = plan(view, nodes=16, switch="Q3400-RA", hca="900-9X81E-00EX-ST0")
    parts = node_parts(p)
    assert parts[0] == "980-9IAH1-00XM00" and parts[-1] == "980-9IAT0-00XM00"
    assert parts[1].startswith("MFP7E30-") and p.link(NODE_LEAF).speed_gbps == 800
    assert p.bom_complete and FabricCode.MEDIA_NOT_CATALOGUED not in codes(p)
    # both ends' tops are known (finned IHS at the Q3400, flat RHS at the ConnectX-8): no assumed fit
    assert FabricCode.PLUG_TOP_UNKNOWN not in codes(p)


def test_without_xdr_media_the_same_fabric_is_a_catalogue_gap_not_an_error(view):
    cut = without(view, "980-9IA")
    p = plan(cut, nodes=16, switch="Q3400-RA", hca="900-9X81E-00EX-ST0")
    f = next(f for f in p.findings if f.code == FabricCode.MEDIA_NOT_CATALOGUED)
    assert f.severity == "warning" and not p.bom_complete and p.uncabled_links == [NODE_LEAF]
    assert not any(f.severity == "error" for f in p.findings)


# --- Single-mode runs past 100 m (seed 2026.12.12) -------------------------------------------------------------


def test_an_xdr_leaf_spine_run_past_100_m_takes_the_shortest_single_mode_fibre_within_the_optics_reach(view):
    # 300 m + 0.5 m slack: past the 100 m MFP7E30, within the 500 m of the XDR twin-port optics (NV-XDR-OPN) and
    # NVIDIA's 500 m for a single-mode MPO straight link (NV-SC-REQ): the 350 m single-mode patch cable.
    p = plan(view, nodes=144, switch="Q3400-RA", hca="900-9X81E-00EX-ST0", leaf_to_spine_m=300.0)
    link = p.link(LEAF_SPINE)
    assert [part for part, _q, _r in link.parts] == ["980-9IAH1-00XM00", "SMF-MPO12APC-350M", "980-9IAH1-00XM00"]
    assert link.length_m == 350 and p.bom_complete
    assert not set(codes(p)) & {FabricCode.BEYOND_REACH, FabricCode.REACH_NOT_CATALOGUED, FabricCode.NO_CABLE}
    # a 100 m run keeps NVIDIA's own fibre: the shortest that reaches wins, the long patch cables only past it
    short = plan(view, nodes=144, switch="Q3400-RA", hca="900-9X81E-00EX-ST0", leaf_to_spine_m=99.0)
    assert [part for part, _q, _r in short.link(LEAF_SPINE).parts][1] == "MFP7E30-N100"


def test_a_run_past_the_optics_reach_is_refused_however_long_the_fibres(view):
    p = plan(view, nodes=144, switch="Q3400-RA", hca="900-9X81E-00EX-ST0", leaf_to_spine_m=600.0)
    f = next(f for f in p.findings if f.code == FabricCode.BEYOND_REACH)
    assert f.severity == "error" and f.params.longest_m == 500 and p.link(LEAF_SPINE).parts == ()


def test_without_the_long_fibres_a_run_within_the_optics_reach_is_a_missing_fibre_not_a_refusal(view):
    cut = without(view, "SMF-MPO12APC-")
    p = plan(cut, nodes=144, switch="Q3400-RA", hca="900-9X81E-00EX-ST0", leaf_to_spine_m=300.0)
    f = next(f for f in p.findings if f.code == FabricCode.REACH_NOT_CATALOGUED)
    assert f.severity == "warning" and not p.bom_complete and p.uncabled_links == [LEAF_SPINE]
    said = both(f).message.en
    assert "500 m" in said and "100 m" in said and "300.5 m" in said
    assert FabricCode.BEYOND_REACH not in codes(p)


def test_an_ndr_leaf_spine_run_past_100_m_takes_the_500_m_dr_optics_and_a_long_fibre(view):
    # NDR: the 100 m MMS4X00-NS cannot reach, the 500 m MMS4X00-NM twin-port optic can, on the same straight fibre.
    p = plan(view, nodes=64, hca="MCX75310AAS-NEAT", leaf_to_spine_m=220.0)
    assert [part for part, _q, _r in p.link(LEAF_SPINE).parts] == ["MMS4X00-NM", "SMF-MPO12APC-250M", "MMS4X00-NM"]
