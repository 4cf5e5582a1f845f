"""The derived serving rule against measured points: fits the rule's two efficiencies on TensorRT-LLM's H100 FP8 rows
and prints its error on the rows held back (TensorRT-LLM's H200 rows and NVIDIA's NIM saturation point).

    PYTHONPATH=. .venv/bin/python bench/serving_error.py
"""

from __future__ import annotations

from engines.node.serving import (
    EFFICIENCIES,
    fit,
    fit_points,
    held_back_errors,
    log_error,
    median_abs_error,
)


def main() -> None:
    fitted = fit()
    print(
        f"fitted on {len(fit_points())} H100 rows: bandwidth efficiency {fitted[0]:.2f}, decode compute "
        f"{fitted[1]:.2f}, prefill {fitted[2]:.2f} (in use: {', '.join(f'{e:.2f}' for e in EFFICIENCIES)})"
    )
    print(f"mean |log error| on the fitting rows: {log_error(fit_points(), fitted):.3f}")
    print(f"{'model':24} {'GPU':15} {'TP':>3} {'in/out':>11} {'measured':>9} {'rule':>7} {'error':>7}")
    for point, value, error in held_back_errors():
        shape = f"{point.input_tokens}/{point.output_tokens}"
        print(
            f"{point.model:24} {point.gpu_part:15} {point.gpus:>3} {shape:>11} {point.tokens_per_second:>9,.0f} "
            f"{value:>7,.0f} {error:>+7.0%}"
        )
    errors = [abs(e) for _p, _v, e in held_back_errors()]
    print(f"held back: {len(errors)} points, median |error| {median_abs_error():.0%}, max {max(errors):.0%}")


if __name__ == "__main__":
    main()
