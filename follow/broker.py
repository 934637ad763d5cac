"""The input topic as the follower's destination (``tracker follow --broker``).

Events are sent keyed by tournament id, as ``tracker publish`` sends them, with a
``tracker-source`` header (``trf``, ``pgn`` or ``cli``) that only the follower reads. The
input topic is the source of truth: a follower that starts (or restarts after a crash) reads
back every event of its tournament, to the end that the Fetch responses report (never
``ListOffsets``, which the light Tansu broker answers wrongly), and sends only what is missing.
Imported only with ``--broker``: it needs the ``streams`` extra (aiokafka).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import Any

from aiokafka import AIOKafkaProducer
from aiokafka.errors import KafkaError

from follow.runner import SinkError
from streams.kafka import ensure_topics, read_from_start
from streams.publish import producer
from streams.records import encode_input
from streams.settings import Settings
from tracker import contract as ev
from tracker.ingest.ledger import Fact, Ledger, Report

HEADER = "tracker-source"
SOURCES = ("trf", "pgn", "cli")


async def read_sent(settings: Settings, tournament_id: str, timeout: float = 60.0) -> list[Fact]:
    """Every event of the tournament in the input topic, in the order of its partition;
    :class:`TimeoutError` if the topic is not read to its end within ``timeout`` seconds."""
    key = tournament_id.encode()
    out: list[Fact] = []
    records = read_from_start(settings, [settings.topic("input")], timeout=timeout)
    async with contextlib.aclosing(records):
        async for record in records:
            if record.key != key or record.value is None:
                continue
            try:
                event = ev.parse_input(record.value)
            except ev.InvalidEvent:
                continue  # not ours to judge: the worker dead-letters it
            source = dict(record.headers or ()).get(HEADER, b"trf").decode()
            out.append(Fact(event, source if source in SOURCES else "trf"))
    return out


class BrokerSink:
    def __init__(self, settings: Settings, report: Callable[[Report], None]) -> None:
        self.settings = settings
        self.report = report
        self.topic = settings.topic("input")
        self._producer: AIOKafkaProducer | None = None

    async def load(self, tournament_id: str) -> Ledger:
        try:
            await ensure_topics(self.settings, [self.topic])
            return Ledger.of(await read_sent(self.settings, tournament_id))
        except (KafkaError, OSError, TimeoutError) as exc:
            raise SinkError(f"{self.settings.broker}: {exc}") from exc

    async def send(self, facts: Sequence[Fact]) -> None:
        pending: list[asyncio.Future[Any]] = []
        try:
            if self._producer is None:
                fresh = producer(self.settings)
                try:
                    await fresh.start()
                except BaseException:
                    await fresh.stop()  # no "Unclosed" producer left behind
                    raise
                self._producer = fresh
            for fact in facts:
                pending.append(
                    await self._producer.send(
                        self.topic,
                        value=encode_input(fact.event),
                        key=fact.event.tournament_id.encode(),
                        headers=[(HEADER, fact.source.encode())],
                    )
                )
            await asyncio.gather(*pending)
        except (KafkaError, OSError, TimeoutError) as exc:
            await self.close()  # a fresh producer next time, after the ledger is read back
            raise SinkError(f"{self.settings.broker}: {exc}") from exc

    async def close(self) -> None:
        if self._producer is not None:
            await self._producer.stop()
            self._producer = None


__all__ = ["BrokerSink", "read_sent"]
