"""deploy/kubernetes: the production overlay renders (kubectl kustomize) into what a deployment on many machines
needs: web, worker and exactly one beat, a migration Job, readiness on /healthz and liveness that asks nothing of
PostgreSQL or Redis, resources on every container, autoscalers for web and workers, documents in object storage.
(.ci/run checks every object against the Kubernetes schemas as well.)"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def objects() -> dict[tuple[str, str], dict]:
    if shutil.which("kubectl") is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but kubectl is not installed")
        pytest.skip("needs kubectl")
    rendered = subprocess.run(
        ["kubectl", "kustomize", str(ROOT / "deploy" / "kubernetes" / "overlays" / "production")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {(o["kind"], o["metadata"]["name"]): o for o in yaml.safe_load_all(rendered)}


def _container(objects, kind: str, name: str) -> dict:
    return objects[(kind, name)]["spec"]["template"]["spec"]["containers"][0]


def test_web_is_ready_on_healthz_and_alive_on_a_check_that_needs_no_database_or_redis(objects):
    web = _container(objects, "Deployment", "configurator-web")
    assert web["readinessProbe"]["httpGet"]["path"] == "/healthz"
    assert web["livenessProbe"]["httpGet"]["path"] == "/livez"
    # The kubelet asks by the pod's address: its Host must be one Django allows, or every probe is a 400.
    allowed = next(o for (kind, _), o in objects.items() if kind == "ConfigMap")["data"]["DJANGO_ALLOWED_HOSTS"]
    for probe in ("readinessProbe", "livenessProbe"):
        headers = {h["name"]: h["value"] for h in web[probe]["httpGet"]["httpHeaders"]}
        assert headers["Host"] in allowed.split(","), probe
    for name in ("configurator-worker", "configurator-beat"):
        probe = _container(objects, "Deployment", name)["livenessProbe"]
        assert "exec" in probe and "celery" not in " ".join(probe["exec"]["command"])  # no broker round trip


def test_beat_runs_once_and_migrations_run_in_a_job(objects):
    beat = objects[("Deployment", "configurator-beat")]["spec"]
    assert beat["replicas"] == 1 and beat["strategy"]["type"] == "Recreate"
    job = _container(objects, "Job", "configurator-migrate")
    assert "migrate --noinput" in job["command"][-1] and "load_catalog" in job["command"][-1]
    web = _container(objects, "Deployment", "configurator-web")
    assert "migrate" not in " ".join(web["command"])


def test_web_and_workers_scale_and_every_container_has_resources(objects):
    targets = {
        o["spec"]["scaleTargetRef"]["name"]: o["spec"]
        for (kind, _), o in objects.items()
        if kind == "HorizontalPodAutoscaler"
    }
    assert set(targets) == {"configurator-web", "configurator-worker"}
    assert all(spec["maxReplicas"] > spec["minReplicas"] >= 2 for spec in targets.values())
    for (kind, name), obj in objects.items():
        if kind in ("Deployment", "Job"):
            resources = obj["spec"]["template"]["spec"]["containers"][0]["resources"]
            assert resources["requests"]["cpu"] and resources["limits"]["memory"], name


def test_documents_go_to_object_storage_and_secrets_stay_out_of_the_repository(objects):
    settings = next(o for (kind, _), o in objects.items() if kind == "ConfigMap")["data"]
    assert settings["AWS_STORAGE_BUCKET_NAME"] and settings["DJANGO_SETTINGS_MODULE"].endswith(".production")
    assert not {"DJANGO_SECRET_KEY", "DATABASE_URL", "AWS_SECRET_ACCESS_KEY"} & set(settings)
    assert not any(kind == "Secret" for kind, _ in objects)
    for name in ("configurator-web", "configurator-worker", "configurator-beat"):
        refs = [e.get("secretRef", {}).get("name") for e in _container(objects, "Deployment", name)["envFrom"]]
        assert "configurator-secrets" in refs
