"""Fixtures and hooks every test folder shares.

Tests under ``tests/integration`` and ``tests/browser`` run a real worker on the test broker
(``TRACKER_TEST_BROKER``, of the kind ``TRACKER_TEST_BROKER_KIND`` says; ``.ci/run`` starts
Apache Kafka); without it they are skipped, and the summary says how many and why. The
header and the summary name the broker they ran on; ``TRACKER_REQUIRE_BROKER_KIND=kafka``
(set by ``.ci/run``) stops the run at once unless that is the broker.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from streams.broker import label
from tests.support.pipeline import BROKER, BROKER_KIND, Pipeline

NEEDS_BROKER = ("integration", "browser")
"""The folders of ``tests/`` whose tests need the broker."""

NO_BROKER = "no broker: TRACKER_TEST_BROKER is not set"
ON_BROKER: set[str] = set()
"""The tests that ran on the broker."""


def broker_line() -> str:
    if not BROKER:
        return f"test broker: {NO_BROKER}"
    return f"test broker: {label(BROKER_KIND)} at {BROKER}"


def pytest_configure(config: pytest.Config) -> None:
    required = os.environ.get("TRACKER_REQUIRE_BROKER_KIND")
    if required and (not BROKER or required != BROKER_KIND):
        raise pytest.UsageError(
            f"TRACKER_REQUIRE_BROKER_KIND={required}, but the {broker_line()}: the integration "
            "tests must run on that broker (bash .ci/run starts Apache Kafka)"
        )


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (the default, pyproject.toml): a process per core, and one more when the
    integration tests run. They mostly wait, on the broker and on the worker processes they
    start: with one process per core the whole run used about half of two cores (4 min 3 s
    of wall clock, 4 min 37 s of CPU); a third process fills the waits (3 min 16 s)."""
    cores = os.cpu_count() or 1
    return cores + 1 if BROKER else cores


def pytest_report_header() -> str:
    return broker_line()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    folders = [here / name for name in NEEDS_BROKER]
    for item in items:
        if any(folder in Path(str(item.fspath)).parents for folder in folders):
            item.add_marker(pytest.mark.broker)
            if not BROKER and not item.get_closest_marker("own_broker"):
                item.add_marker(pytest.mark.skip(reason=NO_BROKER))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say why the integration tests were skipped, in the summary a plain ``pytest -q``
    prints (skip reasons are otherwise shown only with ``-rs``)."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if NO_BROKER in str(r.longrepr)]
    if ON_BROKER:
        terminalreporter.write_line(f"{len(ON_BROKER)} tests ran on {label(BROKER_KIND)}")
    if skipped:
        terminalreporter.write_line(
            f"{len(skipped)} integration tests skipped: {NO_BROKER}; "
            "bash .ci/run starts a broker and runs them"
        )


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Count the tests that ran on the broker; called where the summary is printed, also
    for the reports of pytest-xdist's worker processes."""
    if report.when == "call" and "broker" in report.keywords:
        ON_BROKER.add(report.nodeid)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item) -> Iterator[None]:
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


FAILED = pytest.StashKey[bool]()


@pytest.fixture
def pipeline(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Pipeline]:
    label = re.sub(r"[^a-z0-9]+", "-", request.node.name.lower())[:30].strip("-")
    store = getattr(request, "param", "memory://")
    p = Pipeline(tmp_path, label, store)
    try:
        yield p
    finally:
        p.stop()
        keep = os.environ.get("TRACKER_TEST_LOGS")
        if keep and request.node.stash.get(FAILED, False):
            # pytest deletes old tmp dirs; keep the worker logs of failed tests
            target = Path(keep) / p.settings.app_id
            target.mkdir(parents=True, exist_ok=True)
            for w in p.workers:
                shutil.copy(w.log, target / w.log.name)
