"""The Dutch Chamber of Commerce (Kamer van Koophandel) number: 8 digits, the number the Handelsregister gives a
company ("KVK number: all you need to know", https://kvk.nl/en/starting/kvk-number-all-you-need-to-know: "an
8-digit KVK number")."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _


def clean_kvk(value: Any) -> str:
    """A KvK number: 8 digits (spaces and dots typed in it are left out); '' when none is given. ValueError with
    the message otherwise."""
    text = "".join(ch for ch in str(value or "") if ch not in " .")
    if not text:
        return ""
    if not (len(text) == 8 and text.isdigit()):
        raise ValueError(_("A KvK number has 8 digits."))
    return text
