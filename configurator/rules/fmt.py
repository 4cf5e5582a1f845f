"""Number formatting for findings: English and Dutch side by side.

English writes 12,000 W and 31.5 GB/s; Dutch writes 12.000 W and 31,5 GB/s. Every finding formats its
numbers through these helpers so the two languages never disagree about a figure.
"""

from __future__ import annotations

from .findings import Text


def num_en(value: float, decimals: int = 0) -> str:
    """English: thousands separated by commas, a decimal point. Trailing ``.0`` is dropped."""
    text = f"{value:,.{decimals}f}"
    if decimals and text.endswith("0" * decimals):
        text = text[: -(decimals + 1)]
    return text


def num_nl(value: float, decimals: int = 0) -> str:
    """Dutch: thousands separated by dots, a decimal comma (12.000; 31,5)."""
    return num_en(value, decimals).replace(",", "\0").replace(".", ",").replace("\0", ".")


def num(value: float, decimals: int = 0) -> tuple[str, str]:
    """The same figure in (English, Dutch)."""
    return num_en(value, decimals), num_nl(value, decimals)


def pct(fraction: float) -> tuple[str, str]:
    """A fraction as a whole percentage in both languages (0.653 -> '65%')."""
    whole = round(fraction * 100)
    return f"{whole}%", f"{whole}%"


def text(en: str, nl: str) -> Text:
    return Text(en=en, nl=nl)


def plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def pcie_en(gen: int | None, lanes: int | None) -> str:
    """'PCIe 5.0 x16', with 'unknown' where a figure is not sourced."""
    g = f"PCIe {gen}.0" if gen is not None else "PCIe (generation unknown)"
    lanes_text = f" x{lanes}" if lanes is not None else " (lanes unknown)"
    return g + lanes_text


def pcie_nl(gen: int | None, lanes: int | None) -> str:
    g = f"PCIe {gen}.0" if gen is not None else "PCIe (generatie onbekend)"
    lanes_text = f" x{lanes}" if lanes is not None else " (aantal lanes onbekend)"
    return g + lanes_text
