"""Reading alerts from the output topics, dropping repeated alert ids (what Kafka's
at-least-once delivery, or a worker restarted after a crash, may send twice)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable
from typing import TypeVar

from streams.kafka import read_from_start
from streams.records import DeadLetter, WebhookDeadLetter, decode_alert
from streams.settings import Audience, Settings
from tracker import contract as ev

T = TypeVar("T")


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
    caught_up_once: Callable[[], None] | None = None,
) -> AsyncGenerator[tuple[str, bytes, int], None]:
    """As :func:`read_topics`, with each message's timestamp (milliseconds since the epoch,
    as the producer set it; ``-1`` when the broker gives none); ``caught_up_once`` is called
    once the topics are read to the end they had (:func:`streams.kafka.read_assigned`)."""
    records = read_from_start(
        settings,
        topics,
        follow=follow,
        timeout=timeout,
        idle=idle,
        caught_up_once=caught_up_once,
    )
    async with contextlib.aclosing(records):
        try:
            async for record in records:
                if record.value is not None:
                    stamp = record.timestamp if record.timestamp is not None else -1
                    yield record.topic, record.value, stamp
        except TimeoutError:
            return  # ``timeout`` bounds the read: what came within it is all there is


async def alerts(
    settings: Settings,
    audiences: Iterable[Audience] | None = None,
    *,
    follow: bool = False,
    timeout: float | None = None,
    idle: float | None = None,
) -> AsyncIterator[ev.OutputEvent]:
    """Alerts of the chosen audiences (default: all), each alert id once."""
    topics = settings.topics_of(audiences)
    seen: set[str] = set()
    async for _, value in read_topics(settings, topics, follow=follow, timeout=timeout, idle=idle):
        alert = decode_alert(value)
        if alert.alert_id in seen:
            continue
        seen.add(alert.alert_id)
        yield alert


async def bursts(source: AsyncIterator[T], quiet: float) -> AsyncIterator[list[T]]:
    """What ``source`` gives, in lists of what came together: a list ends when nothing
    new came for ``quiet`` seconds, or at the end. A backlog read at once is one list, a
    round's alerts arriving live another, so a reader can put each in round order
    (:func:`~tracker.contract.round_order.in_round_order`) before showing it."""
    it = aiter(source)
    pending: asyncio.Future[T] = asyncio.ensure_future(anext(it))
    batch: list[T] = []
    try:
        while True:
            done, _ = await asyncio.wait({pending}, timeout=quiet if batch else None)
            if not done:
                yield batch
                batch = []
                continue
            try:
                batch.append(pending.result())
            except StopAsyncIteration:
                break
            pending = asyncio.ensure_future(anext(it))
    finally:
        pending.cancel()
    if batch:
        yield batch


async def dead_letters(
    settings: Settings, *, follow: bool = False, timeout: float | None = None
) -> AsyncIterator[DeadLetter]:
    async for _, value in read_topics(
        settings, [settings.topic("dead_letters")], follow=follow, timeout=timeout
    ):
        yield DeadLetter.model_validate_json(value)


async def webhook_dead_letters(
    settings: Settings, *, follow: bool = False, timeout: float | None = None
) -> AsyncIterator[WebhookDeadLetter]:
    """The alerts ``tracker alerts --webhook`` could not deliver, with the reason."""
    topic = settings.topic("webhook_dead_letters")
    async for _, value in read_topics(settings, [topic], follow=follow, timeout=timeout):
        yield WebhookDeadLetter.model_validate_json(value)


__all__ = [
    "alerts",
    "bursts",
    "dead_letters",
    "read_records",
    "read_topics",
    "webhook_dead_letters",
]
