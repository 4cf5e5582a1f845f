"""Issue #20 item 2: GB200 and GB300 NVL72 racks as catalogued rack-scale systems, through the one validation
service and the seeded catalogue: one part is one rack (count = racks), its GPUs, trays, switch trays, power shelves
and management switches come with it, its 72 GPUs are one NVLink domain, and the rack plan, the compute fabric, the
bill and the alternatives treat it as the rack it is."""

from decimal import Decimal

import pytest

from configurator.bom import design_bill
from engines.cluster.rackbill import rack_count
from tests.results import validate_json

pytestmark = pytest.mark.django_db

GB200, GB300 = "SRS-GB200-NVL72", "SRS-GB300-NVL72"


def _doc(server, racks=1, components=(), fabric=None, facility=None, workload=None):
    doc = {
        "schema": "design/v1",
        "name": "nvl72",
        "node_groups": [{"name": "nvl", "count": racks, "server": server, "components": list(components)}],
    }
    if fabric:
        doc["fabric"] = fabric
    if facility:
        doc["facility"] = facility
    if workload:
        doc["workload"] = workload
    return doc


def _codes(result, severity=None):
    return {f["code"] for f in result["findings"] if severity is None or f["severity"] == severity}


def _finding(result, code):
    return next(f for f in result["findings"] if f["code"] == code)


# --- catalogue ------------------------------------------------------------------------------------------------


def test_the_snapshot_holds_the_racks_sourced_facts_and_their_unknowns(seeded_catalog):
    from configurator.snapshot import catalog_snapshot

    view = catalog_snapshot(max_age=0)
    gb200, gb300 = view.get(GB200), view.get(GB300)
    for rack in (gb200, gb300):
        assert rack.rack_scale and rack.nvlink_domain_gpus == 72 and rack.height_u == 48
        assert (rack.compute_trays, rack.gpus_per_tray, rack.cpus_per_tray, rack.switch_trays) == (18, 4, 2, 9)
        assert rack.compute_nics_per_tray == 4 and rack.integrated_nics == 72
        assert (rack.power_shelves, rack.power_shelf_w, rack.rack_mgmt_switches, rack.cdu_kw) == (8, 33000, 2, 250)
        # no source gives a price: the seed's is a placeholder, for the whole rack with its GPUs
        assert str(rack.cooling) == "liquid" and rack.price_eur is not None
    assert (gb200.integrated_nic_speed_gbps, gb200.compute_nic_model) == (400, "ConnectX-7 single-port 400G OSFP")
    assert (gb300.integrated_nic_speed_gbps, gb300.compute_nic_model, gb300.dpu_model) == (
        800,
        "ConnectX-8",
        "BlueField-3 B3240",
    )
    assert gb300.rack_power_w == 142000 and gb300.rack_mgmt_switch_model == "SN2201"
    # What no source gave stays unknown.
    assert gb300.weight_kg is None and gb200.tray_drives == "" and gb200.rack_mgmt_switch_model == ""
    gpus = view.get("GB300-NVL72-GPUS")
    assert gpus.is_board and gpus.gpu_count == 72 and gpus.memory_gb == 288 and gpus.generation == "Blackwell Ultra"
    assert view.get("GB200-NVL72-GPUS").nvswitch_count == 18


def test_every_rack_fact_has_a_source_listed_in_facts():
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "catalog" / "seed"
    seed = json.loads((root / "catalog.json").read_text())
    facts = (root / "FACTS.md").read_text()
    for item in seed["parts"]:
        if item["part_number"] in (GB200, GB300, "GB200-NVL72-GPUS", "GB300-NVL72-GPUS"):
            assert set(item["sources"]) == set(item["spec"]), item["part_number"]
            assert all(key in seed["sources"] for key in item["sources"].values())
            assert item["part_number"] in facts
    assert "not found" in facts.split("Rack-scale NVLink systems")[1]


# --- node rules -----------------------------------------------------------------------------------------------


