"""The worker's alert feed for its server-sent-events stream.

One background task per worker follows every output topic from the beginning (all
tournaments, whichever worker computed them), drops repeated alert ids, and keeps the last
:attr:`AlertFeed.keep` alerts in memory with a sequence number; each SSE client reads that
log from where it wants (everything, or after the ``Last-Event-ID`` it saw) and then waits
for new entries. Alerts stay JSON objects, so types this module does not know pass through.
Sequence numbers are this worker's: after a restart they start again, so clients must also
drop repeated ``alert_id`` values (the live page does).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

from aiokafka.errors import KafkaError

from streams.settings import Settings
from streams.subscriber import read_topics
from tracker.alert_filter import AlertFilter

log = logging.getLogger(__name__)

Entry = tuple[int, dict[str, Any], str]
"""(sequence number, alert object, alert JSON)."""


class AlertFeed:
    def __init__(self, settings: Settings, keep: int = 20_000) -> None:
        self.settings = settings
        self.keep = keep
        self.entries: OrderedDict[str, Entry] = OrderedDict()
        """By alert id, oldest first."""
        self.last = 0
        self.changed = asyncio.Condition()
        self.task: asyncio.Task[None] | None = None
        self.closed = False

    def start(self) -> None:
        """Start following the topics (once; called on the first client)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._follow())

    async def stop(self) -> None:
        """Stop following, and end every :meth:`read` (the worker is shutting down: its web
        server waits for open streams to end)."""
        self.closed = True
        async with self.changed:
            self.changed.notify_all()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def add(self, raw: bytes | str) -> None:
        """Take one message of an output topic (repeats and non-JSON are dropped)."""
        try:
            alert = json.loads(raw)
            alert_id = alert["alert_id"]
        except (ValueError, TypeError, KeyError):
            log.warning("not an alert on an output topic: %r", raw[:200])
            return
        if alert_id in self.entries:
            return
        self.last += 1
        text = raw.decode() if isinstance(raw, bytes) else raw
        self.entries[alert_id] = (self.last, alert, text)
        while len(self.entries) > self.keep:
            self.entries.popitem(last=False)
        async with self.changed:
            self.changed.notify_all()

    async def _follow(self) -> None:
        topics = list(self.settings.output_topics.values())
        while True:
            try:
                async for _, value in read_topics(self.settings, topics, follow=True):
                    await self.add(value)
            except KafkaError:
                log.warning("alert feed: broker error, reading again in 2 s", exc_info=True)
            await asyncio.sleep(2.0)

    async def read(
        self, wanted: AlertFilter, after: int = 0, heartbeat: float = 15.0
    ) -> AsyncIterator[Entry | None]:
        """Matching entries with a sequence number above ``after``, oldest first, then new
        ones as they come; ``None`` after ``heartbeat`` seconds without one (so the caller
        can send a keep-alive and notice a client that left). Ends when the feed stops."""
        while not self.closed:
            fresh = []
            for entry in reversed(self.entries.values()):
                if entry[0] <= after:
                    break
                fresh.append(entry)
            for entry in reversed(fresh):
                after = entry[0]
                if wanted.matches(entry[1]):
                    yield entry
            quiet = False
            async with self.changed:
                if self.last <= after and not self.closed:
                    try:
                        await asyncio.wait_for(self.changed.wait(), heartbeat)
                    except TimeoutError:
                        quiet = True
            if quiet:
                yield None


__all__ = ["AlertFeed", "Entry"]
