"""What holds the worker's event loop: the collector's policy and the loop probe
(:mod:`streams.pauses`), and the titles agent giving way to the tournaments' input
(:mod:`streams.faust.titles`)."""

from __future__ import annotations

import asyncio
import gc
import itertools
import logging
import time
import weakref
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from faust.types import TP

from streams.faust import titles as titles_agent
from streams.faust.agents import Channels, Tracker
from streams.faust.titles import TitlesAgent
from streams.pauses import Heap, LoopProbe
from streams.settings import Settings


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
        gc.collect(0)
        await asyncio.sleep(0.3)  # the report is due
        task.cancel()

    with caplog.at_level(logging.WARNING, logger="streams.pauses"):
        asyncio.run(run())
    (line,) = [r.getMessage() for r in caplog.records if "event loop held" in r.getMessage()]
    held = float(line.split("held up to ")[1].split(" ms")[0])
    assert held >= 150  # more on a loaded machine: nothing else runs meanwhile
    assert "(2, 41)" in line
    assert "the collector ran 0 times" not in line
    assert probe.on_collection not in gc.callbacks


class Consumer:
    """The ends of the input partitions as Faust's consumer last fetched them."""

    def __init__(self, ends: dict[int, int]) -> None:
        self.ends = ends

    def highwater(self, tp: TP) -> int:
        if tp.partition not in self.ends:
            raise AssertionError("Partition is not assigned")
        return self.ends[tp.partition]


def tracker_with(ends: dict[int, int], handled: dict[int, int]) -> Tracker:
    app = SimpleNamespace(consumer=Consumer(ends))
    topic = SimpleNamespace(get_topic_name=lambda: "input")
    tracker = Tracker(Settings(), Channels(topic, {}, None, SimpleNamespace(app=app)))
    tracker.processor.next_offset.update(handled)
    return tracker


def test_the_tournament_agent_is_behind_while_input_waits() -> None:
    assert tracker_with({0: 5, 1: 9}, {0: 5, 1: 8}).behind()
    assert not tracker_with({0: 5, 1: 9}, {0: 5, 1: 9}).behind()
    assert not tracker_with({0: 5}, {0: 5, 3: 0}).behind()  # partition 3 no longer assigned


async def test_the_titles_agent_gives_way_to_waiting_input_for_a_bounded_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A title fact waits while the tournament agent has input waiting, so that judging
    it does not hold the tournaments' alerts, and no longer than GIVE_WAY_AT_MOST, so that
    the titles never starve (streams.faust.titles.TitlesAgent.give_way)."""
    busy = iter([True, True, True, False])
    looks: list[float] = []

    def tournaments_busy() -> bool:
        looks.append(time.monotonic())
        return next(busy, False)

    topic = SimpleNamespace(get_topic_name=lambda: "title-facts")
    agent = TitlesAgent(Settings(), topic, None, None, None, busy=tournaments_busy)
    await agent.give_way()
    assert len(looks) == 4
    assert looks[-1] - looks[0] >= 3 * titles_agent.GIVE_WAY_STEP * 0.9

    # bounded: on a clock that advances a second at each reading, a tournament agent busy
    # for good is looked at until the deadline five seconds on, and no longer (a wall-clock
    # bound failed whenever a loaded machine held the test longer than the bound)
    monkeypatch.setattr(titles_agent, "GIVE_WAY_AT_MOST", 5.0)
    readings = itertools.count()
    monkeypatch.setattr(titles_agent, "time", SimpleNamespace(monotonic=lambda: next(readings)))
    busy_looks: list[int] = []

    def always_busy() -> bool:
        busy_looks.append(1)
        return True

    agent.busy = always_busy
    await agent.give_way()
    assert len(busy_looks) == 5  # each followed by a reading: the fifth is the deadline
