"""The OpenAPI schema and the Swagger UI: valid without warnings, every error described, served locally."""

from __future__ import annotations

import io

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient


def test_spectacular_validates_without_warnings(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target), stdout=out, stderr=err)
    assert "Warning" not in err.getvalue() + out.getvalue()
    assert "error" not in err.getvalue().lower()
    assert yaml.safe_load(target.read_text())["openapi"].startswith("3.")


@pytest.fixture(scope="module")
def schema():
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


CONTRACT_PATHS = [
    "/api/v1/catalog/parts/",
    "/api/v1/catalog/parts/{part_number}/",
    "/api/v1/catalog/parts/{part_number}/servers/",
    "/api/v1/designs/validate/",
    "/api/v1/fabric-plans/",
    "/api/v1/configurations/",
    "/api/v1/configurations/{id}/",
    "/api/v1/quotes/",
    "/api/v1/quotes/{id}/",
    "/api/v1/quotes/{id}/document.pdf",
    "/api/v1/quotes/{id}/bom.xlsx",
    "/api/v1/quotes/{id}/revise/",
    "/api/v1/quotes/{id}/approve/",
    "/api/v1/webhooks/",
    "/api/v1/webhooks/{id}/",
]


def test_every_contract_path_is_documented(schema):
    assert set(CONTRACT_PATHS) <= set(schema["paths"])


def test_every_operation_describes_its_errors_and_requires_the_bearer_token(schema):
    assert schema["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            assert {"401", "429"} <= codes, (method, path)
            assert operation["security"] == [{"bearerAuth": []}], (method, path)
            if "{" in path:
                assert "404" in codes, (method, path)
            if method in {"post", "put", "patch"}:
                assert "400" in codes or "403" in codes, (method, path)
            for code in codes - {"200", "201", "202", "204"}:
                ref = operation["responses"][code]["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/Error"), (method, path, code)


def test_creating_posts_document_the_idempotency_key_and_422(schema):
    for path in ["/api/v1/configurations/", "/api/v1/quotes/", "/api/v1/quotes/{id}/revise/", "/api/v1/webhooks/"]:
        operation = schema["paths"][path]["post"]
        assert "Idempotency-Key" in {p["name"] for p in operation.get("parameters", [])}, path
        assert "422" in operation["responses"], path


def test_schema_and_docs_are_public_and_local(db):
    http = APIClient()
    schema = http.get("/api/schema/")
    assert schema.status_code == 200
    docs = http.get("/api/docs/")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "swagger-ui" in html
    assert "cdn" not in html.lower() and "unpkg" not in html.lower() and "jsdelivr" not in html.lower()
    assert "/static/drf_spectacular_sidecar/" in html


def test_unknown_api_url_is_a_json_404(api):
    response = api.get("/api/v1/nothing-here/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_server_refuses_what_the_schema_forbids(api):
    """Found by schemathesis: each of these used to be answered 200/201 although the schema forbids it."""
    assert api.get("/api/v1/catalog/parts/", {"page_size": "null"}).status_code == 400
    assert api.get("/api/v1/catalog/parts/", {"page": ""}).status_code == 400
    assert api.get("/api/v1/configurations/", {"valid": "null"}).status_code == 400
    assert api.get("/api/v1/quotes/", {"status": ""}).status_code == 400
    refused = api.get("/api/v1/catalog/parts/", {"lang": "AAA"})
    assert refused.status_code == 400 and refused.json()["error"]["fields"][0]["path"] == "lang"
    unknown = api.get("/api/v1/catalog/parts/", {"colour": "red"})
    assert unknown.status_code == 400 and unknown.json()["error"]["fields"][0]["path"] == "colour"
    import socket
    from unittest import mock

    public = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", 443))]
    with mock.patch("socket.getaddrinfo", return_value=public):
        hook = api.post("/api/v1/webhooks/", {"url": "https://crm.example.com/h", "description": 5}, format="json")
    assert hook.status_code == 400 and [f["path"] for f in hook.json()["error"]["fields"]] == ["description"]
    plan = {"nodes": 16, "rails": 8, "switch": "MQM9700-NS2F", "topology": {}}
    assert api.post("/api/v1/fabric-plans/", plan, format="json").status_code == 400


def test_the_schema_states_what_the_server_enforces(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    components = schema["components"]["schemas"]
    specs = components["PartSpecs"]
    assert specs["discriminator"]["propertyName"] == "kind"
    assert specs["discriminator"]["mapping"]["gpu"] == "#/components/schemas/GpuSpecs"
    assert "kind" in components["GpuSpecs"]["required"]
    assert components["DesignRequest"]["properties"]["node_groups"]["minItems"] == 1
    assert components["WebhookRequest"]["properties"]["events"]["minItems"] == 1
    distance = components["RackRequest"]["properties"]["in_rack_m"]
    assert distance["minimum"] == 0 and distance["exclusiveMinimum"] is True
    assert components["QuoteRequestRequest"]["oneOf"] == [{"required": ["configuration"]}, {"required": ["design"]}]
    assert components["CustomerRequest"]["properties"]["name"]["pattern"] == "^[^\\u0000]*$"
    create = schema["paths"]["/api/v1/configurations/"]["post"]
    key = next(p for p in create["parameters"] if p["name"] == "Idempotency-Key")
    assert key["schema"]["pattern"] == "^[!-~]{1,255}$"
    listing = schema["paths"]["/api/v1/catalog/parts/"]["get"]
    page_size = next(p for p in listing["parameters"] if p["name"] == "page_size")
    assert page_size["schema"]["minimum"] == 1 and page_size["schema"]["maximum"] == 200
