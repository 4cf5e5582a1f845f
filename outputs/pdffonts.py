"""The offer PDF's typefaces: DejaVu Sans (regular, bold, oblique) and DejaVu Sans Mono (regular, bold), shipped with
the product in outputs/fonts (Bitstream Vera licence, outputs/fonts/LICENSE), so an offer is laid out the same on every
machine, whatever fonts it has installed. Registered with ReportLab once per process."""

from __future__ import annotations

import threading
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent / "fonts"
SANS, BOLD, ITALIC, MONO, MONO_BOLD = "Offer", "Offer-Bold", "Offer-Italic", "Offer-Mono", "Offer-MonoBold"
FILES = {
    SANS: "DejaVuSans.ttf",
    BOLD: "DejaVuSans-Bold.ttf",
    ITALIC: "DejaVuSans-Oblique.ttf",
    MONO: "DejaVuSansMono.ttf",
    MONO_BOLD: "DejaVuSansMono-Bold.ttf",
}
_LOCK = threading.Lock()
_REGISTERED = False


def register() -> None:
    """Idempotent and thread-safe. Paragraph markup's <b> and <i> pick the family's faces (there is no bold oblique
    face: bold italic text is set in bold)."""
    global _REGISTERED
    if _REGISTERED:
        return
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    with _LOCK:
        if _REGISTERED:
            return
        for name, file in FILES.items():
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / file)))
        for family, regular, bold, italic in ((SANS, SANS, BOLD, ITALIC), (MONO, MONO, MONO_BOLD, MONO)):
            addMapping(family, 0, 0, regular)
            addMapping(family, 1, 0, bold)
            addMapping(family, 0, 1, italic)
            addMapping(family, 1, 1, bold)
        _REGISTERED = True
