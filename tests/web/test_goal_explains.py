"""The goal step explains its proposal: the recommended design and the cheapest that fits side by side, each with
one sentence of why; it asks training for tokens and a deadline; after a form error it offers no design of the
older answers; and "Ready to quote" says what a quote request will get."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.test import override_settings

from configurator.bom import design_bill
from configurator.comparison import goal_choices
from configurator.models import Configuration
from design.model import DesignInputError
from engines.intake.parse import parse_design
from messages.choices import choice_reason
from tests.web.pages import H200_CLUSTER, PRICED, WITH_WARNING, url
from web import selectors

pytestmark = pytest.mark.django_db

BLANK = {"schema": "design/v1", "name": "goal", "node_groups": []}


def _post(client, config, **data):
    return client.post(url(config, "goal"), data, HTTP_HX_REQUEST="true")


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


def _article(body: str, key: str) -> str:
    m = re.search(rf'<article class="choice" id="choice-{key}".*?</article>', body, re.S)
    assert m, f"no {key} design on the page"
    return _text(m.group(0))


def _bill_total(document):
    view = selectors.catalog()
    from tests.results import validate_json

    return design_bill(document=document, result=validate_json(document=document), catalog=view).total


# --- the pair and its reasons ----------------------------------------------------------------------------------


def test_70b_inference_shows_the_recommendation_and_the_cheapest_that_fits_each_with_its_reason(client, make_config):
    config = make_config(BLANK)
    body = _post(client, config, kind="inference", params_billion="70").content.decode()
    rec, cheap = _article(body, "recommended"), _article(body, "cheapest")
    choices = goal_choices(Configuration.objects.get(pk=config.pk).document, selectors.catalog(), "en")
    assert len(choices) == 2
    rec_total, cheap_total = (_bill_total(c.document) for c in choices)
    assert cheap_total < rec_total
    assert f"€ {rec_total:,.2f}" in rec and f"€ {cheap_total:,.2f}" in cheap
    assert f"{choices[1].column.nodes} × {choices[1].column.server}" in cheap
    # One sentence each, from the designs' own figures: memory headroom, how the model is split, the contrast
    for text in (rec, cheap):
        assert re.search(r"GPUs hold [\d,]+ GB of usable memory for the [\d,]+ GB needed \(\d+% headroom\)", text)
        assert "over PCIe, without NVLink" in text
    assert f"it costs € {rec_total - cheap_total:,.0f} less than the recommendation." in cheap
    assert "fewer warnings than the cheapest design" in rec  # why the dearer one is recommended
    assert "Use the cheapest design" in cheap


def test_the_cheapest_design_can_be_taken_instead(client, make_config):
    config = make_config(BLANK)
    choices = goal_choices({**BLANK, "workload": {"kind": "inference", "model_parameters_billion": 70}},
                           selectors.catalog(), "en")  # fmt: skip
    response = _post(client, config, kind="inference", params_billion="70", action="accept_cheapest")
    assert response.status_code == 302
    group = Configuration.objects.get(pk=config.pk).document["node_groups"][0]
    assert group == choices[1].document["node_groups"][0]


def test_training_on_an_hgx_board_names_the_nvlink_domain_of_its_tensor_parallelism(client, make_config):
    config = make_config(BLANK)
    body = _post(client, config, kind="training", params_billion="70").content.decode()
    rec = _article(body, "recommended")
    gpu = selectors.catalog().get(re.search(r"1 × (HGX-\S+)", rec).group(1))
    servers = int(re.search(r"Servers (\d+) ×", rec).group(1))
    # One server is one NVLink domain; across servers each server's domain holds the tensor-parallel group.
    domain = "one NVLink domain" if servers == 1 else "each server's NVLink domain"
    assert f"tensor parallelism stays inside {domain} of {gpu.gpu_count} GPUs" in rec


def test_a_design_across_servers_says_the_fabric_joins_them(client, make_config):
    config = make_config(BLANK)
    rec = _article(_post(client, config, kind="training", params_billion="405").content.decode(), "recommended")
    nodes = int(re.search(r"Servers (\d+) ×", rec).group(1))
    assert nodes > 1 and f"the fabric joins the {nodes} servers" in rec


def test_inference_with_more_gpus_than_it_needs_serves_replicas(client, make_config):
    config = make_config(BLANK)
    body = _post(client, config, kind="inference", params_billion="8", gpus="4").content.decode()
    assert "its 4 GPUs serve 4 copies of the model side by side" in _article(body, "recommended")


def test_one_design_when_the_recommendation_is_also_the_cheapest(client, make_config):
    config = make_config(BLANK)
    body = _post(client, config, kind="inference", params_billion="8").content.decode()
    assert 'id="choice-cheapest"' not in body
    assert "headroom" in _article(body, "recommended")


def test_time_to_train_is_said_only_when_the_result_estimates_it():
    sizing = {"kind": "training", "memory_needed_gb": 1260, "usable_gb_per_gpu": 162, "min_gpus": 8}
    plain = choice_reason(key="recommended", sizing=sizing, nvlink_domain=8, total_gpus=8)
    assert "training takes" not in plain and plain.endswith(".") and plain.count(".") == 1
    timed = {**sizing, "training_days": 12.5}
    assert "training takes about 12.5 days" in choice_reason(
        key="recommended", sizing=timed, nvlink_domain=8, total_gpus=8
    )


def test_replica_throughput_is_said_only_when_the_result_estimates_it_and_the_design_holds_it():
    sizing = {"kind": "inference", "memory_needed_gb": 113, "usable_gb_per_gpu": 72, "min_gpus": 2, "concurrency": 120}
    plain = choice_reason(key="recommended", sizing=sizing, nvlink_domain=8, total_gpus=8)
    assert "tokens per second" not in plain
    served = {**sizing, "gpus_needed": 6, "tokens_per_second": 2214}
    said = choice_reason(key="recommended", sizing=served, nvlink_domain=8, total_gpus=8)
    assert "6 of its GPUs serve the 120 concurrent requests at about 2,210 tokens per second" in said
    # a design with fewer GPUs than the replicas need does not deliver that rate: not said
    assert "tokens per second" not in choice_reason(key="recommended", sizing=served, nvlink_domain=8, total_gpus=4)


# --- replicas for the concurrency -------------------------------------------------------------------------------

SERVED = {"kind": "inference", "params_billion": "70", "precision": "fp8", "context_tokens": "5000"}


@pytest.fixture
def h100_boards_only(seeded_catalog):
    """The seed catalogue with the HGX H100 as the one GPU on sale (every other GPU end of life): the GPU NVIDIA's
    serving benchmark measured, so the goal step proposes it."""
    from catalog.models import Part
    from configurator.snapshot import clear_cache

    for part in Part.objects.filter(category="gpu").exclude(part_number="HGX-H100-8GPU"):
        part.lifecycle = "eol"
        part.save()  # each change gives a new catalogue version: no proposal of the full catalogue is reused
    clear_cache()
    selectors.catalog_forget()


def _codes(document):
    from tests.results import validate_json

    return {f["code"] for f in validate_json(document=document)["findings"]}


def test_the_benchmarked_h100_gets_the_servers_its_replicas_need_for_the_concurrency(
    client, make_config, h100_boards_only
):
    config = make_config(BLANK)
    body = _post(client, config, **SERVED, concurrency="300").content.decode()
    choices = goal_choices(Configuration.objects.get(pk=config.pk).document, selectors.catalog(), "en")
    assert [c.column.gpu for c in choices] == ["HGX-H100-8GPU", "HGX-H100-8GPU"]  # the recommended and the cheapest
    # 300 requests / 50 per replica (the last level under a second) = 6 replicas of 2 GPUs = 12 GPUs: 2 nodes of 8
    # (the memory alone fits one), each replica at 50 requests: 6 x 814.37 tokens/s
    said = (
        "its 2 servers are sized for the concurrency, not only the memory: 6 replicas of 2 GPUs serve the 300"
        " concurrent requests at about 4,890 tokens per second (an estimate from NVIDIA's benchmark)"
    )
    for choice, key in zip(choices, ("recommended", "cheapest"), strict=True):
        assert (choice.column.nodes, choice.column.gpus) == (2, 16)
        codes = _codes(choice.document)
        assert "WORKLOAD_REPLICAS_SHORT" not in codes and "WORKLOAD_REPLICAS" in codes
        # replicas exchange nothing: no compute fabric, no compute NICs
        assert "fabric" not in choice.document and "FABRIC_NOT_NEEDED_REPLICAS" in codes
        assert not [c for c in choice.document["node_groups"][0]["components"] if c.get("role") == "compute"]
        assert said in _article(body, key)
        assert "copies of the model side by side" not in _article(body, key)  # the replicas are the benchmark's
    dutch = client.post(
        url(config, "goal"), {**SERVED, "concurrency": "300"}, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="nl"
    ).content.decode()
    assert (
        "de 2 servers zijn berekend op de gelijktijdigheid, niet alleen op het geheugen: 6 replica's van 2 GPU's"
        " bedienen de 300 gelijktijdige verzoeken met ongeveer 4.890 tokens per seconde (een schatting uit NVIDIA's"
        " benchmark)"
    ) in _article(dutch, "recommended")


def test_a_concurrency_one_node_serves_keeps_one_node(client, make_config, h100_boards_only):
    config = make_config(BLANK)
    body = _post(client, config, **SERVED, concurrency="50").content.decode()
    choices = goal_choices(Configuration.objects.get(pk=config.pk).document, selectors.catalog(), "en")
    assert [(c.column.gpu, c.column.nodes) for c in choices] == [("HGX-H100-8GPU", 1)] * 2
    assert "WORKLOAD_REPLICAS_SHORT" not in _codes(choices[0].document)
    rec = _article(body, "recommended")
    assert "2 of its GPUs serve the 50 concurrent requests at about 810 tokens per second" in rec
    assert "sized for the concurrency" not in rec


def test_the_concurrency_sizes_nothing_on_a_gpu_without_a_benchmark(seeded_catalog, monkeypatch):
    import configurator.candidates as recommender
    from configurator.recommend import RecommendParams, recommend
    from configurator.selectors import lead_times

    view = selectors.catalog()
    goal = RecommendParams("inference", 70, precision="fp8", context_tokens=5000, concurrency=300)
    args = {"params": goal, "catalog": view, "lead_times": lead_times(view)}
    # The full catalogue proposes one HGX H200 node: no sourced throughput for the H200, the memory sizes it
    rec = recommend(**args)
    assert (rec.gpu, rec.nodes) == ("HGX-H200-8GPU", 1) and rec.sizing.tokens_per_second is None

    def shape(pool):
        return [(c.server.part_number, c.gpu.part_number, c.gpu_quantity, c.nodes, c.nic, c.switch) for c in pool]

    with_benchmark = recommender.candidates(**args)
    monkeypatch.setattr(recommender, "serving_point", lambda *a, **k: None)
    memory_only = recommender.candidates(**args)
    # every GPU but the benchmarked one is proposed as the memory alone sizes it
    assert [s for s in shape(with_benchmark) if s[1] != "HGX-H100-8GPU"] == [
        s for s in shape(memory_only) if s[1] != "HGX-H100-8GPU"
    ]
    # the benchmarked board holds the 12 GPUs of the 6 replicas: 2 nodes, where the memory alone asks one
    assert {s[3] for s in shape(with_benchmark) if s[1] == "HGX-H100-8GPU"} == {2}
    assert {s[3] for s in shape(memory_only) if s[1] == "HGX-H100-8GPU"} == {1}
    # in BF16 the benchmark does not apply: the H100 too is sized by its memory alone
    monkeypatch.undo()
    bf16 = {**args, "params": dataclasses.replace(goal, precision="bf16")}
    assert shape(recommender.candidates(**bf16)) == shape(_memory_only(monkeypatch, recommender, bf16))


def _memory_only(monkeypatch, recommender, args):
    monkeypatch.setattr(recommender, "serving_point", lambda *a, **k: None)
    try:
        return recommender.candidates(**args)
    finally:
        monkeypatch.undo()


def test_the_reasons_are_dutch_for_a_dutch_visitor(client, make_config):
    config = make_config(BLANK)
    body = client.post(
        url(config, "goal"), {"kind": "inference", "params_billion": "70"}, HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="nl",
    ).content.decode()  # fmt: skip
    cheap = _article(body, "cheapest")
    assert "bruikbaar geheugen" in cheap and "minder dan de aanbeveling" in cheap


# --- tokens and deadline ---------------------------------------------------------------------------------------


def test_training_asks_for_tokens_and_a_deadline_and_stores_them(client, make_config):
    config = make_config(BLANK)
    body = _post(client, config, kind="training", params_billion="70").content.decode()
    assert 'name="training_tokens_billion"' in body and 'name="target_days"' in body
    assert "The tokens the model is trained on" in body and "The days the training run should take" in body
    inference = _post(client, config, kind="inference", params_billion="70").content.decode()
    assert 'name="training_tokens_billion"' not in inference and 'name="target_days"' not in inference
    _post(client, config, kind="training", params_billion="70", training_tokens_billion="2000", target_days="30")
    workload = Configuration.objects.get(pk=config.pk).document["workload"]
    assert (workload["training_tokens_billion"], workload["target_days"]) == (2000, 30)
    _post(client, config, kind="inference", params_billion="70", training_tokens_billion="2000", target_days="30")
    workload = Configuration.objects.get(pk=config.pk).document["workload"]
    assert "training_tokens_billion" not in workload and "target_days" not in workload  # training only


@pytest.mark.parametrize(
    "field,value",
    [
        ("training_tokens_billion", "0"),
        ("training_tokens_billion", "1000001"),
        ("target_days", "-1"),
        ("target_days", "3651"),
    ],
)
def test_tokens_and_days_out_of_bounds_are_refused_at_the_field(client, make_config, field, value):
    config = make_config(BLANK)
    response = client.post(url(config, "goal"), {"kind": "training", "params_billion": "70", field: value})
    assert response.status_code == 422  # without htmx; a live update gets the same body with 200, so htmx swaps it
    assert re.search(rf'id="id_{field}_error"', response.content.decode())
    assert "workload" not in Configuration.objects.get(pk=config.pk).document


@pytest.mark.parametrize(
    "workload,path,message",
    [
        ({"kind": "inference", "training_tokens_billion": 10}, "workload.training_tokens_billion", "training only"),
        ({"kind": "inference", "target_days": 10}, "workload.target_days", "applies to training only"),
        ({"kind": "training", "training_tokens_billion": 0}, "workload.training_tokens_billion", "above 0"),
        ({"kind": "training", "training_tokens_billion": 1_000_001}, "workload.training_tokens_billion", "1,000,000"),
        ({"kind": "training", "target_days": 3651}, "workload.target_days", "must be at most 3,650"),
        ({"kind": "training", "target_days": "ten"}, "workload.target_days", "must be a number, not a string"),
    ],
)
def test_the_design_contract_bounds_tokens_and_days(workload, path, message):
    doc = {**BLANK, "workload": {"model_parameters_billion": 70, **workload}}
    with pytest.raises(DesignInputError) as caught:
        parse_design(doc)
    assert message in caught.value.errors[path]


def test_the_design_contract_reads_tokens_and_days():
    doc = {
        **BLANK,
        "node_groups": [{"name": "gpu", "count": 1, "server": "SYS-821GE-TNHR", "components": []}],
        "workload": {"kind": "training", "model_parameters_billion": 70, "training_tokens_billion": 2000,
                     "target_days": 30},
    }  # fmt: skip
    workload = parse_design(doc).workload
    assert (workload.training_tokens_billion, workload.target_days) == (2000.0, 30.0)


# --- the panel after a form error ------------------------------------------------------------------------------


def test_after_a_form_error_the_panel_shows_the_error_and_no_design_of_the_older_answers(client, make_config):
    config = make_config(BLANK)
    _post(client, config, kind="training", params_billion="70")  # a recommendation is on offer
    response = _post(client, config, kind="training", params_billion="70", mode="pretraining", precision="int4")
    body = response.content.decode()
    section = re.search(r'<section class="recommendation".*?</section>', body, re.S).group(0)
    assert "INT4 is for inference and LoRA only" in _text(section)
    assert 'id="choice-recommended"' not in section and 'value="accept"' not in section
    assert 'id="goal-error-note"' in body  # the side panel says the change was not saved


# --- what a quote request will get -----------------------------------------------------------------------------


def _verdict(body: str, kind: str = "ok") -> str:
    return _text(re.search(rf'<p class="verdict {kind}" id="quote-route">(.*?)</p>', body, re.S).group(1))


def test_ready_to_quote_says_a_request_is_issued_at_once_under_the_limit(client, make_config):
    with override_settings(QUOTE_INSTANT_LIMIT_EUR=10**9):
        body = client.get(url(make_config(PRICED), "review")).content.decode()
    assert _verdict(body) == "Ready to quote: a request is issued at once as an indicative quote."
    assert "Ready to quote: issued at once." in body  # the compact summary on a phone


def test_a_large_request_is_not_ready_but_reviewed_first(client, make_config):
    with override_settings(QUOTE_INSTANT_LIMIT_EUR=100_000):
        body = client.get(url(make_config(PRICED), "review")).content.decode()
    assert _verdict(body, "warn") == "You can request a quote: above € 100,000 a sales engineer reviews it first."
    assert "Reviewed first (above € 100,000)." in body and "Ready to quote" not in body


def test_a_design_with_warnings_is_not_ready_but_reviewed_first(client, make_config):
    with override_settings(QUOTE_INSTANT_LIMIT_EUR=10**9):
        body = client.get(url(make_config(WITH_WARNING), "review")).content.decode()
    assert re.fullmatch(
        r"You can request a quote: a sales engineer reviews it first because of its \d+ warnings?\.",
        _verdict(body, "warn"),
    )
    assert "Reviewed first (warnings)." in body and "Ready to quote" not in body


def test_a_design_with_lines_on_request_is_not_ready_but_priced_first(client, make_config):
    # no price set for the control plane's servers (a design of its own: a validation is kept per design)
    doc = {**H200_CLUSTER, "name": "control plane on request"}
    with override_settings(QUOTE_INSTANT_LIMIT_EUR=10**9, QUOTE_SERVICE_CONTROL_NODE_EUR=""):
        body = client.get(url(make_config(doc), "review")).content.decode()
    assert _verdict(body, "warn") == "You can request a quote: a sales engineer prices its 2 lines on request first."
    assert "Reviewed first (lines on request)." in body and "Ready to quote" not in body
    assert "at least €" in body[body.index('id="compact-summary"') :][:300]  # the sticky price says "at least"


def test_a_sales_engineer_reads_ready_only_when_no_warning_waits(staff_client, make_config):
    body = staff_client.get(url(make_config(WITH_WARNING), "review")).content.decode()
    assert re.fullmatch(r"Not ready to issue: accept \d+ warnings? with a reason first\.", _verdict(body, "warn"))
    assert "Ready to quote" not in body and "Klaar" not in body
    body = staff_client.get(url(make_config(PRICED), "review")).content.decode()
    assert _verdict(body) == "Ready to quote: nothing blocks issuing."
    dutch = staff_client.get(url(make_config(WITH_WARNING), "review"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Nog niet klaar om uit te brengen" in dutch and "Klaar voor een offerte" not in dutch
