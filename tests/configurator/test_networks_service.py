"""The networks through the one validation service and the cabling list, on the seeded catalogue."""

from __future__ import annotations

import pytest

from configurator.examples import h200_training_cluster
from configurator.services import configuration_create
from design.vocabulary import Connector
from engines.cluster.bill import BomLine, bom_result
from engines.cluster.rackbill import rack_count
from outputs.services import configuration_output
from tests.results import validate_json

pytestmark = pytest.mark.django_db


def _cluster(nodes: int = 8) -> dict:
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = nodes
    doc["node_groups"][0]["components"] += [
        {"part": "900-9D3B6-00CN-AB0", "quantity": 1, "role": "storage"},
        {"part": "MCX755106AS-HEAT", "quantity": 1, "role": "management"},
    ]
    return doc


def test_the_result_plans_all_three_networks_from_the_adapters_roles(seeded_catalog):
    result = validate_json(document=_cluster())
    plans = result["network_plans"]
    for key in ("storage", "inband", "oob"):
        plan = plans[key]
        assert {"leaf_switches", "spine_switches", "core_switches", "node_links", "switch", "ports_used", "bom"} <= set(
            plan
        )
        assert plan["sources"]
    # one dual-port BlueField-3 per node, and the storage systems' 4 ports reserved in the RA's proportion (48 for 254)
    assert (plans["storage"]["node_links"], plans["storage"]["system_ports"]) == (8 * 2 + 4, 4)
    assert (plans["inband"]["leaf_switches"], plans["inband"]["node_links"]) == (2, 16)
    oob = plans["oob"]
    compute = result["fabric_plan"]
    pdus = sum(p["quantity"] for p in result["rack_plan"]["pdus"])
    network_switches = sum(plans[k]["leaf_switches"] + plans[k]["spine_switches"] for k in ("storage", "inband"))
    # The control plane's servers (head and management nodes, UFM appliances) have BMCs on it too.
    servers = sum(line["quantity"] for line in result["control_plane"]["bom"])
    assert oob["devices"] == {
        "bmcs": 8,
        "switches": compute["leaf_switches"] + compute["spine_switches"] + network_switches,
        "pdus": pdus,
        "servers": servers,
    }
    assert servers == 5  # the DGX BasePOD control plane below 32 nodes
    # The racks are sparse (two nodes each): the out-of-band switches stand central, enough for its ports, and
    # no rack holds one of its own.
    assert (oob["placement"], oob["rack_switches"]) == ("central", 0)
    assert oob["leaf_switches"] == -(-oob["node_links"] // 48) < rack_count(result["rack_plan"])


@pytest.mark.parametrize("oob", ["central", "per-rack", None])
def test_no_rack_is_said_to_lack_a_management_switch_that_stands_elsewhere(seeded_catalog, oob):
    # Central out-of-band switches stand in the management racks, the site's own network in none of ours: neither
    # is a missing switch. Per rack, every compute rack holds one.
    doc = _cluster()
    doc["networks"] = {"oob": None if oob is None else {"placement": oob}}
    result = validate_json(document=doc)
    codes = {f["code"] for f in result["findings"]}
    assert "RACK_NO_MANAGEMENT_SWITCH" not in codes
    # The out-of-band plan says how many switches the racks hold; the fabric plan's count by ports is not said too.
    assert "RACK_MANAGEMENT_SWITCH_COUNT" not in codes
    oob_lines = [line for line in result["bom"] if line["section"] == "oob"]
    if oob is None:
        # The customer supplies the network, so its switches too: none is billed, none racked.
        assert "NETWORK_CUSTOMER_SUPPLIED" in codes and oob_lines == []
        roles = {d["role"] for rack in result["rack_plan"]["racks"] for d in rack["devices"]}
        assert "management" not in roles
    else:
        switches = sum(line["quantity"] for line in oob_lines if line["part"] == "SN2201")
        assert switches == result["network_plans"]["oob"]["leaf_switches"] >= 1


def test_a_fabric_check_of_a_network_names_the_network(seeded_catalog):
    # The storage network on InfiniBand gets the compute fabric's subnet-manager check too: the two notes read apart.
    result = validate_json(document=_cluster(128))
    said = {(f["subject"], f["message"]) for f in result["findings"] if f["code"] == "FABRIC_SM_EMBEDDED"}
    assert {subject for subject, _message in said} == {"fabric", "networks.storage"}
    for subject, message in said:
        assert message.startswith("Storage network: ") == (subject == "networks.storage"), message
    dutch = validate_json(document=_cluster(128), language="nl")
    assert any(
        f["message"].startswith("Opslagnetwerk: ") for f in dutch["findings"] if f["code"] == "FABRIC_SM_EMBEDDED"
    )


def test_network_findings_reach_the_result_under_their_network(seeded_catalog):
    doc = _cluster()
    doc["networks"] = {"inband": None}
    result = validate_json(document=doc)
    assert result["network_plans"]["inband"] is None
    subjects = {(f["code"], f["subject"]) for f in result["findings"]}
    assert ("NETWORK_CUSTOMER_SUPPLIED", "networks.inband") in subjects
    # The catalogue holds the out-of-band patch cords and uplink cables: no gap to report.
    assert not [f for f in result["findings"] if f["code"] == "NETWORK_MEDIA_NOT_CATALOGUED"]
    assert result["valid"] is True
    # The out-of-band switches stand in the management racks: every cord runs from its rack to those, so it is the
    # shortest that reaches the longest such run, not the 3 m cord of a run inside the rack.
    oob = result["network_plans"]["oob"]
    cord = oob["media"]["device-leaf"]
    assert oob["placement"] == "central" and cord["length_m"] > 5
    cords = {line["part"]: line["quantity"] for line in result["bom"] if line["part"].startswith("CAT6-UTP-")}
    assert cords == {cord["cable_part"]: oob["node_links"]}
    # Per rack, a device and its switch share the rack: the 3 m cord.
    doc["networks"]["oob"] = {"placement": "per-rack"}
    result = validate_json(document=doc)
    assert not [f for f in result["findings"] if f["code"] == "NETWORK_MEDIA_NOT_CATALOGUED"]
    assert result["network_plans"]["oob"]["media"]["device-leaf"]["cable_part"] == "CAT6-UTP-3M"


def test_the_cabling_list_carries_every_network_after_the_compute_fabric(seeded_catalog):
    config = configuration_create(document=_cluster())
    rows = "".join(configuration_output(configuration=config, name="cabling.csv").body).splitlines()
    header = rows[0].split(",")
    assert header[:7] == ["a_end", "a_port", "z_end", "z_port", "link_class", "cable_part", "length_m"]
    assert header[-1] == "network"
    by_network: dict[str, list[list[str]]] = {}
    for row in rows[1:]:
        fields = row.split(",")
        assert len(fields) == len(header)
        by_network.setdefault(fields[-1], []).append(fields)
    result = validate_json(document=_cluster())
    assert len(by_network["compute"]) >= result["fabric_plan"]["node_links"]
    inband = [r for r in by_network["inband"] if r[4] == "node-leaf"]
    # Port 1 of every node on switch 1, port 2 on switch 2: the redundant pair.
    assert {(r[1], r[2]) for r in inband} == {("mgmt1", "inband-switch-01"), ("mgmt2", "inband-switch-02")}
    peer = [r for r in by_network["inband"] if r[4] == "peer"]
    assert [(r[0], r[2]) for r in peer] == [("inband-switch-01", "inband-switch-02")] * 2
    oob = [r for r in by_network["oob"] if r[4] == "device-leaf"]
    assert len(oob) == result["network_plans"]["oob"]["node_links"]


def _hgx_h100(nodes: int = 128) -> dict:
    """An H100-era SuperPOD-like design: HGX H100 nodes, eight NDR compute NICs, a dual-port ConnectX-7 for in-band
    management on SN4600C (BASEPOD-INBAND), and the out-of-band network on the racks' SN2201s."""
    return {
        "schema": "design/v1",
        "name": f"{nodes} x HGX H100",
        "node_groups": [
            {
                "name": "gpu",
                "count": nodes,
                "server": "SYS-821GE-TNHR",
                "components": [
                    {"part": "HGX-H100-8GPU", "quantity": 1},
                    {"part": "MCX75310AAS-NEAT", "quantity": 8, "role": "compute"},
                    {"part": "MCX755106AS-HEAT", "quantity": 1, "role": "management"},
                ],
            }
        ],
        "fabric": {"switch": "MQM9700-NS2F", "oversubscription": "1:1", "topology": "rail-optimized"},
        "networks": {"inband": {"switch": "SN4600C"}},
    }


def _media(result: dict, section: str, connector: Connector) -> dict[str, int]:
    from tests.engines.node.parts import SEED

    return {
        line["part"]: line["quantity"]
        for line in result["bom"]
        if line["section"] == section
        and line["part"]
        and getattr(SEED.get(line["part"]), "end_a", None) is not None
        and SEED.get(line["part"]).end_a.connector == connector
    }


def test_an_hgx_h100_design_carries_its_management_cables_in_the_bill_and_the_cabling_list(seeded_catalog):
    doc = _hgx_h100()
    result = validate_json(document=doc)
    assert result["valid"], [f["code"] for f in result["findings"] if f["severity"] == "error"]
    assert not [f for f in result["findings"] if f["code"] == "NETWORK_MEDIA_NOT_CATALOGUED"]
    oob, inband = result["network_plans"]["oob"], result["network_plans"]["inband"]
    # Out-of-band: one patch cord per device port (BMCs, switch management ports, PDUs), one cable per uplink.
    cords = _media(result, "oob", Connector.RJ45)
    uplinks = _media(result, "oob", Connector.QSFP28)
    assert sum(cords.values()) == oob["node_links"] == sum(oob["devices"].values()) and oob["devices"]["bmcs"] == 128
    assert sum(uplinks.values()) == oob["uplinks"] > 0
    # In-band on SN4600C: one cable per in-band port, plus the leaf-spine links the 256 ports need.
    cables = _media(result, "inband", Connector.QSFP28)
    node = next(lk for lk in inband["links"] if lk["class"] == "node-leaf")
    assert node["links"] == inband["node_links"] == 128 * 2
    assert sum(p["quantity"] for p in node["parts"]) == inband["node_links"]
    assert sum(cables.values()) == sum(p["quantity"] for lk in inband["links"] for p in lk["parts"])

    rows = [
        r.split(",")
        for r in "".join(
            configuration_output(configuration=configuration_create(document=doc), name="cabling.csv").body
        ).splitlines()
    ]
    header, body = rows[0], rows[1:]
    part, length = header.index("cable_part"), header.index("length_m")
    by = {}
    for r in body:
        by.setdefault((r[-1], r[4]), []).append(r)
    device_rows, uplink_rows = by[("oob", "device-leaf")], by[("oob", "leaf-uplink")]
    assert len(device_rows) == oob["node_links"] and {r[part] for r in device_rows} == set(cords)
    assert len(uplink_rows) == oob["uplinks"] and {r[part] for r in uplink_rows} == set(uplinks)
    assert all(float(r[length]) > 0 for r in device_rows + uplink_rows)
    inband_rows = by[("inband", "node-leaf")]
    assert len(inband_rows) == inband["node_links"] and all(r[part] in cables for r in inband_rows)


def test_the_bill_says_at_least_only_while_something_is_priced_on_request(seeded_catalog):
    from catalog.models import Part

    # One node and no services: no control plane or service lines (on request), only catalogue parts.
    doc = {
        **_hgx_h100(nodes=1),
        "services": {"support_years": 0, "installation": False, "ai_enterprise": False},
        "facility": {"supplied": []},  # the offer carries the out-of-band network even for one server
    }
    result = validate_json(document=doc)
    from tests.factories import set_price

    cord = next(iter(_media(result, "oob", Connector.RJ45)))
    line = next(x for x in result["bom"] if x["part"] == cord)
    # The seed prices the generic patch cords (a placeholder): every line priced, the total exact.
    assert line["unit_price_eur"] is not None and result["totals"]["list_price_at_least"] is False
    # A price list without the patch cords' price: on request, so the total is a lower bound.
    set_price(cord)
    doc = {**doc, "name": "patch cords on request"}  # a design of its own: no validation of the priced one reused
    result = validate_json(document=doc)
    line = next(x for x in result["bom"] if x["part"] == cord)
    assert line["unit_price_eur"] is None and result["totals"]["list_price_at_least"] is True
    # Once the price list prices every part the bill names, the total is exact, patch cords included.
    for p in Part.objects.filter(part_number__in=[x["part"] for x in result["bom"] if x["part"]]):
        if p.list_price_eur is None:
            p.list_price_eur = 5
            p.save()
    priced = validate_json(document=doc)
    assert next(x for x in priced["bom"] if x["part"] == cord)["unit_price_eur"] == "5.00"
    # What stays on request is what no catalogue part fits (the node cords, whose server inlet is unknown), and
    # only that keeps "at least"; the catalogue's lines alone total exactly.
    unpriced = [x for x in priced["bom"] if x["unit_price_eur"] is None]
    assert all(not x["part"] for x in unpriced)
    assert priced["totals"]["list_price_at_least"] is bool(unpriced)
    catalogued = [BomLine.from_dict(x) for x in priced["bom"] if x["part"]]
    assert bom_result(catalogued)[1]["list_price_at_least"] is False


@pytest.mark.parametrize("nodes", [4, 128, 512])
def test_the_central_cords_run_is_the_longest_rack_to_switch_run_within_a_rack_or_two(seeded_catalog, nodes):
    # Taken by groups of racks, the run bounds every rack's own run to every central switch, by a rack's width or
    # two at most: the cord chosen reaches every device.
    from configurator.services import design_validate_parsed
    from engines.racks.distances import Geometry, _Routes, central_oob_run
    from engines.racks.model import DeviceRole

    plan = design_validate_parsed(document=_cluster(nodes)).result.rack_plan.plan
    routes = _Routes(plan, Geometry())
    racks = [rack for run in plan.runs for rack in run.racks()]

    def lowest(rack, central):
        return min((d.position_u for d in rack.devices if (d.role == DeviceRole.OOB) == central), default=None)

    switches = [(r, low) for r in racks if (low := lowest(r, True)) is not None]
    devices = [(r, low) for r in racks if (low := lowest(r, False)) is not None]
    exact = max(routes.between(a, pa, b, pb)[0] for a, pa in devices for b, pb in switches)
    run = central_oob_run(plan)
    assert exact - 0.1 <= run <= exact + 2 * Geometry().rack_width_m + 0.1
