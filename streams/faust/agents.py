"""The one agent: read state, call :func:`tracker.engine.transition.apply` (through
:class:`streams.processor.Processor`), write the fact, send the alerts, and mark the fact's
alerts sent once the broker has acknowledged them.

Every message of the input topic is handled in offset order per partition. When a
partition's messages stop arriving in unbroken order (start, rebalance, crash, or Faust's
own skips and repeats) its tournaments are rebuilt first from the ``facts`` table and the
input topic; see :mod:`streams.processor`. The :mod:`streams.faust.watch` task shares the
:class:`Tracker` (under its lock) to handle messages Faust leaves undelivered and to retire
finished tournaments.

How the worker stops (exit codes, for a supervisor; see ``deploy/README.md``):

* **70** -- it failed on a message (a bug, not bad input, which is dead-lettered). The
  attempt is recorded in the table first, so the next worker dead-letters that message
  after :attr:`~streams.settings.Settings.max_attempts` failures instead of failing on it
  forever.
* **75** -- the broker failed under it: unreachable for longer than ``broker_wait``, a
  request timed out, or it lost the topics or their messages (deleted, or Tansu restarted:
  it keeps everything in memory). The next worker starts from what the broker has.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from aiokafka.errors import KafkaError

from streams.faust.internals import acting_on, flush_some, rocksdict_of
from streams.kafka import read_range
from streams.pauses import Heap
from streams.processor import (
    YIELD_EVERY,
    Limits,
    Outcome,
    Processor,
    Unreplayable,
    Write,
    archived,
)
from streams.records import AUDIENCE_OF, Archived, key_partition
from streams.settings import Audience, Settings
from streams.titles import title_messages
from tracker.engine.transition import Core, apply

log = logging.getLogger(__name__)

INTERNAL_ERROR = 70
"""Exit code after a failure on a message (EX_SOFTWARE)."""
BROKER_FAILED = 75
"""Exit code when the broker fails under the worker (EX_TEMPFAIL)."""
RETIRE_AT_ONCE = 500
"""Tournaments of a partition retired in one pass at most."""
WRITES_AT_ONCE = 200
"""Table writes made before the producer gets to send them (see :meth:`Tracker.drain`)."""


@dataclasses.dataclass
class Channels:
    """The topics and the table the agent uses (made by :mod:`streams.faust.wiring`)."""

    input: Any
    """The input topic (faust.TopicT)."""
    outputs: dict[Audience, Any]
    dead_letters: Any
    facts: Any
    """The ``facts`` table (faust.Table): bytes keys and values, see :mod:`streams.records`."""
    title_facts: Any = None
    """The internal topic of title facts, keyed by FIDE id (:mod:`streams.titles`); ``None``
    sends none."""


class Tracker:
    """The agent's state and steps (one per worker process)."""

    def __init__(
        self, settings: Settings, channels: Channels, core: Core = apply, heap: Heap | None = None
    ) -> None:
        self.settings = settings
        self.channels = channels
        self.input_name: str = channels.input.get_topic_name()
        self.processor = Processor(topic=self.input_name, limits=Limits.of(settings), core=core)
        self.in_flight: dict[int, list[tuple[list[Any], tuple[str, ...]]]] = defaultdict(list)
        """Per partition: the send futures of alerts not yet acknowledged, with their facts."""
        self.lock = asyncio.Lock()
        """Held while a message (or a partition) is being handled: the agent and the
        watchdog take turns."""
        self.declared = False
        self.delivered_at: dict[int, float] = {}
        """When Faust last delivered a message of each partition (``time.monotonic()``)."""
        self.current: tuple[int, int] | None = None
        """The message being handled (partition, offset)."""
        self.heap = heap or Heap(0, 0)
        """The collector's policy (the worker's; none in tests that build an app)."""

    # ------------------------------------------------------------------ table

    def write(self, partition: int, writes: Iterable[Write]) -> None:
        """Make table writes of a partition (its changelog partition), whatever task runs."""
        table = self.channels.facts
        with acting_on(self.input_name, partition):
            for key, value in writes:
                raw = key.encode()
                if value is not None:
                    table[raw] = value
                elif raw in table:
                    del table[raw]
                else:  # not recovered here (a changelog cut short): delete it there anyway
                    table.send_changelog(partition, raw, None, value_serializer="raw")

    def lookup(self, partition: int) -> Any:
        table = self.channels.facts

        def get(key: str) -> bytes | None:
            with acting_on(self.input_name, partition):
                value: bytes | None = table.get(key.encode())
                return value

        return get

    def stored(self, partition: int) -> Iterator[tuple[bytes, bytes]]:
        """The partition's table entries, and entries with no partition in their key (the
        others are not even read). With ``rocksdb://`` (rocksdict) only the partition's own
        key range is read: its database also holds the archive records of every tournament
        it ever retired, which a rebuild must not walk through."""
        table = self.channels.facts
        db = rocksdict_of(table, partition)
        if db is not None:
            prefix = f"{partition}@".encode()
            for key, value in db.items(from_key=prefix):
                if not key.startswith(prefix):
                    break
                yield key, value
            return
        for key in list(table.keys()):
            owner = key_partition(key)
            if owner is not None and owner != partition:
                continue
            with acting_on(self.input_name, partition):
                value = table.get(key)
            if value is not None:
                yield key, value

    # ------------------------------------------------------------------ sending

    async def declare(self) -> None:
        if not self.declared:
            c = self.channels
            internal = (c.title_facts,) if c.title_facts is not None else ()
            await asyncio.gather(
                *(t.maybe_declare() for t in (*c.outputs.values(), c.dead_letters, *internal))
            )
            self.declared = True

    async def send(self, outcome: Outcome, partition: int, key: bytes | None) -> None:
        if outcome.writes:
            self.write(partition, outcome.writes)
        futures = []
        for alert, payload in zip(outcome.alerts, outcome.payloads, strict=True):
            topic = self.channels.outputs[AUDIENCE_OF[alert.type]]
            futures.append(await topic.send(key=alert.tournament_id.encode(), value=payload))
        facts = self.channels.title_facts
        if facts is not None and outcome.alerts:
            # a fact's alerts count as sent once its title facts are acknowledged too
            for key_, value in title_messages(outcome.alerts, outcome.tournament):
                futures.append(await facts.send(key=key_, value=value))
        if outcome.confirms:
            self.in_flight[partition].append((futures, outcome.confirms))
        if outcome.dead_letter is not None:
            await self.channels.dead_letters.send(key=key, value=outcome.dead_letter.encode())

    def mark_acknowledged(self, partition: int) -> None:
        waiting = []
        for futures, facts in self.in_flight.pop(partition, []):
            if not all(_done(f) for f in futures):
                waiting.append((futures, facts))
            elif all(_succeeded(f) for f in futures):
                self.write(partition, self.processor.acknowledged(partition, facts))
        if waiting:
            self.in_flight[partition] = waiting

    # ------------------------------------------------------------------ handling

    async def process(
        self, key: bytes | None, value: bytes | None, partition: int, offset: int
    ) -> None:
        """Handle one input message (live, or again while rebuilding or catching up)."""
        proc = self.processor
        self.current = (partition, offset)
        self.heap.tick()
        parsed = proc.parse(key, value, partition, offset)
        if isinstance(parsed, Outcome):
            await self.send(parsed, partition, key)
            return
        if await self.ready(parsed.tournament_id, partition, offset):
            await self.send(proc.apply(parsed), partition, key)

    async def ready(self, tid: str, partition: int, offset: int | None = None) -> bool:
        """Bring the tournament into memory: its retired history read back from the input,
        its stored facts replayed (their unacknowledged alerts sent again). ``False`` when
        the message at ``offset`` is one of a retired tournament's own, delivered again (a
        commit that lagged): it was handled before it retired, and is skipped."""
        proc = self.processor
        record = proc.archived.get(tid)
        if record is None and proc.unknown(tid):
            record = archived(self.lookup(partition), tid, partition)
            if record is not None and offset is not None and offset < record.end:
                return False
        if record is not None:
            await self.restore(record)
        if tid in proc.pending:
            for outcome in proc.materialize(tid):
                await self.send(outcome, partition, tid.encode())
                await asyncio.sleep(0)
        return True

    async def restore(self, record: Archived) -> None:
        started = time.monotonic()
        wanted = record.tournament_id.encode()
        messages: list[tuple[int, bytes | None]] = []
        records = read_range(
            self.settings, self.input_name, record.partition, record.first, record.end
        )
        async with contextlib.aclosing(records):
            async for r in records:
                if r.key == wanted:
                    messages.append((r.offset, r.value))
        self.processor.restore(record, messages)
        log.info(
            "tournament %s: retired history read back in %.3f s (%d messages)",
            record.tournament_id,
            time.monotonic() - started,
            len(messages),
        )

    async def rebuild(self, partition: int, upto: int, from_start: bool = False) -> int:
        """Rebuild the partition's tournaments from the table and the input below ``upto``;
        the number of input messages handled again."""
        started = time.monotonic()
        proc = self.processor
        await self.declare()
        self.in_flight.pop(partition, None)
        if from_start:
            start = proc.restart(partition)
        else:
            recovery = proc.recover(partition, upto)
            for i, (key, value) in enumerate(self.stored(partition), 1):
                recovery.take(key, value)
                if i % YIELD_EVERY == 0:
                    await asyncio.sleep(0)  # let commits, heartbeats, the web and timers run
            start = recovery.finish(self.lookup(partition))
        try:
            again = await self.reread(partition, start, upto)
            for tid in proc.overdue(partition):
                await self.ready(tid, partition)
        except Unreplayable:
            return await self.rebuild(partition, upto, from_start=True)
        proc.resume(partition, upto)
        log.info(
            "partition %d rebuilt up to offset %d in %.3f s (%d input messages re-read)",
            partition,
            upto,
            time.monotonic() - started,
            again,
        )
        return again

    async def deliver(
        self, key: bytes | None, value: bytes | None, partition: int, offset: int
    ) -> None:
        """A message as Faust delivers it."""
        proc = self.processor
        self.delivered_at[partition] = time.monotonic()
        if proc.already_handled(partition, offset):
            return
        if proc.needs_rebuild(partition, offset):
            await self.rebuild(partition, offset)
        self.mark_acknowledged(partition)
        try:
            await self.process(key, value, partition, offset)
        except Unreplayable:
            await self.rebuild(partition, offset, from_start=True)
            await self.process(key, value, partition, offset)

    async def catch_up(self, partition: int, end: int) -> int:
        """Handle the partition's messages up to ``end`` that Faust has not delivered (the
        watchdog's part); the number handled."""
        proc = self.processor
        start = proc.next_offset.get(partition)
        if start is None:
            again = await self.rebuild(partition, end)
            proc.caught_up(partition, end)
            if again:
                log.warning(
                    "partition %d: %d messages below offset %d had not been handled",
                    partition,
                    again,
                    end,
                )
            return again
        self.mark_acknowledged(partition)
        handled = await self.reread(partition, start, end)
        proc.caught_up(partition, end)
        return handled

    async def reread(self, partition: int, start: int, end: int) -> int:
        """Read the partition's input from ``start`` to ``end`` and handle it; the number of
        messages."""
        handled = 0
        records = read_range(self.settings, self.input_name, partition, start, end)
        async with contextlib.aclosing(records):
            async for r in records:
                await self.process(r.key, r.value, partition, r.offset)
                handled += 1
                if handled % YIELD_EVERY == 0:
                    await self.drain()
                    await asyncio.sleep(0)
        return handled

    async def retire(self, partition: int, now: float | None = None) -> int:
        """Retire the partition's tournaments that are due (the watchdog's part), at most
        :data:`RETIRE_AT_ONCE` at a time."""
        proc = self.processor
        self.mark_acknowledged(partition)
        due = proc.due(partition, now)[:RETIRE_AT_ONCE]
        if due:
            writes = proc.retire(partition, due)
            for start in range(0, len(writes), WRITES_AT_ONCE):
                self.write(partition, writes[start : start + WRITES_AT_ONCE])
                await self.drain()
        return len(due)

    async def drain(self) -> None:
        """Let the producer send the table writes buffered so far (Faust's conductor does it
        between two messages; a long step writing a lot must do it itself)."""
        while not await flush_some(self.channels.facts.app, WRITES_AT_ONCE):
            await asyncio.sleep(0.01)

    def behind(self) -> bool:
        """Whether input messages of this worker's partitions are waiting to be handled:
        the end of a partition (the highwater of Faust's fetches) beyond the next offset to
        handle. The titles agent gives way while it is so (:mod:`streams.faust.titles`)."""
        consumer = self.channels.facts.app.consumer
        for partition, next_offset in list(self.processor.next_offset.items()):
            try:
                end = consumer.highwater(topic_partition(self.input_name, partition))
            except Exception:  # no consumer yet, or a partition no longer assigned
                continue
            if isinstance(end, int) and end > next_offset:
                return True
        return False

    # ------------------------------------------------------------------ failures

    async def guarded(self, partition: int, offset: int, step: Any) -> None:
        """Run a step on the message at ``offset``; on failure, stop the process (see the
        module's doc) -- Faust would restart the agent and carry on after the message,
        which could lose its alerts."""
        self.current = None
        try:
            await step
        except (KafkaError, TimeoutError, OSError) as exc:
            stop(
                BROKER_FAILED,
                f"the broker failed while handling {self.input_name}[{partition}]@{offset}: "
                f"{type(exc).__name__}: {exc}",
                exc,
            )
        except Exception as exc:
            if self.current is not None and self.current[0] == partition:
                offset = self.current[1]  # the message inside a rebuild or catch-up
            log.critical("failed on %s[%d]@%d", self.input_name, partition, offset, exc_info=True)
            await self.record_failure(partition, offset, f"{type(exc).__name__}: {exc}")
            stop(INTERNAL_ERROR, f"stopping on {self.input_name}[{partition}]@{offset}")

    async def record_failure(self, partition: int, offset: int, error: str) -> None:
        """Store the attempt on its own (flushed before and after), so that a changelog
        read short still ends with it."""
        producer = self.channels.facts.app.producer
        try:
            await asyncio.wait_for(producer.flush(), 10)
            self.write(partition, [self.processor.failed(partition, offset, error)])
            await asyncio.wait_for(producer.flush(), 10)
        except Exception:
            log.exception("could not record the failed attempt")


