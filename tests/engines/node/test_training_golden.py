"""Time to train on every GPU family the catalogue sells, against published runs (golden cases).

Each row is a run someone measured and published: the tokens it trained, the GPUs and the time (or its throughput).
The estimate uses the catalogue's own peak for the GPU (catalog/seed/catalog.json) and the MFU engines/node/training.py
assumes for that precision and generation; the ratio estimate / measured must lie within x0.67 to x1.5. The five H100
runs first checked against the estimate keep their published bounds (x0.5 to x2).
"""

from dataclasses import dataclass

import pytest

from design.model import DesignIn, WorkloadIn
from engines.node.training import training_time, utilisation
from messages import both

from .parts import (
    HGX_A100,
    HGX_B200,
    HGX_B300,
    HGX_H100,
    SYS_821GE_TNHR,
    SYS_822GS_NB3RT,
    catalog,
    design,
    hgx_node,
    run,
    seeded,
    variant,
)

GB200_GPUS = seeded("GB200-NVL72-GPUS")
GB300_GPUS = seeded("GB300-NVL72-GPUS")
HGX_H200 = seeded("HGX-H200-8GPU")
DAY = 86_400


@dataclass(frozen=True)
class Run:
    """A published run: ``tokens_billion`` trained on ``gpus`` GPUs in ``seconds`` (wall clock of the training)."""

    name: str
    gpu: object
    precision: str
    params_billion: float
    mode: str
    tokens_billion: float
    gpus: int
    seconds: float
    source: str


def gpu_hours(hours: float, gpus: int) -> float:
    return hours * 3600 / gpus


def throughput(tokens_per_second_per_gpu: float, tokens_billion: float, gpus: int) -> float:
    """The seconds a run at this measured throughput takes for ``tokens_billion`` tokens on ``gpus`` GPUs."""
    return tokens_billion * 1e9 / (tokens_per_second_per_gpu * gpus)


def ratio(r: Run) -> float:
    spec = r.gpu
    util = utilisation(r.precision, spec.generation, spec.bf16_dense_tflops, spec.fp8_dense_tflops)
    assert util is not None, f"{spec.part_number} has no sourced peak"
    est = training_time(
        tokens_billion=r.tokens_billion,
        params_billion=r.params_billion,
        mode=r.mode,
        gpus=r.gpus,
        peak_tflops=util.peak_tflops,
        peak_precision=util.precision,
        checkpointing=False,
        mfu=util.mfu,
        mfu_range=util.mfu_range,
    )
    return est.days * DAY / r.seconds


NEMO = "NVIDIA Megatron-Bridge docs/performance-summary.md, 25.11 NeMo container, pre-training, tokens/sec/GPU"
MLPERF6 = "MLPerf Training v6.0 closed, Cisco (mlcommons training_results_v6.0), result_*.txt train_step_time"

