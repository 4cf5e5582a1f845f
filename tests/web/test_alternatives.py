"""Alternatives side by side and the comparison of two drafts: what each design is, that every figure is the
validation service's, that each alternative fits the workload or says why, and that nobody sees another's drafts."""

from __future__ import annotations

import copy
import html
import re
from decimal import Decimal

import pytest
from django.conf import settings

from configurator.selectors import lead_times
from tests.web.pages import H200_CLUSTER
from tests.web.test_dutch_throughout import _leaks, _text

TRAINING_70B = {
    "schema": "design/v1",
    "name": "Training 70B",
    "workload": {"kind": "training", "model_parameters_billion": 70},
    "node_groups": [],
}


def _alternatives(kind="training", params=70, language="en", **kw):
    from configurator.recommend import RecommendParams, alternatives
    from web import selectors

    view = selectors.catalog()
    params = RecommendParams(kind=kind, params_billion=params, **kw)
    return alternatives(params, catalog=view, lead_times=lead_times(view), language=language)


def _errors(alt):
    return [f for f in alt.result.to_json()["findings"] if f["severity"] == "error"]


# --- the alternatives ----------------------------------------------------------------------------------------


def test_a_70b_training_job_gets_the_recommendation_and_up_to_three_alternatives(seeded_catalog):
    from configurator.recommend import RecommendParams, recommend
    from web import selectors

    alts = _alternatives()
    view = selectors.catalog()
    rec = recommend(RecommendParams(kind="training", params_billion=70), catalog=view, lead_times=lead_times(view))
    assert alts[0].key == "recommended" and alts[0].document == rec.document
    assert 3 <= len(alts) <= 4  # the recommended design and two or three alternatives
    keys = [a.key for a in alts]
    assert len(set(keys)) == len(keys)
    documents = [a.document for a in alts]
    assert all(documents.count(d) == 1 for d in documents)  # no design twice


def test_each_alternative_fits_the_workload_or_its_findings_say_why(seeded_catalog):
    from tests.results import validate_json

    for kind, params in (("training", 70), ("inference", 70), ("inference", 405), ("training", 405)):
        for alt in _alternatives(kind=kind, params=params):
            assert alt.document["workload"]["kind"] == kind
            assert alt.document["workload"]["model_parameters_billion"] == params
            fresh = validate_json(document=alt.document, language="en")
            assert fresh["findings"] == alt.result.to_json()["findings"]  # the service's own verdict, not a second one
            if not fresh["valid"]:
                assert all(f["message"] and f["fix"] for f in _errors(alt)), alt.key
            memory = fresh["totals"]["gpu_memory_gb"]
            needed = fresh["sizing"]["memory_needed_gb"] if fresh["sizing"] else None
            if fresh["valid"] and memory is not None and needed is not None:
                assert memory >= needed * 0.9 or any(f["severity"] == "warning" for f in fresh["findings"]), alt.key


def test_the_ethernet_variant_is_the_recommended_nodes_on_a_roce_switch(seeded_catalog):
    from web import selectors

    alts = {a.key: a for a in _alternatives(params=405)}  # six HGX B200 nodes on InfiniBand NDR
    assert "ethernet" in alts
    rec, eth = alts["recommended"].document, alts["ethernet"].document
    view = selectors.catalog()
    assert view.get(eth["fabric"]["switch"]).protocol == "ethernet"
    assert view.get(rec["fabric"]["switch"]).protocol == "infiniband"
    assert eth["node_groups"][0]["server"] == rec["node_groups"][0]["server"]
    assert eth["node_groups"][0]["count"] == rec["node_groups"][0]["count"]
    assert not _errors(alts["ethernet"])


def test_the_next_generation_is_newer_than_the_recommended_gpu(seeded_catalog):
    from configurator.recommend import GENERATIONS
    from web import selectors

    view = selectors.catalog()
    # 8B training fits a Hopper node; 70B training with its activations now needs the newest board (HGX B300),
    # which has no next generation to offer
    alts = {a.key: a for a in _alternatives(params=8)}
    assert "next_generation" in alts

    def generation(alt):
        parts = [c["part"] for c in alt.document["node_groups"][0]["components"]]
        gpu = next(p for p in parts if view.get(p).category == "gpu")
        return GENERATIONS.index(view.get(gpu).generation)

    assert generation(alts["next_generation"]) == generation(alts["recommended"]) + 1


