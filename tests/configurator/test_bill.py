"""The one bill of materials in the validation result (contract design/v1, round 3): its sections, the rack plan's
devices line for line, lines on request and the list-price totals, the networks' own bills, and every door."""

from __future__ import annotations

import dataclasses
import io
import json
from collections import Counter
from decimal import Decimal as D

import pytest
from django.core.management import call_command

from configurator.bom import design_bom
from configurator.examples import h200_training_cluster
from configurator.snapshot import catalog_snapshot
from configurator.validation import run_validation
from design.specs import PduSpec
from engines.cluster.bill import SECTIONS
from engines.intake.parse import parse_design
from tests.results import validate_json

pytestmark = pytest.mark.django_db


def _hgx_h100(nodes: int, *, per_rack: bool = False) -> dict:
    doc = h200_training_cluster()
    if per_rack:  # an out-of-band switch in every rack (by default these sparse racks get central ones)
        doc["networks"] = {"oob": {"placement": "per-rack"}}
    doc["name"] = f"{nodes} x HGX H100"
    doc["node_groups"][0].update(count=nodes)
    doc["node_groups"][0]["components"][0]["part"] = "HGX-H100-8GPU"
    return doc


def placed(rack_plan: dict, role: str) -> Counter:
    out: Counter = Counter()
    for entry in rack_plan["racks"]:
        for device in entry["devices"]:
            if device["role"] == role:
                out[device["part"]] += entry["count"] * device["count"]
    return out


def quantities(bom: list[dict], section: str) -> Counter:
    out: Counter = Counter()
    for line in bom:
        if line["section"] == section:
            out[line["part"]] += line["quantity"]
    return out


def test_every_device_of_the_rack_plan_is_a_line_of_the_bill_at_128_nodes(seeded_catalog):
    result = validate_json(document=_hgx_h100(128, per_rack=True))
    bom, plan, totals = result["bom"], result["rack_plan"], result["totals"]
    assert {line["section"] for line in bom} <= set(SECTIONS)
    assert [line["section"] for line in bom] == sorted((line["section"] for line in bom), key=SECTIONS.index)
    # One management switch in every rack as placed (69 racks here), not the fabric plan's port count (4), and
    # whatever else the out-of-band network's own bill holds, once (no aggregation switches: its switches
    # uplink into the in-band network, SPOD-H100-OOB-UPLINKS).
    management = placed(plan, "management")
    own = {i["part"]: i["quantity"] for i in result["network_plans"]["oob"]["bom"] if i["part"] not in management}
    assert quantities(bom, "oob") == management + Counter(own)
    assert "SN4600C" not in quantities(bom, "oob")
    assert sum(placed(plan, "management").values()) == totals["racks"] > result["fabric_plan"]["management_switches"]
    racks_power = quantities(bom, "racks_power")
    assert racks_power["RACK-42U"] == totals["racks"]
    assert {p["part"]: p["quantity"] for p in plan["pdus"]} == {"AP8886": racks_power["AP8886"]}
    # a cord per supply: C19 at the PDU to the supply's C20 inlet
    assert racks_power["CORD-C19-C20-2M"] == sum(c["quantity"] for c in plan["cords"]) == 128 * 6
    fabric = quantities(bom, "compute_fabric")
    for role in ("leaf", "spine", "core"):
        for part, count in placed(plan, role).items():
            assert fabric[part] >= count
    assert fabric["MQM9700-NS2F"] == sum(placed(plan, r)["MQM9700-NS2F"] for r in ("leaf", "spine", "core"))
    nodes = [line for line in bom if line["section"] == "nodes"]
    assert all(line["group"] == "gpu" for line in nodes) and quantities(bom, "nodes")["SYS-821GE-TNHR"] == 128
    # Every line is priced (the seed's and the settings' placeholders) but the UFM pair the fabric needs past its
    # embedded subnet manager, when its price is not set; the total then says "at least".
    asked = {line["part"] for line in bom if line["unit_price_eur"] is None}
    assert asked <= {"UFM-ENTERPRISE-APPLIANCE"}
    assert totals["list_price_at_least"] is bool(asked)
    priced = sum(D(line["unit_price_eur"]) * line["quantity"] for line in bom if line["unit_price_eur"] is not None)
    assert D(totals["list_price_eur"]) == priced


def test_a_catalogue_without_pdus_and_cords_still_bills_what_the_racks_need_on_request(seeded_catalog):
    doc = _hgx_h100(4)
    view = catalog_snapshot()
    without = {pn: p for pn, p in view.parts.items() if not isinstance(p, PduSpec)}
    result = run_validation(doc, dataclasses.replace(view, parts=without)).result.to_json()
    assert result["rack_plan"]["pdus"] == []
    [pdu] = [line for line in result["bom"] if line["description"].startswith("Rack PDU")]
    assert pdu["part"] == "" and pdu["unit_price_eur"] is None
    assert pdu["quantity"] == 2 * result["totals"]["racks"]  # one per feed, A+B, in every rack


