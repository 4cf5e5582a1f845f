"""The node rules on a rack-scale NVLink system (pure engine): the rack's built-in GPU set stands in as its GPUs,
components are refused, the rack's published power is its estimate (or a warning when none is sourced), and each
rack is its own NVLink domain."""

import dataclasses

from engines.catalog_view import CatalogView
from messages import both

from .parts import SEED, comp, design, group, run

GB300 = SEED.parts["SRS-GB300-NVL72"]
GPUS = SEED.parts["GB300-NVL72-GPUS"]
BOARD = SEED.parts["HGX-B300-8GPU"]


def _catalog(*servers) -> CatalogView:
    parts = {p.part_number: p for p in (GPUS, BOARD, *servers)}
    return CatalogView(version="test", parts=parts)


def test_the_racks_gpus_come_from_its_own_gpu_set():
    result = run(design(group(GB300, count=2)), _catalog(GB300))
    g = result.totals["groups"][0]
    assert (g["gpus_per_node"], g["gpu_memory_gb_per_node"], result.totals["gpus"]) == (72, 72 * 288.0, 144)
    assert result.totals["peak_power_w"] == 2 * 142000
    assert {f.code for f in result.findings} >= {"RACK_SYSTEM_POWER", "RACK_SYSTEM_COOLING", "NVLINK_DOMAIN_PER_RACK"}
    assert result.valid
    for f in result.findings:
        said = both(f)
        assert said.message.nl != said.message.en and said.fix.nl != said.fix.en, f.code


def test_a_listed_board_is_refused_and_left_out():
    result = run(design(group(GB300, comp(BOARD))), _catalog(GB300))
    refused = [f for f in result.findings if f.code == "RACK_SYSTEM_COMPLETE"]
    assert [f.subject for f in refused] == ["node_groups[0].components[0]"] and not result.valid
    assert result.totals["gpus"] == 72


def test_a_rack_without_a_published_power_is_a_warning_and_its_power_stays_unknown():
    unsourced = dataclasses.replace(GB300, part_number="NVL72-NO-POWER", rack_power_w=None)
    result = run(design(group(unsourced)), _catalog(unsourced))
    f = next(f for f in result.findings if f.code == "RACK_SYSTEM_POWER_UNKNOWN")
    assert f.severity == "warning" and f.params.server == "NVL72-NO-POWER"
    assert result.totals["peak_power_w"] is None  # never a sum of parts for a whole rack
    assert "RACK_SYSTEM_POWER" not in {x.code for x in result.findings}
    said = both(f)
    assert "no published power for NVL72-NO-POWER" in said.message.en
    assert "geen gepubliceerd vermogen voor NVL72-NO-POWER" in said.message.nl


def test_the_server_spec_exposes_the_nvlink_domain():
    assert GB300.nvlink_domain_gpus == 72 and GB300.compute_nics_per_tray == 4
    assert SEED.parts["SYS-822GS-NB3RT"].nvlink_domain_gpus is None  # an HGX node: its board's 8 GPUs
    assert SEED.parts["SYS-822GS-NB3RT"].compute_nics_per_tray is None