def stop(code: int, message: str, exc: BaseException | None = None) -> None:
    """Log loudly and end the process at once with ``code`` (no clean-up that could hang
    on a broken broker)."""
    log.critical("%s; exiting with code %d", message, code, exc_info=exc)
    logging.shutdown()
    os._exit(code)


def attach(
    app: Any, settings: Settings, channels: Channels, core: Core = apply, heap: Heap | None = None
) -> tuple[Any, Tracker]:
    """Register the agent on ``app``, its facts going through ``core`` (and the collector
    under ``heap``'s policy); returns it and its :class:`Tracker`."""
    tracker = Tracker(settings, channels, core, heap)

    async def track(stream: Any) -> None:
        async for event in stream.events():
            message = event.message
            async with tracker.lock:
                await tracker.guarded(
                    message.partition,
                    message.offset,
                    tracker.deliver(message.key, message.value, message.partition, message.offset),
                )

    agent = app.agent(channels.input, name="streams.faust.agents.track")(track)
    return agent, tracker


def topic_partition(topic: str, partition: int) -> Any:
    """Faust's ``TP`` of the partition."""
    from faust.types import TP

    return TP(topic, partition)


def _done(future: Any) -> bool:
    return not isinstance(future, asyncio.Future) or future.done()


def _succeeded(future: Any) -> bool:
    if not isinstance(future, asyncio.Future):
        return True
    return not future.cancelled() and future.exception() is None


__all__ = ["BROKER_FAILED", "INTERNAL_ERROR", "Channels", "Tracker", "attach", "stop"]
