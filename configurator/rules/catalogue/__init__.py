"""The node rules' finding codes live in ``configurator.findings.codes``, below both engines; this import path
stays for code written against it. A package rather than a module, so that changes made to the old file follow
the move."""

from configurator.findings.codes import Code

__all__ = ["Code"]
