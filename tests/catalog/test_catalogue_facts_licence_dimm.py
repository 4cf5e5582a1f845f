"""Catalogue facts that were wrong, each from its source: the H100 NVL and H200 NVL come with five years of NVIDIA AI
Enterprise (NV-H100PCIE-PB, NV-AIE-RA, NVAIE-BUNDLE), so the offer bills only the years beyond them; the Samsung
96 GB RDIMM is a two-rank module (RSW-96), not 3DS."""

from __future__ import annotations

import pytest

from catalog.models import Part
from tests.results import validate_json

pytestmark = pytest.mark.django_db


def _pcie_node(card: str, services: dict | None = None) -> dict:
    doc = {
        "schema": "design/v1",
        "name": "cards",
        "node_groups": [
            {"name": "gpu", "count": 2, "server": "SYS-521GE-TNRT", "components": [{"part": card, "quantity": 4}]}
        ],
    }
    if services is not None:
        doc["services"] = services
    return doc


def _aie(result: dict) -> int:
    return sum(line["quantity"] for line in result["bom"] if line["part"] == "NVAIE-GPU-YEAR")


@pytest.mark.parametrize("card", ["H200-NVL"])
def test_a_card_that_includes_five_years_of_ai_enterprise_gets_no_paid_line(seeded_catalog, card):
    result = validate_json(document=_pcie_node(card))  # the default services: three years
    assert _aie(result) == 0
    assert not any(line["part"] == "NVAIE-GPU-YEAR" for line in result["services"]["bom"])
    # the longest offer the contract takes (five years) is within the included years too
    assert _aie(validate_json(document=_pcie_node(card, {"support_years": 5}))) == 0
    # mixed with cards that include none, only those are billed: 8 x RTX PRO 6000 over 3 years
    doc = _pcie_node(card)
    doc["node_groups"].append(
        {
            "name": "rtx",
            "count": 2,
            "server": "SYS-521GE-TNRT",
            "components": [{"part": "RTX-PRO-6000-SE", "quantity": 4}],
        }
    )
    assert _aie(validate_json(document=doc)) == 8 * 3


def test_the_h100_nvl_includes_five_years_too(seeded_catalog):
    from web import selectors

    assert selectors.catalog().get("H100-NVL").ai_enterprise_included_years == 5
    assert selectors.catalog().get("H200-NVL").ai_enterprise_included_years == 5


def test_an_hgx_board_still_pays_its_ai_enterprise_years(seeded_catalog):
    from configurator.examples import h200_training_cluster

    doc = h200_training_cluster()
    gpus = sum(g["count"] * 8 for g in doc["node_groups"])
    assert _aie(validate_json(document=doc)) == gpus * 3


def test_the_96_gb_dimm_is_two_rank_not_3ds(seeded_catalog):
    dimm = Part.objects.select_related("memory").get(part_number="M321RYGA0PB0-CWM")
    assert dimm.memory.ranks == 2 and dimm.memory.sources["ranks"] == "RSW-96"
    assert "3DS" not in dimm.name
