"""Property tests (hypothesis) for the engine's invariants (issue "Tests"):

* parse_design raises nothing but DesignInputError, whatever JSON it is given;
* validate_nodes never raises on a well-formed design, even with odd or unknown catalogue data;
* placement never over-fills a slot or a PCIe switch, never puts a card where it does not fit, and accounts for
  every card (placed + unplaced = ordered);
* ``valid`` is false exactly when an error finding exists, and every finding is in the rule catalogue with the
  catalogue's severity;
* cost and placement do not depend on ``count``.
"""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from design.model import ComponentIn, DesignIn, DesignInputError, FabricIn, NodeGroupIn, WorkloadIn
from design.specs import AdapterSpec, GpuSpec, PcieSwitchSpec, ServerSpec, SlotSpec
from design.vocabulary import CardForm, Cooling, SlotForm
from engines.catalog_view import CatalogView
from engines.findings.codes import Code
from engines.findings.registry import REGISTRY
from engines.intake.parse import parse_design
from engines.intake.references import check_references
from engines.node.engine import validate_nodes
from engines.node.pcie import fits
from messages import both

from .parts import ALL_PARTS, as_json

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- arbitrary JSON -------------------------------------------------------------------------------------------

json_scalars = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats() | st.text(max_size=12)
json_values = st.recursive(
    json_scalars,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=25,
)

FIELD_NAMES = [
    "schema",
    "name",
    "workload",
    "kind",
    "model_parameters_billion",
    "node_groups",
    "count",
    "server",
    "components",
    "part",
    "quantity",
    "role",
    "slots",
    "fabric",
    "switch",
    "oversubscription",
    "topology",
    "hca",
    "rails",
    "rack",
    "nodes_per_rack",
    "in_rack_m",
    "facility",
    "networks",
    "storage",
    "inband",
    "oob",
    "system_ports",
    "training_tokens_billion",
    "target_days",
]
contract_like = st.recursive(
    json_scalars | st.sampled_from(["design/v1", "training", "compute", "SYS-821GE-TNHR", "1:1", "fat-tree"]),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.sampled_from(FIELD_NAMES), kids, max_size=6),
    max_leaves=40,
)


@SETTINGS
@given(raw=json_values | contract_like)
def test_parse_raises_only_design_input_error(raw):
    try:
        d = parse_design(raw)
    except DesignInputError as exc:
        assert exc.errors and all(isinstance(k, str) and isinstance(v, str) and v for k, v in exc.errors.items())
    else:
        assert isinstance(d, DesignIn) and d.node_groups


# --- random catalogues and well-formed designs ----------------------------------------------------------------

maybe = st.one_of
slot_forms = st.none() | st.sampled_from(list(SlotForm))
gens = st.none() | st.sampled_from([3, 4, 5, 6])
lanes = st.none() | st.sampled_from([4, 8, 16])


@st.composite
def servers(draw, pn: str) -> ServerSpec:
    n_switches = draw(st.integers(0, 3))
    switches = tuple(
        PcieSwitchSpec(
            name=f"SW{k}",
            cpu_socket=draw(st.none() | st.integers(0, 1)),
            uplink_gen=draw(gens),
            uplink_lanes=draw(lanes),
        )
        for k in range(n_switches)
    )
    slots = tuple(
        SlotSpec(
            name=f"S{i}",
            form=draw(slot_forms),
            pcie_gen=draw(gens),
            lanes=draw(lanes),
            cpu_socket=draw(st.none() | st.integers(0, 1)),
            pcie_switch=draw(st.none() | st.sampled_from([s.name for s in switches] or [None])),
            gpus=tuple(draw(st.lists(st.integers(0, 7), max_size=2, unique=True))),
            for_gpu=draw(st.booleans()),
        )
        for i in range(draw(st.integers(0, 12)))
    )
    psu_count = draw(st.none() | st.integers(1, 8))
    return ServerSpec(
        part_number=pn,
        name=pn,
        cpu_sockets=draw(st.none() | st.integers(1, 2)),
        cpu_tdp_w=draw(st.none() | st.integers(100, 500)),
        psu_count=psu_count,
        psu_watts=draw(st.none() | st.integers(500, 7000)),
        psu_redundant=draw(st.none() | st.integers(0, psu_count or 0)),
        cooling=draw(st.none() | st.sampled_from(list(Cooling))),
        accepts=frozenset(draw(st.lists(st.sampled_from(GPU_PNS), max_size=3))),
        accepts_complete=draw(st.booleans()),
        max_gpu_cards=draw(st.none() | st.integers(0, 10)),
        slots_known=draw(st.booleans()),
        slots_complete=draw(st.booleans()),
        slots=slots,
        pcie_switches=switches,
        integrated_nics=draw(st.sampled_from([0, 0, 8])),
        integrated_nic_speed_gbps=draw(st.none() | st.just(800)),
    )