def test_the_cheapest_alternative_costs_no_more_than_the_recommendation(seeded_catalog):
    from configurator import comparison
    from web import selectors

    view = selectors.catalog()
    columns = {c.key: c for c in comparison.alternative_columns(_alternatives(), view)}
    cheapest = columns.get("cheapest") or next(c for c in columns.values() if "cheapest" in c.also)
    assert cheapest.net_eur <= columns["recommended"].net_eur
    assert cheapest.counts["error"] == 0


def test_a_single_server_workload_has_no_ethernet_variant_and_says_no_fabric(client, make_config):
    from configurator import comparison
    from web import selectors

    alts = _alternatives(kind="inference", params=70)
    assert alts and "ethernet" not in {a.key for a in alts}
    column = comparison.alternative_columns(alts, selectors.catalog())[0]
    assert column.nodes == 1 and column.fabric is None and column.compute_gbps_per_gpu is None
    config = make_config({**TRAINING_70B, "workload": {"kind": "inference", "model_parameters_billion": 70}})
    body = client.get(f"/d/{config.token}/alternatives/").content.decode()
    assert "none: one server" in _text(body)


# --- figures from the one service ------------------------------------------------------------------------------


def test_every_figure_of_a_column_is_the_validation_result_and_the_quote_pricing(seeded_catalog):
    from configurator import comparison
    from configurator.bom import design_bill
    from configurator.services import design_validate
    from quotes import pricing
    from web import selectors

    view = selectors.catalog()
    typed = design_validate(document=H200_CLUSTER, language="en")
    col = comparison.column("draft", H200_CLUSTER, typed, view)
    result = typed.to_json()
    totals = result["totals"]
    assert (col.gpus, col.gpu_memory_gb, col.racks) == (totals["gpus"], totals["gpu_memory_gb"], totals["racks"])
    assert col.power_w == totals["cluster_power_w"]
    assert col.nvlink_gbps_per_gpu == 900  # HGX H200: NVLink 4 through NVSwitch, 900 GB/s per GPU
    assert col.compute_gbps_per_gpu == 400  # one 400 Gb/s ConnectX-7 per GPU
    assert col.fabric == "MQM9700-NS2F" and col.fabric_protocol == "infiniband"
    bill = design_bill(document=H200_CLUSTER, result=result, catalog=view)
    raw = [
        pricing.RawLine(line.section, line.part_number, line.description, line.quantity, line.unit_price_eur)
        for line in bill.lines
        if line.unit_price_eur is not None
    ]
    net = pricing.price_totals(
        pricing.price_lines(raw, quote_discount_percent=Decimal(0), line_discounts={}), vat_rate=Decimal(0)
    ).net
    assert col.net_eur == net
    assert col.counts == {
        sev: sum(1 for f in result["findings"] if f["severity"] == sev) for sev in ("error", "warning", "info")
    }


def test_an_unknown_figure_stays_unknown_on_the_page(client, make_config, seeded_catalog):
    from catalog.models import Gpu, Part
    from configurator import comparison
    from web import selectors

    Gpu.objects.filter(part__part_number="HGX-H200-8GPU").update(nvlink_gbps=None)
    Part.objects.get(part_number="HGX-H200-8GPU").save()  # a changed part: a new catalogue version
    selectors.catalog_forget()
    a, b = make_config(), make_config()
    view = selectors.catalog()
    col = comparison.draft_column(a, selectors.design_outcome(document=a.document, language="en", view=view), view)
    assert col.nvlink_gbps_per_gpu is None
    session = client.session
    session["configurator.drafts"] = [a.token, b.token]
    session.save()
    body = client.get("/compare/", {"a": a.token, "b": b.token}).content.decode()
    nvlink_row = re.search(r'<tr class="row-nvlink">.*?</tr>', body, re.S).group(0)
    assert nvlink_row.count("not known") == 2


def test_the_bandwidth_per_gpu_is_in_the_validation_totals(seeded_catalog):
    from tests.results import validate_json

    pcie = copy.deepcopy(H200_CLUSTER)
    pcie["node_groups"][0].update(count=1, server="SYS-521GE-TNRT", components=[{"part": "L40S", "quantity": 4}])
    pcie.pop("fabric", None)
    group = validate_json(document=pcie, language="en")["totals"]["groups"][0]
    assert group["nvlink_gbps_per_gpu"] == 0  # L40S: no NVLink
    assert group["compute_gbps_per_gpu"] == 0  # no compute NICs
    group = validate_json(document=H200_CLUSTER, language="en")["totals"]["groups"][0]
    assert (group["nvlink_gbps_per_gpu"], group["compute_gbps_per_gpu"]) == (900, 400)


