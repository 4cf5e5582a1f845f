"""Workload sizing an ML engineer would sign: mode and precision, the KV cache, errors only where the workload
physically cannot run, and no NVLink advice for GPUs without NVLink."""

import pytest

from design.model import DesignIn, DesignInputError, WorkloadIn
from engines.intake.parse import parse_design
from engines.node.sizing import kv_cache_gb, size_workload
from messages import both

from .parts import (
    HGX_H100,
    HGX_H200,
    L40S,
    SYS_421GE_TNRT3,
    SYS_821GE_TNHR,
    catalog,
    comp,
    group,
    hgx_node,
    run,
    variant,
)

TNHR_H100 = variant(SYS_821GE_TNHR, "TEST-821-H100", accepts=frozenset({"HGX-H100-8GPU", "HGX-H200-8GPU"}))
CAT = catalog(TNHR_H100)


def wl_design(*groups, fabric=False, **workload) -> DesignIn:
    from .parts import design

    d = design(*groups, fabric=fabric)
    return DesignIn(name=d.name, node_groups=d.node_groups, fabric=d.fabric, workload=WorkloadIn(**workload))


@pytest.mark.parametrize(
    "mode, precision, params, advised_bpp, minimum_bpp",
    [
        # ZeRO (Rajbhandari et al. 2020) §3.1: mixed-precision Adam keeps 16 bytes per parameter; +2 activations
        ("pretraining", "bf16", 70, 18, 16),
        ("full-finetune", "bf16", 70, 18, 16),
        # FP8 training (Transformer Engine) keeps master weights and Adam state in higher precision: the same
        ("full-finetune", "fp8", 70, 18, 16),
        # LoRA: frozen weights at the precision + 1% adapters at 16 bytes + 10% activations (Hu et al. 2021)
        ("lora", "bf16", 70, 2 * 1.1 + 0.16, 2),
        # QLoRA (Dettmers et al. 2023): 4-bit base weights, 0.5 byte per parameter
        ("lora", "int4", 65, 0.5 * 1.1 + 0.16, 0.5),
        # inference weights: 2 bytes bf16, 1 byte fp8, 0.5 byte int4
        ("inference", "bf16", 405, 2, 2),
        ("inference", "fp8", 405, 1, 1),
        ("inference", "int4", 405, 0.5, 0.5),
    ],
)
def test_bytes_per_parameter_by_mode_and_precision(mode, precision, params, advised_bpp, minimum_bpp):
    kind = "inference" if mode == "inference" else "training"
    s = size_workload(kind, params, 80, 8, mode=mode, precision=precision)
    assert s.bytes_per_param == pytest.approx(advised_bpp)
    assert s.minimum_gb == pytest.approx(params * minimum_bpp)


@pytest.mark.parametrize(
    "params, context, concurrency, gb, model",
    [
        # 2 x layers x 8 KV heads x 128 x 2 bytes per token (Llama 3.1 model cards / config.json)
        (8, 8192, 1, 2 * 32 * 8 * 128 * 2 * 8192 / 1e9, "Llama 3.1 8B"),
        (70, 8192, 1, 2 * 80 * 8 * 128 * 2 * 8192 / 1e9, "Llama 3.1 70B"),
        (70, 32768, 16, 2 * 80 * 8 * 128 * 2 * 32768 * 16 / 1e9, "Llama 3.1 70B"),
        (405, 131072, 4, 2 * 126 * 8 * 128 * 2 * 131072 * 4 / 1e9, "Llama 3.1 405B"),
    ],
)
def test_kv_cache_per_token_times_context_and_concurrency(params, context, concurrency, gb, model):
    assert kv_cache_gb(params, context, concurrency) == (pytest.approx(gb), model)


def test_70b_full_finetune_on_16_h100_is_not_an_error():
    # Hugging Face, "Fine-tuning Llama 2 70B using PyTorch FSDP": 2 nodes of 8 x 80 GB. 70B x 16 bytes = 1,120 GB
    # of sharded states < 16 x 80 GB x 90% = 1,152 GB usable: tight (a warning), not impossible.
    d = wl_design(
        hgx_node(TNHR_H100, HGX_H100, count=2),
        fabric=True,
        kind="training",
        mode="full-finetune",
        model_parameters_billion=70,
    )
    r = run(d, CAT)
    assert r.valid, [f.code for f in r.findings if f.severity == "error"]
    f = next(f for f in r.findings if f.code == "WORKLOAD_MEMORY_TIGHT")
    assert f.severity == "warning" and "fully sharded (ZeRO-3 or FSDP)" in both(f).message.en


def test_70b_training_on_one_h100_node_is_impossible():
    d = wl_design(hgx_node(TNHR_H100, HGX_H100), kind="training", model_parameters_billion=70)
    f = next(f for f in run(d, CAT).findings if f.code == "WORKLOAD_NOT_ENOUGH_GPUS")
    assert f.severity == "error" and "1,120 GB" in both(f).message.en and "576 GB usable" in both(f).message.en


