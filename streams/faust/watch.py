"""The worker's watchdog: one background task per worker, every ``watch_every`` seconds.

* **The broker and the topics.** It asks the broker for its topics. A broker that does not
  answer for ``broker_wait`` seconds, an input topic or changelog that is gone or has
  another number of partitions, or an input partition whose end is now below the offsets
  already handled (the broker lost its messages: deleted topics, or Tansu, which keeps
  everything in memory, restarted) stop the worker with code 75 after a line saying
  which: its supervisor restarts it, and the new worker starts from what the broker has
  (``tracker worker`` creates the missing topics).
* **Messages Faust leaves undelivered.** Faust 0.15 sometimes skips messages of a partition
  right after an assignment (or commits past them); the agent notices a gap only when the
  next message comes. A partition of this worker whose end (the highwater of Faust's own
  fetches) is beyond the last message handled is read and handled here when, for
  ``catch_up_after`` seconds, either Faust has passed those offsets on without the agent
  getting them, or Faust has delivered nothing at all (after rebuilding the partition if it
  was never delivered).
* **Retirement.** Every ``retire_every`` seconds, each partition's tournaments that are due
  leave memory (:meth:`streams.processor.Processor.retire`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from aiokafka.client import AIOKafkaClient
from aiokafka.errors import KafkaError

from streams.faust.agents import BROKER_FAILED, Tracker, stop, topic_partition
from streams.faust.internals import read_offset
from streams.topics import changelog_topic

log = logging.getLogger(__name__)


class Watchdog:
    def __init__(self, app: Any, tracker: Tracker) -> None:
        self.app = app
        self.tracker = tracker
        self.settings = tracker.settings
        self.client: AIOKafkaClient | None = None
        self.answered = time.monotonic()
        self.behind: dict[int, tuple[int, int | None, float]] = {}
        """Per partition: (the end it was behind of, Faust's read offset, since when)."""
        self.retired_at = time.monotonic()
        self.retiring = True

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.settings.watch_every)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # the watchdog must outlive its own bugs
                log.exception("watchdog: check failed")

    async def tick(self) -> None:
        # the broker and the topics also while Faust rebalances: deleted topics start a
        # rebalance that never ends (its commits to them fail again and again), and a
        # worker that waited for its end never said it lost them (seen in the integration
        # test of lost topics, when Faust noticed them first)
        await self.check_broker()
        if not self.ready():
            return
        await self.check_partitions()
        if time.monotonic() - self.retired_at >= self.settings.retire_every:
            self.retired_at = time.monotonic()
            await self.retire()

    def ready(self) -> bool:
        """Faust has an assignment and has finished recovering the table."""
        app = self.app
        if getattr(app, "rebalancing", False):
            return False
        recovery = getattr(getattr(app, "tables", None), "recovery", None)
        completed = getattr(recovery, "completed", None)
        return completed is None or completed.is_set()

    def assigned(self) -> list[int]:
        name = self.tracker.input_name
        try:
            assignment = self.app.consumer.assignment()
        except Exception:  # no consumer yet
            return []
        return sorted(tp.partition for tp in assignment if tp.topic == name)

    async def check_broker(self) -> None:
        s = self.settings
        try:
            if self.client is None:
                self.client = AIOKafkaClient(**s.client_kwargs())
                await self.client.bootstrap()
            cluster = await self.client.fetch_all_metadata()
        except (KafkaError, OSError, TimeoutError) as exc:
            silent = time.monotonic() - self.answered
            log.warning("the broker at %s does not answer (%.0f s): %s", s.broker, silent, exc)
            if silent > s.broker_wait:
                stop(BROKER_FAILED, f"lost the broker at {s.broker} for {silent:.0f} s", None)
            if self.client is not None:
                with contextlib.suppress(Exception):
                    await self.client.close()
                self.client = None
            return
        self.answered = time.monotonic()
        for name in (self.tracker.input_name, changelog_topic(s)):
            partitions = cluster.partitions_for_topic(name)
            if not partitions:
                stop(
                    BROKER_FAILED,
                    f"the broker at {s.broker} lost topic {name} (it no longer exists); the "
                    "next worker recreates it and starts from what the broker has",
                )
            elif len(partitions) != s.partitions:
                stop(
                    BROKER_FAILED,
                    f"topic {name} has {len(partitions)} partitions now, not "
                    f"{s.partitions}: it was deleted and created again",
                )

    async def check_partitions(self) -> None:
        tracker, proc = self.tracker, self.tracker.processor
        consumer = self.app.consumer
        now = time.monotonic()
        for partition in self.assigned():
            tp = topic_partition(tracker.input_name, partition)
            try:
                end = consumer.highwater(tp)
            except Exception:
                continue
            if end is None or end < 0:
                continue
            handled = proc.next_offset.get(partition)
            if handled is not None and end < handled:
                stop(
                    BROKER_FAILED,
                    f"the broker lost messages of {tracker.input_name}[{partition}]: it ends "
                    f"at offset {end}, but offsets up to {handled - 1} were handled",
                )
            if end <= (handled if handled is not None else 0):
                self.behind.pop(partition, None)
                continue
            read = read_offset(consumer, tp)
            seen = self.behind.get(partition)
            if seen is None or seen[:2] != (end, read):
                self.behind[partition] = (end, read, now)
                continue
            since = seen[2]
            wait = self.settings.catch_up_after
            # Faust handed the agent offsets up to ``read`` (Faust's own bookkeeping): if they
            # never arrived, it skipped them. Otherwise only when Faust delivers nothing at
            # all: a partition it has not got to, because others keep it busy, is not one it
            # skipped.
            skipped = read is not None and read >= (handled or 0)
            quiet = now - max(since, tracker.delivered_at.get(partition, 0.0))
            idle = now - max(since, *tracker.delivered_at.values(), 0.0)
            if not (skipped and quiet >= wait) and idle < wait:
                continue
            quiet = max(quiet, idle)
            async with tracker.lock:
                start = proc.next_offset.get(partition)
                if start is not None and start >= end:
                    continue
                if start is None:
                    log.info(
                        "partition %d: no delivery for %.0f s; rebuilding it up to its end "
                        "(offset %d) to handle any message Faust skipped",
                        partition,
                        quiet,
                        end,
                    )
                else:
                    log.warning(
                        "partition %d: offsets %d-%d waited %.0f s without a delivery; "
                        "handling them",
                        partition,
                        start,
                        end - 1,
                        quiet,
                    )
                await tracker.guarded(partition, end, tracker.catch_up(partition, end))
            self.behind.pop(partition, None)

    async def retire(self) -> None:
        tracker = self.tracker
        for partition in self.assigned():
            if not self.retiring:
                return
            async with tracker.lock:
                try:
                    await tracker.retire(partition)
                except (KafkaError, TimeoutError, OSError) as exc:
                    stop(BROKER_FAILED, f"the broker failed while retiring: {exc}", exc)
                except Exception:
                    # nothing was written unless it all was: forgetting the partition makes
                    # the next message rebuild it from the table as it stands
                    log.exception(
                        "retiring tournaments of partition %d failed; no more retiring "
                        "until the worker restarts",
                        partition,
                    )
                    tracker.processor.forget(partition)
                    self.retiring = False
            await asyncio.sleep(0)


def attach(app: Any, tracker: Tracker) -> Watchdog:
    """Run the watchdog while the worker runs."""
    watchdog = Watchdog(app, tracker)

    async def watch() -> None:
        await watchdog.run()

    app.task(watch)
    return watchdog


__all__ = ["Watchdog", "attach"]