@st.composite
def adapters(draw, pn: str) -> AdapterSpec:
    return AdapterSpec(
        part_number=pn,
        name=pn,
        ports=draw(st.integers(1, 2)),
        speed_gbps=draw(st.none() | st.sampled_from([1, 100, 200, 400, 800])),
        host_pcie_gen=draw(gens),
        host_lanes=draw(lanes),
        form=draw(st.none() | st.sampled_from(list(CardForm))),
        watts=draw(st.none() | st.floats(0, 80)),
        is_dpu=draw(st.booleans()),
        socket_direct=draw(st.booleans()),
    )


@st.composite
def gpus(draw, pn: str) -> GpuSpec:
    board = draw(st.booleans())
    return GpuSpec(
        part_number=pn,
        name=pn,
        gpu_model=draw(st.sampled_from(["X", "Y", pn])),
        is_board=board,
        gpu_count=8 if board else 1,
        memory_gb=draw(st.none() | st.floats(1, 300)),
        nvlink_gen=draw(st.none() | st.integers(3, 5)),
        nvlink_gbps=draw(st.none() | st.integers(0, 1800)),
        nvswitch_count=draw(st.none() | st.integers(0, 6)),
        tdp_w=draw(st.none() | st.integers(50, 1200)),
        form=None if board else draw(st.none() | st.sampled_from(list(CardForm))),
        bridge_sizes=frozenset(draw(st.lists(st.sampled_from([2, 4]), max_size=2))),
    )


GPU_PNS = ["RND-GPU-0", "RND-GPU-1", "HGX-H200-8GPU", "H200-NVL", "L40S"]


@st.composite
def catalogs(draw) -> CatalogView:
    """The realistic parts plus random servers, adapters and GPUs with unknowns anywhere."""
    parts = {p.part_number: p for p in ALL_PARTS}
    for i in range(2):
        parts[f"RND-SRV-{i}"] = draw(servers(f"RND-SRV-{i}"))
        parts[f"RND-NIC-{i}"] = draw(adapters(f"RND-NIC-{i}"))
        parts[f"RND-GPU-{i}"] = draw(gpus(f"RND-GPU-{i}"))
    return CatalogView(version="prop", parts=parts)


ANY_PNS = [p.part_number for p in ALL_PARTS] + [
    "RND-SRV-0",
    "RND-SRV-1",
    "RND-NIC-0",
    "RND-NIC-1",
    "RND-GPU-0",
    "RND-GPU-1",
    "NOT-IN-CATALOGUE",
]
SERVER_PNS = [p.part_number for p in ALL_PARTS if isinstance(p, ServerSpec)] + ["RND-SRV-0", "RND-SRV-1"]


@st.composite
def components(draw) -> ComponentIn:
    q = draw(st.integers(1, 12) | st.sampled_from([1000]))
    slots = None
    if q <= 12 and draw(st.booleans()):
        names = ["S0", "S1", "S2", "NIC1", "NIC2", "NIC9", "FH1", "GPU1", "GPU5", "AIOM", "bogus"]
        slots = tuple(draw(st.lists(st.sampled_from(names), min_size=q, max_size=q)))
    return ComponentIn(
        part=draw(st.sampled_from(ANY_PNS)),
        quantity=q,
        role=draw(st.none() | st.sampled_from(["compute", "storage", "management"])),
        slots=slots,
    )


@st.composite
def designs(draw, *, servers_only: bool = False) -> DesignIn:
    groups = tuple(
        NodeGroupIn(
            name=f"g{i}",
            count=draw(st.integers(1, 3) | st.sampled_from([10_000])),
            server=draw(st.sampled_from(SERVER_PNS if servers_only else ANY_PNS)),
            components=tuple(draw(st.lists(components(), max_size=5))),
        )
        for i in range(draw(st.integers(1, 3)))
    )
    workload = draw(
        st.none()
        | st.builds(
            WorkloadIn,
            kind=st.sampled_from(["training", "inference"]),
            model_parameters_billion=st.floats(0.001, 100_000),
        )
    )
    fabric = draw(st.none() | st.builds(FabricIn, switch=st.just("MQM9700-NS2F")))
    return DesignIn(name="prop", workload=workload, node_groups=groups, fabric=fabric)


def _card_spec(cat: CatalogView, pn: str):
    spec = cat.get(pn)
    return spec if isinstance(spec, (AdapterSpec, GpuSpec)) else None