def test_one_gb300_rack_is_valid_with_its_72_gpus_and_published_rack_power(seeded_catalog):
    result = validate_json(document=_doc(GB300))
    assert result["valid"], _codes(result, "error")
    totals = result["totals"]
    assert (totals["nodes"], totals["gpus"], totals["gpu_memory_gb"]) == (1, 72, 72 * 288)
    assert totals["peak_power_w"] == 142000  # NVIDIA: "Full rack requiring up to 142 kW", not a sum of parts
    group = totals["groups"][0]
    assert group["gpus_per_node"] == 72 and group["compute_nics_per_node"] == 72
    assert group["nvlink_gbps_per_gpu"] == 1800 and group["compute_gbps_per_gpu"] == 800
    power = _finding(result, "RACK_SYSTEM_POWER")
    assert "142,000 W" in power["message"]
    cooling = _finding(result, "RACK_SYSTEM_COOLING")
    assert "250 kW" in cooling["message"] and "not in the catalogue" in cooling["message"]
    # The rack comes complete: no node defaults, no PCIe slots, no PSU capacity estimate.
    assert not _codes(result) & {
        "NODE_INCOMPLETE",
        "NODE_DEFAULTS_ADDED",
        "PCIE_SLOTS_UNKNOWN",
        "POWER_CAPACITY_UNKNOWN",
    }
    assert result["defaults_added"] == [] and result["placement"][0]["slots"] == []
    assert "NVLINK_DOMAIN_PER_RACK" not in _codes(result)  # one rack is one domain


def test_components_listed_for_a_rack_system_are_refused_with_the_fix(seeded_catalog):
    doc = _doc(
        GB200, components=[{"part": "HGX-B200-8GPU", "quantity": 1}, {"part": "GB200-NVL72-GPUS", "quantity": 1}]
    )
    result = validate_json(document=doc)
    assert not result["valid"]
    refused = [f for f in result["findings"] if f["code"] == "RACK_SYSTEM_COMPLETE"]
    assert [f["subject"] for f in refused] == ["node_groups[0].components[0]", "node_groups[0].components[1]"]
    assert "comes complete" in refused[0]["message"] and "Remove HGX-B200-8GPU" in refused[0]["fix"]
    assert result["totals"]["gpus"] == 72  # the listed board is left out, the rack's own GPUs stay


def test_an_air_cooled_facility_is_an_error_with_the_nvl72_fix(seeded_catalog):
    result = validate_json(document=_doc(GB300, facility={"cooling": "air"}))
    assert not result["valid"]
    f = _finding(result, "RACK_LIQUID_NODE_IN_AIR")
    assert f["severity"] == "error" and "cannot be air-cooled" in f["fix"] and "HGX" in f["fix"]


def test_the_rack_power_is_checked_against_the_sites_limit_only(seeded_catalog):
    assert "RACK_NODE_OVER_POWER" not in _codes(validate_json(document=_doc(GB300)))
    limited = validate_json(document=_doc(GB300, facility={"rack_power_kw": 100}))
    assert _finding(limited, "RACK_NODE_OVER_POWER")["severity"] == "error"


def test_two_racks_are_two_nvlink_domains_and_576_is_said_not_orderable(seeded_catalog):
    result = validate_json(document=_doc(GB200, racks=8, fabric={"switch": "MQM9700-NS2F"}))
    f = _finding(result, "NVLINK_DOMAIN_PER_RACK")
    assert f["severity"] == "info" and f["subject"] == "node_groups[0].count"
    assert "8 NVLink domains of 72 GPUs each, not one domain of 576 GPUs" in f["message"]
    assert "not a product that can be ordered" in f["message"]
    dutch = validate_json(document=_doc(GB200, racks=2, fabric={"switch": "MQM9700-NS2F"}), language="nl")
    assert "niet één domein van 144 GPU's" in _finding(dutch, "NVLINK_DOMAIN_PER_RACK")["message"]


def test_a_model_that_fits_one_rack_needs_no_compute_fabric(seeded_catalog):
    # 1,800B parameters of inference: 72 x 288 GB hold it in one NVLink domain; HGX B300 nodes of 8 GPUs do not.
    workload = {"kind": "inference", "model_parameters_billion": 1800}
    rack = validate_json(document=_doc(GB300, workload=workload))
    assert rack["valid"], _codes(rack, "error")
    assert not _codes(rack) & {"WORKLOAD_NEEDS_FABRIC", "WORKLOAD_SPANS_NODES", "WORKLOAD_NOT_ENOUGH_GPUS"}
    hgx = {
        "schema": "design/v1",
        "name": "hgx",
        "workload": workload,
        "node_groups": [
            {
                "name": "gpu",
                "count": 1,
                "server": "SYS-822GS-NB3RT",
                "components": [{"part": "HGX-B300-8GPU", "quantity": 1}],
            }
        ],
    }
    assert "WORKLOAD_NOT_ENOUGH_GPUS" in _codes(validate_json(document=hgx))


