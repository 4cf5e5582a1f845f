"""Issue #32 item 4, NVL72 racks complete, through the validation service and the seeded catalogue: a default
facility that holds the racks (or an error for a budget below them), the racks' management ports on the
out-of-band network, and the north-south network through the trays' BlueField-3 DPUs."""

from __future__ import annotations

import pytest

from configurator.examples import h200_training_cluster
from tests.results import validate_json

pytestmark = pytest.mark.django_db

GB200, GB300 = "SRS-GB200-NVL72", "SRS-GB300-NVL72"


def _doc(server: str, racks: int, **extra: object) -> dict:
    return {
        "schema": "design/v1",
        "name": "nvl72",
        "node_groups": [{"name": "nvl", "count": racks, "server": server, "components": []}],
        **extra,
    }


def _findings(result: dict, code: str) -> list[dict]:
    return [f for f in result["findings"] if f["code"] == code]


# --- a default facility that can hold the racks ----------------------------------------------------------------


def test_without_a_rack_power_the_racks_are_planned_at_their_own_and_the_hall_must_give_it(seeded_catalog):
    result = validate_json(document=_doc(GB300, 2))
    [hall] = _findings(result, "RACK_SYSTEM_HALL_POWER")
    assert hall["severity"] == "info" and "142" in hall["message"] and "80" in hall["message"]
    assert not _findings(result, "RACK_NODE_OVER_POWER")
    assert {r["power_w"] for r in result["rack_plan"]["racks"] if r["system"]} == {142000}
    assert result["valid"]


def test_an_explicit_80_kw_budget_below_the_racks_stays_an_error(seeded_catalog):
    result = validate_json(document=_doc(GB300, 2, facility={"rack_power_kw": 80}))
    [over] = _findings(result, "RACK_NODE_OVER_POWER")
    assert over["severity"] == "error" and not _findings(result, "RACK_SYSTEM_HALL_POWER")
    assert not result["valid"]


# --- the racks' management ports on the out-of-band network -----------------------------------------------------


@pytest.mark.parametrize("racks", [1, 8])
def test_the_out_of_band_network_counts_each_racks_trays_and_takes_its_two_switches(seeded_catalog, racks):
    result = validate_json(document=_doc(GB300, racks))
    oob = result["network_plans"]["oob"]
    # Per rack: 18 compute-tray BMCs, 9 NVLink switch trays and 8 power shelves on its own two SN2201.
    assert oob["devices"]["bmcs"] == racks * (18 + 9 + 8)
    # the racks' own two each, and the management rack's own (it holds the control plane from two racks)
    others = sum(
        d["count"] * r["count"]
        for r in result["rack_plan"]["racks"]
        for d in r["devices"]
        if d["role"] in ("oob", "management")
    )
    assert oob["rack_switches"] == oob["leaf_switches"] == 2 * racks + others
    assert oob["uplinks"] == 2 * oob["leaf_switches"]  # two uplinks from each of the rack's switches
    assert oob["switch"] == "SN2201"
    # The racks' own switches are part of the system: not billed again (only the management rack's own is).
    assert sum(line["quantity"] for line in result["bom"] if line["part"] == "SN2201") == others


# --- the north-south network through the trays' BlueField-3 DPUs ------------------------------------------------


def test_four_gb200_racks_get_a_north_south_network_from_the_trays_dpus(seeded_catalog):
    result = validate_json(document=_doc(GB200, 4, networks={"storage": {}}))
    storage = result["network_plans"]["storage"]
    # 72 trays, each with 2 BlueField-3 of 2 ports (the catalogue's dpus_per_tray and dpu_ports), and the storage
    # systems' ports the plan reserves in the H100 RA's proportion (48 for 254: 55 for 288)
    assert (storage["nodes"], storage["ports_per_node"], storage["system_ports"]) == (72, 4, 55)
    assert storage["node_links"] == 4 * 18 * 2 * 2 + 55
    assert storage["switch"] == "SN5600"  # Ethernet, as NVIDIA's GB200 north-south network
    assert not _findings(result, "NETWORK_NO_ADAPTERS")
    # in-band rides it (the converged north-south network), and the out-of-band switches uplink into it
    assert result["network_plans"]["inband"] is None and _findings(result, "NETWORK_CONVERGED")
    assert result["network_plans"]["oob"]["uplink_switch"] == "SN5600"


def test_an_in_band_network_asked_for_alone_takes_the_dpus(seeded_catalog):
    result = validate_json(document=_doc(GB300, 2, networks={"inband": {}, "storage": None}))
    inband = result["network_plans"]["inband"]
    assert (inband["nodes"], inband["node_links"]) == (36, 2 * 18 * 1 * 2)  # GB300: one B3240 of two ports a tray
    assert not _findings(result, "NETWORK_NO_ADAPTERS")


# --- a fabric of NVL72 racks and HGX servers --------------------------------------------------------------------


def test_a_mixed_fabric_gives_each_kind_its_own_rails_and_says_so(seeded_catalog):
    doc = _doc(GB200, 2, fabric={"switch": "MQM9700-NS2F"})
    hgx = h200_training_cluster()["node_groups"][0]  # HGX H200 with 8 x MCX75310AAS-NEAT
    doc["node_groups"].append({**hgx, "name": "hgx", "count": 16})
    result = validate_json(document=doc)
    fabric = result["fabric_plan"]
    # 36 trays x 4 ConnectX-7 and 16 servers x 8 NICs, not 36 trays x 8
    assert fabric["node_links"] == 36 * 4 + 16 * 8
    [mixed] = _findings(result, "NVLINK_DOMAINS_MIXED")
    assert mixed["severity"] == "info" and "tensor parallelism" in mixed["message"]
    assert "72" in mixed["message"] and "8 GPUs" in mixed["message"]
    # each endpoint of the NVL72 racks stands at a tray of its own rack
    assert result["rack_plan"]["fabric_endpoints_per_node"] == {"nvl": 9}


def test_a_fabric_of_nvl72_racks_alone_has_no_mixing_note(seeded_catalog):
    result = validate_json(document=_doc(GB200, 2, fabric={"switch": "MQM9700-NS2F"}))
    assert result["fabric_plan"]["node_links"] == 36 * 4 and not _findings(result, "NVLINK_DOMAINS_MIXED")
