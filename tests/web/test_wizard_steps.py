"""The wizard without JavaScript (plain Django test client): every step renders, submits and re-renders."""

from __future__ import annotations

import io
import zipfile

import pytest
from django.urls import reverse

from configurator.selectors import lead_times
from tests.web.pages import B200_IN_H100_SERVER, url

pytestmark = pytest.mark.django_db

STEPS = ("goal", "platform", "adapters", "fabric", "review", "quote")


def test_home_form_starts_a_draft_and_shows_the_recommendation(client, seeded_catalog):
    response = client.post(reverse("configurator:start"), {"kind": "training", "params_billion": "70", "nodes": "4"})
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200
    body = page.content.decode()
    assert "4 × SYS-821GE-TNHR" in body
    assert "8 × MCX75310AAS-NEAT" in body
    assert "MQM9700-NS2F" in body
    assert "2 × XEON-8468" in body  # CPUs, memory and boot drive per server


def test_accepting_the_recommendation_stores_it_as_the_draft_design(client, seeded_catalog):
    start = client.post(reverse("configurator:start"), {"kind": "training", "params_billion": "70", "nodes": "4"})
    response = client.post(
        start["Location"], {"kind": "training", "params_billion": "70", "nodes": "4", "action": "accept"}
    )
    assert response.status_code == 302 and response["Location"].endswith("/platform/")
    from configurator.models import Configuration

    config = Configuration.objects.get()
    group = config.document["node_groups"][0]
    assert (group["count"], group["server"]) == (4, "SYS-821GE-TNHR")
    assert {"part": "HGX-H200-8GPU", "quantity": 1} in group["components"]
    assert config.document["fabric"]["switch"] == "MQM9700-NS2F"
    assert config.valid is True
    # The complete node: the server's default CPUs, memory and boot drive are named in the accepted design, so the
    # quote lists them and the platform step shows them (catalogue DefaultPart rows of SYS-821GE-TNHR).
    from catalog.models import DefaultPart

    defaults = DefaultPart.objects.filter(server__part__part_number="SYS-821GE-TNHR").select_related("part")
    for d in defaults:
        assert {"part": d.part.part_number, "quantity": d.quantity, "role": d.role} in group["components"]
    assert len(defaults) == 3
    page = client.get(response["Location"]).content.decode()
    assert 'value="XEON-8468" selected' in page


def test_small_inference_is_recommended_on_pcie_gpus(seeded_catalog):
    from configurator.recommend import RecommendParams, recommend
    from web import selectors

    view = selectors.catalog()
    rec = recommend(RecommendParams(kind="inference", params_billion=70), catalog=view, lead_times=lead_times(view))
    assert rec is not None and not rec.gpu_is_board and rec.nodes == 1 and rec.switch is None
    assert rec.errors == 0


def test_start_blank_opens_the_platform_step_with_the_missing_server_explained(client, seeded_catalog):
    response = client.post(reverse("configurator:start"), {"blank": "1"})
    assert response["Location"].endswith("/platform/")
    body = client.get(response["Location"]).content.decode()
    assert "No server has been chosen yet." in body
    assert "Choose the number of servers, a server and its GPUs" in body


@pytest.mark.parametrize("step", STEPS)
def test_every_step_renders_for_a_complete_design(client, make_config, step):
    config = make_config()
    response = client.get(url(config, step))
    assert response.status_code == 200
    assert 'aria-current="step"' in response.content.decode()


def test_platform_step_submits_and_re_renders_with_field_errors(client, make_config):
    config = make_config()
    response = client.post(
        url(config, "platform"), {"nodes": "0", "server": "SYS-821GE-TNHR", "gpu": "HGX-H200-8GPU", "next": "1"}
    )
    assert response.status_code == 422
    body = response.content.decode()
    assert 'aria-invalid="true"' in body
    assert 'id="id_nodes_error"' in body and 'aria-describedby="id_nodes_error"' in body
    config.refresh_from_db()
    assert config.document["node_groups"][0]["count"] == 4  # nothing saved


def test_platform_submit_with_an_incompatible_board_saves_and_shows_the_error_with_its_fix(client, make_config):
    config = make_config()
    response = client.post(
        url(config, "platform"),
        {"nodes": "1", "server": "SYS-821GE-TNHR", "gpu": "HGX-B200-8GPU", "save": "1"},
        follow=True,
    )
    body = response.content.decode()
    assert "GPU_NOT_ACCEPTED" in body
    assert "SYS-821GE-TNHR does not take HGX-B200-8GPU" in body
    assert "Choose one of HGX-H100-8GPU, HGX-H200-8GPU" in body