# --- compute fabric ----------------------------------------------------------------------------------------------


def test_one_rack_with_a_fabric_is_told_it_needs_none(seeded_catalog):
    result = validate_json(document=_doc(GB200, fabric={"switch": "MQM9700-NS2F"}))
    f = _finding(result, "FABRIC_RACK_SCALE_ONE_RACK")
    assert f["severity"] == "info" and "needs no compute fabric" in f["message"]
    assert "FABRIC_SINGLE_NODE" not in _codes(result)


# NVIDIA DGX SuperPOD GB200 RA-11338-001: an SU is "8 DGX GB200 rack systems" (576 GPUs), laid out "in One Row";
# NVIDIA DGX GB200 User Guide: 18 compute trays per rack, each with "4x NVIDIA ConnectX-7 single port 400G OSFP
# NIC" for the cluster network. So the fabric's endpoints are 144 trays of 4 rails: 576 compute links, one per GPU.
@pytest.mark.parametrize(("racks", "trays", "links"), [(2, 36, 144), (8, 144, 576), (16, 288, 1152)])
def test_nvl72_fabric_endpoints_are_the_racks_compute_trays(seeded_catalog, racks, trays, links):
    result = validate_json(document=_doc(GB200, racks=racks, fabric={"switch": "MQM9700-NS2F"}))
    plan = result["fabric_plan"]
    assert (plan["nodes"], plan["rails"], plan["node_links"]) == (trays, 4, links)
    assert result["totals"]["compute_nics"] == links  # one compute link per GPU
    assert "FABRIC_FEWER_RAILS_THAN_GPUS" not in _codes(result)  # 4 NICs for the tray's 4 GPUs


def test_gb300_racks_plan_an_xdr_fabric_on_their_connectx8_trays(seeded_catalog):
    result = validate_json(document=_doc(GB300, racks=2, fabric={"switch": "Q3400-RA"}))
    plan = result["fabric_plan"]
    assert (plan["nodes"], plan["rails"], plan["node_links"]) == (36, 4, 144)
    assert "FABRIC_SPEED_MISMATCH" not in _codes(result)


# --- rack plan and bill ----------------------------------------------------------------------------------------


def test_one_system_is_one_rack_of_its_own_in_rows_of_an_su(seeded_catalog):
    result = validate_json(document=_doc(GB200, racks=8, fabric={"switch": "MQM9700-NS2F"}))
    racks = result["rack_plan"]["racks"]
    systems = [r for r in racks if r["system"]]
    assert sum(r["count"] for r in systems) == 8
    for r in systems:
        assert (r["u_total"], r["u_used"], r["power_w"], r["nodes"]) == (48, 37, 120000, 1)
        assert r["pdus"] == [] and r["cords"] == []  # its own power shelves
        # its trays, NVLink switch trays, power shelves and its own two management switches; no top-of-rack switch
        # of the plan's
        assert {d["role"] for d in r["devices"]} == {"node", "nvlink-switch", "power-shelf", "system-management"}
    assert len({r["row"] for r in systems}) == 1  # the SU's 8 racks in one row (RA: "Complete Rack Layout in One Row")
    assert not _codes(result, "error")
    mgmt = [f for f in result["findings"] if f["code"] == "RACK_MANAGEMENT_SWITCH_COUNT"]
    network_racks = sum(r["count"] for r in racks if not r["system"])
    assert all(f"{network_racks} in all" in f["message"] for f in mgmt)


def test_the_bill_lists_the_rack_with_what_comes_in_it_and_no_enclosure(seeded_catalog):
    doc = _doc(GB300, racks=2)
    result = validate_json(document=doc)
    bill = design_bill(document=doc, result=result)
    line = next(b for b in bill.lines if b.part_number == GB300)
    assert line.quantity == 2 and line.unit_price_eur == Decimal("3600000.00")  # the seed's placeholder price
    assert "includes 18 compute trays, 72 GPUs, 9 NVLink switch trays, 8 power shelves, 2 management switches" in (
        line.description
    )
    assert not any(b.part_number == "GB300-NVL72-GPUS" for b in bill.lines)  # built in, not a line of its own
    # No enclosure, PDU or cord for the NVL72 racks: the enclosures billed are the management racks' (the
    # north-south switches and the control plane), nothing else.
    others = sum(r.get("count", 1) for r in result["rack_plan"]["racks"] if not r.get("system"))
    enclosures = sum(b.quantity for b in bill.lines if b.section == "racks_power" and b.part_number == "RACK-42U")
    assert enclosures == others and all(
        r["kind"] == "management" for r in result["rack_plan"]["racks"] if not r["system"]
    )
    assert result["totals"]["list_price_at_least"] is False  # the racks and their services are priced
    dutch = validate_json(document=doc, language="nl")["bom"]
    assert (
        "inclusief 18 compute-trays, 72 GPU's, 9 NVLink-switchtrays"
        in next(b for b in dutch if b["part"] == GB300)["description"]
    )