@SETTINGS
@given(cat=catalogs(), d=designs())
def test_engine_never_raises_and_its_output_is_consistent(cat, d):
    r = validate_nodes(d, cat)
    severities = {f.severity for f in r.findings}
    assert r.valid is ("error" not in severities)
    for f in r.findings:
        assert f.code in Code.__members__ and f.severity == REGISTRY[f.code].severity
        assert both(f).message.en and both(f).message.nl and both(f).fix.en and both(f).fix.nl
        assert f.subject.split("[")[0].split(".")[0] in {"node_groups", "workload", "fabric"}
    assert len(r.placement) == len(d.node_groups)
    for gi, (group, placed) in enumerate(zip(d.node_groups, r.placement)):
        server = cat.get(group.server)
        names = [s["slot"] for s in placed["slots"]]
        assert len(names) == len(set(names))  # one row per slot, so a slot holds at most one part
        per_switch: dict[str, int] = {}
        for s in placed["slots"]:
            if s["part"] is None:
                continue
            assert s["usable"]
            card = _card_spec(cat, s["part"])
            assert card is not None
            slot_form = SlotForm(s["form"]) if s["form"] else None
            assert fits(card.form, slot_form) is not False  # never a card in a slot it does not fit
            if s["pcie_switch"]:
                per_switch[s["pcie_switch"]] = per_switch.get(s["pcie_switch"], 0) + 1
        if isinstance(server, ServerSpec):
            for sw, n in per_switch.items():  # never more cards behind a PCIe switch than it has slots
                assert n <= sum(1 for x in server.slots if x.pcie_switch == sw)
            # every adapter and GPU card is accounted for: placed + unplaced = ordered
            for ci, c in enumerate(group.components):
                card = _card_spec(cat, c.part)
                if card is None or (isinstance(card, GpuSpec) and card.is_board):
                    continue
                path = f"node_groups[{gi}].components[{ci}]"
                placed_n = sum(1 for s in placed["slots"] if s["component"] == path)
                unplaced_n = sum(u["quantity"] for u in placed["unplaced"] if u["component"] == path)
                assert placed_n + unplaced_n == c.quantity, (path, placed_n, unplaced_n)
    t = r.totals
    assert t["nodes"] == d.node_count
    assert t["peak_power_w"] is None or (t["peak_power_w"] >= 0 and math.isfinite(t["peak_power_w"]))


@SETTINGS
@given(cat=catalogs(), d=designs(servers_only=True))
def test_count_changes_totals_but_not_findings_or_placement(cat, d):
    ones = DesignIn(
        name=d.name,
        workload=None,
        fabric=d.fabric,
        node_groups=tuple(
            NodeGroupIn(name=g.name, count=1, server=g.server, components=g.components) for g in d.node_groups
        ),
    )
    many = DesignIn(
        name=d.name,
        workload=None,
        fabric=d.fabric,
        node_groups=tuple(
            NodeGroupIn(name=g.name, count=7, server=g.server, components=g.components) for g in d.node_groups
        ),
    )
    a, b = validate_nodes(ones, cat), validate_nodes(many, cat)
    assert a.placement == b.placement
    assert a.totals["gpus"] * 7 == b.totals["gpus"]
    # node-level findings are the same; only rules that depend on the node count (single node / fabric) differ
    node_count_rules = {"NIC_NOT_NEEDED", "NIC_FEWER_THAN_GPUS", "COOLING_LIQUID", "FABRIC_ADVISED"}
    strip = lambda r: [(f.code, f.subject) for f in r.findings if f.code not in node_count_rules]  # noqa: E731
    assert strip(a) == strip(b)


@SETTINGS
@given(d=designs(servers_only=True))
def test_built_designs_round_trip_through_the_parser(d):
    parsed = parse_design(as_json(d))
    assert parsed.node_groups == d.node_groups and parsed.fabric == d.fabric
    assert parsed.workload == d.workload


@SETTINGS
@given(d=designs())
def test_check_references_raises_only_design_input_error(d):
    cat = CatalogView(version="prop", parts={p.part_number: p for p in ALL_PARTS})
    try:
        check_references(d, cat)
    except DesignInputError as exc:
        assert all(k.startswith(("node_groups[", "fabric.")) for k in exc.errors)


@SETTINGS
@given(value=json_values.filter(lambda v: not (isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 100_000)))
def test_any_bad_count_is_named_by_its_path(value):
    doc = {"schema": "design/v1", "node_groups": [{"name": "g", "count": value, "server": "SYS-821GE-TNHR"}]}
    try:
        parse_design(doc)
    except DesignInputError as exc:
        assert "node_groups[0].count" in exc.errors
    else:
        raise AssertionError(f"count {value!r} was accepted")