def test_next_button_moves_to_the_next_step(client, make_config):
    config = make_config()
    response = client.post(
        url(config, "adapters"),
        {
            "compute_adapter": "MCX75310AAS-NEAT",
            "compute_quantity": "8",
            "storage_adapter": "",
            "storage_quantity": "0",
            "next": "1",
        },
    )
    assert response.status_code == 302 and response["Location"] == url(config, "fabric")


def test_adapters_step_adds_a_storage_adapter_and_draws_it_in_the_slot_map(client, make_config):
    config = make_config()
    client.post(
        url(config, "adapters"),
        {
            "compute_adapter": "MCX75310AAS-NEAT",
            "compute_quantity": "7",
            "storage_adapter": "MCX755106AS-HEAT",
            "storage_quantity": "1",
        },
    )
    config.refresh_from_db()
    comps = config.document["node_groups"][0]["components"]
    assert {"part": "MCX755106AS-HEAT", "quantity": 1, "role": "storage"} in comps
    body = client.get(url(config, "adapters")).content.decode()
    assert "<svg" in body and "MCX755106AS-HEAT (storage)" in body


def test_fabric_step_shows_the_plan_the_diagram_and_the_cables(client, make_config):
    from tests.results import validate_json

    config = make_config()
    body = client.get(url(config, "fabric")).content.decode()
    assert "Fabric plan" in body and "Bisection bandwidth" in body
    assert body.count("<svg") >= 1
    plan = validate_json(document=config.document)["fabric_plan"]
    for item in plan["bom"]:  # the switches, cables and optics of the plan
        assert item["part"] in body


def test_fabric_step_sets_rack_distances_and_removes_the_fabric(client, make_config):
    config = make_config()
    client.post(
        url(config, "fabric"),
        {"switch": "MQM9700-NS2F", "oversubscription": "2:1", "topology": "fat-tree", "node_to_leaf_m": "25"},
    )
    config.refresh_from_db()
    assert config.document["fabric"] == {
        "switch": "MQM9700-NS2F",
        "oversubscription": "2:1",
        "topology": "fat-tree",
        "rack": {"node_to_leaf_m": 25},
    }
    client.post(url(config, "fabric"), {"switch": "", "oversubscription": "1:1", "topology": "rail-optimized"})
    config.refresh_from_db()
    assert config.document["fabric"] is None


def test_review_lists_findings_by_severity_and_the_priced_bill_of_materials(client, make_config):
    from tests.web.pages import list_total

    config = make_config()
    body = client.get(url(config, "review")).content.decode()
    assert "Bill of materials" in body
    assert f"€ {list_total(config):,.2f}" in body  # the seed's list prices for the 4-node H200 cluster
    assert 'href="' + url(make_config(), "quote") in body or 'id="to-quote"' in body


def test_an_error_disables_the_quote_buttons(client, make_config):
    config = make_config(B200_IN_H100_SERVER)
    review = client.get(url(config, "review")).content.decode()
    assert (
        '<button type="button" class="btn primary" disabled aria-describedby="quote-blocked" id="to-quote">' in review
    )
    quote = client.get(url(config, "quote")).content.decode()
    assert 'id="request-quote" disabled' in quote


