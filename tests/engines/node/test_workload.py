"""Workload sizing and the GPU-NIC ratio (issue "Workload sizing" and "GPU–NIC ratio")."""

import pytest

from engines.node.sizing import size_workload
from messages import both

from .parts import (
    CX7_NDR,
    HGX_A100,
    HGX_B300,
    HGX_H200,
    L40S,
    SYS_421GE_TNRT3,
    SYS_821GE_TNHR,
    SYS_822GS_NB3RT,
    catalog,
    codes,
    comp,
    design,
    errors,
    group,
    hgx_node,
    run,
    variant,
)

A100_SERVER = variant(SYS_821GE_TNHR, "TEST-HGX-A100", accepts=frozenset({"HGX-A100-8GPU"}))
CAT = catalog(A100_SERVER)


@pytest.mark.parametrize(
    "kind, params, mem, per_node, need_gb, min_gpus, min_nodes",
    [
        # training: 18 bytes/param (16 for mixed-precision Adam + ~2 activations); 90% of 141 GB = 126.9 GB usable
        ("training", 70, 141, 8, 1260, 10, 2),
        ("training", 7, 80, 8, 126, 2, 1),
        # inference, bf16: 2 bytes/param + the KV cache of one 8,192-token sequence, 2 x layers x 8 KV heads x 128 x
        # 2 bytes per token (Llama 3.1 model cards: 70B 80 layers -> 2.68 GB; 8B 32 layers -> 1.07 GB)
        ("inference", 70, 141, 8, 140 + 2.68435456, 2, 1),
        ("inference", 8, 80, 8, 16 + 1.073741824, 1, 1),
        # 37.5B takes the layers of the nearest Llama 3.1 size (70B)
        ("inference", 37.5, 100, 8, 75 + 2.68435456, 1, 1),
        ("training", 405, 80, 8, 7290, 102, 13),
    ],
)
def test_size_workload(kind, params, mem, per_node, need_gb, min_gpus, min_nodes):
    s = size_workload(kind, params, mem, per_node)
    assert s.memory_needed_gb == pytest.approx(need_gb)
    assert (s.min_gpus, s.min_nodes) == (min_gpus, min_nodes)
    assert s.fits_one_gpu is (min_gpus == 1) and s.fits_one_node is (min_gpus <= per_node)


@pytest.mark.parametrize(
    "args", [("finetune", 7, 80, 8), ("training", 0, 80, 8), ("training", 7, 0, 8), ("training", 7, 80, 0)]
)
def test_size_workload_rejects_nonsense(args):
    with pytest.raises(ValueError):
        size_workload(*args)


@pytest.mark.parametrize(
    "d, present, absent",
    [
        # Expert verdict: four H200 nodes training 70B with no fabric: 10 GPUs needed, job spans nodes -> fabric needed.
        (
            design(hgx_node(count=4), workload=("training", 70)),
            {"WORKLOAD_NEEDS_FABRIC", "WORKLOAD_SPANS_NODES"},
            set(),
        ),
        # ...with an NDR fabric it is valid; the infos remain (NCS seeds: InfiniBand once work spans nodes).
        (
            design(hgx_node(count=4), workload=("training", 70), fabric=True),
            {"WORKLOAD_SPANS_NODES", "WORKLOAD_TENSOR_PARALLEL"},
            {"WORKLOAD_NEEDS_FABRIC", "WORKLOAD_NOT_ENOUGH_GPUS"},
        ),
        # One H200 node cannot hold 70B training (1,260 GB > 8 x 126.9 GB).
        (design(hgx_node(count=1), workload=("training", 70)), {"WORKLOAD_NOT_ENOUGH_GPUS"}, {"WORKLOAD_NEEDS_FABRIC"}),
        # 70B inference fits one node (168 GB), but not one GPU: tensor parallelism (info).
        (design(hgx_node(nics=0), workload=("inference", 70)), {"WORKLOAD_TENSOR_PARALLEL"}, {"WORKLOAD_SPANS_NODES"}),
        # 8B inference fits one GPU: nothing to say.
        (design(hgx_node(nics=0), workload=("inference", 8)), set(), {"WORKLOAD_TENSOR_PARALLEL"}),
        # 70B-class training on A100 (600 GB/s): H100-class 900 GB/s advised (NCS seeds).
        (
            design(hgx_node(A100_SERVER, HGX_A100, count=3), workload=("training", 70), fabric=True),
            {"WORKLOAD_NVLINK_BANDWIDTH"},
            {"WORKLOAD_NOT_ENOUGH_GPUS"},
        ),
        (design(hgx_node(count=2), workload=("training", 70), fabric=True), set(), {"WORKLOAD_NVLINK_BANDWIDTH"}),
        # 13B training on A100 is not 70B-class.
        (
            design(hgx_node(A100_SERVER, HGX_A100, count=1, nics=0), workload=("training", 13)),
            set(),
            {"WORKLOAD_NVLINK_BANDWIDTH"},
        ),
        # No GPU in the design: the workload cannot be sized.
        (design(group(SYS_821GE_TNHR), workload=("training", 7)), {"WORKLOAD_NOT_SIZED"}, set()),
        # --- GPU-NIC ratio (fabric.md §0.1: one NIC per GPU, rail-optimized) ---
        (design(hgx_node(count=2, nics=4), fabric=True), {"NIC_FEWER_THAN_GPUS"}, set()),
        (design(hgx_node(count=2, nics=8), fabric=True), set(), {"NIC_FEWER_THAN_GPUS"}),
        # inference replicas do not all-reduce between nodes: no ratio warning
        (design(hgx_node(count=2, nics=4), workload=("inference", 8), fabric=True), set(), {"NIC_FEWER_THAN_GPUS"}),
        # a fabric, and one GPU group without compute NICs while another has them: that group cannot join it
        (
            design(hgx_node(count=2), group(SYS_821GE_TNHR, comp(HGX_H200), name="b"), fabric=True),
            {"NIC_MISSING"},
            set(),
        ),
        # no compute NIC anywhere: the fabric planner's FABRIC_NO_RAILS says it, not this engine
        (design(hgx_node(count=2, nics=0), fabric=True), set(), {"NIC_MISSING"}),
        # integrated ConnectX-8 count as compute NICs (SYS-822GS-NB3RT [DIST-PM])
        (
            design(group(SYS_822GS_NB3RT, comp(HGX_B300), count=2), fabric=True),
            set(),
            {"NIC_MISSING", "NIC_FEWER_THAN_GPUS"},
        ),
        # Single node, no fabric: compute NICs are not needed (NCS seeds: "InfiniBand niet nodig").
        (design(hgx_node(count=1)), {"NIC_NOT_NEEDED"}, set()),
        (design(hgx_node(count=1), fabric=True), set(), {"NIC_NOT_NEEDED"}),
        (design(group(SYS_421GE_TNRT3, comp(L40S, 4))), set(), {"NIC_NOT_NEEDED"}),
    ],
)
def test_workload_and_nic_rules(d, present, absent):
    found = codes(d, CAT)
    assert present <= found, found
    assert not (absent & found), found


