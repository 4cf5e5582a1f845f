"""The whole cluster a buyer signs: head and management nodes by cluster size, UFM past the embedded subnet
manager, and the services (support, installation, NVIDIA AI Enterprise), each declinable and priced from
settings or on request."""

from __future__ import annotations

from configurator.examples import h200_training_cluster
from tests.results import validate_json


def _doc(nodes: int, services: dict | None = None, fabric: bool = True) -> dict:
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = nodes
    if not fabric:
        doc.pop("fabric")
    if services is not None:
        doc["services"] = services
    return doc


def _parts(result, key):
    return {line["part"]: line for line in result[key]["bom"]}


def _codes(result):
    return {f["code"] for f in result["findings"]}


def test_a_small_cluster_gets_two_head_nodes_and_three_kubernetes_nodes_on_request(seeded_catalog, settings):
    settings.QUOTE_SERVICE_CONTROL_NODE_EUR = ""  # no price set: on request
    result = validate_json(document=_doc(8))
    cp = _parts(result, "control_plane")
    assert cp["HEAD-NODE-BCM"]["quantity"] == 2 and cp["MGMT-NODE-K8S"]["quantity"] == 3
    assert all(line["unit_price_eur"] is None and line["section"] == "control_plane" for line in cp.values())
    assert "CONTROL_PLANE_ADDED" in _codes(result)
    assert "UFM-ENTERPRISE-APPLIANCE" not in cp  # 8 nodes: the embedded subnet manager suffices


def test_a_superpod_sized_cluster_gets_the_superpod_control_plane(seeded_catalog):
    cp = _parts(validate_json(document=_doc(64)), "control_plane")
    assert {p: line["quantity"] for p, line in cp.items() if p.startswith(("HEAD", "MGMT"))} == {
        "HEAD-NODE-BCM": 2,
        "MGMT-NODE-K8S-ADMIN": 3,
        "MGMT-NODE-K8S-USER": 3,
        "MGMT-NODE-SLURM-LOGIN": 2,
    }


def test_past_the_embedded_subnet_manager_the_offer_carries_a_ufm_pair(seeded_catalog, settings):
    settings.QUOTE_SERVICE_UFM_APPLIANCE_EUR = ""
    result = validate_json(document=_doc(512))
    assert "FABRIC_SM_LIMIT" in _codes(result)
    ufm = _parts(result, "control_plane")["UFM-ENTERPRISE-APPLIANCE"]
    assert ufm["quantity"] == 2 and ufm["unit_price_eur"] is None
    assert "CONTROL_PLANE_UFM" in {f["code"] for f in result["control_plane"]["findings"]}


def test_what_to_do_says_how_the_servers_are_priced_as_the_bill_prices_them(seeded_catalog, settings):
    # With the settings' indicative prices the bill prices them, so the finding must not say "on request".
    settings.QUOTE_SERVICE_CONTROL_NODE_EUR = "25000"
    settings.QUOTE_SERVICE_UFM_APPLIANCE_EUR = "30000"
    result = validate_json(document=_doc(128))
    fixes = {f["code"]: f["fix"] for f in result["control_plane"]["findings"]}
    assert _parts(result, "control_plane")["HEAD-NODE-BCM"]["unit_price_eur"] is not None
    assert "indicative list price per server" in fixes["CONTROL_PLANE_ADDED"]
    assert "indicative list price per appliance" in fixes["CONTROL_PLANE_UFM"]
    assert not any("on request" in fix for fix in fixes.values())
    settings.QUOTE_SERVICE_CONTROL_NODE_EUR = settings.QUOTE_SERVICE_UFM_APPLIANCE_EUR = ""
    fixes = {f["code"]: f["fix"] for f in validate_json(document=_doc(128))["control_plane"]["findings"]}
    assert "on request" in fixes["CONTROL_PLANE_ADDED"] and "on request" in fixes["CONTROL_PLANE_UFM"]


def test_one_server_needs_no_control_plane(seeded_catalog):
    assert validate_json(document=_doc(1, fabric=False))["control_plane"]["bom"] == []


def test_services_default_to_three_years_support_installation_and_ai_enterprise(seeded_catalog, settings):
    for name in ("SUPPORT_EUR_PER_NODE_YEAR", "INSTALL_EUR_PER_RACK", "AIE_EUR_PER_GPU_YEAR"):
        setattr(settings, f"QUOTE_SERVICE_{name}", "")  # no price set: on request
    result = validate_json(document=_doc(8))
    sv = _parts(result, "services")
    assert sv["SVC-SUPPORT-NODE-YEAR"]["quantity"] == 8 * 3
    assert sv["SVC-INSTALL-RACK"]["quantity"] == result["totals"]["racks"]
    assert sv["NVAIE-GPU-YEAR"]["quantity"] == 8 * 8 * 3  # eight H200 per node, three years
    assert all(line["unit_price_eur"] is None and not line["indicative"] for line in sv.values())
    assert "SERVICES_ON_REQUEST" in {f["code"] for f in result["services"]["findings"]}


def test_each_service_can_be_declined_and_the_offer_says_so(seeded_catalog):
    result = validate_json(document=_doc(8, {"support_years": 0, "installation": False, "ai_enterprise": False}))
    assert result["services"]["bom"] == []
    (declined,) = [f for f in result["services"]["findings"] if f["code"] == "SERVICES_DECLINED"]
    assert "hardware warranty and support" in declined["message"] and "NVIDIA AI Enterprise" in declined["message"]


def test_service_prices_come_from_settings_as_indicative(seeded_catalog, settings):
    settings.QUOTE_SERVICE_SUPPORT_EUR_PER_NODE_YEAR = "1250"
    settings.QUOTE_SERVICE_INSTALL_EUR_PER_RACK = "900.50"
    settings.QUOTE_SERVICE_AIE_EUR_PER_GPU_YEAR = ""
    sv = _parts(validate_json(document=_doc(8, {"support_years": 2})), "services")
    assert sv["SVC-SUPPORT-NODE-YEAR"]["unit_price_eur"] == "1250.00" and sv["SVC-SUPPORT-NODE-YEAR"]["indicative"]
    assert sv["SVC-SUPPORT-NODE-YEAR"]["quantity"] == 16
    assert sv["SVC-INSTALL-RACK"]["unit_price_eur"] == "900.50"
    assert sv["NVAIE-GPU-YEAR"]["unit_price_eur"] is None


def test_the_lines_read_in_dutch(seeded_catalog):
    result = validate_json(document=_doc(8), language="nl")
    texts = " ".join(line["description"] for line in result["services"]["bom"] + result["control_plane"]["bom"])
    assert "Installatie" in texts and "per rack" in texts


def test_a_fresh_install_prices_every_line_it_adds_with_its_placeholders(seeded_catalog):
    """The default settings' placeholder prices (like the seed's): the control plane and the services are priced,
    so the offer of a fresh install has no line on request."""
    result = validate_json(document=_doc(8))
    lines = result["control_plane"]["bom"] + result["services"]["bom"]
    assert lines and all(line["unit_price_eur"] is not None and line["indicative"] for line in lines)
    assert _parts(result, "control_plane")["HEAD-NODE-BCM"]["unit_price_eur"] == "25000.00"
    assert "SERVICES_ON_REQUEST" not in _codes(result)
