"""Every output the rack plan feeds, for many generated plans, as one JSON file: to compare two versions of the
rack planner output for output (a change of representation must not change a byte of them).

Run from the project root: ``.venv/bin/python bench/rack_outputs.py OUT.json``; run it in each version's tree and
compare the two files (``cmp``). Uses a throw-away SQLite test database with the seed catalogue. Against a file
written with another form of ``rack_plan.racks`` and ``rows`` (every rack and device an entry of its own, runs of
identical racks with a ``count``, or distinct racks with ranges of names), ``bench/rack_outputs.py --compare
OLD.json NEW.json`` checks that every other output is the same byte for byte and that both rack plans read back
(``RackPlan.from_dict``) as the same racks and devices, one by one.

* Planner alone (engines.racks), 300 seeded random inputs: 1 to 2,048 nodes in one to three node groups,
  air and liquid, known and unknown power/inlets/heights, leaves/spines/cores/management switches, PDUs or none,
  middle or end leaf placement: ``to_dict()`` (``racks`` as distinct racks with their ``count`` and ranges),
  every rack as ``from_dict()`` reads the JSON back (name, place, nodes and devices one by one), ``totals()``,
  findings, ``link_distances`` (with and without an override), the elevation SVG, every node's and switch's
  location.
* Through validation (configurator.services): the contract's H200 design at 1, 4, 32, 128 and 2,048 nodes, air
  and liquid servers, several facilities, and with a second node group: the whole result (``rack_plan``, totals,
  findings, BOM), the elevation SVG of its ``rack_plan`` and the cabling CSV with rack and unit of both ends.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings.test")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from catalog.services import catalog_load_seed  # noqa: E402
from configurator.examples import h200_training_cluster  # noqa: E402
from configurator.services import DesignInputError, design_validate  # noqa: E402
from engines.cluster.rackplan import fabric_locator  # noqa: E402
from engines.fabric.cabling import iter_cabling_csv  # noqa: E402
from engines.fabric.model import FabricPlan  # noqa: E402
from engines.racks import (  # noqa: E402
    Facility,
    LeafPlacement,
    NodeGroup,
    PduOption,
    RackInputError,
    RackPlan,
    SwitchGroup,
    link_distances,
    node_location,
    plan_racks,
    render_elevation_svg,
    switch_locations,
)
from engines.racks.model import DeviceRole  # noqa: E402
from messages.racks import elevation_labels, kw_number  # noqa: E402
from outputs.pictures import rack_elevation_svg  # noqa: E402

SIZES = (1, 2, 3, 4, 7, 16, 32, 33, 100, 128, 255, 512, 1000, 2048)


def _maybe(rng: random.Random, value, p: float = 0.15):
    return None if rng.random() < p else value


def random_inputs(rng: random.Random) -> dict:
    groups = []
    for g in range(rng.choice((1, 1, 1, 2, 3))):
        groups.append(
            NodeGroup(
                name=f"g{g}",
                part=rng.choice(("SRV-8U", "SRV-4U", "SRV-2U", "SRV-1U")) + f"-{g}",
                count=rng.choice(SIZES + (0,)),
                height_u=rng.choice((1, 2, 4, 5, 8, 10, 45)),
                power_w=_maybe(rng, rng.choice((300, 1_200, 5_000, 6_500, 10_200, 14_300, 40_000))),
                cooling=_maybe(rng, rng.choice(("air", "liquid"))),
                inlets=_maybe(rng, rng.choice((0, 2, 4, 6, 8))),
                inlet_type=_maybe(rng, rng.choice(("C20", "C14"))),
                su_nodes=_maybe(rng, rng.choice((8, 16, 32, 64)), 0.3),
            )
        )
    total = sum(g.count for g in groups)
    switches = []
    if rng.random() < 0.85:
        switches.append(
            SwitchGroup(
                role="management",
                part="MGMT",
                count=rng.choice((0, 1, 40)),
                height_u=_maybe(rng, 1),
                power_w=_maybe(rng, 120),
            )
        )
    leaves = max(1, total // 4) if total else 0
    for role, count in (("leaf", leaves), ("spine", leaves // 2), ("core", leaves // 4)):
        if count and rng.random() < 0.8:
            switches.append(
                SwitchGroup(
                    role=role,
                    part=rng.choice(("SW-A", "SW-B")),
                    count=count,
                    height_u=_maybe(rng, rng.choice((1, 2))),
                    power_w=_maybe(rng, rng.choice((750, 1_700))),
                )
            )
    pdus = []
    for k in range(rng.choice((0, 1, 1, 2))):
        pdus.append(
            PduOption(
                part=f"PDU-{k}",
                rating_w=rng.choice((7_400, 11_000, 17_300, 22_000)),
                outlets=_maybe(rng, rng.choice((12, 24, 42))),
                cord="IEC 60309 32A",
                outlet_type=_maybe(rng, rng.choice(("C13", "C19"))),
                height_u=rng.choice((0, 0, 1, 2)),
            )
        )
    facility = Facility(
        rack_units=rng.choice((42, 42, 48, 20, 12)),
        rack_power_kw=_maybe(rng, rng.choice((15, 30, 60, 80, 132.5)), 0.3),
        cooling=_maybe(rng, rng.choice(("air", "liquid")), 0.4),
        pdu_feeds=rng.choice(("A", "A+B")),
    )
    return {
        "node_groups": groups,
        "switches": switches,
        "facility": facility,
        "pdu_options": pdus,
        "leaf_placement": rng.choice(tuple(LeafPlacement)),
        "other_it_power_w": _maybe(rng, rng.choice((0, 5_000)), 0.1),
    }


def planner_outputs(seed: int) -> dict:
    rng = random.Random(seed)
    try:
        kw = random_inputs(rng)
    except RackInputError as e:
        return {"input_error": str(e)}
    plan = plan_racks(**kw)
    placed = {}
    for g in kw["node_groups"]:
        placed[g.name] = [node_location(plan, g.name, i) for i in range(g.count + 1)]
    written = plan.to_dict()
    return {
        "rack_plan": written,
        "read_back": [
            [r.name, r.row, r.slot, r.node_group, r.first_node, r.nodes, [d.to_dict() for d in r.devices]]
            for r in RackPlan.from_dict(written).racks
        ],
        "rack_count": plan.rack_count,
        "totals": plan.totals(),
        "facility_power": [plan.facility_power_w, plan.facility_power_known_w],
        "findings": [f.to_dict() for f in plan.findings],
        "distances": {k: v.to_dict() for k, v in link_distances(plan).items()},
        "distances_override": {
            k: v.to_dict() for k, v in link_distances(plan, override={"in_rack_m": 2, "leaf_to_spine_m": 30}).items()
        },
        "svg": render_elevation_svg(plan, elevation_labels(), number=kw_number),
        "nodes": placed,
        "switches": {str(r): switch_locations(plan, r) for r in DeviceRole},
        "racks_attr": [
            [
                r.name,
                str(r.kind),
                r.row,
                r.slot,
                r.u_used,
                r.power_w,
                r.power_known_w,
                r.node_group,
                r.first_node,
                r.nodes,
            ]
            for r in plan.racks
        ],
    }


def designs():
    for nodes in (1, 4, 32, 128, 2048):
        for server in ("SYS-821GE-TNHR", "SYS-421GE-TNHR2-LCC"):
            for facility in (None, {"rack_power_kw": 60}, {"cooling": "liquid", "rack_units": 48, "pdu_feeds": "A"}):
                doc = h200_training_cluster()
                doc["node_groups"][0]["count"] = nodes
                doc["node_groups"][0]["server"] = server
                if facility:
                    doc["facility"] = facility
                yield f"{nodes}-{server}-{facility}", doc
        doc = h200_training_cluster()
        doc["node_groups"][0]["count"] = nodes
        second = json.loads(json.dumps(doc["node_groups"][0]))
        second.update(name="gpu2", count=max(1, nodes // 3), server="SYS-421GE-TNHR2-LCC")
        doc["node_groups"].append(second)
        yield f"{nodes}-mixed", doc


def service_outputs() -> dict:
    out = {}
    for name, doc in designs():
        try:
            result = design_validate(document=doc).to_json()
        except DesignInputError as e:
            out[name] = {"input_error": e.errors}
            continue
        result.pop("catalog_version", None)  # carries the time the seed was loaded
        entry = {"result": result}
        entry["svg"] = rack_elevation_svg(result.get("rack_plan"), elevation_labels(), kw_number)
        plan = result.get("fabric_plan")
        if plan and plan.get("tiers"):
            counts = {g["group"]: g["count"] for g in result.get("totals", {}).get("groups", [])}
            entry["cabling_csv"] = list(
                iter_cabling_csv(FabricPlan.from_dict(plan), fabric_locator(result.get("rack_plan"), counts))
            )
        out[name] = entry
    return out


def _one_by_one(rack_plan: dict) -> list:
    return [
        [r.name, r.row, r.slot, r.u_used, r.power_w, r.node_group, r.first_node, r.nodes]
        + [[d.to_dict() for d in r.devices], [x.to_dict() for x in r.pdus], [x.to_dict() for x in r.cords]]
        for r in RackPlan.from_dict(rack_plan).racks
    ]


def _same_plan(old: dict | None, new: dict | None, where: str) -> None:
    if not old or not new or "racks" not in old:
        assert old == new, where
        return
    form = ("racks", "rows")  # how the racks are written; what they are is compared one by one below
    assert {k: v for k, v in old.items() if k not in form} == {k: v for k, v in new.items() if k not in form}, where
    assert _one_by_one(old) == _one_by_one(new), where


def compare(old_path: str, new_path: str) -> None:
    """Every output equal, the rack plans read back as the same racks (the racks' form aside)."""
    old, new = (json.loads(pathlib.Path(p).read_text()) for p in (old_path, new_path))
    for seed, was in old["planner"].items():
        now = new["planner"][seed]
        if "rack_plan" in was:
            _same_plan(was["rack_plan"], now["rack_plan"], seed)
        assert {k: v for k, v in was.items() if k not in ("rack_plan", "read_back")} == {
            k: v for k, v in now.items() if k not in ("rack_plan", "read_back")
        }, seed
        assert "read_back" not in was or was["read_back"] == now["read_back"], seed
    for name, was in old["service"].items():
        now = new["service"][name]
        if "result" in was:
            _same_plan(was["result"].get("rack_plan"), now["result"].get("rack_plan"), name)
            was["result"].pop("rack_plan", None)
            now["result"].pop("rack_plan", None)
        assert was == now, name
    print(len(old["planner"]), "planner cases and", len(old["service"]), "designs the same, the racks' form aside")


def main(path: str) -> None:
    connection.creation.create_test_db(verbosity=0)
    catalog_load_seed()
    out = {"planner": {seed: planner_outputs(seed) for seed in range(300)}, "service": service_outputs()}
    pathlib.Path(path).write_text(json.dumps(out, sort_keys=True, indent=0, default=str))
    print(path, len(out["planner"]), "planner cases,", len(out["service"]), "designs")


if __name__ == "__main__":
    if sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        main(sys.argv[1])
