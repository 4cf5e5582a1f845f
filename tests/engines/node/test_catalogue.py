"""The rule catalogue, number formatting, and the engine's tolerance of parts it cannot use."""

from dataclasses import dataclass
from typing import ClassVar

import pytest
from django.utils import translation

from engines.findings.cluster_codes import ClusterCode, ExpansionCode
from engines.findings.codes import Code
from engines.findings.fabric_codes import FabricCode
from engines.findings.finding import SEVERITY_ORDER, Severity
from engines.findings.network_codes import NetworkCode
from engines.findings.params import Params
from engines.findings.params.fabric import FabricSingleNode
from engines.findings.params.pcie import PcieSlotsUnknown
from engines.findings.rack_codes import RackCode
from engines.findings.registry import REGISTRY, finding
from messages import both, finding_dict, rule_entries
from messages.base import num
from messages.pcie import pcie_link, pcie_noun

from .parts import CX7_NDR, HGX_B200, HGX_H200, SYS_821GE_TNHR, SYS_822GS_NBRT, comp, design, group, hgx_node, run


def test_one_registry_holds_every_code_of_both_engines():
    engines = (Code, FabricCode, RackCode, NetworkCode, ClusterCode, ExpansionCode)
    assert set(REGISTRY) == {str(c) for codes in engines for c in codes}
    for code, rule in REGISTRY.items():
        assert code == code.upper() and " " not in code and rule.code == code
        assert rule.title and rule.explanation and rule.source and rule.checks


def test_every_rule_has_its_title_and_explanation_in_both_languages(db):
    entries = rule_entries()
    assert [e["code"] for e in entries] == sorted(REGISTRY)
    for e in entries:
        assert e["title"]["en"] == REGISTRY[e["code"]].title
        assert e["title"]["nl"] and e["title"]["nl"] != e["title"]["en"], e["code"]
        assert e["explanation"]["nl"] and e["explanation"]["nl"] != e["explanation"]["en"], e["code"]


def test_a_finding_takes_its_severity_from_the_registry():
    assert finding("x", PcieSlotsUnknown(cards=2, server="S")).severity == Severity.WARNING
    single = finding("fabric", FabricSingleNode(nodes=1))
    assert (single.code, single.severity, single.to_dict()["params"]) == (
        "FABRIC_SINGLE_NODE",
        Severity.INFO,
        {"nodes": 1},
    )


@pytest.mark.parametrize(
    "value, decimals, en, nl",
    [
        (31.5, 1, "31.5", "31,5"),
        (12000, 0, "12,000", "12.000"),
        (1260.0, 0, "1,260", "1.260"),
        (63.0, 1, "63", "63"),  # a trailing .0 is dropped
        (126.9, 1, "126.9", "126,9"),
        (1234567.25, 2, "1,234,567.25", "1.234.567,25"),
    ],
)
def test_numbers_are_formatted_per_language(value, decimals, en, nl):
    with translation.override("en"):
        assert num(value, decimals) == en
    with translation.override("nl"):
        assert num(value, decimals) == nl


@pytest.mark.parametrize(
    "gen, lanes, noun, en, nl",
    [
        (5, 16, "slots", "PCIe 5.0 x16 slots", "PCIe 5.0 x16-slots"),
        (5, None, "slots", "PCIe 5.0 slots of unknown width", "PCIe 5.0-slots met onbekende breedte"),
        (None, 16, "slot", "x16 slot of unknown PCIe generation", "x16-slot met onbekende PCIe-generatie"),
        (
            None,
            None,
            "slots",
            "slots of unknown PCIe generation and width",
            "slots met onbekende PCIe-generatie en -breedte",
        ),
        (4, 16, "", "PCIe 4.0 x16", "PCIe 4.0 x16"),
        (None, None, "", "PCIe of unknown generation and width", "PCIe met onbekende generatie en breedte"),
    ],
)
def test_pcie_links_say_unknown_in_words(gen, lanes, noun, en, nl):
    for language, expected in (("en", en), ("nl", nl)):
        with translation.override(language):
            said = pcie_noun(gen, lanes, noun) if noun else pcie_link(gen, lanes)
        assert said == expected


def test_engine_reports_unknown_and_misplaced_parts_instead_of_raising():
    # check_references would reject these; the engine must still answer (issue: never raises).
    d = design(
        group("SYS-NOPE", comp(HGX_H200)),
        group(SYS_821GE_TNHR, comp("NOPE-GPU"), comp("MQM9700-NS2F", 1), comp(CX7_NDR, 8, "compute"), name="b"),
    )
    r = run(d)
    found = {(f.code, f.subject) for f in r.findings}
    assert ("PART_UNKNOWN", "node_groups[0].server") in found
    assert ("PART_UNKNOWN", "node_groups[1].components[0]") in found
    assert ("PART_WRONG_CATEGORY", "node_groups[1].components[1]") in found
    assert not r.valid


def test_switch_as_server_is_reported_in_both_languages():
    r = run(design(group("MQM9700-NS2F")))
    f = next(f for f in r.findings if f.code == "PART_WRONG_CATEGORY")
    assert "'MQM9700-NS2F' is a switch, not a server" in both(f).message.en
    assert "is geen server" in both(f).message.nl


def test_server_as_a_component_is_told_to_go_in_the_groups_server_field():
    r = run(design(group(SYS_821GE_TNHR, comp(HGX_H200), comp("SYS-822GS-NBRT", 1))))
    f = next(f for f in r.findings if f.code == "PART_WRONG_CATEGORY")
    # The message names the wizard's step, not the design's field path (node_groups[0].server)
    assert "servers are chosen on the platform step" in both(f).message.en and "node_groups" not in both(f).message.en
    assert both(f).message.nl == (
        "'SYS-822GS-NBRT' is een server, geen node-component; servers kies je bij de stap Platform."
    )


def test_switch_as_a_component_is_told_to_go_in_fabric_switch():
    r = run(design(group(SYS_821GE_TNHR, comp(HGX_H200), comp("MQM9700-NS2F", 1))))
    f = next(f for f in r.findings if f.code == "PART_WRONG_CATEGORY")
    assert (
        "switches are chosen on the fabric step" in both(f).message.en
        and "switches kies je bij de stap Fabric" in both(f).message.nl
        and "fabric.switch" not in both(f).message.en
    )


def test_findings_come_errors_first():
    # an error (11 cards, a complete list of 10 slots) and infos (NICs not needed, power basis)
    r = run(design(hgx_node(SYS_822GS_NBRT, HGX_B200, nics=11)))
    order = [SEVERITY_ORDER[f.severity] for f in r.findings]
    assert order == sorted(order) and order[0] == 0


def test_finding_dict_speaks_the_requested_language():
    f = next(
        f for f in run(design(hgx_node(SYS_822GS_NBRT, HGX_B200, nics=11))).findings if f.code == "PCIE_NO_FREE_SLOT"
    )
    assert finding_dict(f, "nl")["fix"] == "Verwijder één adapter, of kies een server met meer slots."
    assert finding_dict(f, "en")["severity"] == "error"
    assert finding_dict(f, "en")["fix"] == "Remove one adapter, or choose a server with more slots."


def test_an_unregistered_code_cannot_be_emitted():
    @dataclass(frozen=True, slots=True)
    class NotRegistered(Params):
        CODE: ClassVar[str] = "NOT_A_REGISTERED_CODE"

    with pytest.raises(KeyError):
        finding("x", NotRegistered())
