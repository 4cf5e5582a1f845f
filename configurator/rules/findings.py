"""``Finding`` and ``Severity`` live in ``configurator.findings.finding``, below both engines; this import path
stays for code written against it."""

from configurator.findings.finding import SEVERITY_ORDER, Finding, Severity

__all__ = ["SEVERITY_ORDER", "Finding", "Severity"]
