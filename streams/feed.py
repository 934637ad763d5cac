"""The worker's alert feed for its server-sent-events stream.

One background task per worker follows every output topic from the beginning (all
tournaments, whichever worker computed them), drops repeated alert ids, and keeps recent
alerts in memory with an id; each SSE client reads them from where it wants (everything, or
after the ``Last-Event-ID`` it saw) and then waits for new ones. Alerts stay the JSON bytes
of the topic, with only what the filters need decoded, so types this module does not know
pass through.

What is kept (``TRACKER_FEED_*`` settings; the output topics keep everything):

* at most ``feed_alerts`` alerts and ``feed_bytes`` bytes of their JSON: the oldest go first;
* a finished tournament (its last round's ``round_finished`` seen) leaves the feed once
  ``finished_grace`` seconds have passed since its latest alert, by the messages' timestamps:
  a worker reading old topics at start keeps none of the tournaments that finished long ago.
  A later alert of the tournament (a correction) is kept again for the grace period.

Ids are integers that grow through the life of a worker and start, at each start, from the
start time in milliseconds × 1000, so an id from an earlier start (or from another worker)
is recognised. A client resuming after an id this worker did not give gets a ``reset``
notice and everything kept; one resuming after alerts that are no longer kept gets a
``gap`` notice and what is kept after its id (:meth:`AlertFeed.resume`). Either way it must
drop alert ids it already has (the live page does) and read the output topics for the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Any

from aiokafka.errors import KafkaError

from streams.settings import Settings
from streams.subscriber import read_records
from tracker.contract.alert_filter import AlertFilter
from tracker.contract.round_order import in_round_order

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    """The alert's id in this worker's stream (``id:`` of the SSE event)."""
    head: dict[str, Any]
    """What :class:`~tracker.contract.alert_filter.AlertFilter` reads: ``tournament_id``, ``type``
    and the player's federation."""
    data: bytes
    """The alert's JSON, one line."""

    def sse(self) -> bytes:
        """The entry as a server-sent event: ``id:`` (the position to resume after) and
        ``data:``; without ``id:`` when :attr:`seq` is 0 (inside a backlog sent in round
        order, :meth:`AlertFeed.read`)."""
        mark = b"id: %d\n" % self.seq if self.seq else b""
        return mark + b"data: %s\n\n" % self.data


@dataclasses.dataclass(frozen=True, slots=True)
class Notice:
    """Sent to a client first (SSE ``event: <kind>``) when it cannot resume exactly."""

    kind: str
    """``reset`` (an id this worker did not give) or ``gap`` (alerts after it were dropped)."""
    message: str
    oldest: int | None
    """The id of the oldest alert kept."""

    def json(self) -> str:
        return json.dumps({"kind": self.kind, "message": self.message, "oldest": self.oldest})


def _head(alert: dict[str, Any]) -> dict[str, Any]:
    head = {
        "tournament_id": alert.get("tournament_id"),
        "type": alert.get("type"),
        "round": alert.get("round"),
    }
    player = alert.get("player")
    if isinstance(player, dict):
        head["player"] = {"federation": player.get("federation")}
    return head