GOLDEN = [
    # A100, BF16 (no FP8 on Ampere): Touvron et al. 2023, LLaMA, Table 15, A100-80GB GPU-hours; 1.0 T / 1.4 T tokens
    Run("LLaMA 65B", HGX_A100, "bf16", 65.2, "pretraining", 1400, 2048, gpu_hours(1_022_362, 2048), "LLaMA Table 15"),
    Run("LLaMA 7B", HGX_A100, "bf16", 6.7, "pretraining", 1000, 2048, gpu_hours(82_432, 2048), "LLaMA Table 15"),
    # A100, BF16: Touvron et al. 2023b, Llama 2, Table 2: A100-80GB GPU-hours on 2.0 T tokens
    Run("Llama 2 7B", HGX_A100, "bf16", 6.7, "pretraining", 2000, 2048, gpu_hours(184_320, 2048), "Llama 2 Table 2"),
    Run("Llama 2 13B", HGX_A100, "bf16", 13, "pretraining", 2000, 2048, gpu_hours(368_640, 2048), "Llama 2 Table 2"),
    Run("Llama 2 34B", HGX_A100, "bf16", 34, "pretraining", 2000, 2048, gpu_hours(1_038_336, 2048), "Llama 2 Table 2"),
    Run("Llama 2 70B", HGX_A100, "bf16", 70, "pretraining", 2000, 2048, gpu_hours(1_720_320, 2048), "Llama 2 Table 2"),
    # H100, BF16: Llama 3.1 model card, 30.84 M H100-80GB GPU-hours for 405B on about 15.6 T tokens
    Run("Llama 3.1 405B", HGX_H100, "bf16", 405, "pretraining", 15_600, 16_384, gpu_hours(30.84e6, 16_384), "card"),
    # H100, FP8: Llama 3 70B on 64 H100, 1,602 tokens/s per GPU
    Run("Llama 3 70B FP8", HGX_H100, "fp8", 70, "pretraining", 100, 64, throughput(1602, 100, 64), NEMO),
    # H200, FP8 ('hybrid'): Llama 3.1 8B on 2 x 8 H200, 32 sequences of 8,192 tokens per 1.181 s step
    Run("Llama 3.1 8B FP8", HGX_H200, "fp8", 8, "pretraining", 1.5435, 16, 1.5435e9 / (32 * 8192 / 1.181), MLPERF6),
    # B200, FP8: Llama 3 8B on 8 B200, 30,624 tokens/s per GPU; Llama 3.1 405B on 128 B200, 661
    Run("Llama 3 8B FP8", HGX_B200, "fp8", 8, "pretraining", 100, 8, throughput(30_624, 100, 8), NEMO),
    Run("Llama 3.1 405B FP8", HGX_B200, "fp8", 405, "pretraining", 100, 128, throughput(661, 100, 128), NEMO),
    # B300, FP8: Llama 2 70B LoRA on 8 B300 (Cisco C880A M8), the FP8 steps: 8 sequences of 8,192 tokens in 1.2204 s
    Run("Llama 2 70B LoRA FP8", HGX_B300, "fp8", 70, "lora", 0.0252, 8, 0.0252e9 / (8 * 8192 / 1.2204), MLPERF6),
    # B300, the whole MLPerf run of Llama 3.1 8B on 8 B300 (Cisco C880A M8), 172,032 samples of 8,192 tokens at 0.400 s
    # per 16-sample step: trained mostly in NVFP4, which the product does not offer, so the FP8 estimate errs long
    Run("Llama 3.1 8B (NVFP4 run)", HGX_B300, "fp8", 8, "pretraining", 1.4093, 8, 172_032 / 16 * 0.400, MLPERF6),
    # GB200 NVL72, FP8: Llama 3 70B on 64 GPUs, 4,312 tokens/s per GPU; Llama 3.1 405B on 256, 813
    Run("Llama 3 70B FP8", GB200_GPUS, "fp8", 70, "pretraining", 100, 64, throughput(4312, 100, 64), NEMO),
    Run("Llama 3.1 405B FP8", GB200_GPUS, "fp8", 405, "pretraining", 100, 256, throughput(813, 100, 256), NEMO),
    # GB300 NVL72, FP8: Llama 3 8B on 8 GPUs, 37,556 tokens/s per GPU; Llama 3.1 405B on 256, 999
    Run("Llama 3 8B FP8", GB300_GPUS, "fp8", 8, "pretraining", 100, 8, throughput(37_556, 100, 8), NEMO),
    Run("Llama 3.1 405B FP8", GB300_GPUS, "fp8", 405, "pretraining", 100, 256, throughput(999, 100, 256), NEMO),
]


@pytest.mark.parametrize("r", GOLDEN, ids=lambda r: f"{r.gpu.part_number}-{r.name}")
def test_every_gpu_family_lands_within_x0_67_to_x1_5_of_a_published_run(r):
    value = ratio(r)
    print(f"{r.gpu.part_number:18} {r.name:22} {r.precision}: estimate / measured = x{value:.2f} ({r.source})")
    assert 0.67 <= value <= 1.5, value


def test_each_gpu_family_the_catalogue_sells_for_training_has_a_golden_case():
    families = {r.gpu.part_number for r in GOLDEN}
    assert families == {
        "HGX-A100-8GPU", "HGX-H100-8GPU", "HGX-H200-8GPU", "HGX-B200-8GPU", "HGX-B300-8GPU",
        "GB200-NVL72-GPUS", "GB300-NVL72-GPUS",
    }  # fmt: skip


def test_fp8_on_b300_meets_the_mlperf_run_where_the_bf16_peak_missed_it_by_about_three():
    lora = next(r for r in GOLDEN if r.gpu is HGX_B300)
    assert 0.67 <= ratio(lora) <= 1.5
    # the same run estimated at the BF16 peak (FP8 ignored), as the product did before: far too long
    as_bf16 = Run(**{**lora.__dict__, "precision": "bf16"})
    assert ratio(as_bf16) > 2.3


# The five H100 runs first compared with the estimate, with the ratios the product gave them (x0.5 to x2):
# Phi-3-mini (model card: 512 H100-80G, 7 days, 3.3 T tokens), Phi-4 (1,920 H100-80G, 21 days, 9.8 T tokens),
# SmolLM3 (384 H100, 24 days, 11.2 T tokens), Llama 3.1 8B (model card: 1.46 M H100 GPU-hours, 15 T tokens).
H100_RUNS = [
    ("Phi-3-mini", 3.8, 3_300, 512, 7 * DAY, 1.10),
    ("Phi-4", 14, 9_800, 1920, 21 * DAY, 0.79),
    ("SmolLM3", 3, 11_200, 384, 24 * DAY, 1.25),
    ("Llama 3.1 8B", 8, 15_000, 16_384, gpu_hours(1.46e6, 16_384), 0.50),
]


