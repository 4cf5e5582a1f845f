"""The configuration's refusals: the exception a change its state refuses raises, and its stable codes (which the
API answers). A module of their own, so the models can name them without importing the services."""

from __future__ import annotations

from enum import StrEnum


class ConfigurationErrorCode(StrEnum):
    """Why a configuration refuses a change: the stable ``code`` of ConfigurationLocked, which the API answers."""

    QUOTE_OPEN = "quote_open"  # the design is under review
    WITH_SALES = "with_sales"  # a customer's design a sales engineer now handles
    HAS_QUOTES = "has_quotes"  # a configuration with quotes is kept
    BUILT = "built"  # the design of a built cluster is its record
    NOT_VALID = "not_valid"  # only a valid design is marked as built


class ConfigurationLocked(Exception):
    """A change the configuration's state refuses (``code``: a stable reason, ConfigurationErrorCode; ``message``:
    for people)."""

    def __init__(self, code: ConfigurationErrorCode, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
