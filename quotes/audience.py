"""Which findings a customer reads, and how: the one home of the two audiences' rule.

A customer reads the design's warnings in the product's own words. What is for the sales engineer stays with them:
notes written for sales (an alternative to offer), and notes about a fact the catalogue does not hold (a part's
power, height, plug, slot list, an unverified combination), whose wording ("not known from the sources", "add it
from the data sheet") speaks to whoever keeps the catalogue. A customer's document says once, in plain words, that
such figures are confirmed with the manufacturers.
"""

from __future__ import annotations

# Codes that name a fact the catalogue does not hold.
_GAP_MARKS = ("UNKNOWN", "UNVERIFIED", "NOT_CATALOGUED")
# Notes addressed to the sales engineer ("If the customer prefers Ethernet, …").
SALES_NOTES = frozenset({"FABRIC_ROCE_ALTERNATIVE"})


def is_catalogue_gap(code: str) -> bool:
    return any(mark in code for mark in _GAP_MARKS)


def for_customer(code: str, severity: str) -> bool:
    """Whether a customer's page shows this finding: every error and warning, and the notes that are neither for
    sales nor about a gap in the catalogue."""
    if severity != "info":
        return True
    return code not in SALES_NOTES and not is_catalogue_gap(code)
