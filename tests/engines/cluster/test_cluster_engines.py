"""The cluster engines (engines/cluster) on their own: given their prices and words by the caller, and the typed
rack plan reads the same as the JSON the result writes of it (that they load no Django: tests/engines/
test_engines_load_no_django.py)."""

from __future__ import annotations

import sys
from decimal import Decimal

import pytest

from configurator.examples import h200_training_cluster
from configurator.services import design_validate
from configurator.snapshot import catalog_snapshot
from engines.cluster.control_plane import CONTROL_NODES, ServicePrices, indicative_price
from engines.cluster.pipeline import validate_cluster
from engines.cluster.rackbill import RackBill, enclosure_count, rack_count
from engines.cluster.rackplan import fabric_locator
from engines.findings.finding import SEVERITY_ORDER
from engines.intake.parse import parse_design


def _doc(nodes: int, server: str | None = None) -> dict:
    doc = h200_training_cluster()
    doc["node_groups"][0]["count"] = nodes
    if server is not None:
        doc["node_groups"][0].update(server=server, components=[])
        doc.pop("fabric", None)
        doc.pop("workload", None)
    return doc


class _Words:
    """Words without a language: what each line and need is, in plain tags."""

    def rack_needed(self, units: int) -> str:
        return f"rack {units}U"

    def pdu_needed(self, feeds: str) -> str:
        return f"pdu {feeds}"

    def cord_needed(self, outlet: str | None, inlet: str | None, current_a: float | None = None) -> str:
        return f"cord {outlet} {inlet} {current_a}"

    def rack_system_included(
        self,
        name: str,
        *,
        compute_trays: int | None,
        gpus: int | None,
        switch_trays: int | None,
        power_shelves: int | None,
        management_switches: int | None,
    ) -> str:
        return f"{name} with {gpus} GPUs"


@pytest.mark.parametrize(
    ("raw", "price"),
    [("6000", Decimal("6000.00")), (2500.5, Decimal("2500.50")), ("", None), (None, None), ("abc", None), ("-1", None)],
)
def test_an_indicative_price_is_a_non_negative_amount_or_on_request(raw, price):
    assert indicative_price(raw) == price


def test_prices_come_from_the_settings_given_by_name():
    prices = ServicePrices.of({"QUOTE_SERVICE_CONTROL_NODE_EUR": "12000", "QUOTE_SERVICE_INSTALL_EUR_PER_RACK": ""})
    assert prices == ServicePrices(control_node=Decimal("12000.00"))


def test_the_pipeline_takes_its_prices_and_words_from_the_caller(seeded_catalog):
    view = catalog_snapshot()
    prices = ServicePrices(control_node=Decimal("100"), support_per_node_year=Decimal("7"))
    said = validate_cluster(
        parse_design(_doc(8)),
        view,
        prices=prices,
        describe=lambda part, years: f"{part}/{years}",
        words=_Words(),
    )
    control = {line.part: line for line in said.control_plane}
    assert set(control) <= set(CONTROL_NODES) and control["HEAD-NODE-BCM"].description == "HEAD-NODE-BCM/0"
    assert {line.price_eur for line in said.control_plane} == {Decimal("100")}
    support = next(line for line in said.services if line.part == "SVC-SUPPORT-NODE-YEAR")
    years = parse_design(_doc(8)).services.support_years
    assert support.price_eur == Decimal("7") and support.description == f"SVC-SUPPORT-NODE-YEAR/{years}"
    bill = {line.part_number: line for line in said.bom}
    assert bill["HEAD-NODE-BCM"].description == "HEAD-NODE-BCM/0"
    order = [(SEVERITY_ORDER[f.severity], f.subject, str(f.code)) for f in said.findings]
    assert order == sorted(order)


@pytest.mark.parametrize(
    "doc",
    [_doc(1), _doc(32), _doc(128), _doc(2, server="SRS-GB200-NVL72")],
    ids=["one server", "32 nodes", "128 nodes", "two NVL72 racks"],
)
def test_the_typed_rack_plan_reads_as_the_json_it_writes(seeded_catalog, doc):
    result = design_validate(document=doc)
    section, written = result.rack_plan, result.to_json()["rack_plan"]
    assert section.rack_count == rack_count(written) and section.enclosure_count == enclosure_count(written)
    if section.plan.runs:
        assert section.bill() == RackBill.from_json(written)
    counts = {g["group"]: g["count"] for g in result.totals.groups}
    typed, read = fabric_locator(section, counts), fabric_locator(written, counts)
    assert (typed is None) == (read is None)
    if typed is not None and read is not None:
        for kind in ("node", "leaf", "spine", "core"):
            assert [typed(kind, i) for i in range(300)] == [read(kind, i) for i in range(300)]


def test_each_node_group_is_resolved_against_the_catalogue_once(seeded_catalog, monkeypatch):
    # The fabric, the storage and in-band networks and the rack plan read the node engine's resolved groups: a
    # validation of two groups with a fabric and the networks beside it looks each group up once, not once a step.
    from engines.node.context import resolve_group

    calls: list[int] = []

    def counted(index, group, catalog, findings):
        calls.append(index)
        return resolve_group(index, group, catalog, findings)

    for module in list(sys.modules.values()):  # wherever an engine took the name
        if module is not None and getattr(module, "resolve_group", None) is resolve_group:
            monkeypatch.setattr(module, "resolve_group", counted)
    doc = _doc(8)
    doc["node_groups"].append({**doc["node_groups"][0], "name": "second", "count": 4})
    said = validate_cluster(
        parse_design(doc), catalog_snapshot(), prices=ServicePrices(), describe=lambda p, y: p, words=_Words()
    )
    assert sorted(calls) == [0, 1]
    assert said.fabric_plan is not None and said.fabric_plan.nodes == 12 and said.network_plans["oob"] is not None
    assert [g.group.name for g in said.node.groups] == [g["name"] for g in doc["node_groups"]]
