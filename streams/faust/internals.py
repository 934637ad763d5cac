"""Every use of Faust's private or undocumented names, in one place.

The worker needs five things Faust has no public way to give, each checked against the
installed Faust by ``tests/unit/test_faust_internals.py`` (which fails, naming the name, when
an upgrade moves it; the tested versions are pinned in ``pyproject.toml``):

* :func:`acting_on` -- ``faust.streams._current_event``, the context variable a table reads
  to find the partition of the event being processed: the watchdog and the rebuilds write
  for a partition with no event in hand;
* :func:`rocksdict_of` -- ``RocksDB.use_rocksdict`` and ``RocksDB._db_for_partition``, one
  partition's database, so that a rebuild reads only that partition's key range;
* :func:`read_offset` -- ``Consumer._read_offset``, the last offset Faust passed on to the
  agent (the watchdog tells skipped messages from messages not yet reached by it);
* :func:`flush_some` -- ``Producer.buffer`` and ``ProducerBuffer.size`` /
  ``flush_atmost``, to let the producer send the table writes of a long step;
* :func:`set_fetch_wait` -- the aiokafka driver's ``Consumer._new_consumer_thread`` and
  ``AIOKafkaConsumerThread._create_worker_consumer``, and aiokafka's
  ``AIOKafkaConsumer._fetch_max_wait_ms``: Faust builds the worker's consumer with a fetch
  wait of 1.5 s, hard-coded (see the function).
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Iterator
from typing import Any


class _Message:
    __slots__ = ("partition", "topic")

    def __init__(self, topic: str, partition: int) -> None:
        self.topic, self.partition = topic, partition


class _Event:
    """What Faust's table looks at in the current event: the message's topic and partition."""

    __slots__ = ("__weakref__", "message")

    def __init__(self, topic: str, partition: int) -> None:
        self.message = _Message(topic, partition)


@contextlib.contextmanager
def acting_on(topic: str, partition: int) -> Iterator[None]:
    """Table reads and writes go to ``partition``'s store and changelog partition. Faust
    takes the partition from the event being processed; the watchdog has none, and the
    agent writes for the partition it is handling anyway."""
    from faust.streams import _current_event

    event = _Event(topic, partition)
    token = _current_event.set(weakref.ref(event))  # type: ignore[arg-type]
    try:
        yield
    finally:
        _current_event.reset(token)


def rocksdict_of(table: Any, partition: int) -> Any:
    """The partition's rocksdict database under Faust's ``rocksdb://`` store, else ``None``
    (the memory store)."""
    store: Any = getattr(table, "data", None)
    if not getattr(store, "use_rocksdict", False):
        return None
    return store._db_for_partition(partition)


def read_offset(consumer: Any, tp: Any) -> int | None:
    """The last offset Faust's consumer passed on to the agent's stream, ``None`` before
    the first."""
    value = consumer._read_offset.get(tp)
    return value if isinstance(value, int) else None


async def flush_some(app: Any, keep: int) -> bool:
    """Send buffered producer messages until at most ``keep`` are left; ``False`` when a
    flush sent nothing (the caller waits a little)."""
    buffer = app.producer.buffer
    while buffer.size > keep:
        if not await buffer.flush_atmost(keep):
            return False
    return True


def set_fetch_wait(app: Any, ms: int) -> None:
    """Make ``app``'s worker consumer ask the broker to hold a Fetch at most ``ms``
    milliseconds (Faust 0.15's aiokafka driver passes 1,500, hard-coded).

    Why it matters: aiokafka keeps one Fetch in flight per broker and leaves out of it the
    partitions whose records the agent has not taken yet. Under load a Fetch is sent for the
    other partitions only, which have nothing new; the broker holds it for the whole wait, and
    the partitions the agent has drained meanwhile get nothing until it returns. Measured in
    ``bench/bench_streams.py`` at 1,000 messages/s: the agent waited 1.0-1.4 s for input with
    1,600 messages on the broker, several times a run. The wait is read when the consumer
    starts, so it is set on the consumer as it is made."""
    from faust.transport.drivers import aiokafka as driver

    class Thread(driver.AIOKafkaConsumerThread):
        def _create_worker_consumer(self, transport: Any) -> Any:
            consumer = super()._create_worker_consumer(transport)
            consumer._fetch_max_wait_ms = ms
            return consumer

    class Consumer(driver.Consumer):
        def _new_consumer_thread(self) -> Any:
            return Thread(self, loop=self.loop, beacon=self.beacon)

    app.transport.Consumer = Consumer


__all__ = ["acting_on", "flush_some", "read_offset", "rocksdict_of", "set_fetch_wait"]