def test_htmx_change_saves_and_returns_only_the_step_body(client, make_config):
    config = make_config()
    response = client.post(
        url(config, "platform"),
        {"nodes": "2", "server": "SYS-821GE-TNHR", "gpu": "HGX-B200-8GPU"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="step-body"')
    assert "<html" not in body
    assert "GPU_NOT_ACCEPTED" in body
    assert 'hx-swap-oob="true"' in body  # the screen-reader status line
    config.refresh_from_db()
    assert config.document["node_groups"][0]["count"] == 2


def test_htmx_invalid_input_returns_200_with_the_errors_so_htmx_swaps_them_in(client, make_config):
    config = make_config()
    response = client.post(url(config, "goal"), {"kind": "training", "params_billion": "-3"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'id="id_params_billion_error"' in response.content.decode()


def test_unknown_token_is_404(client, seeded_catalog):
    assert client.get("/d/not-a-real-token/review/").status_code == 404


def test_each_step_runs_a_constant_number_of_queries_whatever_the_catalogue_size(
    client, make_config, bigger_catalog, django_assert_max_num_queries
):
    """With the seed catalogue plus 80 parts: one query for the draft (two on the quote step), the catalogue cached."""
    config = make_config()
    for step in STEPS:
        client.get(url(config, step))  # warm the catalogue snapshot and the recommendation
    for step in STEPS:
        with django_assert_max_num_queries(3):  # the draft, plus the quotes on the quote step
            assert client.get(url(config, step)).status_code == 200


def test_query_count_does_not_grow_with_the_catalogue(client, make_config, django_assert_num_queries, seeded_catalog):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from catalog.models import Adapter, Part
    from configurator.snapshot import clear_cache
    from web.selectors import catalog_forget

    config = make_config()

    def counts():
        out = {}
        for step in STEPS:
            client.get(url(config, step))
            with CaptureQueriesContext(connection) as ctx:
                client.get(url(config, step))
            out[step] = len(ctx.captured_queries)
        return out

    before = counts()
    for i in range(50):
        part = Part.objects.create(part_number=f"X-NIC-{i}", manufacturer="X", name="X", category="adapter")
        Adapter.objects.create(part=part, family="X", ports=1, protocol="ethernet")
    clear_cache()
    catalog_forget()
    assert counts() == before


def test_a_finding_about_a_field_is_announced_with_that_field(client, make_config):
    config = make_config()
    client.post(
        url(config, "adapters"),
        {
            "compute_adapter": "MCX75343AMS-NEAC",
            "compute_quantity": "8",
            "storage_adapter": "",
            "storage_quantity": "0",
        },
    )
    body = client.get(url(config, "adapters")).content.decode()
    import re

    select = re.search(r'<select name="compute_adapter"[^>]*>', body).group(0)
    described = re.search(r'aria-describedby="([^"]+)"', select).group(1).split()
    assert described and all(f'id="{d}"' in body for d in described)
    assert any(d.endswith("-at-field") for d in described)


def test_cabling_plan_downloads_as_csv_with_one_row_per_link(client, make_config):
    import csv
    import io

    from tests.results import validate_json

    config = make_config()
    plan = validate_json(document=config.document)["fabric_plan"]
    response = client.get(reverse("configurator:cabling_csv", args=[config.token]))
    assert response.status_code == 200 and response.streaming
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0][:7] == ["a_end", "a_port", "z_end", "z_port", "link_class", "cable_part", "length_m"]
    assert rows[0][7:] == ["a_rack", "a_u", "z_rack", "z_u", "network"]
    compute = [r for r in rows[1:] if r[-1] == "compute"]  # the other networks' rows follow
    assert all(r[7] and r[9] for r in compute)
    links = plan["node_links"] + plan["leaf_spine_links"] + plan["spine_core_links"]
    assert len(compute) == links
    assert len({(r[2], r[3]) for r in compute}) == links  # every node port appears once


def test_cabling_plan_of_a_design_without_fabric_is_404(client, make_config):
    config = make_config()
    config.document = {**config.document, "fabric": None}
    config.save()
    assert client.get(reverse("configurator:cabling_csv", args=[config.token])).status_code == 404


def test_platform_greys_out_only_gpus_the_rules_reject(client, make_config):
    # SYS-421GE-TNRT3's GPU list is partial (hardware.md §1a): cards it does not name stay selectable (the
    # engine warns), an HGX baseboard is greyed out (it needs an HGX server).
    import re

    config = make_config()
    saved = client.post(
        url(config, "platform"),
        {"nodes": "1", "server": "SYS-421GE-TNRT3", "gpu": "L40S", "gpu_quantity": "8", "save": "1"},
    )
    assert saved.status_code == 302, saved.content.decode()[:500]
    body = client.get(url(config, "platform")).content.decode()
    inputs = {m.group(1): m.group(0) for m in re.finditer(r'<input[^>]*name="gpu" value="([^"]+)"[^>]*>', body)}
    assert "disabled" not in inputs["RTX-PRO-6000-SE"]
    assert "disabled" in inputs["HGX-H200-8GPU"]


def test_a_get_never_writes_the_verdict_a_post_does(client, make_config):
    """The catalogue may change under a stored verdict. Looking at a step shows the current findings but does not
    write; the next change (a POST) stores the new verdict."""
    from configurator.models import Configuration

    config = make_config()
    Configuration.objects.filter(pk=config.pk).update(valid=False, error_count=7, warning_count=3)
    for step in ("goal", "platform", "adapters", "fabric", "review", "quote"):
        assert client.get(url(config, step)).status_code == 200
    config.refresh_from_db()
    assert (config.valid, config.error_count, config.warning_count) == (False, 7, 3)
    assert "This design has errors" not in client.get(url(config, "quote")).content.decode()  # the computed verdict

    # An htmx change of a step (here: the same platform again, so nothing to save) re-stores the verdict.
    platform = {"nodes": 4, "server": "SYS-821GE-TNHR", "gpu": "HGX-H200-8GPU", "gpu_quantity": 1}
    assert client.post(url(config, "platform"), platform, HTTP_HX_REQUEST="true").status_code == 200
    config.refresh_from_db()
    assert (config.valid, config.error_count, config.warning_count) == (True, 0, 0)


def test_step_links_are_the_step_urls(make_config):
    from web import wizard
    from web.views import step_url

    config = make_config()
    for step in wizard.STEPS:
        assert step_url(config, step.slug) == url(config, step.slug)


def test_an_htmx_change_validates_the_new_design_once(client, make_config):
    from unittest import mock

    from configurator import services

    config = make_config()
    change = {"nodes": "7", "server": "SYS-821GE-TNHR", "gpu": "HGX-H200-8GPU", "gpu_quantity": "1"}
    with mock.patch.object(services, "run_validation", wraps=services.run_validation) as engine:
        assert client.post(url(config, "platform"), change, HTTP_HX_REQUEST="true").status_code == 200
    assert engine.call_count == 1  # the save stores the verdict of the validation the page shows
    config.refresh_from_db()
    assert config.document["node_groups"][0]["count"] == 7 and config.valid is True


def test_platform_step_shows_the_complete_node_and_a_changed_cpu_is_stored(client, make_config):
    """The server's default node set is preselected (catalogue DefaultPart rows); choosing another CPU the server
    takes stores it with one per socket, and memory and boot drive become explicit lines too."""
    from catalog.models import DefaultPart

    config = make_config()
    defaults = {
        d.role: d for d in DefaultPart.objects.filter(server__part__part_number="SYS-821GE-TNHR").select_related("part")
    }
    body = client.get(url(config, "platform")).content.decode()
    assert 'name="cpu"' in body and 'name="memory"' in body and 'name="boot"' in body
    assert f'value="{defaults["cpu"].part.part_number}" selected' in body
    assert "EPYC" not in body  # an SP5 CPU does not fit the LGA4677 board
    form = {
        "nodes": 4,
        "server": "SYS-821GE-TNHR",
        "gpu": "HGX-H200-8GPU",
        "gpu_quantity": 1,
        "cpu": "XEON-8480+",
        "memory": defaults["memory"].part.part_number,
        "boot": defaults["boot"].part.part_number,
    }
    assert client.post(url(config, "platform"), form, HTTP_HX_REQUEST="true").status_code == 200
    config.refresh_from_db()
    lines = {c["part"]: (c["quantity"], c.get("role")) for c in config.document["node_groups"][0]["components"]}
    assert lines["XEON-8480+"] == (2, "cpu")
    assert lines[defaults["memory"].part.part_number] == (defaults["memory"].quantity, "memory")
    assert defaults["cpu"].part.part_number not in lines
    nl = client.get(url(config, "platform"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert 'value="XEON-8480+" selected' in nl


def test_review_offers_the_hand_over_files_of_a_valid_cabled_design(client, make_config):
    config = make_config()
    body = client.get(url(config, "review")).content.decode()
    href = reverse("configurator:export", args=[config.token, "topology.conf"])
    assert 'id="handover"' in body and href in body
    response = client.get(href)
    assert response.status_code == 200 and response.streaming
    assert b"".join(response.streaming_content).decode().startswith("# Slurm topology.conf")
    bundle = reverse("configurator:export", args=[config.token, "netbox.zip"])
    assert bundle in body
    response = client.get(bundle)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert "cables.csv" in zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content))).namelist()
    assert client.get(reverse("configurator:export", args=[config.token, "nope.zip"])).status_code == 404
    config.document = {**config.document, "fabric": None}
    config.save()
    assert 'id="handover"' not in client.get(url(config, "review")).content.decode()
    assert client.get(reverse("configurator:export", args=[config.token, "fabric.topo"])).status_code == 404
