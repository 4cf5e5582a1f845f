"""Serving beyond the one NIM point: TensorRT-LLM's measured rows, and the derived rule checked against the rows held
back from fitting it (the error is printed; bench/serving_error.py prints the whole table)."""

import pytest

from design.model import DesignIn, WorkloadIn
from engines.node.serving import (
    EFFICIENCIES,
    FIT_PART,
    MEASURED_THROUGHPUT,
    fit,
    held_back_errors,
    measured_row,
    median_abs_error,
)
from messages import both

from .parts import HGX_H200, SYS_821GE_TNHR, catalog, design, hgx_node, run, variant


def test_the_measured_rows_cover_three_models_on_h100_and_h200():
    # TensorRT-LLM Performance Overview v1.0: Llama 3.1 8B, 3.3 70B, 3.1 405B in FP8, ten request shapes each
    assert {(p.model, p.gpu_part) for p in MEASURED_THROUGHPUT} == {
        (m, g) for m in ("Llama 3.1 8B", "Llama 3.3 70B", "Llama 3.1 405B") for g in ("HGX-H100-8GPU", "HGX-H200-8GPU")
    }
    assert len(MEASURED_THROUGHPUT) == 60
    row = next(p for p in MEASURED_THROUGHPUT if p.model == "Llama 3.3 70B" and p.gpu_part == "HGX-H100-8GPU")
    assert (row.gpus, row.input_tokens, row.output_tokens, row.tokens_per_second) == (2, 128, 128, 6378)


def test_the_rule_is_fitted_on_h100_only_and_its_held_back_error_is_printed():
    assert fit() == EFFICIENCIES
    rows = held_back_errors()
    assert rows and all(p.gpu_part != FIT_PART or p.source.startswith("NVIDIA NIM") for p, _v, _e in rows)
    for p, value, error in rows:
        print(f"{p.model:24} {p.gpu_part} TP{p.gpus} {p.input_tokens}/{p.output_tokens}: "
              f"measured {p.tokens_per_second:,.0f}, rule {value:,.0f}, error {error:+.0%}")  # fmt: skip
    print(f"held back: {len(rows)} points, median |error| {median_abs_error():.0%}")
    assert median_abs_error() < 0.20
    assert max(abs(e) for _p, _v, e in rows) < 0.5


H200_SERVER = variant(SYS_821GE_TNHR, "TEST-821-H200", accepts=frozenset({"HGX-H200-8GPU"}))
CAT = catalog(H200_SERVER)


@pytest.mark.parametrize("precision", ["fp8", "bf16"])
def test_h200_serving_without_a_nim_point_gets_a_derived_estimate_labelled_as_such(precision):
    d = design(hgx_node(H200_SERVER, HGX_H200, count=2))
    wl = WorkloadIn(
        kind="inference", model_parameters_billion=70, precision=precision, context_tokens=5500, concurrency=200
    )
    r = run(DesignIn(name=d.name, node_groups=d.node_groups, fabric=d.fabric, workload=wl), CAT)
    s = r.sizing
    assert s.tokens_per_second is None and s.replicas_needed is None  # no measured point: nothing passes as one
    assert s.derived_replicas_needed >= 1 and s.derived_tokens_per_second > 0
    assert s.derived_gpus_needed == s.derived_replicas_needed * s.parallelism["tensor"] * s.parallelism["pipeline"]
    names = {a["name"]: a for a in s.assumptions}
    assert names["serving_rule"]["value"] == "derived" and "held back" in names["serving_rule"]["source"]
    said = both(next(f for f in r.findings if f.code == "WORKLOAD_REPLICAS")).message
    assert "Derived by rule" in said.en and "median error against measured points held back" in said.en
    assert "stays unknown" not in said.en and "concurrent sequences at about" in said.en
    assert "afgeleid met een regel" in said.nl and "gelijktijdige reeksen" in said.nl


def test_a_published_tensorrt_llm_row_for_the_model_and_gpu_is_shown_beside_the_derived_figure():
    # TensorRT-LLM v1.0: Llama 3.3 70B FP8 on one H200, 5,000 in / 500 out, 566 output tokens/s at maximum load
    assert measured_row("HGX-H200-8GPU", "fp8", 70, 8, 5500).tokens_per_second == 566
    assert measured_row("HGX-H200-8GPU", "fp8", 70, 8, 30_000) is None  # no row covers requests that long
    assert measured_row("HGX-H200-8GPU", "bf16", 70, 8, 5500) is None  # nor BF16
    d = design(hgx_node(H200_SERVER, HGX_H200))
    wl = WorkloadIn(kind="inference", model_parameters_billion=70, precision="fp8", context_tokens=5500, concurrency=64)
    r = run(DesignIn(name=d.name, node_groups=d.node_groups, fabric=d.fabric, workload=wl), CAT)
    names = {a["name"]: a for a in r.sizing.assumptions}
    assert names["measured_max_tokens_per_second_per_replica"]["value"] == 566
    assert "TensorRT-LLM" in names["measured_max_tokens_per_second_per_replica"]["source"]
    said = both(next(f for f in r.findings if f.code == "WORKLOAD_REPLICAS")).message
    assert "TensorRT-LLM measured 566 output tokens per second on one replica of 1 GPU" in said.en
    assert "TensorRT-LLM mat 566 output-tokens per seconde op één replica van 1 GPU" in said.nl
