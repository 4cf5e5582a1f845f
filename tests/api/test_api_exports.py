"""The hand-over exports' doors (issue #34): GET /api/v1/configurations/{id}/exports/{name} (only to the owner),
POST /api/v1/designs/exports/{name} and ``manage.py export_design``, all from the one output service; bad requests
get an error naming the field, never a 500."""

from __future__ import annotations

import io
import json
import zipfile

from outputs.services import FORMATS
from tests.api.test_cli import run

CONFIGS = "/api/v1/configurations/"
EXPORTS = "/api/v1/designs/exports/"


def _body(response) -> str:
    return b"".join(response.streaming_content).decode()


def _bytes(response) -> bytes:
    return b"".join(response.streaming_content)


def test_a_stored_configuration_exports_only_to_its_owner(api, other_api, design):
    created = api.post(CONFIGS, {"document": design}, format="json").json()
    url = f"{CONFIGS}{created['id']}/exports/topology.conf"
    response = api.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    assert 'filename="topology.conf"' in response["Content-Disposition"]
    assert "SwitchName=switch-01 Nodes=node-[0001-0004]" in _body(response)
    assert other_api.get(url).status_code == 404
    assert api.get(url, HTTP_ACCEPT="text/plain").status_code == 200


def test_a_design_document_exports_the_same_file(api, design):
    created = api.post(CONFIGS, {"document": design}, format="json").json()
    for name in ("topology.conf", "topology.yaml", "fabric.topo", "cabling.csv"):
        posted = api.post(f"{EXPORTS}{name}", design, format="json")
        assert posted.status_code == 200, name
        assert _body(posted) == _body(api.get(f"{CONFIGS}{created['id']}/exports/{name}")), name
    posted = api.post(f"{EXPORTS}netbox.zip", design, format="json")
    assert posted.status_code == 200 and posted["Content-Type"] == "application/zip"
    stored = api.get(f"{CONFIGS}{created['id']}/exports/netbox.zip")
    assert 'filename="netbox.zip"' in stored["Content-Disposition"]
    body = _bytes(posted)
    assert body == _bytes(stored)  # the same bundle, byte for byte
    assert "devices.csv" in zipfile.ZipFile(io.BytesIO(body)).namelist()


def test_an_unknown_export_is_404_naming_the_field(api, design):
    response = api.post(f"{EXPORTS}nope.zip", design, format="json")
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["code"] == "unknown_export" and [f["path"] for f in error["fields"]] == ["name"]
    created = api.post(CONFIGS, {"document": design}, format="json").json()
    assert api.get(f"{CONFIGS}{created['id']}/exports/nope.txt").json()["error"]["code"] == "unknown_export"


def test_a_design_with_errors_is_422_naming_its_fields(api, design):
    design["node_groups"][0]["components"][0]["part"] = "HGX-B200-8GPU"  # refused by SYS-821GE-TNHR
    response = api.post(f"{EXPORTS}topology.conf", design, format="json")
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "design_not_valid" and error["fields"]
    assert any(f["path"].startswith("node_groups[0]") for f in error["fields"])


def test_a_malformed_design_is_400_and_a_design_without_fabric_is_refused(api, design):
    bad = {**design, "node_groups": [{**design["node_groups"][0], "count": "four"}]}
    response = api.post(f"{EXPORTS}topology.conf", bad, format="json")
    assert response.status_code == 400
    assert "node_groups[0].count" in {f["path"] for f in response.json()["error"]["fields"]}
    response = api.post(f"{EXPORTS}fabric.topo", {**design, "fabric": None}, format="json")
    assert response.status_code in (409, 422)  # no fabric: an error finding (422), or no_fabric_plan (409)
    assert response.json()["error"]["code"] in ("no_fabric_plan", "design_not_valid")


def test_export_design_writes_the_file_with_validate_designs_exit_codes(seeded_catalog, design, tmp_path):
    path, out = tmp_path / "design.json", tmp_path / "topology.conf"
    path.write_text(json.dumps(design))
    assert run("export_design", str(path), "--format", "topology.conf", "--output", str(out))[0] == 0
    assert out.read_text().startswith("# Slurm topology.conf")
    code, stdout, _ = run("export_design", str(path), "--format", "fabric.topo")
    assert code == 0 and "-> HCA node-0001/mlx5_0 P1" in stdout
    bundle = tmp_path / "netbox.zip"
    assert run("export_design", str(path), "--format", "netbox.zip", "--output", str(bundle))[0] == 0
    assert "README.txt" in zipfile.ZipFile(bundle).namelist()
    code, _, err = run("export_design", str(path), "--format", "nope.zip")
    assert code == 2 and "--format" in err
    code, _, err = run("export_design", str(path), "--format", "netbox.zip", "--output", str(tmp_path / "no" / "x.zip"))
    assert code == 2 and err.startswith("--output: cannot write") and "Traceback" not in err
    design["node_groups"][0]["count"] = "four"
    code, _, err = run("export_design", "-", "--format", "topology.conf", stdin=json.dumps(design))
    assert code == 2 and "node_groups[0].count" in err
    design["node_groups"][0]["count"] = 4
    design["node_groups"][0]["components"][0]["part"] = "HGX-B200-8GPU"
    code, _, err = run("export_design", "-", "--format", "topology.conf", stdin=json.dumps(design))
    assert code == 1 and "node_groups[0]" in err


def test_every_registered_format_is_an_export():
    assert {"netbox.zip", "topology.conf", "topology.yaml", "fabric.topo", "cabling.csv"} <= set(FORMATS)
