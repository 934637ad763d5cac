"""Plain aiokafka helpers shared by the worker, the publisher and the alert reader.

The end of a partition is always taken from Fetch responses (the highwater they carry), never
from ``ListOffsets(LATEST)``, which the Tansu test broker answers wrongly.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator, Iterable

from aiokafka import AIOKafkaConsumer, ConsumerRecord, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import KafkaError, TopicAlreadyExistsError

from streams.settings import Settings

log = logging.getLogger(__name__)


async def ensure_topics(settings: Settings, names: Iterable[str]) -> None:
    """Create the topics that do not exist, with the configured partitions and replication
    (a broker that auto-creates topics on first use might pick another partition count)."""
    admin = AIOKafkaAdminClient(**settings.client_kwargs())
    await admin.start()
    try:
        existing = set(await admin.list_topics())
        wanted = [n for n in dict.fromkeys(names) if n not in existing]
        if not wanted:
            return
        new = [NewTopic(n, settings.partitions, settings.replication_factor) for n in wanted]
        try:
            response = await admin.create_topics(new)
        except TopicAlreadyExistsError:
            return
        for topic, code, *_ in getattr(response, "topic_errors", ()):
            if code not in (0, TopicAlreadyExistsError.errno):
                raise KafkaError(f"cannot create topic {topic}: error code {code}")
    finally:
        await admin.close()


def consumer(settings: Settings, **kwargs: object) -> AIOKafkaConsumer:
    """A consumer outside any group (partitions assigned by hand, nothing committed). Under
    ``exactly_once`` it reads committed transactions only, so aborted sends stay unseen."""
    committed = settings.processing_guarantee == "exactly_once"
    return AIOKafkaConsumer(
        group_id=None,
        isolation_level="read_committed" if committed else "read_uncommitted",
        enable_auto_commit=False,
        auto_offset_reset="earliest",
        fetch_max_wait_ms=settings.fetch_max_wait_ms,
        **settings.client_kwargs(),
        **kwargs,
    )


async def read_range(
    settings: Settings, topic: str, partition: int, start: int, end: int, timeout: float = 60.0
) -> AsyncGenerator[ConsumerRecord[bytes, bytes], None]:
    """The records of one partition with ``start <= offset < end``, read by fetching."""
    if start >= end:
        return
    tp = TopicPartition(topic, partition)
    reader = consumer(settings)
    await reader.start()
    try:
        reader.assign([tp])
        reader.seek(tp, start)
        deadline = time.monotonic() + timeout
        while True:
            position = await reader.position(tp)
            if position >= end:
                return
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"{topic}[{partition}]: read up to {position}, expected {end} "
                    f"within {timeout} s"
                )
            batches = await reader.getmany(tp, timeout_ms=500, max_records=2000)
            for record in batches.get(tp, []):
                if start <= record.offset < end:
                    yield record
    finally:
        await reader.stop()


async def partitions_of(reader: AIOKafkaConsumer, topics: Iterable[str]) -> list[TopicPartition]:
    """The partitions of the topics that exist (after a metadata refresh)."""
    # ``reader.partitions_for_topic`` only knows the topics the client already tracks, so a
    # topic created after the reader started would stay invisible: ask for all metadata.
    cluster = await reader._client.fetch_all_metadata()
    out = []
    for topic in topics:
        for p in sorted(cluster.partitions_for_topic(topic) or ()):
            out.append(TopicPartition(topic, p))
    return out


async def caught_up(reader: AIOKafkaConsumer, tps: Iterable[TopicPartition]) -> bool:
    """Whether every partition has been fetched at least once and read to its highwater."""
    for tp in tps:
        highwater = reader.highwater(tp)
        if highwater is None or await reader.position(tp) < highwater:
            return False
    return True


async def wait_for_broker(settings: Settings, timeout: float = 30.0) -> None:
    """Return once the broker answers a metadata request."""
    deadline = time.monotonic() + timeout
    while True:
        admin = AIOKafkaAdminClient(**settings.client_kwargs())
        try:
            await admin.start()
            await admin.list_topics()
            return
        except KafkaError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)
        finally:
            await admin.close()


__all__ = [
    "caught_up",
    "consumer",
    "ensure_topics",
    "partitions_of",
    "read_range",
    "wait_for_broker",
]
