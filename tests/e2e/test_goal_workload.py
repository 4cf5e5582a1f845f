"""The goal step in a real browser: the workload's mode, precision and KV cache inputs appear for the kind chosen,
and the recommendation follows them as they change."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.live import settled

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
    settled(page)
    page.get_by_label(re.compile("^Context length")).fill("131072")
    page.keyboard.press("Tab")  # the form is sent on change, when the field is left
    expect(rec).to_contain_text("1 request of 131,072 tokens")
    # Typed the moment the update is on screen: the new form already listens, so this change is sent, not lost
    page.get_by_label(re.compile("^Concurrent requests")).fill("64")
    page.keyboard.press("Tab")
    expect(rec).to_contain_text("64 requests of 131,072 tokens")

    # FP8 weights
    page.get_by_label("FP8").check()
    expect(rec).to_contain_text("with FP8 weights")


VIEWPORTS = [
    pytest.param({"width": 390, "height": 844}, id="phone"),
    pytest.param({"width": 1280, "height": 900}, id="desktop"),
]


@pytest.fixture
def goal_page(live_server, catalog_ready, browser, viewport):
    """A new design's goal step in a browser of the test's viewport."""
    from configurator.services import configuration_create

    context = browser.new_context(viewport=viewport, locale="en-GB")
    config = configuration_create(document={"schema": "design/v1", "name": "goal", "node_groups": []})
    page = context.new_page()
    page.goto(f"{live_server.url}/d/{config.token}/goal/")
    yield page
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_every_figure_of_the_recommendation_and_the_cheapest_is_on_screen(goal_page, shots, viewport):
    page = goal_page
    page.get_by_label("Inference", exact=True).check()
    settled(page)
    page.get_by_label("Model size (billions of parameters)").fill("70")
    page.keyboard.press("Tab")
    cheapest = page.locator("#choice-cheapest")
    expect(cheapest).to_contain_text("less than the recommendation")
    expect(page.locator("#choice-recommended .reason")).to_contain_text("headroom")
    shots.take(page, "pair")
    values = page.locator("#recommendation .rec-parts dd")
    assert values.count() >= 8  # the recommendation's six figures and the cheapest's four
    for i in range(values.count()):
        value = values.nth(i)
        value.scroll_into_view_if_needed()
        box = value.bounding_box()
        text = value.inner_text()
        assert box and box["width"] > 0, text
        assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (text, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]  # nothing beside the page
    if viewport["width"] > 700:  # side by side on a wide screen
        rec = page.locator("#choice-recommended").bounding_box()
        assert abs(rec["y"] - cheapest.bounding_box()["y"]) < 2 and rec["x"] < cheapest.bounding_box()["x"]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_after_a_form_error_the_panel_shows_the_error_and_offers_no_design(goal_page, shots, viewport):
    page = goal_page
    page.get_by_label("Training", exact=True).check()
    page.get_by_label("Model size (billions of parameters)").fill("70")
    page.keyboard.press("Tab")
    rec = page.locator("#recommendation")
    expect(rec.get_by_role("button", name=re.compile("^Use this design"))).to_be_visible()
    settled(page)
    page.get_by_label("INT4").check()  # pre-training in INT4: refused
    error = page.locator("#rec-error")
    expect(error).to_contain_text("INT4 is for inference and LoRA only")
    expect(rec.get_by_role("button", name=re.compile("^Use this design"))).to_have_count(0)
    expect(page.locator("#choice-recommended")).to_have_count(0)
    note = page.locator("#goal-error-note")
    expect(note).to_contain_text("Your last change was not saved")
    shots.take(page, "after-error")
    box = error.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
    # Corrected, the panel offers a design again
    page.get_by_label("BF16").check()
    expect(rec.get_by_role("button", name=re.compile("^Use this design"))).to_be_visible()
    expect(error).to_have_count(0)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_with_a_deadline_each_option_shows_its_time_to_train_beside_its_price(goal_page, shots, viewport):
    page = goal_page
    page.get_by_label("Training", exact=True).check()
    settled(page)
    page.get_by_label("Full fine-tune").check()
    settled(page)
    # each answer sent (on leaving the field) and back on screen before the next is typed
    for label, value in (
        ("Model size (billions of parameters)", "70"),
        (re.compile("^Training tokens"), "20"),
        (re.compile("^Deadline"), "14"),
    ):
        page.get_by_label(label).fill(value)
        with page.expect_response(lambda r: r.request.method == "POST" and "/goal/" in r.url):
            page.keyboard.press("Tab")
        settled(page)
    choices = page.locator("#recommendation article.choice")
    expect(page.locator("#choice-recommended")).to_contain_text("meets your 14 days")
    shots.take(page, "deadline")
    assert choices.count() >= 1
    for i in range(choices.count()):
        choice = choices.nth(i)
        price = choice.locator(".rec-price dd")
        time = choice.locator(".rec-time dd")
        expect(time).to_contain_text(re.compile(r"about [\d.]+ days"))
        for value in (price, time):
            value.scroll_into_view_if_needed()
            box = value.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (value.inner_text(), box)
        # the time sits right after the price, in the same list
        assert time.bounding_box()["y"] >= price.bounding_box()["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
