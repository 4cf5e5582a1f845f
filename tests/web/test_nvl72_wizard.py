"""The NVL72 racks in the wizard and on the alternatives page: a server choice of its own (grouped as rack-scale,
no GPU to pick, the count is racks) and an NVL72 rack beside the HGX nodes of the same GPU generation."""

import pytest
from django.conf import settings

from tests.web.pages import url

pytestmark = pytest.mark.django_db

GB300 = "SRS-GB300-NVL72"


def test_the_platform_step_offers_the_racks_as_rack_scale_choices_last(client, make_config):
    config = make_config()
    body = client.get(url(config, "platform")).content.decode()
    assert "rack-scale: one rack, 72 GPUs in one NVLink domain" in body
    # grouped after the node servers
    assert body.index('id="id_server_SRS-GB200-NVL72"') > body.index('id="id_server_SYS-822GS-NB3RT"')
    # the racks' built-in GPU sets are no choice for an HGX server
    assert 'id="id_gpu_GB300-NVL72-GPUS"' not in body and 'id="id_gpu_HGX-H200-8GPU"' in body


def test_choosing_a_rack_saves_it_complete_and_says_the_count_is_racks(client, make_config):
    config = make_config()  # an H200 cluster with GPUs, adapters, CPUs, memory and boot drives
    response = client.post(
        url(config, "platform"), {"nodes": "2", "server": GB300, "gpu": "HGX-H200-8GPU", "save": "1"}, follow=True
    )
    assert response.status_code == 200
    config.refresh_from_db()
    group = config.document["node_groups"][0]
    assert (group["count"], group["server"], group["components"]) == (2, GB300, [])
    assert "RACK_SYSTEM_COMPLETE" not in response.content.decode()
    body = client.get(url(config, "platform")).content.decode()
    assert 'id="rack-system-note"' in body and "the number above is the number of racks" in body
    assert 'name="gpu" value="HGX' not in body  # no GPU list for a rack that comes complete
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    dutch = client.get(url(config, "platform")).content.decode()
    assert "het aantal hierboven is het aantal racks" in dutch and "op rackschaal: één rack" in dutch


def test_a_blackwell_workload_gets_an_nvl72_rack_beside_the_hgx_nodes(seeded_catalog):
    from configurator.recommend import RecommendParams, alternatives
    from configurator.selectors import lead_times
    from web import selectors

    view = selectors.catalog()
    alts = alternatives(RecommendParams("inference", 1800), catalog=view, lead_times=lead_times(view))
    base = alts[0]
    base_gpu = view.get(base.document["node_groups"][0]["components"][0]["part"])
    assert base.key == "recommended" and base_gpu.generation.startswith("Blackwell")
    rack = next(a for a in alts if a.key == "rack_scale")
    group = rack.document["node_groups"][0]
    server = view.get(group["server"])
    assert server.rack_scale and group["components"] == [] and rack.errors == 0
    assert view.get(next(iter(server.accepts))).generation == base_gpu.generation  # the same GPU generation
    assert rack.result.totals.to_json()["gpus"] == 72 * group["count"]


def test_the_alternatives_page_names_the_rack_column(client, make_config):
    doc = {
        "schema": "design/v1",
        "name": "Inference 1800B",
        "workload": {"kind": "inference", "model_parameters_billion": 1800},
        "node_groups": [],
    }
    config = make_config(doc)
    body = client.get(f"/d/{config.token}/alternatives/").content.decode()
    assert 'data-key="rack_scale"' in body and "One NVLink domain per rack (NVL72)" in body


def test_the_later_steps_show_the_racks_with_their_bill_and_elevation(client, make_config):
    doc = {
        "schema": "design/v1",
        "name": "Two GB300 racks",
        "node_groups": [{"name": "nvl", "count": 2, "server": GB300, "components": []}],
        "fabric": {"switch": "Q3400-RA"},
    }
    config = make_config(doc)
    for step in ("fabric", "review"):
        response = client.get(url(config, step))
        assert response.status_code == 200, step
        body = response.content.decode()
        assert GB300 in body
    review = client.get(url(config, "review")).content.decode()
    assert "includes 18 compute trays, 72 GPUs" in review
    # The racks by height: the systems' own 48U racks, then the facility's 42U (not every rack "× 42U").
    fabric = client.get(url(config, "fabric")).content.decode()
    assert "<dd>2 × 48U, " in fabric and " × 42U</dd>" in fabric
