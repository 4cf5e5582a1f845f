"""Hardware facts the fabric rules rest on come from the catalogue: the fabric speed advised per GPU, the embedded
subnet manager's node limit per switch, the protocol of a server's integrated NICs, and the switch a fix text
names. A new GPU generation or switch is a catalogue edit; fix texts carry no fixed part names."""

import dataclasses
import re

import pytest

from design.model import DesignIn, FabricIn, NodeGroupIn
from design.specs import ServerSpec
from design.vocabulary import Protocol
from engines.cluster.pipeline import integrated_nic_spec
from engines.fabric.check import check_design_fabric, check_hdr_for_new_gpus
from engines.fabric.findings import protocol_finding, subnet_manager_finding
from engines.fabric.plan import plan_fabric
from engines.findings.fabric_codes import FabricCode
from messages import both

from .parts import CATALOG, CX7_NDR, MEDIA, Q3400, QM8700, QM9700, SN2201, SN5600, SWITCHES, catalog


def test_the_embedded_subnet_manager_limit_is_the_switchs_own():
    small = dataclasses.replace(QM9700, embedded_sm_max_nodes=100)
    assert subnet_manager_finding(small, 101).code == FabricCode.SM_LIMIT
    f = subnet_manager_finding(small, 100)
    assert f.code == FabricCode.SM_EMBEDDED and f.params["sm_limit"] == 100
    assert subnet_manager_finding(QM9700, 2049).code == FabricCode.SM_LIMIT  # 2,048 from the MLNX-OS manual
    assert subnet_manager_finding(QM9700, 2048).code == FabricCode.SM_EMBEDDED


def test_a_managed_switch_without_a_sourced_limit_says_the_limit_is_unknown():
    unsourced = dataclasses.replace(QM9700, embedded_sm_max_nodes=None)
    f = subnet_manager_finding(unsourced, 100_000)
    assert f.code == FabricCode.SM_EMBEDDED and f.params["sm_limit"] is None
    said = both(f)
    assert "not known from the sources" in said.message.en and "niet bekend" in said.message.nl


def test_the_advised_fabric_speed_is_the_gpus_and_a_new_generation_is_data():
    # Next year's GPU advised at 800 Gb/s: a 400 Gb/s QM9700 gets the warning, naming the catalogue's 800G switch.
    f = check_hdr_for_new_gpus(QM9700, "Rubin", 800, catalog(*SWITCHES, Q3400, *MEDIA))
    assert f is not None and f.params["advised_switch"] == "Q3400-RA"
    said = both(f)
    assert "800 Gb/s per port is the advised fabric" in said.message.en and "Q3400-RA" in said.fix.en
    # Without an 800G switch in the catalogue the fix asks for the speed, naming no part.
    f = check_hdr_for_new_gpus(QM9700, "Rubin", 800, CATALOG)
    assert f.params["advised_switch"] is None and "800 Gb/s ports" in both(f).fix.en
    # No advice for the GPU (Ampere, L40S in the seed): nothing to say.
    assert check_hdr_for_new_gpus(QM8700, "Ampere", None, CATALOG) is None
    assert check_hdr_for_new_gpus(QM9700, "Hopper", 400, CATALOG) is None


def test_design_check_takes_the_advised_speed_it_is_given():
    design = DesignIn(
        node_groups=(NodeGroupIn(name="gpu", count=8, server="SYS-821GE-TNHR"),),
        fabric=FabricIn(switch=QM8700.part_number),
    )
    common = {
        "design": design,
        "nodes": 8,
        "compute_nics_per_node": 8,
        "nic": None,
        "gpus_per_node": 8,
        "catalog": CATALOG,
    }
    findings, _ = check_design_fabric(gpu_generation="Hopper", advised_fabric_gbps=400, **common)
    f = next(f for f in findings if f.code == FabricCode.HDR_FOR_NEW_GPUS)
    assert f.params["advised_switch"] == QM9700.part_number and QM9700.part_number in both(f).fix.en
    findings, _ = check_design_fabric(gpu_generation="Hopper", advised_fabric_gbps=None, **common)
    assert FabricCode.HDR_FOR_NEW_GPUS not in {f.code for f in findings}


