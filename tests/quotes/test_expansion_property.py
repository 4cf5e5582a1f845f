"""Day-two expansion keeps what is installed: for any installed size and any addition of the same HGX H200 design
(eight ConnectX-7 a node, rail-optimized QM9700), every installed device (nodes, leaf, spine and core switches,
out-of-band switches, control-plane servers, PDUs) stands in the grown plan in the same rack, at the same unit and
face, and every cable the re-cabling keeps has both ends where they were. No growth is an exception: a one-rack
cluster's rack is kept as it stands (its leaves stay with its nodes), and the management racks keep the places of
the control plane's next step free (BasePOD from CONTROL_PLANE_MIN_NODES, SuperPOD from 32 nodes), so the
out-of-band switches below it stay. A grown plan may hold fewer of a part than the installed one (the balanced
spine count of a two-tier fabric is not monotonic in the nodes, a one-rack cluster's own management switch gives
way to the central out-of-band switches, BasePOD K8s servers to the SuperPOD's): those are unused, not moved.

``HYPOTHESIS_EXAMPLES`` (default 30) sets how many random growths one run tries."""

from __future__ import annotations

import os
from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from configurator.services import design_validate
from engines.cluster.expansion import devices_moved, recabling
from engines.cluster.rackplan import growing_from
from engines.fabric.growth import Action
from outputs.formats.cabling_csv import render as cabling_csv
from quotes.services.expansion import Growth, expansion_plan

from .test_expansion import h200

pytestmark = pytest.mark.usefixtures("seeded_catalog")


@cache
def planned(nodes: int):
    result = design_validate(document=h200(nodes), language="en")
    return result, tuple(cabling_csv(result, "en"))


@cache
def grown(installed: int, nodes: int):
    """The grown design planned as the expansion plans it: from the installed plan."""
    with growing_from(planned(installed)[0].rack_plan.plan):
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


@settings(
    max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(installed=st.integers(2, 300), added=st.integers(1, 300))
@example(installed=2, added=1)  # one rack: its leaf stays with its nodes
@example(installed=2, added=38)  # one rack grown to two rows of leaves: the installed leaf is the first
@example(installed=3, added=1)  # the BasePOD control plane in the places kept free for it
@example(installed=20, added=20)  # the SuperPOD control plane from 32 nodes
@example(installed=40, added=60)  # 2 SUs of 20 grown to 4 of 25: rows of full SUs keep every node
@example(installed=200, added=200)  # two tiers to three
def test_the_grown_plan_holds_the_installed_plan_unchanged(installed, added):
    before, old = planned(installed)
    after, new = grown(installed, installed + added)
    assert after.valid or not planned(installed + added)[0].valid  # keeping the installed racks adds no error
    moved = moved_in_place(before, after)
    assert not moved, sorted(moved)[:5]
    assert devices_moved(before.rack_plan.plan, after.rack_plan.plan) is None
    cables = recabling(iter(old), iter(new))
    assert cables.moved == ()
    for change in cables.changes:
        c = change.change
        if c.action == Action.KEEP:
            assert c.old is not None and c.new is not None
            ends = (c.old.a_rack, c.old.a_u, c.old.z_rack, c.old.z_u)
            assert ends == (c.new.a_rack, c.new.a_u, c.new.z_rack, c.new.z_u)


@settings(
    max_examples=max(4, int(os.environ.get("HYPOTHESIS_EXAMPLES", "30")) // 3),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    first=st.integers(2, 80),
    second=st.integers(2, 80),
    added=st.integers(1, 80),
    grows=st.sampled_from(["gpu", "b", "new"]),
    topology=st.sampled_from(["rail-optimized", "fat-tree"]),
)
@example(first=16, second=8, added=8, grows="new", topology="rail-optimized")  # a unit's leaves by its first node
@example(first=16, second=8, added=8, grows="gpu", topology="rail-optimized")  # grows as a group of its own
@example(first=8, second=41, added=10, grows="gpu", topology="fat-tree")  # a partial unit's last leaf stays put
@example(first=9, second=26, added=9, grows="gpu", topology="fat-tree")  # the balanced share's leaf in the last row
@example(first=68, second=54, added=61, grows="b", topology="rail-optimized")  # a leaf rack's places kept free
def test_several_node_groups_never_move_an_installed_device(first, second, added, grows, topology):
    # Growing any group of two, or adding a third, moves no installed device (so no quote of it waits on
    # EXPANSION_DEVICES_MOVED), and every kept cable has both ends where they were.
    group = h200(first)["node_groups"][0]
    installed = {**h200(first), "node_groups": [group, {**h200(second)["node_groups"][0], "name": "b"}]}
    installed["fabric"] = {**installed["fabric"], "topology": topology}
    if grows == "new":
        growth = Growth(node_groups=({**h200(added)["node_groups"][0], "name": "c"},))
    else:
        growth = Growth(node_group=grows, add=added)
    answer = expansion_plan(installed=installed, growth=growth)
    assert answer.cabling.moved == ()
    assert "EXPANSION_DEVICES_MOVED" not in {f.code for f in answer.findings}
    for change in answer.cabling.changes:
        c = change.change
        if c.action == Action.KEEP:
            assert c.old is not None and c.new is not None
            old, new = (
                (c.old.a_rack, c.old.a_u, c.old.z_rack, c.old.z_u),
                (c.new.a_rack, c.new.a_u, c.new.z_rack, c.new.z_u),
            )
            assert old == new