@pytest.mark.parametrize("name, params, tokens, gpus, seconds, before", H100_RUNS, ids=[r[0] for r in H100_RUNS])
def test_the_five_h100_runs_keep_their_ratio(name, params, tokens, gpus, seconds, before):
    value = ratio(Run(name, HGX_H100, "bf16", params, "pretraining", tokens, gpus, seconds, "model card"))
    assert value == pytest.approx(before, abs=0.01) and 0.5 <= value <= 2


# --- the design's own estimate ----------------------------------------------------------------------------------

TNHR = variant(SYS_821GE_TNHR, "TEST-821-HGX", accepts=frozenset({"HGX-H100-8GPU", "HGX-A100-8GPU"}))
B300_SERVER = SYS_822GS_NB3RT  # the seed's HGX B300 server
CAT = catalog(TNHR)


def wl(node, **workload) -> DesignIn:
    d = design(node, fabric=False)
    return DesignIn(name=d.name, node_groups=d.node_groups, fabric=d.fabric, workload=WorkloadIn(**workload))


def time_finding(result):
    return next(f for f in result.findings if f.code == "WORKLOAD_TRAINING_TIME")


def test_fp8_training_on_b300_is_estimated_at_the_fp8_peak():
    w = {"kind": "training", "mode": "lora", "model_parameters_billion": 70, "training_tokens_billion": 1}
    fp8 = run(wl(hgx_node(B300_SERVER, HGX_B300), precision="fp8", **w), CAT)
    bf16 = run(wl(hgx_node(B300_SERVER, HGX_B300), precision="bf16", **w), CAT)
    names = {a["name"]: a["value"] for a in fp8.sizing.assumptions}
    assert names["peak_dense_tflops_per_gpu"] == 4500 and names["peak_precision"] == "fp8" and names["mfu"] == 0.40
    assert fp8.sizing.training_days < bf16.sizing.training_days / 2
    said = both(time_finding(fp8)).message
    assert "TFLOPS dense FP8 per HGX-B300-8GPU GPU" in said.en and "dense FP8 per HGX-B300-8GPU-GPU" in said.nl


def test_a_short_fine_tune_reads_in_hours_and_millions_of_tokens_never_zero():
    w = {"kind": "training", "mode": "lora", "model_parameters_billion": 8, "training_tokens_billion": 0.05}
    r = run(wl(hgx_node(TNHR, HGX_H100), **w), CAT)
    s = r.sizing.to_dict()
    assert (
        s["training_days"] > 0
        and s["gpu_hours"] > 0
        and s["training_hours"] == pytest.approx(r.sizing.training_days * 24, rel=0.05)
    )
    said = both(time_finding(r)).message
    assert "50 million tokens" in said.en and " hours on 8 GPUs" in said.en and "0 days" not in said.en
    assert "50 miljoen tokens" in said.nl and " uur op 8 GPU's" in said.nl
    assert " 0 GPU-hours" not in said.en


def test_a100_now_has_a_time_and_fp8_work_on_it_says_it_uses_the_bf16_peak():
    w = {"kind": "training", "mode": "full-finetune", "model_parameters_billion": 8, "training_tokens_billion": 10}
    r = run(wl(hgx_node(TNHR, HGX_A100), precision="fp8", **w), CAT)
    names = {a["name"]: a["value"] for a in r.sizing.assumptions}
    assert names["peak_dense_tflops_per_gpu"] == 312 and names["peak_precision"] == "bf16" and names["mfu"] == 0.45
    said = both(time_finding(r)).message
    assert "no FP8 tensor-core peak" in said.en and "geen FP8-piek" in said.nl


def test_an_fp8_deadline_names_the_b300_nodes_that_meet_it_at_the_fp8_estimate():
    w = {"kind": "training", "model_parameters_billion": 8, "training_tokens_billion": 1000, "precision": "fp8"}
    w["target_days"] = 10

    def result(nodes):
        d = design(hgx_node(B300_SERVER, HGX_B300, count=nodes), fabric=True)
        return run(DesignIn(name=d.name, node_groups=d.node_groups, fabric=d.fabric, workload=WorkloadIn(**w)), CAT)

    f = next(f for f in result(1).findings if f.code == "WORKLOAD_DEADLINE_MISSED")
    nodes = f.params.nodes_needed
    assert f.params.peak_precision == "fp8" and f.params.peak_tflops == 4500
    assert "WORKLOAD_DEADLINE_MISSED" not in {x.code for x in result(nodes).findings}
    assert "WORKLOAD_DEADLINE_MISSED" in {x.code for x in result(nodes - 1).findings}
