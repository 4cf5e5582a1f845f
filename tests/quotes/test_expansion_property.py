"""Day-two expansion keeps what is installed: for any installed size and any addition of the same HGX H200 design
(eight ConnectX-7 a node, rail-optimized QM9700), every installed device (nodes, leaf, spine and core switches,
out-of-band switches, control-plane servers, PDUs) stands in the grown plan in the same rack, at the same unit and
face, and every cable the re-cabling keeps has both ends where they were.

Two growths place installed devices elsewhere, and the expansion says so (EXPANSION_DEVICES_MOVED): a one-rack
cluster's switches, which leave the nodes' rack once the cluster has more, and a growth past a step of the control
plane (from CONTROL_PLANE_MIN_NODES the BasePOD's five servers, from 32 nodes the SuperPOD's ten and two UFM
appliances), which is racked ahead of the out-of-band switches. A
grown plan may hold fewer of a part than the installed one (the balanced spine count of a two-tier fabric is not
monotonic in the nodes): those are unused, not moved."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from configurator.services import design_validate
from engines.cluster.control_plane import CONTROL_PLANE_MIN_NODES, SUPERPOD_MIN_NODES
from engines.cluster.expansion import devices_moved, recabling
from engines.fabric.growth import Action
from outputs.formats.cabling_csv import render as cabling_csv

from .test_expansion import h200

pytestmark = pytest.mark.usefixtures("seeded_catalog")


@cache
def planned(nodes: int):
    result = design_validate(document=h200(nodes), language="en")
    return result, tuple(cabling_csv(result, "en"))


def racked(result) -> Counter[tuple[str, str, str, int, str]]:
    """Every racked device: (rack, role, part, lowest unit, face)."""
    plan = result.rack_plan.plan
    return Counter((rack.name, str(d.role), d.part, d.position_u, d.face) for rack in plan.racks for d in rack.devices)


def moved_in_place(before, after) -> Counter[tuple[str, str, str, int, str]]:
    """The installed devices not at their place in the grown plan, less those of a role and part it holds fewer of."""
    placed, grown = racked(before), racked(after)
    fewer: Counter[tuple[str, str]] = Counter()
    for counter, sign in ((placed, 1), (grown, -1)):
        for place, n in counter.items():
            fewer[place[1:3]] += sign * n
    moved: Counter[tuple[str, str, str, int, str]] = Counter()
    for place, n in (placed - grown).items():
        unused = min(max(0, fewer[place[1:3]]), n)
        fewer[place[1:3]] -= unused
        if n > unused:
            moved[place] = n - unused
    return moved


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(installed=st.integers(2, 300), added=st.integers(1, 300))
@example(installed=2, added=1)  # one rack: the switch leaves the nodes' rack
@example(installed=3, added=1)  # the BasePOD control plane
@example(installed=20, added=20)  # the SuperPOD control plane from 32 nodes
@example(installed=40, added=60)  # 2 SUs of 20 grown to 4 of 25: rows of full SUs keep every node
@example(installed=200, added=200)  # two tiers to three
def test_the_grown_plan_holds_the_installed_plan_unchanged(installed, added):
    before, old = planned(installed)
    after, new = planned(installed + added)
    one_rack = before.rack_plan.plan.leaf_placement == "in-rack"
    control_plane = any(installed < step <= installed + added for step in (CONTROL_PLANE_MIN_NODES, SUPERPOD_MIN_NODES))
    moved = moved_in_place(before, after)
    said = devices_moved(before.rack_plan.plan, after.rack_plan.plan)
    if one_rack or control_plane:
        assert (said is None) == (not moved)  # what moves, the expansion says
        return
    assert not moved, sorted(moved)[:5]
    assert said is None
    cables = recabling(iter(old), iter(new))
    assert cables.moved == ()
    for change in cables.changes:
        c = change.change
        if c.action == Action.KEEP:
            assert c.old is not None and c.new is not None
            ends = (c.old.a_rack, c.old.a_u, c.old.z_rack, c.old.z_u)
            assert ends == (c.new.a_rack, c.new.a_u, c.new.z_rack, c.new.z_u)
