"""Every rack-planner finding goes through the one rule registry (its severity) and reads in English and Dutch."""

import dataclasses

import pytest

from engines.findings import RackCode
from engines.findings.registry import REGISTRY, finding
from engines.racks import Facility, PduOption, SwitchGroup, SwitchRole, plan_racks
from messages import both, finding_dict

from .parts import PDU_22K, air_nodes, leaves, liquid_nodes, mgmt


def _edge(plan):
    return [finding(f.subject, f.params) for f in plan.findings]


def _scenarios():
    unknowns = plan_racks(
        node_groups=[air_nodes(4, power_w=None, inlets=None)],
        switches=[
            leaves(2, power_w=None, height_u=None),
            SwitchGroup(role=SwitchRole.CONTROL, part="HEAD-NODE-BCM", count=2, height_u=None, power_w=None),
        ],
        pdu_options=[PDU_22K],
    )
    wrong_site = plan_racks(
        node_groups=[liquid_nodes(2), air_nodes(1)],
        facility=Facility(cooling="air", rack_units=6, rack_power_kw=5),
    )
    dense = plan_racks(
        node_groups=[air_nodes(16)],
        switches=[mgmt()],
        facility=Facility(cooling="air", rack_power_kw=60),
        pdu_options=[PDU_22K],
    )
    hot = PduOption(part="PDU-22", rating_w=22_000, outlets=42, cord="3P 32A", outlet_type="C19", outlet_current_a=16)
    over = plan_racks(
        node_groups=[dataclasses.replace(air_nodes(2), power_w=10_000, inlet_current_a=28.7)],
        facility=Facility(rack_power_kw=30, zero_u_positions=2),
        pdu_options=[hot],
    )
    system = plan_racks(
        node_groups=[
            dataclasses.replace(liquid_nodes(1), part="SRS-GB300-NVL72", height_u=48, power_w=142_000, rack_scale=True)
        ],
    )
    return [*_edge(unknowns), *_edge(wrong_site), *_edge(dense), *_edge(over), *_edge(system)]


@pytest.mark.django_db
def test_every_planner_code_is_registered_and_rendered_in_both_languages():
    found = _scenarios()
    codes = {f.code for f in found}
    # RACK_NODE_HEIGHT_UNKNOWN is raised by the service edge (tests/configurator/test_validation_racks.py).
    assert codes == {str(c) for c in RackCode} - {str(RackCode.NODE_HEIGHT_UNKNOWN)}
    for f in found:
        assert f.severity == REGISTRY[f.code].severity
        said = both(f)
        assert said.message.en and said.fix.en
        assert said.message.nl != said.message.en and said.fix.nl != said.fix.en, f.code


def test_a_rack_the_hardware_cannot_work_in_is_an_error_and_missing_facts_are_info():
    found = {f.code: f for f in _scenarios()}
    for code in ("RACK_LIQUID_NODE_IN_AIR", "RACK_NODE_TOO_TALL", "RACK_NODE_OVER_POWER"):
        assert str(found[code].severity) == "error"
    assert str(found["RACK_AIR_DENSITY"].severity) == "warning"
    for code in ("RACK_NO_PDU", "RACK_SWITCH_POWER_UNKNOWN", "RACK_NODE_INLET_UNKNOWN"):
        assert str(found[code].severity) == "info"


@pytest.mark.django_db
def test_air_density_message_names_the_racks_and_the_ceiling_in_dutch_number_format():
    dense = next(f for f in _scenarios() if f.code == "RACK_AIR_DENSITY")
    nl = finding_dict(dense, "nl")
    assert "30 kW" in nl["message"] and "luchtgekoelde racks" in nl["message"] and "," in nl["message"]
