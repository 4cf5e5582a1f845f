"""Shared fixtures: the seeded catalogue is loaded once per test database.

Imports are inside the fixtures so that the engine tests (tests/engines/) run without Django.
"""

import dataclasses

import pytest


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    from catalog.services import catalog_load_seed

    with django_db_blocker.unblock():
        catalog_load_seed()


@pytest.fixture
def seeded_catalog(db):
    """The seed catalogue, reloaded if a transactional test flushed it."""
    from catalog.models import Part
    from catalog.services import catalog_load_seed
    from configurator.snapshot import clear_cache

    if not Part.objects.exists():
        catalog_load_seed()
    clear_cache()
    return Part.objects


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """Each test starts with no requests counted (the test client, the live server and every test share
    127.0.0.1, so the per-address quote and draft limits would otherwise carry over from earlier tests) and ends
    in the site's default language."""
    from django.core.cache import cache
    from django.utils import translation

    cache.clear()
    yield
    translation.deactivate()  # a Dutch page rendered by the test client leaves its language active


# --- rule coverage ------------------------------------------------------------------------------------------
# Every code in the rule registry must be emitted by some test. The engines' findings are recorded as the suite
# runs (per xdist worker, sent back through ``workeroutput``); a whole-suite run that leaves a registered code
# unemitted fails. Emitting an unregistered code is impossible: ``registry.finding`` looks the severity up.

_EMITTED: set[str] = set()

# --- the contract test's coverage -------------------------------------------------------------------------------
# tests/api/test_api_schemathesis.py leaves (cases, operations run, operations in the schema) here; split over xdist
# workers, each worker sends its share back, and a run that selects the module whole checks that every operation
# ran, several hundred cases in all (a scheduler that runs one item of the parametrised test and drops the rest,
# as pytest-xdist's --dist loadfile does with its equal test ids, fails here).
SCHEMATHESIS_RUN = pytest.StashKey[tuple[int, list[str], int]]()
SCHEMATHESIS_MIN_CASES = 300


@dataclasses.dataclass
class _ContractRun:
    cases: int = 0
    operations: set[str] = dataclasses.field(default_factory=set)
    expected: int = 0

    def add(self, cases: int, operations: list[str], expected: int) -> None:
        self.cases += cases
        self.operations.update(operations)
        self.expected = max(self.expected, expected)


_SCHEMATHESIS = _ContractRun()


def _record_findings() -> None:
    from engines.findings.finding import Finding

    original = Finding.__init__

    def record(self, *args, **kwargs):
        original(self, *args, **kwargs)
        _EMITTED.add(str(self.code))

    Finding.__init__ = record


_record_findings()


def pytest_testnodedown(node, error):
    _EMITTED.update(node.workeroutput.get("emitted_codes", []))
    if "schemathesis" in node.workeroutput:
        _SCHEMATHESIS.add(*node.workeroutput["schemathesis"])


def pytest_sessionfinish(session, exitstatus):
    ran = session.config.stash.get(SCHEMATHESIS_RUN, None)
    if hasattr(session.config, "workerinput"):
        session.config.workeroutput["emitted_codes"] = sorted(_EMITTED)
        if ran is not None:
            session.config.workeroutput["schemathesis"] = ran
        return
    if ran is not None:
        _SCHEMATHESIS.add(*ran)
    unfiltered = exitstatus == 0 and not any(
        getattr(session.config.option, name, None) for name in ("keyword", "markexpr", "deselect", "lf")
    )
    run = _SCHEMATHESIS
    if unfiltered and run.expected and (len(run.operations) < run.expected or run.cases < SCHEMATHESIS_MIN_CASES):
        session.config.get_terminal_writer().line(
            f"schemathesis: {run.cases} cases over {len(run.operations)} of {run.expected} operations"
            f" (every operation and at least {SCHEMATHESIS_MIN_CASES} cases in a run that selects them all)",
            red=True,
        )
        session.exitstatus = 1
    whole_suite = unfiltered and [str(a).rstrip("/") for a in session.config.args] in (
        [],
        ["tests"],
        [str(session.config.rootpath / "tests")],
    )
    if not whole_suite:
        return
    from engines.findings.registry import REGISTRY

    missing = sorted(set(REGISTRY) - _EMITTED)
    if missing:
        session.config.get_terminal_writer().line(
            f"rule registry: no test emits {', '.join(missing)}; add a test that raises each of them", red=True
        )
        session.exitstatus = 1
