"""How wide a picture's label is set, without measuring it: the pictures (the rack elevation, the fabric diagram)
fit their labels to their boxes and canvas with it."""

from __future__ import annotations


def text_width(body: str, size: float) -> float:
    """About how wide ``body`` is set in a sans-serif face at ``size`` px (DejaVu Sans's advances: capitals and
    figures about 0.68 em, small letters 0.56, spaces, hyphens and dots 0.34)."""
    ems = sum(0.68 if c.isupper() or c.isdigit() else 0.34 if c in " -./·" else 0.56 for c in body)
    return ems * size
