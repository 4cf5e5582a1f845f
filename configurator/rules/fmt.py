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


def pcie_en(gen: int | None, lanes: int | None, noun: str = "") -> str:
    """A PCIe link in English, with the unknown part said in words, never as a bracketed placeholder.

    With a noun: 'PCIe 5.0 x16 slots', 'PCIe 5.0 slots of unknown width', 'x16 slots of unknown PCIe
    generation', 'slots of unknown PCIe generation and width'. Without one: 'PCIe 5.0 x16', 'PCIe 5.0 of unknown
    width', 'PCIe x16 of unknown generation', 'PCIe of unknown generation and width'.
    """
    g = f"PCIe {gen}.0" if gen is not None else None
    x = f"x{lanes}" if lanes is not None else None
    if not noun:
        if g and x:
            return f"{g} {x}"
        if g:
            return f"{g} of unknown width"
        if x:
            return f"PCIe {x} of unknown generation"
        return "PCIe of unknown generation and width"
    if g and x:
        return f"{g} {x} {noun}"
    if g:
        return f"{g} {noun} of unknown width"
    if x:
        return f"{x} {noun} of unknown PCIe generation"
    return f"{noun} of unknown PCIe generation and width"


def pcie_nl(gen: int | None, lanes: int | None, noun: str = "") -> str:
    """The same in Dutch; a noun is joined with a hyphen ('PCIe 5.0 x16-slots', 'PCIe 5.0-slots met onbekende
    breedte', 'x16-slots met onbekende PCIe-generatie', 'slots met onbekende PCIe-generatie en -breedte')."""
    g = f"PCIe {gen}.0" if gen is not None else None
    x = f"x{lanes}" if lanes is not None else None
    if not noun:
        if g and x:
            return f"{g} {x}"
        if g:
            return f"{g} met onbekende breedte"
        if x:
            return f"PCIe {x} met onbekende generatie"
        return "PCIe met onbekende generatie en breedte"
    if g and x:
        return f"{g} {x}-{noun}"
    if g:
        return f"{g}-{noun} met onbekende breedte"
    if x:
        return f"{x}-{noun} met onbekende PCIe-generatie"
    return f"{noun} met onbekende PCIe-generatie en -breedte"


def a_en(phrase: str) -> str:
    """The English indefinite article for a phrase: 'an x16 slot', 'an OCP 3.0 card', 'a PCIe 5.0 slot'."""
    return "an" if phrase[:1].lower() in "aeioux" else "a"  # "x16" is read "ex-sixteen"; no "a unique" here