def _server(protocol):
    return ServerSpec(
        part_number="SYS-NEW",
        name="server with built-in NICs",
        integrated_nics=8,
        integrated_nic_speed_gbps=400,
        integrated_nic_protocol=protocol,
    )


def test_the_integrated_nic_protocol_is_the_servers_fact():
    assert integrated_nic_spec(_server(Protocol.VPI)).protocol == Protocol.VPI
    ethernet = integrated_nic_spec(_server(Protocol.ETHERNET))
    assert protocol_finding(QM9700, ethernet).code == FabricCode.PROTOCOL_MISMATCH
    unknown = integrated_nic_spec(_server(None))
    assert unknown.protocol is None and protocol_finding(QM9700, unknown) is None  # no claim without a source


def _fixed_part_names() -> set[str]:
    """Part numbers and product names that fix texts must not carry unless a finding's parameters put them there."""
    names = {p.part_number for p in (*SWITCHES, Q3400, CX7_NDR)} | {"QM9700", "SN2201", "SN5600", "Q3400"}
    return names | {"ConnectX-7", "Quantum-2", "Quantum-X800", "Spectrum-4"}


def test_fabric_fix_texts_name_no_part_of_their_own():
    plans = [
        plan_fabric(nodes=4, rails=8, switch=SN2201, catalog=CATALOG),  # management switch as fabric switch
        plan_fabric(nodes=16_384, rails=8, switch=QM9700, hca=CX7_NDR, catalog=CATALOG),  # ports exceeded
        plan_fabric(nodes=16, rails=8, switch=QM9700, hca=CX7_NDR, catalog=catalog(*MEDIA, QM9700, CX7_NDR)),
        plan_fabric(
            nodes=4,
            rails=8,
            switch=SN5600,
            hca=dataclasses.replace(CX7_NDR, protocol=Protocol.INFINIBAND),
            catalog=CATALOG,
        ),
    ]
    findings = [f for p in plans for f in p.findings]
    findings.append(check_hdr_for_new_gpus(QM8700, "Hopper", 400, catalog(QM8700)))
    seen = {f.code for f in findings}
    assert {
        FabricCode.SWITCH_IS_MANAGEMENT,
        FabricCode.PORTS_EXCEEDED,
        FabricCode.NO_MGMT_SWITCH,
        FabricCode.PROTOCOL_MISMATCH,
        FabricCode.HDR_FOR_NEW_GPUS,
    } <= seen
    for f in findings:
        given = {str(v) for v in f.params.values()}
        for text in (both(f).fix.en, both(f).fix.nl):
            named = {n for n in _fixed_part_names() if re.search(re.escape(n), text)}
            assert all(any(n in g for g in given) for n in named), (f.code, text)


@pytest.mark.django_db
def test_the_seed_carries_the_fabric_facts_with_their_sources(seeded_catalog):
    from catalog.models import Gpu, Server, Switch
    from configurator.snapshot import catalog_snapshot

    view = catalog_snapshot(max_age=0)
    assert view.get("HGX-H100-8GPU").advised_fabric_gbps == 400
    assert view.get("HGX-B300-8GPU").advised_fabric_gbps == 400
    assert view.get("HGX-A100-8GPU").advised_fabric_gbps is None  # no advice sourced: no warning either way
    assert Gpu.objects.get(part__part_number="HGX-B200-8GPU").sources["advised_fabric_gbps"] == "SEED-IB"
    assert view.get("MQM9700-NS2F").embedded_sm_max_nodes == 2048
    assert Switch.objects.get(part__part_number="MQM8700-HS2F").sources["embedded_sm_max_nodes"] == "MLNXOS-SM"
    assert view.get("MQM9790-NS2F").embedded_sm_max_nodes is None  # unmanaged: no embedded subnet manager
    assert view.get("SYS-822GS-NB3RT").integrated_nic_protocol == Protocol.VPI
    assert Server.objects.get(part__part_number="SYS-822GS-NB3RT").sources["integrated_nic_protocol"] == "CX8-ID"