@pytest.mark.parametrize(
    "precision, board, valid",
    [
        # 405B: weights 810 GB (bf16) > 8 x 80 GB x 90% = 576 GB: one HGX H100 node cannot hold it
        ("bf16", HGX_H100, False),
        # ...one HGX H200 node can (8 x 141 GB x 90% = 1,015 GB)
        ("bf16", HGX_H200, True),
        # FP8 weights are 405 GB: one HGX H100 node holds them
        ("fp8", HGX_H100, True),
    ],
)
def test_405b_inference_on_one_node(precision, board, valid):
    d = wl_design(
        hgx_node(TNHR_H100, board, nics=0), kind="inference", model_parameters_billion=405, precision=precision
    )
    assert run(d, CAT).valid is valid


def test_kv_cache_that_does_not_fit_is_a_warning_not_an_error():
    # 70B bf16 on one H200 node: 140 GB weights fit; 64 sequences of 128k tokens need 2.7 TB of KV cache
    d = wl_design(
        hgx_node(nics=0),
        kind="inference",
        model_parameters_billion=70,
        context_tokens=131072,
        concurrency=64,
    )
    r = run(d)
    assert r.valid
    f = next(f for f in r.findings if f.code == "WORKLOAD_MEMORY_TIGHT")
    assert "KV cache" in both(f).message.en and "64 sequences of 131,072 tokens" in both(f).message.en


def test_l40s_is_not_told_that_nvlink_carries_tensor_parallelism():
    # L40S has no NVLink (NVIDIA AI Enterprise reference architecture): tensor parallelism runs over PCIe
    d = wl_design(group(SYS_421GE_TNRT3, comp(L40S, 8)), kind="inference", model_parameters_billion=70)
    f = next(f for f in run(d).findings if f.code == "WORKLOAD_TENSOR_PARALLEL")
    assert "NVLink carries" not in both(f).fix.en and "no NVLink" in both(f).message.en
    assert "over PCIe" in both(f).message.en and "geen NVLink" in both(f).message.nl


def test_hgx_keeps_tensor_parallelism_inside_nvlink():
    # 405B in FP8 (409 GB with the KV cache) on one HGX H200 node: 4 GPUs of 126.9 GB usable hold it, inside the
    # board's 8-GPU NVLink domain; the other four serve a second replica
    d = wl_design(hgx_node(nics=0), kind="inference", model_parameters_billion=405, precision="fp8")
    f = next(f for f in run(d).findings if f.code == "WORKLOAD_TENSOR_PARALLEL")
    said = both(f).message
    assert "tensor parallelism over 4 GPUs inside one NVLink domain of 8" in said.en
    assert "2 independent replicas" in said.en
    assert "binnen één NVLink-domein van 8" in said.nl


def test_lora_on_int4_fits_where_full_training_cannot():
    # QLoRA: 65B at 0.5 byte per parameter on one 8 x H200 node: fits easily; full training of the same does not
    lora = wl_design(hgx_node(nics=0), kind="training", mode="lora", precision="int4", model_parameters_billion=65)
    full = wl_design(hgx_node(nics=0), kind="training", model_parameters_billion=405)
    assert run(lora).valid and not run(full).valid


BASE = {"schema": "design/v1", "node_groups": [{"count": 1, "server": "SYS-821GE-TNHR"}]}


@pytest.mark.parametrize(
    "workload, expected",
    [
        ({"kind": "inference", "model_parameters_billion": 70}, ("inference", "", "bf16", None, None)),
        (
            {"mode": "inference", "model_parameters_billion": 70, "precision": "fp8", "context_tokens": 4096},
            ("inference", "inference", "fp8", 4096, None),
        ),
        (
            {"mode": "lora", "model_parameters_billion": 8, "precision": "int4"},
            ("training", "lora", "int4", None, None),
        ),
        (
            {"kind": "inference", "mode": "inference", "model_parameters_billion": 8, "concurrency": 32},
            ("inference", "inference", "bf16", None, 32),
        ),
    ],
)
def test_parse_reads_mode_precision_context_and_concurrency(workload, expected):
    wl = parse_design({**BASE, "workload": workload}).workload
    assert (wl.kind, wl.mode, wl.precision, wl.context_tokens, wl.concurrency) == expected


@pytest.mark.parametrize(
    "workload, path",
    [
        ({"kind": "training", "mode": "inference", "model_parameters_billion": 8}, "workload.mode"),
        ({"kind": "training", "model_parameters_billion": 8, "precision": "int4"}, "workload.precision"),
        ({"mode": "pretraining", "model_parameters_billion": 8, "precision": "fp4"}, "workload.precision"),
        ({"kind": "training", "model_parameters_billion": 8, "context_tokens": 4096}, "workload.context_tokens"),
        ({"kind": "inference", "model_parameters_billion": 8, "concurrency": 0}, "workload.concurrency"),
        ({"mode": "finetune", "model_parameters_billion": 8}, "workload.mode"),
        ({"model_parameters_billion": 8}, "workload.kind"),
    ],
)
def test_parse_names_the_bad_workload_field(workload, path):
    with pytest.raises(DesignInputError) as e:
        parse_design({**BASE, "workload": workload})
    assert path in e.value.errors