# --- the pages -------------------------------------------------------------------------------------------------


def test_the_alternatives_page_shows_one_table_and_starting_from_one_makes_a_new_draft(client, make_config):
    from configurator.models import Configuration

    training_8b = {
        **TRAINING_70B,
        "name": "Training 8B",
        "workload": {"kind": "training", "model_parameters_billion": 8},
    }
    config = make_config(training_8b)
    response = client.get(f"/d/{config.token}/alternatives/")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count('data-key="') >= 3
    for row in ("Net price", "GPU memory", "NVLink per GPU", "Fabric per GPU", "Power", "Racks", "Findings"):
        assert row in body
    eth = next(a for a in _alternatives(params=8) if a.key == "next_generation")
    before = Configuration.objects.count()
    response = client.post(f"/d/{config.token}/alternatives/start/", {"key": "next_generation"})
    assert response.status_code == 302
    new = Configuration.objects.exclude(pk=config.pk).latest("id")
    assert Configuration.objects.count() == before + 1
    assert response["Location"].endswith(f"/d/{new.token}/platform/")
    assert new.document == eth.document and new.created_by is None and new.channel == "web"
    assert new.token in client.session["configurator.drafts"]  # the customer's own draft now
    config.refresh_from_db()
    assert config.document == training_8b  # the draft they came from is unchanged


def test_the_alternatives_page_of_a_100000_node_draft_plans_each_rack_layout_once(client, make_config, monkeypatch):
    """The page validates every design it compares; those of one size mostly share their racks (50,000 compute racks
    of two nodes each, and the management rack), and each distinct rack layout is planned once rather than once per
    validation."""
    from engines.cluster import rackplan

    planned: list[str] = []
    plan_racks = rackplan.plan_racks

    def counted(**inputs):
        planned.append(repr(inputs))
        return plan_racks(**inputs)

    monkeypatch.setattr(rackplan, "plan_racks", counted)
    doc = copy.deepcopy(TRAINING_70B)
    doc["workload"]["target_nodes"] = 100_000
    response = client.get(f"/d/{make_config(doc).token}/alternatives/")
    assert response.status_code == 200
    # the racks row counts every rack of a run: the 50,000 compute racks, and the management racks that hold the
    # central out-of-band switches of 100,000 nodes (50,150 in all)
    assert re.search(r"<td class=\"num\">50,\d{3}</td>", response.content.decode())
    # 3 layouts, each planned central, per rack and with its central switches racked: each input planned once
    assert planned and len(planned) == len(set(planned)) < 10


def test_a_sales_engineer_starting_from_an_alternative_owns_the_new_draft(staff_client, staff, make_config):
    from configurator.models import Configuration

    config = make_config(TRAINING_70B)
    staff_client.post(f"/d/{config.token}/alternatives/start/", {"key": "recommended"})
    new = Configuration.objects.latest("id")
    assert new.created_by == staff and new.assigned_to == staff and new.channel == "staff"


@pytest.mark.parametrize("key", ["", "nonsense", "more_nodes_than_ever"])
def test_starting_from_an_alternative_that_is_not_offered_names_the_field(client, make_config, key):
    from configurator.models import Configuration

    config = make_config(TRAINING_70B)
    before = Configuration.objects.count()
    response = client.post(f"/d/{config.token}/alternatives/start/", {"key": key})
    assert response.status_code == 422
    assert "key: choose one of the designs" in response.content.decode()
    assert Configuration.objects.count() == before


def test_a_draft_without_a_workload_is_told_to_give_one(client, make_config):
    doc = copy.deepcopy(H200_CLUSTER)
    doc.pop("workload", None)
    body = client.get(f"/d/{make_config(doc).token}/alternatives/").content.decode()
    assert 'id="no-workload"' in body and 'id="comparison"' not in body


def test_the_goal_step_links_to_the_alternatives_without_computing_them(client, make_config, monkeypatch):
    from configurator import recommend

    config = make_config(TRAINING_70B)
    called = []
    monkeypatch.setattr(recommend, "alternatives", lambda *a, **kw: called.append(kw) or ())
    body = client.get(f"/d/{config.token}/goal/").content.decode()
    assert f"/d/{config.token}/alternatives/" in body
    assert called == []


