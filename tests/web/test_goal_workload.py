"""The goal step asks what the workload does (training mode, or for inference the context and concurrency the KV
cache holds) and in which precision; the design stores it and the recommendation follows it."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from configurator.models import Configuration
from tests.web.pages import url

pytestmark = pytest.mark.django_db

BLANK = {"schema": "design/v1", "name": "goal", "node_groups": []}


def _post(client, config, **data):
    return client.post(url(config, "goal"), data, HTTP_HX_REQUEST="true")


def _servers(body: str) -> str:
    return re.search(r"<dt>Servers</dt><dd><strong>([^<]+)</strong>", body).group(1)


def test_training_asks_for_the_mode_and_inference_for_context_and_concurrency(client, make_config):
    config = make_config(BLANK)
    body = _post(client, config, kind="training", params_billion="70").content.decode()
    assert 'name="mode"' in body and 'value="lora"' in body and 'name="precision"' in body
    assert 'name="context_tokens"' not in body
    # Switching to inference (the form is sent on every change) brings the KV cache fields instead.
    body = _post(client, config, kind="inference", params_billion="70", mode="lora").content.decode()
    assert 'name="context_tokens"' in body and 'name="concurrency"' in body
    assert 'name="mode"' not in body and 'name="precision"' in body


def test_the_answers_are_stored_in_the_design(client, make_config):
    config = make_config(BLANK)
    _post(
        client, config, kind="inference", params_billion="70", precision="fp8", context_tokens="32768", concurrency="16"
    )
    workload = Configuration.objects.get(pk=config.pk).document["workload"]
    assert workload["mode"] == "inference" and workload["precision"] == "fp8"
    assert (workload["context_tokens"], workload["concurrency"]) == (32768, 16)
    _post(client, config, kind="training", params_billion="70", mode="lora", precision="int4")
    workload = Configuration.objects.get(pk=config.pk).document["workload"]
    assert (workload["mode"], workload["precision"]) == ("lora", "int4")
    assert "context_tokens" not in workload  # training has no KV cache


def test_lora_is_recommended_fewer_servers_than_pretraining(client, make_config):
    config = make_config(BLANK)
    full = _post(client, config, kind="training", params_billion="405", mode="pretraining").content.decode()
    lora = _post(client, config, kind="training", params_billion="405", mode="lora").content.decode()
    assert "LoRA fine-tuning a 405B-parameter model" in lora
    assert _servers(full) != _servers(lora)
    assert int(_servers(lora).split(" ")[0]) < int(_servers(full).split(" ")[0])


def test_a_long_context_and_many_requests_grow_the_kv_cache_and_the_recommendation(client, make_config):
    config = make_config(BLANK)
    short = _post(client, config, kind="inference", params_billion="70").content.decode()
    assert "KV cache for 1 request of 8,192 tokens" in short
    long = _post(
        client, config, kind="inference", params_billion="70", context_tokens="131072", concurrency="64"
    ).content.decode()
    assert "KV cache for 64 requests of 131,072 tokens" in long
    kv = lambda body: int(re.search(r"and ([\d,]+) GB of KV cache", body).group(1).replace(",", ""))  # noqa: E731
    assert kv(long) > 100 * kv(short)
    assert _servers(long) != _servers(short)


def test_fp8_halves_the_weights_of_an_inference_workload(client, make_config):
    config = make_config(BLANK)
    bf16 = _post(client, config, kind="inference", params_billion="405").content.decode()
    fp8 = _post(client, config, kind="inference", params_billion="405", precision="fp8").content.decode()
    assert "810 GB for the weights" in bf16 and "405 GB for the weights" in fp8


def test_int4_pretraining_is_refused_at_the_field_in_both_languages(client, make_config):
    config = make_config(BLANK)
    response = _post(client, config, kind="training", params_billion="8", mode="pretraining", precision="int4")
    assert 'id="id_precision_error"' in response.content.decode()
    assert "INT4 is for inference and LoRA only" in response.content.decode()
    assert "precision" not in Configuration.objects.get(pk=config.pk).document.get("workload", {})
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    response = _post(client, config, kind="training", params_billion="8", mode="pretraining", precision="int4")
    body = response.content.decode()
    assert "INT4 is alleen voor inferentie en LoRA" in body and "Soort training" in body and "Precisie" in body


def test_the_step_shows_the_stored_answers_again(client, make_config):
    doc = {
        **BLANK,
        "workload": {"kind": "inference", "model_parameters_billion": 70, "precision": "int4", "concurrency": 8},
    }
    body = client.get(url(make_config(doc), "goal")).content.decode()
    assert re.search(r'value="int4"[^>]*checked', body) and 'value="8"' in body
