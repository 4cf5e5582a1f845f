"""A cluster of NVL72 racks beside HGX nodes: the enclosure racks get PDUs sized at 80 % within their zero-U
positions and cords by current; an NVL72 rack brings its own power shelves (no PDUs, no cords, no 80 % warning);
the control plane and support count each NVL72 rack as one node, NVIDIA AI Enterprise its 72 GPUs."""

from __future__ import annotations

import math

import pytest

from configurator.examples import h200_training_cluster
from engines.racks.packing import CONTINUOUS_SHARE
from tests.results import validate_json

pytestmark = pytest.mark.django_db

NVL72 = "SRS-GB300-NVL72"
AP8886_W = 22000  # APC AP8886, 22 kW zero-U (catalogue seed)


def _doc() -> dict:
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = 4
    doc["node_groups"].append({"name": "nvl", "count": 2, "server": NVL72, "components": []})
    doc["facility"] = {"cooling": "liquid", "pdu_feeds": "A"}
    doc["services"] = {"support_years": 3, "installation": True, "ai_enterprise": True}
    return doc


def test_pdus_and_cords_only_for_the_hgx_racks_and_no_80_percent_warning(seeded_catalog):
    result = validate_json(document=_doc())
    racks = result["rack_plan"]["racks"]
    nvl = [r for r in racks if r["system"]]
    hgx = [r for r in racks if r["node_group"] == "gpu"]
    assert sum(r["count"] for r in nvl) == 2 and sum(r["nodes"] * r["count"] for r in hgx) == 4
    for rack in nvl:  # its power shelves come with it
        assert rack["pdus"] == [] and rack["cords"] == []
    for rack in hgx:
        # The fewest AP8886 that carry the rack's load at 80 % of their rating, within the 4 zero-U positions.
        per_feed = math.ceil(rack["power_known_w"] / (AP8886_W * CONTINUOUS_SHARE))
        assert per_feed <= 4
        assert rack["pdus"] == [{"part": "AP8886", "quantity": per_feed, "cord": "3P 32A"}]
        assert rack["power_known_w"] / per_feed <= AP8886_W * CONTINUOUS_SHARE
        # One cord per supply, each carrying the supply's current.
        [cords] = rack["cords"]
        assert cords["pdu_outlet"] == "C19" and cords["current_a"] and cords["quantity"] == 6 * rack["nodes"]
    pdus_in_racks = sum(p["quantity"] * r["count"] for r in racks for p in r["pdus"])
    assert result["rack_plan"]["pdus"] == [{"part": "AP8886", "quantity": pdus_in_racks, "cord": "3P 32A"}]
    codes = {f["code"] for f in result["findings"]}
    assert "RACK_PDU_OVER_CONTINUOUS" not in codes and "RACK_PDU_BUSBAR" not in codes


def test_the_services_count_nvl72_racks_as_nodes_and_their_72_gpus_for_ai_enterprise(seeded_catalog):
    result = validate_json(document=_doc())
    services = {line["part"]: line["quantity"] for line in result["services"]["bom"]}
    assert services["SVC-SUPPORT-NODE-YEAR"] == (4 + 2) * 3  # two NVL72 racks are two nodes, not 36 trays
    assert services["NVAIE-GPU-YEAR"] == (4 * 8 + 2 * 72) * 3
    control = {line["part"]: line["quantity"] for line in result["control_plane"]["bom"]}
    control.pop("UFM-ENTERPRISE-APPLIANCE", None)
    # The control plane counts compute trays, as the DGX SuperPOD GB200 RA does (each tray "an individual DGX
    # node"): 4 + 2 x 18 = 40 nodes, one SU and more: the DGX SuperPOD control plane.
    assert control == {
        "HEAD-NODE-BCM": 2,
        "MGMT-NODE-K8S-ADMIN": 3,
        "MGMT-NODE-K8S-USER": 3,
        "MGMT-NODE-SLURM-LOGIN": 2,
    }
