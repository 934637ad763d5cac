"""Faust's private names the worker uses (:mod:`streams.faust.internals`), checked against
the installed Faust: an upgrade that moves one fails here, naming it, rather than in a
running worker. No broker: the app is built and never started."""

from __future__ import annotations

import inspect
import tomllib
from importlib.metadata import version
from pathlib import Path
from unittest.mock import patch

import pytest
from packaging.requirements import Requirement

from streams.faust import internals
from streams.faust.wiring import Wiring, build
from streams.settings import Settings
from tests.support.paths import ROOT


def wiring_with(store: str, tmp: Path) -> Wiring:
    settings = Settings(
        broker="kafka://127.0.0.1:1", app_id="internals-test", store=store, data_dir=str(tmp)
    )
    w = build(settings)
    w.app.finalize()
    return w


@pytest.fixture
def wiring(tmp_path: Path) -> Wiring:
    return wiring_with("memory://", tmp_path)


def test_the_installed_faust_is_a_version_pyproject_allows() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pins = {
        r.name: r.specifier
        for r in map(Requirement, project["project"]["optional-dependencies"]["streams"])
    }
    installed = version("faust-streaming")
    assert pins["faust-streaming"].contains(installed), (
        f"faust-streaming {installed} is not the tested range {pins['faust-streaming']}: "
        "run tests/unit/test_faust_internals.py and the integration tests, then move the pin"
    )
    assert any(spec.operator in ("<", "<=", "==", "~=") for spec in pins["faust-streaming"]), (
        "faust-streaming needs an upper bound: streams/faust/internals.py uses its private names"
    )


def test_acting_on_sends_table_writes_to_the_named_partition(wiring: Wiring) -> None:
    from faust.streams import current_event

    topic = wiring.input.get_topic_name()
    with patch.object(type(wiring.facts), "send_changelog") as sent:
        with internals.acting_on(topic, 3):
            event = current_event()
            assert (event.message.topic, event.message.partition) == (topic, 3)
            wiring.facts[b"k"] = b"v"
            assert wiring.facts.get(b"k") == b"v"
        assert current_event() is None
    assert sent.call_args.args[0] == 3, "Faust took the partition from elsewhere"


def test_rocksdict_of_opens_one_partitions_database(tmp_path: Path) -> None:
    pytest.importorskip("rocksdict")
    rocks = wiring_with("rocksdb://", tmp_path)
    db = internals.rocksdict_of(rocks.facts, 2)
    db[b"2@x"] = b"y"
    assert list(db.items(from_key=b"2@")) == [(b"2@x", b"y")]
    assert internals.rocksdict_of(rocks.facts, 2) is db


def test_rocksdict_of_the_memory_store_is_none(wiring: Wiring) -> None:
    assert internals.rocksdict_of(wiring.facts, 0) is None


def test_read_offset_is_where_faust_records_what_it_delivered(wiring: Wiring) -> None:
    from faust.transport.consumer import Consumer
    from faust.types import TP

    consumer = wiring.app.consumer
    tp = TP(wiring.input.get_topic_name(), 1)
    assert internals.read_offset(consumer, tp) is None
    consumer._read_offset[tp] = 41
    assert internals.read_offset(consumer, tp) == 41
    # and Faust still sets it as it hands messages to the streams
    assert "self._read_offset.__setitem__" in inspect.getsource(Consumer._drain_messages)


async def test_flush_some_with_an_empty_buffer(wiring: Wiring) -> None:
    buffer = wiring.app.producer.buffer
    assert buffer.size == 0
    assert inspect.iscoroutinefunction(buffer.flush_atmost)
    assert await internals.flush_some(wiring.app, 10) is True


async def test_the_worker_consumer_fetches_with_the_configured_wait(tmp_path: Path) -> None:
    """Faust 0.15 hard-codes a 1.5 s fetch wait, which starved the agent under load
    (:func:`internals.set_fetch_wait`); the consumer the worker starts gets the setting's."""
    from faust.transport.drivers.aiokafka import AIOKafkaConsumerThread

    settings = Settings(
        broker="kafka://127.0.0.1:1",
        app_id="fetch-wait",
        data_dir=str(tmp_path),
        worker_fetch_wait_ms=37,
    )
    w = build(settings)
    w.app.finalize()
    thread = w.app.consumer._thread
    assert isinstance(thread, AIOKafkaConsumerThread)
    consumer = thread._create_worker_consumer(w.app.transport)
    try:
        assert consumer._fetch_max_wait_ms == 37
        # what the consumer's start hands its fetcher
        assert "fetch_max_wait_ms=self._fetch_max_wait_ms" in inspect.getsource(
            type(consumer).start
        )
    finally:
        await consumer.stop()


def test_no_other_module_uses_faust_private_names() -> None:
    """Private names of Faust appear in :mod:`streams.faust.internals` only."""
    private = (
        "_current_event",
        "_db_for_partition",
        "_read_offset",
        "use_rocksdict",
        "_create_worker_consumer",
        "_fetch_max_wait_ms",
    )
    offenders = []
    for path in [*ROOT.glob("streams/**/*.py"), *ROOT.glob("cli/*.py"), *ROOT.glob("bench/*.py")]:
        if path.name == "internals.py":
            continue
        text = path.read_text(encoding="utf-8")
        offenders += [f"{path.relative_to(ROOT)}: {n}" for n in private if n in text]
    assert offenders == []