def test_expert_verdict_four_h200_nodes_70b_without_fabric_is_invalid():
    r = run(design(hgx_node(count=4), workload=("training", 70)))
    assert not r.valid
    assert errors(design(hgx_node(count=4), workload=("training", 70))) == {"WORKLOAD_NEEDS_FABRIC"}
    f = next(f for f in r.findings if f.code == "WORKLOAD_NEEDS_FABRIC")
    assert f.subject == "fabric" and "at least 2 nodes" in both(f).message.en and "compute-fabric" in both(f).message.nl
    assert (r.sizing.min_gpus, r.sizing.min_nodes) == (10, 2)


def test_sizing_message_uses_dutch_numbers():
    # 70B x 16 bytes = 1,120 GB of fully sharded states; 8 x 141 GB x 90% = 1,015.2 GB usable
    r = run(design(hgx_node(count=1), workload=("training", 70)))
    f = next(f for f in r.findings if f.code == "WORKLOAD_NOT_ENOUGH_GPUS")
    assert "1,120 GB" in both(f).message.en and "1,015 GB usable" in both(f).message.en
    assert "1.120 GB" in both(f).message.nl and "1.015 GB bruikbaar" in both(f).message.nl


def test_fewer_nics_says_what_it_costs():
    f = next(f for f in run(design(hgx_node(count=2, nics=4), fabric=True)).findings if f.code == "NIC_FEWER_THAN_GPUS")
    assert (
        "shared by 2 GPUs" in both(f).message.en
        and "200 Gb/s" in both(f).message.en
        and "400 Gb/s" in both(f).message.en
    )
    assert "gedeeld door 2 GPU's" in both(f).message.nl


def test_nics_not_needed_names_the_saving():
    f = next(f for f in run(design(hgx_node(count=1))).findings if f.code == "NIC_NOT_NEEDED")
    assert f.severity == "info"
    assert "EUR 17,200" in both(f).message.en and "€ 17.200" in both(f).message.nl  # 8 x the test list price of CX7_NDR
    assert CX7_NDR.price_eur * 8 == 17200


def test_totals_report_gpus_memory_and_nics():
    r = run(design(hgx_node(count=4), group(SYS_421GE_TNRT3, comp(L40S, 4), name="inference", count=2), fabric=True))
    t = r.totals
    assert (t["nodes"], t["gpus"], t["compute_nics"]) == (6, 4 * 8 + 2 * 4, 32)
    assert t["gpu_memory_gb"] == 4 * 8 * HGX_H200.memory_gb + 2 * 4 * L40S.memory_gb
    assert [g["gpus_per_node"] for g in t["groups"]] == [8, 4]


@pytest.mark.parametrize(
    "nics, en, nl, fix_en, fix_nl",
    [
        (
            1,
            "so the 1 compute NIC carries no GPU traffic",
            "dus de 1 compute-NIC draagt geen GPU-verkeer",
            "Remove the compute NIC, or keep it if",
            "Laat de compute-NIC weg, of houd hem als",
        ),
        (
            8,
            "so the 8 compute NICs carry no GPU traffic",
            "dus de 8 compute-NIC's dragen geen GPU-verkeer",
            "Remove the compute NICs, or keep them if",
            "Laat de compute-NIC's weg, of houd ze als",
        ),
    ],
)
def test_nics_not_needed_agrees_in_number(nics, en, nl, fix_en, fix_nl):
    f = next(f for f in run(design(hgx_node(count=1, nics=nics))).findings if f.code == "NIC_NOT_NEEDED")
    assert en in both(f).message.en and nl in both(f).message.nl
    assert ("Removing it saves" if nics == 1 else "Removing them saves") in both(f).message.en
    assert both(f).fix.en.startswith(fix_en) and both(f).fix.nl.startswith(fix_nl)
