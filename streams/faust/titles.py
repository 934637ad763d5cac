"""The titles agent: title facts in (the internal ``title-facts`` topic, keyed by FIDE id),
the ``titles`` table, and the title-application alerts out to the federations' topic. The
steps are :class:`streams.titles.Titles`'; this module only moves bytes.

It stops the worker as the tournament agent does: 75 when the broker fails under it, 70 on a
bug (the next worker reads the partition back from the table's offset; a fact it cannot read
is dead-lettered rather than failed on).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from aiokafka.errors import KafkaError

from streams.faust.agents import BROKER_FAILED, INTERNAL_ERROR, stop
from streams.faust.internals import acting_on
from streams.kafka import read_range
from streams.settings import Settings
from streams.titles import Lookup, TitleOutcome, Titles

log = logging.getLogger(__name__)

GIVE_WAY_AT_MOST = 1.0
"""Seconds a title fact waits at most for the tournament agent to have no input waiting
(:meth:`TitlesAgent.give_way`), so that the titles never starve."""
GIVE_WAY_STEP = 0.005
"""Seconds between two looks at the tournament agent's input."""


class TitlesAgent:
    """The agent's state and steps (one per worker process)."""

    def __init__(
        self,
        settings: Settings,
        topic: Any,
        table: Any,
        output: Any,
        dead_letters: Any,
        busy: Callable[[], bool] = lambda: False,
    ) -> None:
        self.settings = settings
        self.name: str = topic.get_topic_name()
        self.table, self.output, self.dead_letters = table, output, dead_letters
        self.titles = Titles(topic=self.name)
        self.lock = asyncio.Lock()
        self.busy = busy
        """Whether the tournament agent has input waiting (:meth:`give_way`)."""

    async def give_way(self) -> None:
        """Wait while the tournament agent has input waiting, :data:`GIVE_WAY_AT_MOST`
        seconds at most. A title fact of a player with many norms takes tens of
        milliseconds to judge, all of it on the event loop: when many tournaments finish
        at once, judging their title facts between the tournaments' messages held those
        messages' alerts for seconds (deploy/README.md). The federations' title alerts can
        wait a moment; a broadcast's norm alerts should not. Order and acknowledgements are
        unchanged: the facts are still judged one at a time, in order."""
        deadline = time.monotonic() + GIVE_WAY_AT_MOST
        while self.busy() and time.monotonic() < deadline:
            await asyncio.sleep(GIVE_WAY_STEP)

    def lookup(self, partition: int) -> Lookup:
        def get(key: str) -> bytes | None:
            with acting_on(self.name, partition):
                value: bytes | None = self.table.get(key.encode())
                return value

        return get

    async def deliver(
        self, key: bytes | None, value: bytes | None, partition: int, offset: int
    ) -> None:
        """A message as Faust delivers it: after a gap, the messages from the table's offset
        on are read back and handled first."""
        start = self.titles.resume_from(self.lookup(partition), partition, offset)
        if start is not None:
            log.info("title facts %d: reading back offsets %d-%d", partition, start, offset - 1)
            records = read_range(self.settings, self.name, partition, start, offset)
            async with contextlib.aclosing(records):
                async for r in records:
                    await self.process(r.key, r.value, partition, r.offset)
        await self.process(key, value, partition, offset)

    async def process(
        self, key: bytes | None, value: bytes | None, partition: int, offset: int
    ) -> None:
        await self.give_way()
        outcome = self.titles.handle(self.lookup(partition), key, value, partition, offset)
        await self.send(outcome)
        with acting_on(self.name, partition):
            for table_key, table_value in outcome.writes:
                self.table[table_key.encode()] = table_value

    async def send(self, outcome: TitleOutcome) -> None:
        """The alerts, acknowledged before the table moves on (then the dead letter)."""
        futures = [
            await self.output.send(key=str(alert.application.fide_id).encode(), value=payload)
            for alert, payload in zip(outcome.alerts, outcome.payloads, strict=True)
        ]
        if futures:
            await asyncio.gather(*futures)
        if outcome.dead_letter is not None:
            await self.dead_letters.send(value=outcome.dead_letter.encode())

    async def guarded(
        self, key: bytes | None, value: bytes | None, partition: int, offset: int
    ) -> None:
        try:
            await self.deliver(key, value, partition, offset)
        except (KafkaError, TimeoutError, OSError) as exc:
            stop(
                BROKER_FAILED,
                f"the broker failed while handling {self.name}[{partition}]@{offset}",
                exc,
            )
        except Exception as exc:
            stop(INTERNAL_ERROR, f"stopping on {self.name}[{partition}]@{offset}", exc)


def attach(
    app: Any,
    settings: Settings,
    topic: Any,
    table: Any,
    output: Any,
    dead_letters: Any,
    busy: Callable[[], bool] = lambda: False,
) -> tuple[Any, TitlesAgent]:
    """Register the titles agent on ``app``, giving way while ``busy()`` (the tournament
    agent has input waiting); returns it and its :class:`TitlesAgent`."""
    agent = TitlesAgent(settings, topic, table, output, dead_letters, busy)

    async def titles(stream: Any) -> None:
        async for event in stream.events():
            message = event.message
            async with agent.lock:
                await agent.guarded(message.key, message.value, message.partition, message.offset)

    return app.agent(topic, name="streams.faust.titles.titles")(titles), agent


__all__ = ["TitlesAgent", "attach"]