class AlertFeed:
    def __init__(
        self,
        settings: Settings,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self.keep = settings.feed_alerts
        self.max_bytes = settings.feed_bytes
        self.grace = settings.finished_grace
        self.clock = clock
        self.entries: OrderedDict[str, Entry] = OrderedDict()
        """By alert id, oldest first."""
        self.bytes = 0
        """Bytes of JSON kept in :attr:`entries`."""
        self.by_tournament: dict[str, dict[str, None]] = {}
        """The alert ids kept per tournament, oldest first."""
        self.latest: dict[str, float] = {}
        """Per tournament with alerts kept: the timestamp of its latest alert (seconds)."""
        self.finished: OrderedDict[str, None] = OrderedDict()
        """Tournaments whose last round has finished (the most recent :attr:`keep`)."""
        self.base = int(clock() * 1000) * 1000
        """Ids of this start are above it (see the module's docstring)."""
        self.last = self.base
        """The id of the newest alert taken (kept or since dropped)."""
        self.forgotten = 0
        """The highest id dropped from :attr:`entries`."""
        self.changed = asyncio.Condition()
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.ready = asyncio.Event()
        """Set once the topics are read to the end they had when following started (and
        while the feed is filled by hand, without :meth:`start`): until then readers wait,
        so that a first client is never sent the alerts of tournaments whose last round,
        further on in the topics, shows they finished long ago."""
        self.ready.set()

    def start(self) -> None:
        """Start following the topics (once; called on the first client)."""
        if self.task is None:
            self.ready.clear()
            self.task = asyncio.get_running_loop().create_task(self._follow())

    async def stop(self) -> None:
        """Stop following, and end every :meth:`read` (the worker is shutting down: its web
        server waits for open streams to end)."""
        self.closed = True
        self.ready.set()
        async with self.changed:
            self.changed.notify_all()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    # ------------------------------------------------------------------ taking alerts

    async def add(self, raw: bytes | str, timestamp: float | None = None) -> None:
        """Take one message of an output topic, sent at ``timestamp`` (seconds since the
        epoch; default: now). Repeats, non-JSON and alerts of tournaments finished more
        than the grace period ago are dropped."""
        data = raw.encode() if isinstance(raw, str) else raw
        try:
            alert = json.loads(data)
            alert_id = alert["alert_id"]
            head = _head(alert)
        except (ValueError, TypeError, KeyError, AttributeError):
            log.warning("not an alert on an output topic: %r", data[:200])
            return
        if alert_id in self.entries:
            return
        now = self.clock()
        sent = now if timestamp is None or timestamp < 0 else timestamp
        tid = str(head["tournament_id"])
        if alert.get("type") == "round_finished" and alert.get("last_round") is True:
            self.finished[tid] = None
            self.finished.move_to_end(tid)
            while len(self.finished) > self.keep:
                self.finished.popitem(last=False)
        if tid in self.finished and now - max(sent, self.latest.get(tid, sent)) > self.grace:
            self._drop_tournament(tid)  # finished long ago: the topics keep its alerts
            return
        if b"\n" in data or b"\r" in data:  # one SSE data line: JSON re-written compact
            data = json.dumps(alert, ensure_ascii=False, separators=(",", ":")).encode()
        self.last += 1
        self.entries[alert_id] = Entry(self.last, head, data)
        self.bytes += len(data)
        self.by_tournament.setdefault(tid, {})[alert_id] = None
        self.latest[tid] = max(sent, self.latest.get(tid, sent))
        while len(self.entries) > self.keep or self.bytes > self.max_bytes:
            self._drop(next(iter(self.entries)))
        async with self.changed:
            self.changed.notify_all()

    def expire(self) -> list[str]:
        """Drop the tournaments that finished, with no alert for the grace period; returns
        their ids."""
        now = self.clock()
        gone = [
            tid
            for tid in self.finished
            if tid in self.latest and now - self.latest[tid] > self.grace
        ]
        for tid in gone:
            self._drop_tournament(tid)
        return gone

    def _drop_tournament(self, tid: str) -> None:
        for alert_id in list(self.by_tournament.get(tid, ())):
            self._drop(alert_id)

    def _drop(self, alert_id: str) -> None:
        entry = self.entries.pop(alert_id)
        self.bytes -= len(entry.data)
        self.forgotten = max(self.forgotten, entry.seq)
        tid = str(entry.head["tournament_id"])
        ids = self.by_tournament.get(tid)
        if ids is not None:
            ids.pop(alert_id, None)
            if not ids:
                del self.by_tournament[tid]
                self.latest.pop(tid, None)

    async def _follow(self) -> None:
        topics = list(self.settings.output_topics.values())
        sweeper = asyncio.get_running_loop().create_task(self._sweep())
        try:
            while True:
                try:
                    records = read_records(
                        self.settings, topics, follow=True, caught_up_once=self._caught_up
                    )
                    async with contextlib.aclosing(records):
                        async for _, value, stamp in records:
                            await self.add(value, stamp / 1000 if stamp >= 0 else None)
                except KafkaError:
                    log.warning("alert feed: broker error, reading again in 2 s", exc_info=True)
                await asyncio.sleep(2.0)
        finally:
            sweeper.cancel()

    def _caught_up(self) -> None:
        log.info("alert feed: output topics read (%d alerts kept)", len(self.entries))
        self.ready.set()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, max(self.grace / 4, 1.0)))
            for tid in self.expire():
                log.info("alert feed: tournament %r finished; its alerts left the feed", tid)

    # ------------------------------------------------------------------ reading

    def resume(self, after: int) -> tuple[int, Notice | None]:
        """Where a client that has seen up to id ``after`` (0: nothing) starts reading, and
        the notice to send it first, if any."""
        oldest = next(iter(self.entries.values())).seq if self.entries else None
        if after <= 0:
            return self.base, None
        if after < self.base or after > self.last:
            return self.base, Notice(
                "reset",
                f"id {after} is not one this worker gave since it started (it restarted, or "
                "another worker gave it): here is every alert it keeps; drop the alert ids "
                "you have, and read the output topics (tracker alerts) for older ones",
                oldest,
            )
        if self.forgotten > after:
            return after, Notice(
                "gap",
                f"some alerts after id {after} are no longer kept (tournaments finished more "
                "than the grace period ago, or beyond the feed's size): read them from the "
                "output topics (tracker alerts)",
                oldest,
            )
        return after, None

    async def read(
        self, wanted: AlertFilter, after: int = 0, heartbeat: float = 15.0
    ) -> AsyncIterator[Entry | None]:
        """Matching entries with an id above ``after``, then new ones as they come;
        ``None`` after ``heartbeat`` seconds without one (so the caller can send a
        keep-alive and notice a client that left). Ends when the feed stops. Nothing is
        read before the feed has caught up with the topics (:attr:`ready`).

        What is kept when the reader comes (the backlog) is read from several topics, topic
        by topic at a start: it is given in round order
        (:func:`~tracker.contract.round_order.in_round_order`), each entry without an id
        (``seq`` 0) but the last, which carries the newest id given so far, so that a reader
        who loses the stream inside the backlog resumes from where it was before it and
        drops the alert ids it has. New entries come as they arrive, each with its id."""
        while not self.ready.is_set():
            try:
                await asyncio.wait_for(self.ready.wait(), heartbeat)
            except TimeoutError:
                yield None
        backlog = True
        while not self.closed:
            fresh = []
            top = self.last
            for entry in reversed(self.entries.values()):
                if entry.seq <= after:
                    break
                fresh.append(entry)
            after = max(after, top)  # what was dropped meanwhile is not waited for
            chosen = [entry for entry in reversed(fresh) if wanted.matches(entry.head)]
            if backlog and chosen:
                ordered = in_round_order(chosen, _order_of)
                chosen = [dataclasses.replace(e, seq=0) for e in ordered[:-1]]
                chosen.append(dataclasses.replace(ordered[-1], seq=top))
            backlog = False
            for entry in chosen:
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


def _order_of(entry: Entry) -> tuple[str, int, str]:
    head = entry.head
    number = head.get("round")
    return (
        str(head.get("tournament_id")),
        number if isinstance(number, int) else 0,
        str(head.get("type")),
    )


__all__ = ["AlertFeed", "Entry", "Notice"]
