"""The goal step in a real browser: the workload's mode, precision and KV cache inputs appear for the kind chosen,
and the recommendation follows them as they change."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def _servers(page) -> int:
    text = page.locator("#recommendation .rec-parts dd strong").first.inner_text()
    return int(text.split(" ")[0])


def test_mode_precision_and_kv_cache_inputs_follow_the_kind_and_steer_the_recommendation(
    live_server, catalog_ready, page
):
    page.goto(live_server.url)
    page.get_by_label("Training").check()
    page.get_by_label("Model size (billions of parameters)").fill("405")
    page.get_by_role("button", name="Recommend a design").click()
    rec = page.locator("#recommendation")
    expect(rec).to_contain_text("Training a 405B-parameter model in BF16")
    full = _servers(page)

    # LoRA on frozen weights: fewer servers than pre-training
    page.get_by_label("LoRA fine-tune").check()
    expect(rec).to_contain_text("LoRA fine-tuning a 405B-parameter model")
    assert _servers(page) < full

    # Inference: the KV cache inputs replace the training mode
    page.get_by_label("Inference", exact=True).check()
    expect(page.get_by_label(re.compile("^Context length"))).to_be_visible()
    expect(page.get_by_role("group", name="Training mode")).to_have_count(0)
    page.wait_for_load_state("networkidle")
    page.get_by_label(re.compile("^Context length")).fill("131072")
    page.keyboard.press("Tab")  # the form is sent on change, when the field is left
    expect(rec).to_contain_text("1 request of 131,072 tokens")
    page.wait_for_load_state("networkidle")  # no live update still in flight that would redraw the field being typed
    page.get_by_label(re.compile("^Concurrent requests")).fill("64")
    page.keyboard.press("Tab")
    expect(rec).to_contain_text("64 requests of 131,072 tokens")

    # FP8 weights
    page.get_by_label("FP8").check()
    expect(rec).to_contain_text("with FP8 weights")
