"""Every use of Faust's private or undocumented names, in one place.

The worker needs four things Faust has no public way to give, each checked against the
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
  ``flush_atmost``, to let the producer send the table writes of a long step.
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


__all__ = ["acting_on", "flush_some", "read_offset", "rocksdict_of"]
