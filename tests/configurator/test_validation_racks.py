"""The rack plan through the one validation service, on the seeded catalogue: racks, power and cooling, the
distances the fabric's media follow, the bill, the cabling list, the elevation on the page and in the offer."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
import re
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.test import Client
from openpyxl import load_workbook
from pypdf import PdfReader

from api.models import ApiClient
from configurator.bom import design_bill
from configurator.examples import h200_training_cluster
from configurator.services import configuration_create
from configurator.snapshot import catalog_snapshot
from configurator.validation import run_validation
from design.model import DesignInputError
from engines.cluster.bill import rack_plan_lines
from engines.cluster.rackbill import RackBill, rack_count
from engines.cluster.rackplan import fabric_locator
from engines.racks import RackPlan
from engines.racks.model import rack_entries
from engines.racks.ranges import expand_names
from messages import bill as bill_words
from messages.racks import elevation_labels, kw_number
from outputs.pictures import rack_elevation_svg
from outputs.services import configuration_output
from quotes.documents import pdf_context, render_pdf, render_xlsx
from quotes.services import quote_request
from tests.factories import set_price
from tests.results import validate_json


def _rack_lines(rack_plan: dict, view) -> list[tuple[str, int, str]]:
    """The bill's rack, PDU and cord lines of a rack plan as written (a stored result's)."""
    return rack_plan_lines(RackBill.from_json(rack_plan), view, bill_words)


pytestmark = pytest.mark.django_db


def _doc(
    nodes: int,
    *,
    fabric: dict | None | bool = True,
    facility: dict | None = None,
    server: str | None = None,
    per_rack: bool = False,
):
    """The contract's example at ``nodes``; ``per_rack``: an out-of-band switch in every rack (networks.oob.placement;
    by default these sparse racks get central ones, in the management racks)."""
    doc = h200_training_cluster()
    if per_rack:
        doc["networks"] = {"oob": {"placement": "per-rack"}}
    doc["node_groups"][0]["count"] = nodes
    if fabric is None or fabric is False:
        doc.pop("fabric")
    elif isinstance(fabric, dict):
        doc["fabric"] = {**doc["fabric"], **fabric}
    if facility is not None:
        doc["facility"] = facility
    if server is not None:
        doc["node_groups"][0]["server"] = server
    return doc


def _codes(result) -> set[str]:
    return {f["code"] for f in result["findings"]}


def _nodes_placed(plan) -> int:
    return sum(r["nodes"] * r["count"] for r in plan["racks"])


def _racks(plan) -> int:
    return sum(r["count"] for r in plan["racks"])


def _link(result, name):
    return next(link for link in result["fabric_plan"]["links"] if link["class"] == name)


@pytest.mark.parametrize(
    ("nodes", "racks", "rows"),
    [
        # 10.2 kW per H200 node (the estimate calibrated to NVIDIA's DGX H200 maximum) in 30 kW air-cooled
        # racks: 2 nodes per rack.
        (1, 1, 1),
        # From two nodes a management rack holds the control plane's servers (5 for a BasePOD, 10 for a SuperPOD).
        # One switch (one tier) in the full SU's leaf rack R01-09 (the places the 2 compute racks are short of kept
        # free), the management rack where it stands once there is a second SU: at the second row's end, R02-18.
        (4, 4, 2),
        (32, 19, 2),  # 16 compute racks, the 8 leaves in their middle, the 4 spines at its end; R02-18 management
        (128, 70, 4),  # 4 SUs of 16 compute + 1 leaf rack a row; the spine rack ends the first, management the second
    ],
)
def test_rack_plan_holds_every_node_and_the_totals_count_the_racks(seeded_catalog, nodes, racks, rows):
    # supplied []: the offer carries the racks' management switches even for one server (facility.supplied)
    doc = _doc(nodes, fabric=None if nodes == 1 else True, facility={"supplied": []}, per_rack=True)
    result = validate_json(document=doc)
    plan = result["rack_plan"]
    assert _nodes_placed(plan) == nodes
    assert _racks(plan) == racks == result["totals"]["racks"]
    assert len(plan["rows"]) == rows
    assert all(r["power_known_w"] <= plan["rack_power_limit_w"] == 30_000 for r in plan["racks"])
    assert plan["rack_power_basis"] == "default-air" and "RACK_POWER_DEFAULT" in _codes(result)
    # Every rack has its management switch at the top unit (placement per-rack).
    assert all(
        [(d["position_u"], d["part"]) for d in r["devices"] if d["role"] == "management"] == [(42, "SN2201")]
        for r in plan["racks"]
    )
    # Switch power is not sourced: the facility power is unknown, its known part is stated with what it leaves out.
    assert result["totals"]["facility_power_w"] is None or nodes == 1
    assert result["totals"]["facility_power_known_w"] >= nodes * result["totals"]["groups"][0]["peak_power_w_per_node"]
    assert result["totals"]["overhead_included"] == {"pdu_losses": False, "cooling": False}


def test_a_2048_node_cluster_gets_a_three_tier_layout(seeded_catalog):
    result = validate_json(document=_doc(2048, per_rack=True))
    plan = result["rack_plan"]
    assert _nodes_placed(plan) == 2048
    kinds = {r["kind"] for r in plan["racks"]}
    assert kinds == {"compute", "network", "management"}
    roles = {d["role"] for r in plan["racks"] for d in r["devices"]}
    assert {"leaf", "spine", "core", "management", "control", "ufm"} <= roles
    assert result["totals"]["racks"] == _racks(plan) > 2048 // 3
    assert plan["distances"]["spine_to_core_m"]["basis"] == "plan"


def test_one_node_stands_alone_in_one_rack_without_a_fabric(seeded_catalog):
    result = validate_json(document=_doc(1, fabric=None, facility={"supplied": []}, per_rack=True))
    (rack,) = result["rack_plan"]["racks"]
    assert [d["role"] for d in rack["devices"]] == ["node", "management"]
    assert rack["u_used"] == 9 and rack["u_total"] == 42
    # by default one server goes into the site's rack on the site's management network: no switch in its rack
    (alone,) = validate_json(document=_doc(1, fabric=None))["rack_plan"]["racks"]
    assert [d["role"] for d in alone["devices"]] == ["node"] and alone["u_used"] == 8
    assert result["totals"]["facility_power_known_w"] == result["totals"]["groups"][0]["peak_power_w_per_node"]


def test_liquid_cooled_servers_get_liquid_racks_of_80_kw_and_air_cannot_carry_them(seeded_catalog):
    liquid = validate_json(document=_doc(8, fabric=None, server="SYS-421GE-TNHR2-LCC"))
    plan = liquid["rack_plan"]
    assert plan["cooling"] == "liquid" and plan["rack_power_limit_w"] == 80_000
    assert plan["rack_power_basis"] == "default-liquid"
    air = validate_json(document=_doc(8, fabric=None, server="SYS-421GE-TNHR2-LCC", facility={"cooling": "air"}))
    assert air["valid"] is False
    error = next(f for f in air["findings"] if f["code"] == "RACK_LIQUID_NODE_IN_AIR")
    assert error["severity"] == "error" and "SYS-421GE-TNHR2-LCC" in error["message"]


def test_air_cooled_racks_above_the_air_ceiling_get_a_warning(seeded_catalog):
    result = validate_json(document=_doc(5, fabric=None, facility={"cooling": "air", "rack_power_kw": 60}))
    warning = next(f for f in result["findings"] if f["code"] == "RACK_AIR_DENSITY")
    assert warning["severity"] == "warning" and warning["subject"] == "facility.cooling"
    assert max(r["power_known_w"] for r in result["rack_plan"]["racks"]) > 30_000
    nl = validate_json(document=_doc(5, fabric=None, facility={"cooling": "air", "rack_power_kw": 60}), language="nl")
    assert "luchtgekoeld rack" in next(f["message"] for f in nl["findings"] if f["code"] == "RACK_AIR_DENSITY")


def test_a_server_taller_than_the_rack_is_an_error_naming_the_units(seeded_catalog):
    result = validate_json(document=_doc(2, fabric=None, facility={"rack_units": 8}, per_rack=True))
    error = next(f for f in result["findings"] if f["code"] == "RACK_NODE_TOO_TALL")
    assert result["valid"] is False and "8U" in error["message"]


def test_a_server_of_unknown_height_is_left_out_and_said_so(seeded_catalog):
    doc = _doc(2, fabric=None)
    doc["node_groups"][0] = {"name": "a100", "count": 2, "server": "SYS-420GP-TNAR"}
    result = validate_json(document=doc)
    assert "RACK_NODE_HEIGHT_UNKNOWN" in _codes(result)
    assert _nodes_placed(result["rack_plan"]) == 0


def test_the_rack_rows_set_the_node_distance_and_a_long_row_turns_dac_into_optics(seeded_catalog):
    # 32 nodes in one row: the row run from the farthest compute rack to the leaf rack is several metres.
    laid_out = validate_json(document=_doc(32))
    plan_m = laid_out["rack_plan"]["distances"]["node_to_leaf_m"]
    assert plan_m["basis"] == "plan" and plan_m["route"] == "row" and plan_m["length_m"] > 3
    node_link = _link(laid_out, "node-leaf")
    assert node_link["distance_m"] == plan_m["length_m"] and node_link["media"] == "optics"
    # The same fabric with the switches next to the nodes (an override of 1 m) takes copper.
    short = validate_json(document=_doc(32, fabric={"rack": {"node_to_leaf_m": 1}}))
    assert _link(short, "node-leaf")["distance_m"] == 1 and _link(short, "node-leaf")["media"] == "dac"


def test_the_design_override_always_wins_over_the_plan(seeded_catalog):
    result = validate_json(document=_doc(128, fabric={"rack": {"leaf_to_spine_m": 45}}))
    assert result["rack_plan"]["distances"]["leaf_to_spine_m"] == {
        "link": "leaf_to_spine_m",
        "length_m": 45.0,
        "basis": "override",
        "route": None,
    }
    assert _link(result, "leaf-spine")["distance_m"] == 45
    planned = validate_json(document=_doc(128))
    assert (
        _link(planned, "leaf-spine")["distance_m"] == planned["rack_plan"]["distances"]["leaf_to_spine_m"]["length_m"]
    )
    assert _link(planned, "leaf-spine")["distance_m"] != 45


@pytest.mark.parametrize(
    ("facility", "field", "words"),
    [
        ({"rack_units": "42"}, "facility.rack_units", "whole number"),
        ({"rack_units": 500}, "facility.rack_units", "absurd"),
        ({"rack_power_kw": -3}, "facility.rack_power_kw", "positive"),
        ({"cooling": "water"}, "facility.cooling", "air, liquid"),
        ({"pdu_feeds": "B"}, "facility.pdu_feeds", "A, A+B"),
        ("big", "facility", "object"),
    ],
)
def test_a_bad_facility_is_refused_naming_the_field(seeded_catalog, facility, field, words):
    with pytest.raises(DesignInputError) as err:
        validate_json(document=_doc(4, facility=facility))
    assert words in err.value.errors[field]


def test_the_facility_sets_rack_size_power_and_feeds(seeded_catalog):
    result = validate_json(
        document=_doc(4, fabric=None, facility={"rack_units": 48, "rack_power_kw": 20, "pdu_feeds": "A"})
    )
    plan = result["rack_plan"]
    assert plan["rack_units"] == 48 and plan["rack_power_limit_w"] == 20_000 and plan["pdu_feeds"] == "A"
    assert "RACK_POWER_DEFAULT" not in _codes(result)
    assert all(r["nodes"] <= 2 for r in plan["racks"])  # 2 x 7.9 kW within 20 kW


def _pdus(plan):
    """The PDUs of every rack of the plan (a run of alike racks counts each)."""
    return sum(p["quantity"] * r.get("count", 1) for r in plan["racks"] for p in r["pdus"])


def _unpriced_pdu() -> None:
    """A price list that does not price the PDU (the seed gives it a placeholder price)."""
    set_price("AP8886")


def test_the_bill_lists_the_racks_and_an_unpriced_pdu_as_a_line_on_request(seeded_catalog):
    _unpriced_pdu()
    doc = _doc(32)
    result = validate_json(document=doc)
    bill = design_bill(document=doc, result=result)
    racks = [line for line in bill.lines if line.section == "racks_power"]
    assert [(line.part_number, line.quantity) for line in racks if line.part_number.startswith("RACK")] == [
        ("RACK-42U", result["totals"]["racks"])
    ]
    # The plan sizes the racks' PDUs with the seeded APC AP8886 (22 kW, zero-U). A compute rack of two nodes draws
    # about 20 kW, above the 17.6 kW (80 %) one 22 kW PDU may carry continuously: two per feed, four per rack.
    plan = result["rack_plan"]
    compute = [r for r in plan["racks"] if r["kind"] == "compute" and r["nodes"] == 2]
    assert compute and all(r["power_known_w"] > 17_600 for r in compute)
    assert all(r["pdus"] == [{"part": "AP8886", "quantity": 4, "cord": "3P 32A"}] for r in compute)
    assert [(p["part"], p["quantity"]) for p in plan["pdus"]] == [("AP8886", _pdus(plan))]
    assert "RACK_NO_PDU" not in _codes(result) and "RACK_PDU_OVER_CONTINUOUS" not in _codes(result)
    # It has no list price: a line on request with the plan's count, and the bill's total says "at least".
    by_part = {line.part_number: line for line in racks}
    assert by_part["AP8886"].quantity == _pdus(plan) and by_part["AP8886"].on_request
    # The supplies' C20 inlets take the catalogue's C19-C20 cord, one per supply (six per SYS-821GE-TNHR).
    cord = by_part["CORD-C19-C20-2M"]
    assert cord.quantity == 32 * 6 and not cord.on_request
    assert bill.at_least and result["totals"]["list_price_at_least"] is True
    # A rack height the catalogue does not stock is a line on request too, not a guessed part.
    tall = _doc(4, fabric=None, facility={"rack_units": 48})
    tall_result = validate_json(document=tall)
    tall_bill = design_bill(document=tall, result=tall_result)
    [rack] = [line for line in tall_bill.lines if line.section == "racks_power" and "48U" in line.description]
    assert rack.part_number == "" and rack.on_request and rack.quantity == tall_result["totals"]["racks"]


def test_the_cabling_list_names_the_rack_and_unit_of_both_ends(seeded_catalog):
    config = configuration_create(document=_doc(32))
    rows = "".join(configuration_output(configuration=config, name="cabling.csv").body).splitlines()
    assert rows[0].endswith(",length_m,a_rack,a_u,z_rack,z_u,network")
    first = rows[1].split(",")
    assert first[0] == "node-0001" and first[7:9] == ["R01-01", "1"]
    plan = validate_json(document=config.document)["rack_plan"]
    leaf_racks = {r["name"] for r in plan["racks"] if any(d["role"] == "leaf" for d in r["devices"])}
    assert first[9] in leaf_racks and int(first[10]) > 1
    spine_rows = [r.split(",") for r in rows[1:] if r.split(",")[4] == "leaf-spine"]
    assert spine_rows and all(r[7] in leaf_racks and r[9] and r[9] not in leaf_racks for r in spine_rows)


def test_the_fabric_step_shows_the_rack_elevation_in_both_languages(seeded_catalog):
    config = configuration_create(document=_doc(32))
    page = Client().get(f"/d/{config.token}/fabric/").content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page and "Rack elevation" in page and "R01-01" in page
    page_nl = Client(headers={"accept-language": "nl"}).get(f"/d/{config.token}/fabric/").content.decode()
    assert "Rackaanzicht" in page_nl


def test_once_the_pdu_has_a_list_price_it_is_a_priced_line_and_no_longer_on_request(seeded_catalog):
    doc = _doc(8)
    view = catalog_snapshot()
    priced = dataclasses.replace(view.get("AP8886"), price_eur=Decimal("1200.00"))
    view = dataclasses.replace(view, parts={**view.parts, "AP8886": priced})
    result = run_validation(doc, view).result.to_json()
    bill = design_bill(document=doc, result=result)
    pdu = [line for line in bill.lines if line.part_number == "AP8886"]
    assert [(line.section, line.quantity) for line in pdu] == [("racks_power", _pdus(result["rack_plan"]))]
    assert pdu[0].unit_price_eur == Decimal("1200.00")


def test_the_review_step_shows_the_unpriced_pdu_on_request_in_both_languages(seeded_catalog):
    _unpriced_pdu()
    config = configuration_create(document=_doc(32))
    page = " ".join(Client().get(f"/d/{config.token}/review/").content.decode().split())
    pdus = _pdus(validate_json(document=config.document)["rack_plan"])
    row = re.search(r'<tr class="line on-request"><th scope="row" class="mono part">AP8886</th>.*?</tr>', page).group(0)
    assert f'<td class="num qty" data-label="Qty">{pdus}</td>' in row and "on request" in row
    assert "Total list price, excl. VAT" in page and "at least €" in page
    page_nl = " ".join(
        Client(headers={"accept-language": "nl"}).get(f"/d/{config.token}/review/").content.decode().split()
    )
    assert "Racks en stroom" in page_nl and "minstens €" in page_nl and "op aanvraag" in page_nl


def test_the_offer_pdf_shows_the_racks_and_their_elevation(seeded_catalog, make_configuration, customer, media, build):
    _unpriced_pdu()
    quote = build(quote_request, configuration=make_configuration(_doc(4)), customer=customer, channel="api")
    quote.refresh_from_db()
    frozen = quote.frozen
    assert any(line["part_number"] == "RACK-42U" for line in frozen["lines"])
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(render_pdf(frozen))).pages)
    # the rack elevation is drawn on the page, its labels (the picture's title, the first rack's name) as text
    [elevation] = pdf_context(frozen)["elevations"]
    assert "Rack elevation" in elevation and "Rack elevation" in text and "R01-01" in text
    racks = frozen["validation"]["totals"]["racks"]
    assert f"{racks} racks of 42U." in text and "Racks and power" in text
    # The PDU the plan sized has no list price: a line on request with the plan's count, and the totals say so.
    pdus = _pdus(frozen["validation"]["rack_plan"])
    [pdu] = [line for line in frozen["lines"] if line["part_number"] == "AP8886"]
    assert pdu["quantity"] == pdus and pdu["unit_price"] is None and pdu["net"] is None
    flat = " ".join(text.split())
    assert f"AP8886 APC Rack PDU 2G, Metered, ZeroU, 22 kW, 230 V, 30x C13 + 12x C19 {pdus}" in flat
    assert "Total, incl. VAT at least €" in flat
    dutch = copy.deepcopy(frozen)
    dutch["language"] = "nl"
    dutch_text = " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(render_pdf(dutch))).pages).split())
    assert f"{racks} racks van 42U." in dutch_text
    assert "Totaal, incl. btw minstens €" in dutch_text


def test_a_2048_node_result_writes_each_distinct_rack_once_and_stays_under_100_kb(seeded_catalog):
    """1,109 racks in 64 rows (the management rack of the control plane and UFM among them), 7 distinct: each
    written once with the ranges of racks holding it (from the fourth row on, the compute racks right of one row's
    leaf rack and left of the next row's one range of 16: the first row ends in the spine racks, the second in the
    management racks and the third in the core racks), each rack's two nodes one device entry of 2, and the whole
    result a fraction of the 862 kB it was when every rack and device was written out."""
    result = validate_json(document=_doc(2048, per_rack=True))
    plan = result["rack_plan"]
    assert _racks(plan) == result["totals"]["racks"] == 1109
    assert len(plan["racks"]) == 7
    compute = plan["racks"][0]
    assert compute["ranges"][1]["first"] == "R01-10" and compute["ranges"][1]["count"] == 8
    assert compute["ranges"][7] == {
        "first": "R04-10",
        "last": "R05-08",
        "count": 16,
        "row": 3,
        "slot": 9,
        "first_node": 112,
    }
    assert [(d["role"], d["count"], d["position_u"], d["last_position_u"]) for d in compute["devices"]] == [
        ("node", 2, 1, 9),
        ("management", 1, 42, 42),
    ]
    leaf_rack = plan["racks"][1]
    assert [(d["role"], d["count"], d["position_u"], d["last_position_u"]) for d in leaf_rack["devices"]] == [
        ("management", 1, 42, 42),
        ("leaf", 8, 41, 34),
    ]
    # every rack of the plan is named once by the ranges and the rows alike
    names = [name for row in plan["rows"] for name in expand_names(row["racks"])]
    assert len(names) == len(set(names)) == 1109
    assert plan["rows"][-1] == {"index": 63, "name": "R64", "count": 17, "racks": ["R64-01..R64-17"]}
    ranged = {
        name for e in plan["racks"] for r in e["ranges"] for name in names[names.index(r["first"]) :][: r["count"]]
    }
    assert ranged == set(names)
    assert len(json.dumps(result)) < 100_000


def test_a_valid_100000_node_result_answers_under_1_mb(seeded_catalog):
    """51,695 racks in 1,563 rows (one of them the management rack) hold 7 distinct contents: the answer writes each
    once, with its racks as ranges,
    and names no rack one by one (it answered 2.4 MB when every run and every rack's name was written)."""
    doc = _doc(100_000, per_rack=True)
    doc["fabric"]["switch"] = "SN5600"
    doc["node_groups"][0]["components"][1]["quantity"] = 1
    result = validate_json(document=doc)
    assert result["valid"] and result["totals"]["racks"] == _racks(result["rack_plan"]) == 51_695
    assert len(result["rack_plan"]["racks"]) == 7
    assert len(json.dumps(result, separators=(",", ":"))) < 1_000_000


def test_every_door_counts_every_rack_of_a_run(seeded_catalog, make_configuration, customer, media, build, tmp_path):
    """32 nodes: 16 compute racks in two runs of 8 beside the leaf rack, the spine rack and the management rack: 19
    racks however the plan is read — the API, the CLI, the fabric step, the offer PDF, its workbook and the cabling
    list."""
    doc = _doc(32)
    result = validate_json(document=doc)
    assert [r["count"] for r in result["rack_plan"]["racks"]] == [16, 1, 1, 1]
    assert [r["count"] for r in result["rack_plan"]["racks"][0]["ranges"]] == [8, 8]
    assert result["totals"]["racks"] == 19
    crm = ApiClient(name="crm", scope="quote")
    token = crm.set_new_token()
    crm.save()
    api = Client(headers={"authorization": f"Bearer {token}"}).post(
        "/api/v1/designs/validate/", doc, content_type="application/json"
    )
    assert api.status_code == 200
    assert api.json()["rack_plan"] == result["rack_plan"] and api.json()["totals"]["racks"] == 19
    path = tmp_path / "design.json"
    path.write_text(json.dumps(doc))
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate_design", str(path), "--indent", "0", stdout=out)
    cli = json.loads(out.getvalue())
    assert cli["rack_plan"] == result["rack_plan"] and cli["totals"]["racks"] == 19
    config = configuration_create(document=doc)
    page = " ".join(Client().get(f"/d/{config.token}/fabric/").content.decode().split())
    assert "<dd>19 × 42U</dd>" in page
    quote = build(quote_request, configuration=make_configuration(doc), customer=customer, channel="api")
    quote.refresh_from_db()
    text = " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(render_pdf(quote.frozen))).pages).split())
    assert "19 racks of 42U." in text
    bom = load_workbook(io.BytesIO(render_xlsx(quote.frozen))).worksheets[0]
    header = [c.value for c in bom[1]]
    part, quantity = header.index("Part number"), header.index("Quantity")
    rows = {r[part]: r[quantity] for r in bom.iter_rows(min_row=2, values_only=True)}
    assert rows["RACK-42U"] == 19
    lines = "".join(configuration_output(configuration=config, name="cabling.csv").body).splitlines()[1:]
    named = {line.split(",")[7] for line in lines} | {line.split(",")[9] for line in lines}
    assert {f"R01-{s:02d}" for s in range(1, 18)} <= named  # every compute rack and the leaf rack by name


def test_a_result_stored_before_racks_had_a_count_reads_as_every_rack(seeded_catalog):
    """A quote frozen before runs were written once (every rack and device an entry of its own) rebuilds alike:
    the same rack count for its bill, the same elevation and the same rack and unit for every cable end."""
    result = validate_json(document=_doc(32))
    plan = result["rack_plan"]
    stored = {
        **plan,
        "racks": [{**r.to_dict(), "devices": [d.to_dict() for d in r.devices]} for r in RackPlan.from_dict(plan).racks],
    }
    assert len(stored["racks"]) == rack_count(stored) == rack_count(plan) == 19
    view = catalog_snapshot()
    assert _rack_lines(stored, view) == _rack_lines(plan, view)
    labels = elevation_labels()
    assert rack_elevation_svg(stored, labels, kw_number) == rack_elevation_svg(plan, labels, kw_number)
    counts = {"gpu": 32}
    then, now = fabric_locator(stored, counts), fabric_locator(plan, counts)
    for kind, count in (("node", 32), ("leaf", 8), ("spine", 4)):
        assert [then(kind, i) for i in range(count)] == [now(kind, i) for i in range(count)]


def test_a_result_stored_before_distinct_racks_reads_as_every_rack(seeded_catalog):
    """A quote frozen when the plan wrote each run of identical racks in plan order and ``rows`` named every rack
    rebuilds alike: the same racks for its bill, the same elevation, the same rack and unit for every cable end."""
    result = validate_json(document=_doc(32))
    plan = result["rack_plan"]
    runs = RackPlan.from_dict(plan)
    stored = {
        **plan,
        "racks": rack_entries(runs.runs),
        "rows": [{"index": w.index, "name": w.name, "racks": list(w.racks)} for w in runs.rows],
    }
    assert [r["count"] for r in stored["racks"]] == [8, 1, 8, 1, 1] and rack_count(stored) == rack_count(plan) == 19
    assert RackPlan.from_dict(stored).to_dict() == RackPlan.from_dict(plan).to_dict()
    view = catalog_snapshot()
    assert _rack_lines(stored, view) == _rack_lines(plan, view)
    labels = elevation_labels()
    assert rack_elevation_svg(stored, labels, kw_number) == rack_elevation_svg(plan, labels, kw_number)
    counts = {"gpu": 32}
    then, now = fabric_locator(stored, counts), fabric_locator(plan, counts)
    for kind, count in (("node", 32), ("leaf", 8), ("spine", 4)):
        assert [then(kind, i) for i in range(count)] == [now(kind, i) for i in range(count)]
