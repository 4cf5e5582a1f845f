"""The rule registry lives in ``configurator.findings.registry``, below both engines; this import path stays for
code written against it. A package rather than a module, so that changes made to the old file follow the move."""

from configurator.findings.registry import REGISTRY, finding
from configurator.findings.rule import INFO, E, Rule, W, gettext_noop

__all__ = ["E", "INFO", "REGISTRY", "W", "Rule", "finding", "gettext_noop"]
