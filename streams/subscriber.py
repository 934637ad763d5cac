"""Reading alerts from the output topics, dropping repeated alert ids (what Kafka's
at-least-once delivery, or a worker restarted after a crash, may send twice)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, AsyncIterator, Iterable

from aiokafka import TopicPartition

from streams.kafka import caught_up, consumer, partitions_of, started
from streams.records import DeadLetter, decode_alert
from streams.settings import Audience, Settings
from tracker import events as ev


async def read_topics(
    settings: Settings,
    topics: Iterable[str],
    *,
    follow: bool = False,
    timeout: float | None = None,
    idle: float | None = None,
) -> AsyncIterator[tuple[str, bytes]]:
    """(topic, value) of every message in the topics, from the beginning. Without
    ``follow``, stops once every partition has been read to its highwater (as the Fetch
    responses report it); with ``follow``, keeps going. ``timeout`` bounds the whole read;
    ``idle`` stops once that many seconds pass without a new message (after the first)."""
    records = read_records(settings, topics, follow=follow, timeout=timeout, idle=idle)
    async with contextlib.aclosing(records):
        async for topic, value, _ in records:
            yield topic, value


async def read_records(
    settings: Settings,
    topics: Iterable[str],
    *,
    follow: bool = False,
    timeout: float | None = None,
    idle: float | None = None,
) -> AsyncGenerator[tuple[str, bytes, int], None]:
    """As :func:`read_topics`, with each message's timestamp (milliseconds since the epoch,
    as the producer set it; ``-1`` when the broker gives none)."""
    names = list(topics)
    async with started(consumer(settings), settings) as reader:
        begun = time.monotonic()
        last_message: float | None = None
        assigned: list[TopicPartition] = []
        refreshed = 0.0
        while True:
            now = time.monotonic()
            if timeout is not None and now - begun > timeout:
                return
            if idle is not None and last_message is not None and now - last_message > idle:
                return
            if len(assigned) < len(names) * settings.partitions and now - refreshed > 1.0:
                refreshed = now
                tps = await partitions_of(reader, names)
                if len(tps) != len(assigned):
                    positions = {tp: await reader.position(tp) for tp in assigned}
                    reader.assign(tps)
                    for tp in tps:
                        reader.seek(tp, positions.get(tp, 0))
                    assigned = tps
            if not assigned:
                if not follow:
                    return
                await asyncio.sleep(0.2)
                continue
            batches = await reader.getmany(timeout_ms=200, max_records=5000)
            for tp, records in batches.items():
                for record in records:
                    if record.value is not None:
                        last_message = time.monotonic()
                        stamp = record.timestamp if record.timestamp is not None else -1
                        yield tp.topic, record.value, stamp
            if not follow and not batches and await caught_up(reader, assigned):
                return


async def alerts(
    settings: Settings,
    audiences: Iterable[Audience] | None = None,
    *,
    follow: bool = False,
    timeout: float | None = None,
    idle: float | None = None,
) -> AsyncIterator[ev.OutputEvent]:
    """Alerts of the chosen audiences (default: all), each alert id once."""
    wanted = set(audiences or settings.output_topics)
    topics = [name for audience, name in settings.output_topics.items() if audience in wanted]
    seen: set[str] = set()
    async for _, value in read_topics(settings, topics, follow=follow, timeout=timeout, idle=idle):
        alert = decode_alert(value)
        if alert.alert_id in seen:
            continue
        seen.add(alert.alert_id)
        yield alert


async def dead_letters(
    settings: Settings, *, follow: bool = False, timeout: float | None = None
) -> AsyncIterator[DeadLetter]:
    async for _, value in read_topics(
        settings, [settings.topic("dead_letters")], follow=follow, timeout=timeout
    ):
        yield DeadLetter.model_validate_json(value)


__all__ = ["alerts", "dead_letters", "read_records", "read_topics"]
