"""The worker's collector policy and its event-loop probe (:mod:`streams.pauses`)."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
import weakref
from collections.abc import Iterator

import pytest

from streams.pauses import Heap, LoopProbe


class Node:
    """An object that can be in a reference cycle and be watched by a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[Node, weakref.ref[Node]]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return a, weakref.ref(a)


@pytest.fixture
def thawed() -> Iterator[None]:
    """The test process's heap as it was: nothing left frozen."""
    yield
    gc.unfreeze()
    gc.collect()


def test_a_tidy_frees_new_cycles_and_a_full_collection_the_frozen_ones(thawed: None) -> None:
    """Garbage cycles made since the last tidy go at the next one; a cycle frozen while
    alive waits for the complete collection, which comes ``full_every`` seconds on, so the
    memory the policy holds back stays bounded (streams.pauses' doc)."""
    now = [0.0]
    heap = Heap(every=2, full_every=60, clock=lambda: now[0])
    heap.start()
    assert gc.get_freeze_count() > 0

    kept, old = cycle()
    heap.tick()
    heap.tick()  # a tidy: ``kept`` is alive, so frozen
    young = cycle()[1]  # garbage at once
    del kept  # garbage now, but frozen
    heap.tick()
    heap.tick()
    assert young() is None
    assert old() is not None
    gc.collect()
    assert old() is not None  # no collection walks frozen objects...

    now[0] = 60.0
    heap.tick()
    heap.tick()
    assert old() is None  # ...until the complete one
    assert gc.get_freeze_count() > 0  # what survived it is frozen again


def test_every_zero_leaves_the_collector_alone(thawed: None) -> None:
    heap = Heap(every=0, full_every=60)
    heap.start()
    for _ in range(5):
        heap.tick()
    assert gc.get_freeze_count() == 0
    gone = cycle()[1]
    gc.collect()
    assert gone() is None


def test_the_probe_measures_a_held_loop_and_names_the_message(
    caplog: pytest.LogCaptureFixture,
) -> None:
    probe = LoopProbe(interval=0.01, report_every=0.25, threshold=0.1, current=lambda: (2, 41))

    async def run() -> None:
        task = asyncio.create_task(probe.run())
        await asyncio.sleep(0.05)
        time.sleep(0.2)  # a step that holds the loop
        gc.collect()
        await asyncio.sleep(0.3)  # the report is due
        task.cancel()

    with caplog.at_level(logging.WARNING, logger="streams.pauses"):
        asyncio.run(run())
    (line,) = [r.getMessage() for r in caplog.records if "event loop held" in r.getMessage()]
    held = float(line.split("held up to ")[1].split(" ms")[0])
    assert 150 <= held < 1000
    assert "(2, 41)" in line
    assert "the collector ran 0 times" not in line
    assert probe.on_collection not in gc.callbacks
