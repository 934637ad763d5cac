"""The one agent: read state, call :func:`tracker.transition.apply` (through
:class:`streams.processor.Processor`), write the fact, send the alerts, and mark the fact's
alerts sent once the broker has acknowledged them.

Every message of the input topic is handled in offset order per partition. When a
partition's messages stop arriving in unbroken order (start, rebalance, crash, or Faust's
own skips and repeats) its tournaments are rebuilt first from the ``facts`` table and the
input topic; see :mod:`streams.processor`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from streams.kafka import read_range
from streams.processor import YIELD_EVERY, FactBuffer, Outcome, Processor, Unreplayable
from streams.records import AUDIENCE_OF, SentMark, encode_alert

if TYPE_CHECKING:
    from streams.wiring import Wiring

log = logging.getLogger(__name__)


def attach(w: Wiring) -> Any:
    """Register the agent on ``w.app``; returns it."""
    processor = Processor(topic=w.input.get_topic_name())
    in_flight: dict[int, list[tuple[list[Any], tuple[str, ...]]]] = defaultdict(list)
    """Per partition: the send futures of alerts not yet acknowledged, with their facts."""
    unstored = FactBuffer()
    declared = False

    async def declare() -> None:
        nonlocal declared
        if not declared:
            await asyncio.gather(
                *(t.maybe_declare() for t in (*w.outputs.values(), w.dead_letters))
            )
            declared = True

    def write(key: str, value: bytes) -> None:
        # the changelog partition is the current message's: call only while handling a
        # message of the partition the fact belongs to
        w.facts[key.encode()] = value

    async def send(outcome: Outcome, partition: int, key: bytes | None) -> None:
        batch = unstored.add(outcome, partition)
        if batch is not None:
            write(batch.key(), batch.encode())
        futures = []
        for alert in outcome.alerts:
            topic = w.outputs[AUDIENCE_OF[alert.type]]
            futures.append(
                await topic.send(key=alert.tournament_id.encode(), value=encode_alert(alert))
            )
        if outcome.confirms:
            in_flight[partition].append((futures, outcome.confirms))
        if outcome.dead_letter is not None:
            await w.dead_letters.send(key=key, value=outcome.dead_letter.encode())

    def mark_acknowledged(partition: int) -> None:
        waiting = []
        for futures, facts in in_flight.pop(partition, []):
            if not all(_done(f) for f in futures):
                waiting.append((futures, facts))
            elif all(_succeeded(f) for f in futures):
                for fact in facts:
                    mark = SentMark(partition=partition, fact=fact)
                    write(mark.key(), mark.encode())
        if waiting:
            in_flight[partition] = waiting

    async def rebuild(partition: int, upto: int, from_start: bool = False) -> None:
        started = time.monotonic()
        unstored.drop(partition)  # after the stored chain: re-read from the input
        await declare()
        if from_start:
            start = processor.restart(partition)
        else:
            start = processor.rebuild(partition, upto, list(w.facts.values()))
        again = 0
        records = read_range(w.settings, w.input.get_topic_name(), partition, start, upto)
        try:
            async with contextlib.aclosing(records):
                async for r in records:
                    outcome = processor.handle(r.key, r.value, partition, r.offset)
                    await send(outcome, partition, r.key)
                    again += 1
                    if again % YIELD_EVERY == 0:
                        await asyncio.sleep(0)  # let commits, heartbeats and timers run
            for tid in processor.overdue(partition):
                await catch_up(tid, partition)
        except Unreplayable:
            await rebuild(partition, upto, from_start=True)
            return
        processor.resume(partition, upto)
        log.info(
            "partition %d rebuilt up to offset %d in %.3f s (%d input messages re-read)",
            partition,
            upto,
            time.monotonic() - started,
            again,
        )

    async def catch_up(tid: str, partition: int) -> None:
        """Replay a tournament's stored facts (and send their unacknowledged alerts)."""
        for outcome in processor.materialize(tid):
            await send(outcome, partition, tid.encode())
            await asyncio.sleep(0)

    async def track(stream: Any) -> None:
        async for event in stream.events():
            message = event.message
            partition = message.partition
            try:
                if processor.needs_rebuild(partition, message.offset):
                    await rebuild(partition, message.offset)
                mark_acknowledged(partition)
                waiting = processor.waiting(message.value)
                if waiting is not None:
                    try:
                        await catch_up(waiting, partition)
                    except Unreplayable:
                        await rebuild(partition, message.offset, from_start=True)
                outcome = processor.handle(message.key, message.value, partition, message.offset)
                await send(outcome, partition, message.key)
            except Exception:
                # Bad input never gets here (it goes to the dead letters); this is the broker
                # or a bug. Faust would restart the agent and carry on after the message,
                # which could lose its alerts: stop the process instead, as a SIGKILL would,
                # so that the next worker resumes from the last committed offset.
                log.critical(
                    "stopping the worker on %s[%d]@%d",
                    message.topic,
                    partition,
                    message.offset,
                    exc_info=True,
                )
                logging.shutdown()
                os._exit(70)

    w.processor = processor
    return w.app.agent(w.input, name="streams.agents.track")(track)


def _done(future: Any) -> bool:
    return not isinstance(future, asyncio.Future) or future.done()


def _succeeded(future: Any) -> bool:
    if not isinstance(future, asyncio.Future):
        return True
    return not future.cancelled() and future.exception() is None


__all__ = ["attach"]
