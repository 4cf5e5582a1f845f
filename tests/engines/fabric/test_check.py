"""Fabric checks of a whole design (check_design_fabric) and the rule catalogue entries."""

import pytest

from design.model import DesignIn, DesignInputError, FabricIn, NodeGroupIn
from engines.fabric.check import check_design_fabric
from engines.findings.fabric_codes import FabricCode
from engines.findings.finding import Severity
from engines.findings.registry import REGISTRY
from messages import both

from .parts import CATALOG, CX7_NDR, CX7_NDR200, QM8700, SN5600


def design(count=16, **fabric) -> DesignIn:
    fabric.setdefault("switch", "MQM9700-NS2F")
    return DesignIn(
        node_groups=(NodeGroupIn(name="gpu", count=count, server="SYS-821GE-TNHR"),),
        fabric=FabricIn(**fabric),
    )


def check(d: DesignIn, nodes=None, nics=8, nic=CX7_NDR, gpus=8, generation="Hopper"):
    return check_design_fabric(
        design=d,
        nodes=d.node_count if nodes is None else nodes,
        compute_nics_per_node=nics,
        nic=nic,
        gpus_per_node=gpus,
        gpu_generation=generation,
        advised_fabric_gbps=400 if generation.startswith(("Hopper", "Blackwell")) else None,
        catalog=CATALOG,
    )


def codes(findings) -> set[str]:
    return {f.code for f in findings}


def test_no_fabric_says_nothing():
    d = DesignIn(node_groups=(NodeGroupIn(name="gpu", count=8, server="SYS-821GE-TNHR"),))
    assert check(d) == ([], None)


def test_plans_with_rails_from_compute_nics():
    findings, plan = check(design(128))
    assert plan is not None and plan.rails == 8 and plan.leaf_switches == 32
    assert not [f for f in findings if f.severity == Severity.ERROR]
    # InfiniBand: the RoCE alternative is shown, with the Spectrum-4 switch from the catalogue.
    roce = next(f for f in findings if f.code == FabricCode.ROCE_ALTERNATIVE)
    assert "MSN5600-MS2FC" in both(roce).message.en and "latentie" in both(roce).message.nl


def test_fabric_rails_overrides_nic_count():
    _, plan = check(design(32, rails=4))
    assert plan.rails == 4


def test_no_roce_note_on_an_ethernet_fabric():
    findings, _ = check(design(16, switch=SN5600.part_number))
    assert FabricCode.ROCE_ALTERNATIVE not in codes(findings)


def test_hdr_for_hopper_and_blackwell_warns_not_for_ampere():
    for generation in ("Hopper", "Blackwell", "Blackwell Ultra"):
        findings, _ = check(design(8, switch=QM8700.part_number), generation=generation)
        f = next(f for f in findings if f.code == FabricCode.HDR_FOR_NEW_GPUS)
        assert f.severity == Severity.WARNING and "200 Gb/s" in both(f).message.en and "budgetoptie" in both(f).fix.nl
    findings, _ = check(design(8, switch=QM8700.part_number), generation="Ampere")
    assert FabricCode.HDR_FOR_NEW_GPUS not in codes(findings)


def test_ndr_adapters_on_hdr_switch_warn_speed_and_error_on_cable():
    findings, _ = check(design(8, switch=QM8700.part_number))
    assert {FabricCode.SPEED_MISMATCH, FabricCode.NO_CABLE} <= codes(findings)


def test_fewer_rails_than_gpus_warns_in_rail_optimized_only():
    findings, _ = check(design(16), nics=4)
    f = next(f for f in findings if f.code == FabricCode.FEWER_RAILS_THAN_GPUS)
    assert "4 rails for 8 GPUs" in both(f).message.en
    findings, _ = check(design(16, topology="fat-tree"), nics=4)
    assert FabricCode.FEWER_RAILS_THAN_GPUS not in codes(findings)


def test_single_node_with_a_fabric_is_info():
    findings, plan = check(design(1))
    f = next(f for f in findings if f.code == FabricCode.SINGLE_NODE)
    assert f.severity == Severity.INFO and plan is not None


def test_unknown_or_wrong_kind_parts_are_error_findings_naming_the_field():
    findings, plan = check(design(8, switch="SYS-821GE-TNHR", hca="NOPE"))
    assert plan is None
    assert {(f.code, f.subject) for f in findings} == {
        (FabricCode.PART_INVALID, "fabric.switch"),
        (FabricCode.PART_INVALID, "fabric.hca"),
    }


def test_management_switch_as_fabric_is_an_error_without_plan():
    findings, plan = check(design(8, switch="MSN2201-CB2FC"))
    assert plan is None and FabricCode.SWITCH_IS_MANAGEMENT in codes(findings)


def test_no_compute_nics_is_an_error():
    findings, plan = check(design(8), nics=0, nic=None)
    assert plan is None and codes(findings) == {FabricCode.NO_RAILS}


def test_fabric_hca_overrides_the_design_nic():
    _, plan = check(design(16, hca=CX7_NDR200.part_number))
    assert plan.split == 2 and plan.hca == CX7_NDR200.part_number


def test_malformed_oversubscription_is_an_input_error_naming_the_field():
    # the parser refuses it (design.model); a design built in Python is still checked by the engine
    built = design(8)
    bad = built.model_copy(update={"fabric": built.fabric.model_copy(update={"oversubscription": "0:1"})})
    with pytest.raises(DesignInputError) as info:
        check(bad)
    assert "fabric.oversubscription" in info.value.errors


def test_every_finding_is_bilingual_with_numbers_and_catalogued():
    scenarios = [
        check(design(8, switch=QM8700.part_number))[0],
        check(design(16), nics=4)[0],
        check(design(1))[0],
        check(design(16_384))[0],
        check(design(8, switch="MQM9790-NS2F"))[0],
    ]
    seen = set()
    for findings in scenarios:
        for f in findings:
            seen.add(f.code)
            assert f.code in REGISTRY
            assert both(f).message.en and both(f).message.nl and both(f).message.en != both(f).message.nl
            assert both(f).fix.en and both(f).fix.nl and both(f).fix.en != both(f).fix.nl
    assert len(seen) >= 8


def test_rule_registry_covers_every_fabric_code():
    for code in FabricCode:
        assert code == code.upper() and code.startswith("FABRIC_")
        rule = REGISTRY[code]
        assert rule.title and rule.explanation and rule.source and rule.checks
