"""The fabric planner's finding codes live in ``configurator.findings.fabric_codes``, below both engines; this
import path stays for code written against it."""

from configurator.findings.fabric_codes import FabricCode

__all__ = ["FabricCode"]
