"""The recommendation door: a workload and optional limits in, the goal step's ranking out; 400 with field paths."""

from __future__ import annotations

import pytest

RECOMMEND = "/api/v1/designs/recommend/"
FINETUNE_70B = {
    "kind": "training",
    "mode": "full-finetune",
    "model_parameters_billion": 70,
    "training_tokens_billion": 20,
    "target_days": 14,
}


def test_the_ranked_designs_meet_the_deadline_first_each_with_its_document_price_and_time(api):
    response = api.post(RECOMMEND, {"workload": FINETUNE_70B}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["goal"] == "deadline" and body["met"] is True
    designs = body["designs"]
    assert [d["rank"] for d in designs] == list(range(1, len(designs) + 1))
    first = designs[0]
    assert first["key"] == "recommended" and first["meets_goal"] is True and first["training_days"] <= 14
    # the document is a design the validation door takes, and says the same time and price
    checked = api.post("/api/v1/designs/validate/", first["document"], format="json").json()
    assert checked["sizing"]["training_days"] == first["training_days"]
    assert checked["totals"]["list_price_eur"] == first["list_price_eur"]
    assert checked["sizing"]["deadline_nodes"] == first["deadline_nodes"]
    meets = [d["meets_goal"] for d in designs]
    assert meets == sorted(meets, key=lambda m: {True: 0, False: 1, None: 2}[m])


def test_the_door_answers_the_goal_steps_ranking(api, seeded_catalog):
    from configurator.comparison import goal_choices
    from web import selectors

    body = api.post(RECOMMEND, {"workload": FINETUNE_70B}, format="json").json()
    document = {"schema": "design/v1", "workload": dict(FINETUNE_70B), "node_groups": []}
    choices = goal_choices(document, selectors.catalog(), "en")
    assert [d["document"] for d in body["designs"]] == [c.document for c in choices]


def test_limits_keep_the_gpu_family_and_node_count_and_say_when_nothing_meets(api):
    limits = {"gpu_families": ["B200"], "max_nodes": 1}
    body = api.post(RECOMMEND, {"workload": FINETUNE_70B, "limits": limits}, format="json").json()
    assert body["designs"], body
    for d in body["designs"]:
        (group,) = d["document"]["node_groups"]
        assert group["count"] == 1
        assert group["components"][0]["part"] == "HGX-B200-8GPU"
        assert d["meets_goal"] is False
    assert body["met"] is False
    # one B200 server takes about 24 days; the answer says so and names the size that would meet 14
    nodes = body["designs"][0]["deadline_nodes"]
    assert nodes >= 2
    assert body["message"].startswith("Nothing in our catalogue meets 14 days as asked.")
    assert f"{nodes} × SYS-822GS-NBRT" in body["message"]


def test_a_budget_keeps_the_list_price_within_it(api):
    budget = 500_000
    body = api.post(RECOMMEND, {"workload": FINETUNE_70B, "limits": {"budget_eur": budget}}, format="json").json()
    assert body["designs"]
    assert all(float(d["list_price_eur"]) <= budget for d in body["designs"])
    tiny = api.post(RECOMMEND, {"workload": FINETUNE_70B, "limits": {"budget_eur": 1}}, format="json").json()
    assert tiny["designs"] == [] and tiny["met"] is False
    assert tiny["message"] == "Nothing in our catalogue runs this workload within the limits given."


def test_the_answer_is_dutch_in_dutch(api):
    limits = {"gpu_families": ["B200"], "max_nodes": 1}
    body = api.post(RECOMMEND + "?lang=nl", {"workload": FINETUNE_70B, "limits": limits}, format="json").json()
    assert body["message"].startswith("Niets in onze catalogus haalt 14 dagen zoals gevraagd.")


@pytest.mark.parametrize(
    ("request_body", "path", "words"),
    [
        ([], "(body)", "must be a JSON object"),
        ({}, "workload", "is required"),
        ({"workload": {"kind": "training"}}, "workload.model_parameters_billion", "is required"),
        ({"workload": {**FINETUNE_70B, "kind": "inference"}}, "workload.target_days", "training only"),
        ({"workload": FINETUNE_70B, "limits": {"gpu_families": "H100"}}, "limits.gpu_families", "list"),
        ({"workload": FINETUNE_70B, "limits": {"gpu_families": ["Z9"]}}, "limits.gpu_families[0]", "'Z9'"),
        ({"workload": FINETUNE_70B, "limits": {"budget_eur": -5}}, "limits.budget_eur", "positive"),
        ({"workload": FINETUNE_70B, "limits": {"max_nodes": 0}}, "limits.max_nodes", "at least 1"),
        ({"workload": FINETUNE_70B, "limits": {"racks": 2}}, "limits.racks", "unknown field"),
        ({"workload": FINETUNE_70B, "colour": "red"}, "colour", "unknown field"),
    ],
)
def test_a_bad_request_is_refused_naming_the_field(api, request_body, path, words):
    response = api.post(RECOMMEND, request_body, format="json")
    assert response.status_code == 400
    fields = {f["path"]: f["message"] for f in response.json()["error"]["fields"]}
    assert path in fields and words in fields[path], fields


def test_the_schema_describes_the_door(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/designs/recommend/"]["post"]
    assert operation["operationId"] == "designs_recommend"
    assert set(operation["responses"]) >= {"200", "400", "415"}
    limits = schema["components"]["schemas"]["RecommendLimitsRequest"]["properties"]
    assert set(limits) == {"gpu_families", "budget_eur", "max_nodes"}
    design = schema["components"]["schemas"]["RecommendedDesign"]["properties"]
    assert {"document", "list_price_eur", "training_days", "tokens_per_second", "meets_goal"} <= set(design)


def test_a_deadline_beyond_any_design_says_no_size_up_to_the_limit_meets_it(api):
    from design.contract import MAX_NODES

    workload = {
        "kind": "training",
        "model_parameters_billion": 405,
        "training_tokens_billion": 1_000_000,
        "target_days": 0.5,
    }
    body = api.post(RECOMMEND, {"workload": workload}, format="json").json()
    assert body["met"] is False and body["designs"]
    first = body["designs"][0]
    assert first["meets_goal"] is False and first["deadline_nodes"] > MAX_NODES
    assert first["document"]["node_groups"][0]["count"] <= MAX_NODES  # never a design the contract refuses
    assert f"not even {MAX_NODES:,} servers, the most one design may have, would meet it" in body["message"]