def test_an_nvl72_rack_beside_hgx_nodes_gets_enclosures_and_pdus_only_for_the_hgx_racks(seeded_catalog):
    doc = _doc(GB300, racks=1)
    doc["node_groups"].append({"name": "hgx", "count": 4, "server": "SYS-822GS-NB3RT", "components": []})
    result = validate_json(document=doc)
    hgx_racks = sum(r.get("count", 1) for r in result["rack_plan"]["racks"] if not r.get("system"))
    assert hgx_racks >= 1 and rack_count(result["rack_plan"]) == hgx_racks + 1
    racks_power = [b for b in result["bom"] if b["section"] == "racks_power"]
    assert sum(b["quantity"] for b in racks_power if b["part"] == "RACK-42U") == hgx_racks
    assert sum(b["quantity"] for b in racks_power if b["part"] == "AP8886") == 2 * hgx_racks  # A+B in the HGX racks


def test_the_cabling_list_places_each_tray_in_its_own_rack(seeded_catalog):
    import csv

    from configurator.services import configuration_create
    from outputs.services import configuration_output

    config = configuration_create(document=_doc(GB200, racks=2, fabric={"switch": "MQM9700-NS2F"}))
    rows = list(csv.DictReader(configuration_output(configuration=config, name="cabling.csv").body))
    node_rows = [r for r in rows if r["link_class"] == "node-leaf" and r["network"] == "compute"]
    assert len(node_rows) == 144  # 36 trays x 4 NICs
    racks = {r["a_end"]: r["a_rack"] for r in node_rows}
    # Trays 1-18 are in the first rack, 19-36 in the second (the fabric's nodes are trays, the plan's are racks).
    assert {racks[f"node-{n:04d}"] for n in range(1, 19)} == {racks["node-0001"]}
    assert {racks[f"node-{n:04d}"] for n in range(19, 37)} == {racks["node-0019"]} != {racks["node-0001"]}
    assert all(racks.values())  # every tray placed


def test_the_out_of_band_network_takes_the_racks_own_management_switches_and_their_devices(seeded_catalog):
    # An NVL72 rack has no PDUs of the plan's and manages its trays, NVLink switch trays and power shelves on its
    # own two built-in management switches: the out-of-band network counts those ports (18 + 9 + 8 per rack) and
    # takes the two switches as its in-rack switches (their uplinks counted), beside the network racks' own; a
    # design beside HGX nodes still counts those nodes' BMCs.
    result = validate_json(document=_doc(GB200, racks=8, fabric={"switch": "MQM9700-NS2F"}))
    oob = result["network_plans"]["oob"]
    compute = result["fabric_plan"]
    assert oob["devices"]["bmcs"] == 8 * (18 + 9 + 8)
    assert oob["devices"]["pdus"] == sum(p["quantity"] for p in result["rack_plan"]["pdus"])
    assert oob["devices"]["switches"] >= compute["leaf_switches"] + compute["spine_switches"]
    # The racks are dense (35 management ports in an NVL72 rack): per-rack, as main racks them.
    assert oob["placement"] == "per-rack"
    network_racks = rack_count(result["rack_plan"]) - 8
    assert oob["rack_switches"] == network_racks + 8 * 2  # one per network rack, the NVL72's own two
    mixed = _doc(GB200, racks=2, fabric={"switch": "MQM9700-NS2F"})
    mixed["node_groups"].append({"name": "hgx", "count": 4, "server": "SYS-821GE-TNHR", "components": []})
    devices = validate_json(document=mixed)["network_plans"]["oob"]["devices"]
    assert devices["bmcs"] == 4 + 2 * (18 + 9 + 8)
