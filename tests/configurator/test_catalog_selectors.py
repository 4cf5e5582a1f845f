"""The catalogue's compatibility answers the doors offer choices by (configurator.selectors) say what the node
rules then say: a part the wizard offers is one the validation accepts."""

from __future__ import annotations

import dataclasses

import pytest

from configurator.selectors import cpu_fits, fabric_switches, node_part_fit
from configurator.snapshot import catalog_snapshot
from design.specs import CpuSpec, ServerSpec
from tests.results import validate_json

pytestmark = pytest.mark.django_db


def _cpu_refused(server: ServerSpec, cpu: CpuSpec) -> bool:
    document = {
        "schema": "design/v1",
        "name": "cpu fit",
        "node_groups": [
            {
                "name": "n",
                "count": 1,
                "server": server.part_number,
                "components": [{"part": cpu.part_number, "quantity": server.cpu_sockets or 2, "role": "cpu"}],
            }
        ],
    }
    findings = validate_json(document=document)["findings"]
    return any(f["code"] == "NODE_CPU_NOT_ACCEPTED" for f in findings)


def test_the_cpus_offered_for_a_server_are_those_the_node_rule_accepts(seeded_catalog):
    view = catalog_snapshot()
    servers, cpus = view.of_type(ServerSpec), view.of_type(CpuSpec)
    assert servers and cpus
    for server in servers:
        for cpu in cpus:
            assert cpu_fits(server, cpu) is not _cpu_refused(server, cpu), (server.part_number, cpu.part_number)


def test_a_cpu_of_unknown_family_is_offered_as_the_node_rule_lets_it_pass(seeded_catalog):
    view = catalog_snapshot()
    server = next(s for s in view.of_type(ServerSpec) if s.cpu_socket and s.cpu_families)
    cpu = next(c for c in view.of_type(CpuSpec) if c.socket == server.cpu_socket)
    assert cpu_fits(server, dataclasses.replace(cpu, family="")) is True  # unknown: not refused on a guess
    # a family the sources do not name is a warning to confirm (NODE_CPU_UNVERIFIED), so it is offered
    assert cpu_fits(server, dataclasses.replace(cpu, family="no such family")) is True
    assert cpu_fits(server, dataclasses.replace(cpu, socket="no such socket")) is False


def test_the_platform_choices_keep_a_fitting_cpu_and_replace_one_from_another_server(seeded_catalog):
    view = catalog_snapshot()
    server = next(s for s in view.of_type(ServerSpec) if s.cpu_socket and any(d.role == "cpu" for d in s.default_parts))
    default = next(d.part_number for d in server.default_parts if d.role == "cpu")
    misfit = next(c for c in view.of_type(CpuSpec) if not cpu_fits(server, c))
    for chosen, expected in ((default, default), (misfit.part_number, default)):
        cpu_row = next(r for r in node_part_fit(view, server.part_number, {"cpu": chosen}) if r.role == "cpu")
        assert cpu_row.chosen == expected
        assert misfit not in cpu_row.parts


def test_the_fabric_step_offers_no_management_switch(seeded_catalog):
    switches = fabric_switches(catalog_snapshot())
    assert switches and not any(s.management for s in switches)