def test_the_alternatives_page_is_dutch_in_dutch(client, make_config):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    config = make_config(TRAINING_70B)
    text = _text(client.get(f"/d/{config.token}/alternatives/").content.decode())
    assert "Alternatieven naast elkaar" in text and "Nettoprijs" in text
    assert not _leaks(text), _leaks(text)


# --- comparing two drafts: only one's own ------------------------------------------------------------------------


def _session_drafts(client, *configs):
    session = client.session
    session["configurator.drafts"] = [c.token for c in configs]
    session.save()


def test_a_customer_compares_two_of_their_drafts_and_continues_with_either(client, make_config):
    a = make_config(name="Four H200 nodes")
    b = make_config(TRAINING_70B, name="Just a goal")
    _session_drafts(client, a, b)
    response = client.get("/compare/", {"a": a.token, "b": b.token})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Four H200 nodes" in body and "Just a goal" in body
    assert f'href="/d/{a.token}/"' in body and f'href="/d/{b.token}/"' in body
    # the draft without servers cannot be validated yet: its column says what is missing, not a number
    assert "No server has been chosen yet." in body


def test_the_compare_page_offers_only_the_users_own_drafts(client, make_config):
    mine, theirs = make_config(name="Mine"), make_config(name="Someone else's")
    _session_drafts(client, mine)
    body = client.get("/compare/").content.decode()
    assert mine.token in body and theirs.token not in body


def test_a_customer_cannot_compare_someone_elses_draft(client, make_config):
    mine, theirs = make_config(), make_config()
    _session_drafts(client, mine)
    assert client.get("/compare/", {"a": mine.token, "b": theirs.token}).status_code == 404
    assert client.get("/compare/", {"a": theirs.token, "b": mine.token}).status_code == 404
    assert client.get("/compare/", {"a": "not-a-token", "b": mine.token}).status_code == 404


def test_a_browser_without_drafts_compares_nothing(client, make_config):
    a, b = make_config(), make_config()
    assert client.get("/compare/", {"a": a.token, "b": b.token}).status_code == 404


def test_a_sales_engineer_compares_only_their_own_drafts(staff_client, staff, make_config):
    from tests.factories import StaffFactory

    other = StaffFactory(username="ingrid")
    mine = make_config(user=staff, channel="staff")
    assigned = make_config()
    assigned.assigned_to = staff
    assigned.save()
    colleague = make_config(user=other, channel="staff")
    customer = make_config()
    assert staff_client.get("/compare/", {"a": mine.token, "b": assigned.token}).status_code == 200
    for foreign in (colleague, customer):
        assert staff_client.get("/compare/", {"a": mine.token, "b": foreign.token}).status_code == 404


def test_comparing_with_one_draft_missing_names_the_field(client, make_config):
    a = make_config()
    _session_drafts(client, a)
    response = client.get("/compare/", {"a": a.token})
    assert response.status_code == 422
    assert 'id="id_b_error"' in response.content.decode() or "This field is required" in response.content.decode()


def test_the_comparison_of_two_drafts_is_dutch_in_dutch(client, make_config):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    a, b = make_config(), make_config(TRAINING_70B)
    _session_drafts(client, a, b)
    text = _text(client.get("/compare/", {"a": a.token, "b": b.token}).content.decode())
    assert "Vergelijk je ontwerpen" in text and "Ga verder met dit ontwerp" in text
    assert not _leaks(text), _leaks(text)


@pytest.mark.parametrize(("language", "gpus"), [("en", "1,024 GPUs"), ("nl", "1.024 GPU's")])
def test_the_comparison_counts_gpus_not_boards(client, make_config, language, gpus):
    """128 HGX nodes hold 1,024 GPUs on 128 boards: the GPU row says so, never "1,024 × HGX-H200-8GPU"."""
    doc = copy.deepcopy(H200_CLUSTER)
    doc["node_groups"][0]["count"] = 128
    a, b = make_config(doc), make_config()
    session = client.session
    session["configurator.drafts"] = [a.token, b.token]
    session.save()
    body = client.get("/compare/", {"a": a.token, "b": b.token}, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    row = re.sub(r"<[^>]+>", "", re.search(r'<tr class="row-gpus">.*?</tr>', body, re.S).group(0))
    assert f"{gpus} (HGX-H200-8GPU)" in html.unescape(row) and "×" not in row