def test_the_networks_bills_are_their_sections_and_the_placed_management_switches_replace_the_oob_line(
    seeded_catalog,
):
    doc = _hgx_h100(8, per_rack=True)
    result = validate_json(document=doc)
    racks = result["totals"]["racks"]
    hand_made = {
        **result,
        "network_plans": {
            "storage": {
                "leaf_switches": 2,
                "bom": [{"part": "SN4600C", "quantity": 2}, {"part": "NO-SUCH-PART", "quantity": 4}],
            },
            "inband": None,
            "oob": {
                "leaf_switches": 1,
                "bom": [{"part": "SN2201", "quantity": 1}, {"part": "MFP7E10-N010", "quantity": 3}],
            },
        },
    }
    lines = design_bom(parse_design(doc), hand_made, catalog_snapshot())
    by_section: dict[str, Counter] = {}
    for line in lines:
        by_section.setdefault(line.section, Counter())[line.part_number] += line.quantity
    assert by_section["storage"] == {"SN4600C": 2, "NO-SUCH-PART": 4}
    assert "inband" not in by_section
    # The out-of-band plan's own cables stay; its switch count is the rack plan's, one in every rack.
    assert by_section["oob"] == {"SN2201": racks, "MFP7E10-N010": 3}
    assert [line.section for line in lines] == sorted((line.section for line in lines), key=SECTIONS.index)
    unknown = next(line for line in lines if line.part_number == "NO-SUCH-PART")
    assert unknown.on_request  # not in the catalogue: on request, never dropped


def test_central_out_of_band_switches_are_the_out_of_band_plans_own_lines(seeded_catalog):
    result = validate_json(document=_hgx_h100(128))
    oob = result["network_plans"]["oob"]
    assert oob["placement"] == "central" and not placed(result["rack_plan"], "management")
    assert quantities(result["bom"], "oob")["SN2201"] == oob["leaf_switches"] > 0


def test_the_api_and_the_cli_give_the_same_bill(seeded_catalog, tmp_path):
    from django.test import Client

    from api.models import ApiClient

    doc = _hgx_h100(16)
    crm = ApiClient(name="crm", scope="quote")
    token = crm.set_new_token()
    crm.save()
    response = Client(headers={"authorization": f"Bearer {token}"}).post(
        "/api/v1/designs/validate/", doc, content_type="application/json"
    )
    assert response.status_code == 200, response.content
    api = response.json()
    path = tmp_path / "design.json"
    path.write_text(json.dumps(doc))
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_design", str(path), "--indent", "0", stdout=out)
    cli = json.loads(out.getvalue())
    assert api["bom"] == cli["bom"] == validate_json(document=doc)["bom"]
    assert api["totals"]["list_price_eur"] == cli["totals"]["list_price_eur"]
    assert api["totals"]["list_price_at_least"] is False  # every line priced by the placeholders of a fresh install
    assert set(api["bom"][0]) == {"section", "part", "description", "quantity", "unit_price_eur", "group"}


def test_every_switch_and_control_plane_server_is_billed_as_racked_in_the_physical_model(seeded_catalog):
    # The bill reads the devices' quantities off the rack plan, not off the network plans that sized them: a stored
    # result whose racks hold one leaf fewer and one more control-plane server than its plans bills what is racked.
    doc = h200_training_cluster()
    doc["node_groups"][0].update(count=64)
    result = validate_json(document=doc)
    lines = design_bom(parse_design(doc), result, catalog_snapshot())
    assert [line.to_dict() for line in lines] == result["bom"]  # the stored bill is the model's, line for line

    racks = json.loads(json.dumps(result["rack_plan"]))
    leaf_rack = next(r for r in racks["racks"] if any(d["role"] == "leaf" for d in r["devices"]))
    leaf = next(d for d in leaf_rack["devices"] if d["role"] == "leaf")
    leaf_rack["devices"].remove(leaf)
    control_rack = next(r for r in racks["racks"] if any(d["role"] == "control" for d in r["devices"]))
    server = next(d for d in control_rack["devices"] if d["role"] == "control")
    control_rack["devices"].append({**server, "name": "extra", "position_u": 1})

    def quantity(lines, section, part):
        return sum(line.quantity for line in lines if line.section == section and line.part_number == part)

    changed = design_bom(parse_design(doc), {**result, "rack_plan": racks}, catalog_snapshot())
    leaves = leaf_rack.get("count", 1) * leaf.get("count", 1)
    servers = control_rack.get("count", 1) * server.get("count", 1)
    fabric, control = ("compute_fabric", leaf["part"]), ("control_plane", server["part"])
    assert quantity(changed, *fabric) == quantity(lines, *fabric) - leaves
    assert quantity(changed, *control) == quantity(lines, *control) + servers
