"""Webhook delivery that survives restarts and outages (``tracker alerts --webhook URL``).

One :class:`Relay` per receiver reads the output topics with a consumer of its own group
(:attr:`Receiver.group`, one per receiver URL) from the offsets the group has committed, and
hands each alert to a :class:`~streams.webhook.Deliverer`:

* **Order.** A tournament's alerts go to a receiver one at a time, in the order they are read;
  up to ``TRACKER_WEBHOOK_CONCURRENCY`` tournaments are delivered at the same time, and
  several receivers (several ``--webhook``) each at their own pace.
* **Resuming, not replaying.** An offset is committed once its alert is done -- delivered
  (a 2xx), filtered out, or dead-lettered -- and every alert before it in its partition is
  done too; the commit's metadata names the alerts done beyond it, delivered while an
  earlier one of another tournament was still being retried
  (:mod:`streams.relay_offsets`). A restarted relay starts after what was committed and
  skips what the metadata names: it posts again at most the alerts in flight when it
  stopped (those a receiver answered 2xx to just before the stop, before the commit, are
  the only ones it may see twice).
* **Never a silent drop.** An alert refused by the receiver, or still failing when its
  retries ran out (``TRACKER_WEBHOOK_RETRY_FOR``, a day by default), goes to the webhook
  dead-letter topic with the reason (:class:`~streams.records.WebhookDeadLetter`), and only
  then is its offset committed.

At most :data:`READ_AHEAD` alerts are held between reading and committing.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import aiohttp
from aiokafka import AIOKafkaProducer, ConsumerRecord, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient

from streams.kafka import consumer, ensure_topics, read_assigned, started
from streams.records import WebhookDeadLetter, decode_alert
from streams.relay_offsets import Offsets, parse_done
from streams.settings import Settings
from streams.webhook import Deliverer, Outcome
from tracker import contract as ev

log = logging.getLogger(__name__)

READ_AHEAD = 1000
"""Alerts read and not yet done, per receiver, at most (reading waits beyond)."""
SAID_WITHIN = 30.0
"""Seconds a relay waits at start for the broker to say what its group committed."""
SEEN = 100_000
"""Alert ids a relay remembers, the latest, to skip an alert the topics hold twice (a worker
sends an unacknowledged alert again after a crash, moments later)."""


@dataclasses.dataclass(frozen=True)
class Receiver:
    url: str
    group: str
    """The consumer group whose committed offsets say how far this receiver has got."""

    @classmethod
    def of(cls, url: str, settings: Settings) -> Receiver:
        """A receiver with its own group: ``<app id>-webhook-<hash of the URL>``."""
        digest = hashlib.sha256(url.encode()).hexdigest()[:16]
        return cls(url, f"{settings.app_id}-webhook-{digest}")


Report = Callable[[Receiver, Outcome, str], None]
"""Told of every alert done (delivered or dead-lettered), with the dead-letter topic or ""."""


class Relay:
    def __init__(
        self,
        settings: Settings,
        receiver: Receiver,
        deliverer: Deliverer,
        wanted: Callable[[dict[str, Any]], bool],
        report: Report,
        topics: Iterable[str] | None = None,
    ) -> None:
        self.settings = settings
        self.topics = list(topics or settings.output_topics.values())
        self.receiver = receiver
        self.deliverer = deliverer
        self.wanted = wanted
        self.report = report
        self.offsets = Offsets()
        self.seen: dict[str, None] = {}
        """The latest :data:`SEEN` alert ids taken, oldest first."""
        self.tails: dict[str, asyncio.Task[None]] = {}
        """Per tournament, the task delivering its latest alert (the next waits for it)."""
        self.lanes = asyncio.Semaphore(settings.webhook_concurrency)
        self.room = asyncio.Condition()
        self.wake = asyncio.Event()
        self.failed = 0
        self.producer: AIOKafkaProducer | None = None
        self.starting = asyncio.Lock()
        """Held while the dead-letter producer starts (two lanes may fail at once)."""
        self.broken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        """Set with the exception of a delivery that failed beyond retrying (the dead-letter
        topic could not be written) or of a commit: the run ends with it."""

    async def run(self, *, follow: bool = False, idle: float | None = None) -> None:
        """Deliver the alerts of the output topics from the group's committed offsets; without
        ``follow``, until the topics are read to their end and every alert is done."""
        s = self.settings
        reader = consumer(s, group_id=self.receiver.group)
        async with started(reader, s), aiohttp.ClientSession() as session:
            said = await self._said()

            async def start(tp: TopicPartition) -> int:
                committed = await reader.committed(tp) or 0
                # the metadata says something only of the commit it came with
                offset, metadata = said.get(tp, (committed, None))
                self.offsets.resume(
                    tp, parse_done(committed, metadata if offset == committed else None)
                )
                return committed

            committer = asyncio.create_task(self._committer(reader))
            committer.add_done_callback(self._broke)
            reading = asyncio.create_task(self._read(reader, session, start, follow, idle))
            try:
                await asyncio.wait({reading, self.broken}, return_when=asyncio.FIRST_COMPLETED)
                if self.broken.done():
                    self.broken.result()  # a delivery failed beyond retrying: raise it
                reading.result()
                while self.tails:
                    await asyncio.wait(
                        [*self.tails.values(), self.broken], return_when=asyncio.FIRST_COMPLETED
                    )
                    if self.broken.done():
                        self.broken.result()
            finally:
                for task in (reading, committer, *self.tails.values()):
                    task.cancel()
                with contextlib.suppress(Exception):
                    await self._commit(reader)  # what is done, whatever ended the run
                if self.producer is not None:
                    await self.producer.stop()

    async def _said(self) -> dict[TopicPartition, tuple[int, str]]:
        """The offsets and metadata the receiver's group committed last. Where the broker
        cannot say within :data:`SAID_WITHIN` seconds, the run goes on without them and
        says so: alerts done beyond the committed offsets may then be posted again."""
        admin = AIOKafkaAdminClient(**self.settings.client_kwargs())
        try:
            async with started(admin, self.settings):
                listed = await asyncio.wait_for(
                    admin.list_consumer_group_offsets(self.receiver.group), SAID_WITHIN
                )
        except Exception as exc:  # a broker without the request too: said, not guessed
            log.warning(
                "%s: could not read what the last run committed (%s: %s); alerts it "
                "delivered beyond its committed offsets may be posted again",
                self.receiver.url,
                exc.__class__.__name__,
                str(exc)[:200],
            )
            return {}
        return {tp: (om.offset, om.metadata or "") for tp, om in listed.items()}

    async def _read(
        self,
        reader: Any,
        session: aiohttp.ClientSession,
        start: Callable[[TopicPartition], Awaitable[int]],
        follow: bool,
        idle: float | None,
    ) -> None:
        records = read_assigned(
            reader, self.settings, self.topics, follow=follow, idle=idle, start=start
        )
        async with contextlib.aclosing(records):
            async for record in records:
                await self._take(session, record)

    async def _take(self, session: aiohttp.ClientSession, record: ConsumerRecord[Any, Any]) -> None:
        async with self.room:
            await self.room.wait_for(lambda: self.offsets.busy < READ_AHEAD)
        tp = TopicPartition(record.topic, record.partition)
        self.offsets.take(tp, record.offset)
        if self.offsets.skipped(tp, record.offset):
            self._done(tp, record.offset)  # an earlier run did it (its commit says so)
            return
        try:
            alert = decode_alert(record.value)
        except ValueError as exc:
            log.warning("not an alert on %s: %s", record.topic, str(exc)[:200])
            self._done(tp, record.offset)
            return
        if alert.alert_id in self.seen or not self.wanted(alert.model_dump(mode="json")):
            self._done(tp, record.offset)
            return
        self.seen[alert.alert_id] = None
        if len(self.seen) > SEEN:
            del self.seen[next(iter(self.seen))]
        tid = alert.tournament_id
        before = self.tails.get(tid)
        task = asyncio.create_task(self._lane(session, before, alert, tp, record.offset))
        self.tails[tid] = task
        task.add_done_callback(lambda t: self._untail(tid, t))

    def _untail(self, tid: str, task: asyncio.Task[None]) -> None:
        if self.tails.get(tid) is task:
            del self.tails[tid]
        self._broke(task)

    def _broke(self, task: asyncio.Task[None]) -> None:
        """A delivery or the committer failed (the broker): the run ends with the error."""
        if task.cancelled() or self.broken.done():
            return
        error = task.exception()
        if error is not None:
            self.broken.set_exception(error)

    async def _lane(
        self,
        session: aiohttp.ClientSession,
        before: asyncio.Task[None] | None,
        alert: ev.OutputEvent,
        tp: TopicPartition,
        offset: int,
    ) -> None:
        if before is not None:
            await before  # the tournament's earlier alert first
        body = alert.model_dump_json().encode()
        async with self.lanes:
            outcome = await self.deliverer.deliver(session, alert.alert_id, alert.type, body)
        topic = ""
        if not outcome.delivered:
            topic = await self._dead_letter(alert, body, outcome, tp, offset)
            self.failed += 1
        self.report(self.receiver, outcome, topic)
        self._done(tp, offset)

    async def _dead_letter(
        self,
        alert: ev.OutputEvent,
        body: bytes,
        outcome: Outcome,
        tp: TopicPartition,
        offset: int,
    ) -> str:
        """Write the dead letter and wait for the broker to take it (a failure here ends
        the run, and the alert is tried again by the next one)."""
        name = self.settings.topic("webhook_dead_letters")
        async with self.starting:
            if self.producer is None:
                await ensure_topics(self.settings, [name])
                producer = AIOKafkaProducer(acks="all", **self.settings.client_kwargs())
                await producer.start()
                self.producer = producer
        letter = WebhookDeadLetter(
            receiver=self.receiver.url,
            alert_id=alert.alert_id,
            type=alert.type,
            tournament_id=alert.tournament_id,
            reason=outcome.reason,
            attempts=outcome.attempts,
            status=outcome.status,
            alert=body.decode(),
            topic=tp.topic,
            partition=tp.partition,
            offset=offset,
        )
        await self.producer.send_and_wait(name, letter.encode(), key=alert.tournament_id.encode())
        return name

    def _done(self, tp: TopicPartition, offset: int) -> None:
        self.offsets.done(tp, offset)
        self.wake.set()

    async def _committer(self, reader: Any) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            async with self.room:
                self.room.notify_all()
            await self._commit(reader)

    async def _commit(self, reader: Any) -> None:
        due = self.offsets.due()
        if due:
            await reader.commit(due)
            self.offsets.committed_to(due)


__all__ = ["READ_AHEAD", "SAID_WITHIN", "SEEN", "Receiver", "Relay", "Report"]
