"""What holds the worker's event loop: the garbage collector's policy (:class:`Heap`) and a
probe that measures how long the loop is held (:class:`LoopProbe`). No Faust here.

**Why the collector.** Every task of the worker (the agent, heartbeats, commits, the web)
runs on one event loop, so a pause in any of them delays every tournament's alerts. With
Python's default collector the worker's tail latency was its full collections: measured
in the worker at 100 messages/s with 200 tournaments in flight (``bench/bench_streams.py``),
a full collection every ~30 s, each 50-270 ms and growing with the heap (the imported
modules and the app, ~67 000 tracked objects, and every live tournament's state, ~700 per
10-player round robin), during which nothing else runs. Each collection walks every tracked
object, though nearly all of them are long-lived: the modules and the app for the process's
life, a tournament's earlier rounds for its own.

:class:`Heap` therefore freezes (:func:`gc.freeze`) what survives: after start-up, and
after a collection every :attr:`~streams.settings.Settings.heap_tidy_every` handled
messages, which then walks only the objects made since the last one (a few milliseconds).
Frozen objects are still freed by reference counting, which is how the core's immutable
states die; only garbage *cycles* that reach into frozen objects wait, for the complete
collection (:func:`gc.unfreeze` then a collection of everything) made every
:attr:`~streams.settings.Settings.heap_full_every` seconds, so the memory they hold stays
bounded.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class Heap:
    """The worker's collector policy (see the module's doc); ``every`` 0 leaves Python's."""

    def __init__(
        self, every: int, full_every: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.every = every
        self.full_every = full_every
        self.clock = clock
        self.handled = 0
        self.full_at = clock()

    def start(self) -> None:
        """Freeze what start-up made (modules, the app): no collection walks it again."""
        if self.every:
            gc.collect()
            gc.freeze()
            self.full_at = self.clock()

    def tick(self) -> None:
        """One more message handled: every :attr:`every`, collect what is not frozen, then
        freeze what survived; every :attr:`full_every` seconds, collect everything."""
        if not self.every:
            return
        self.handled += 1
        if self.handled < self.every:
            return
        self.handled = 0
        if self.clock() - self.full_at >= self.full_every:
            self.full_at = self.clock()
            gc.unfreeze()
        gc.collect()
        gc.freeze()


class LoopProbe:
    """How late the event loop runs a task that asks to wake every ``interval`` seconds
    (the time the loop was held by something else), and how long the collector paused;
    one log line every ``report_every`` seconds when the loop was held over ``threshold``
    seconds, naming what the agent was handling then (``current()``)."""

    def __init__(
        self,
        interval: float = 0.05,
        report_every: float = 60.0,
        threshold: float = 0.1,
        current: Callable[[], Any] = lambda: None,
    ) -> None:
        self.interval = interval
        self.report_every = report_every
        self.threshold = threshold
        self.current = current
        self.longest = 0.0
        self.held = 0
        """Times the loop was held over ``threshold`` since the last report."""
        self.during: Any = None
        self.collections = 0
        self.collected = 0.0
        """Seconds of collections since the last report (the longest in ``slowest``)."""
        self.slowest = 0.0
        self._started = 0.0

    def on_collection(self, phase: str, info: dict[str, int]) -> None:
        """A :data:`gc.callbacks` entry: times every collection."""
        if phase == "start":
            self._started = time.perf_counter()
            return
        took = time.perf_counter() - self._started
        self.collections += 1
        self.collected += took
        self.slowest = max(self.slowest, took)

    async def run(self) -> None:
        gc.callbacks.append(self.on_collection)
        try:
            reported = time.monotonic()
            while True:
                asked = time.monotonic()
                await asyncio.sleep(self.interval)
                now = time.monotonic()
                late = now - asked - self.interval
                if late > self.threshold:
                    self.held += 1
                if late > self.longest:
                    self.longest, self.during = late, self.current()
                if now - reported >= self.report_every:
                    self.report()
                    reported = now
        finally:
            gc.callbacks.remove(self.on_collection)

    def report(self) -> None:
        if self.held:
            log.warning(
                "event loop held up to %.0f ms (%d times over %.0f ms) in the last %.0f s; "
                "the longest after the message (partition, offset) %s; the collector ran "
                "%d times, %.0f ms in all, the longest %.0f ms",
                self.longest * 1000,
                self.held,
                self.threshold * 1000,
                self.report_every,
                self.during or "nothing",
                self.collections,
                self.collected * 1000,
                self.slowest * 1000,
            )
        self.longest, self.held, self.during = 0.0, 0, None
        self.collections, self.collected, self.slowest = 0, 0.0, 0.0


__all__ = ["Heap", "LoopProbe"]
