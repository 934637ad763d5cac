"""Plain aiokafka helpers shared by the worker, the publisher and the alert reader.

The end of a partition is always taken from Fetch responses (the highwater they carry), never
from ``ListOffsets(LATEST)``, which the Tansu test broker answers wrongly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterable
from typing import Any

from aiokafka import AIOKafkaConsumer, ConsumerRecord, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import KafkaConnectionError, KafkaError, TopicAlreadyExistsError

from streams.settings import Settings

log = logging.getLogger(__name__)


class BrokerUnreachable(KafkaError):  # type: ignore[misc]
    """No broker answered at the configured address."""

    def __init__(self, settings: Settings, waited: float | None = None) -> None:
        within = f" within {waited:g} s" if waited else ""
        self.message = (
            f"no Kafka broker answered at {', '.join(settings.bootstrap_servers)}{within}. "
            "Start one with scripts/pipeline.sh (the whole pipeline) or "
            "`python -m streams.broker --port 9092` (the test broker alone), or name "
            "yours with --broker or TRACKER_BROKER."
        )
        super().__init__(self.message)


class TopicMismatch(KafkaError):  # type: ignore[misc]
    """A topic exists with a partition count other than the configured one."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


def unreachable(exc: BaseException) -> bool:
    """Whether a client error means the broker could not be reached at all."""
    return isinstance(exc, KafkaConnectionError | BrokerUnreachable) or (
        isinstance(exc, KafkaError) and "Unable to bootstrap" in str(exc)
    )


def quiet_clients() -> None:
    """aiokafka logs each failed connection itself; the commands say it once, their way
    (:class:`BrokerUnreachable`)."""
    logging.getLogger("aiokafka").setLevel(logging.CRITICAL)


@contextlib.asynccontextmanager
async def started(client: Any, settings: Settings) -> AsyncIterator[Any]:
    """A started aiokafka client (consumer, producer or admin), always stopped after; a
    broker that cannot be reached raises :class:`BrokerUnreachable` (and leaves no
    "Unclosed" client behind)."""
    try:
        await client.start()
    except KafkaError as exc:
        with contextlib.suppress(Exception):
            await _stop(client)
        if unreachable(exc):
            raise BrokerUnreachable(settings) from None
        raise
    try:
        yield client
    finally:
        await _stop(client)


async def _stop(client: Any) -> None:
    stop = getattr(client, "stop", None) or client.close
    await stop()


def topic_configs(settings: Settings) -> dict[str, str]:
    """Configuration of the topics the worker creates: room for its largest record."""
    return {"max.message.bytes": str(settings.record_room)}


def changelog_topic(settings: Settings, table: str = "facts") -> str:
    """A table's changelog (Faust names it ``<app id>-<table>-changelog``): by default the
    ``facts`` table's; the ``titles`` table's (:mod:`streams.titles`) with ``table``."""
    return f"{settings.app_id}-{table}-changelog"


async def ensure_topics(
    settings: Settings, names: Iterable[str], compacted: Iterable[str] = ()
) -> dict[str, int]:
    """Create the topics that do not exist, with the configured partitions and replication
    (a broker that auto-creates topics on first use might pick another partition count);
    ``compacted`` ones with ``cleanup.policy=compact``. Returns the partition count of each
    topic named that already existed."""
    compact = set(compacted)
    admin = AIOKafkaAdminClient(**settings.client_kwargs())
    async with started(admin, settings):
        wanted = list(dict.fromkeys([*names, *compact]))
        existing = await _partition_counts(admin, wanted)
        new = [
            NewTopic(
                n,
                settings.partitions,
                settings.replication_factor,
                topic_configs={
                    **topic_configs(settings),
                    **({"cleanup.policy": "compact"} if n in compact else {}),
                },
            )
            for n in wanted
            if n not in existing
        ]
        if new:
            try:
                response = await admin.create_topics(new)
            except TopicAlreadyExistsError:
                return existing
            for topic, code, *_ in getattr(response, "topic_errors", ()):
                if code not in (0, TopicAlreadyExistsError.errno):
                    raise KafkaError(f"cannot create topic {topic}: error code {code}")
        return existing


async def _partition_counts(admin: AIOKafkaAdminClient, names: list[str]) -> dict[str, int]:
    listed = set(await admin.list_topics())
    present = [n for n in names if n in listed]
    if not present:
        return {}
    out = {}
    for topic in await admin.describe_topics(present):
        partitions = topic.get("partitions") or ()
        if topic.get("error_code", 0) == 0 and partitions:
            out[topic["topic"]] = len(partitions)
    return out


async def prepare(settings: Settings) -> None:
    """What ``tracker worker`` makes sure of before it starts: the broker answers (within
    ``broker_wait`` seconds), every topic exists, and the input topic and the changelog have
    the configured number of partitions (Faust stops on the first fact otherwise)."""
    await wait_for_broker(settings, settings.broker_wait)
    inputs = [settings.topic("input"), *settings.output_topics.values()]
    inputs += [settings.topic("dead_letters"), settings.topic("title_facts")]
    changelog, titles = changelog_topic(settings), changelog_topic(settings, "titles")
    existing = await ensure_topics(settings, inputs, compacted=[changelog, titles])
    for name in (settings.topic("input"), changelog, settings.topic("title_facts"), titles):
        count = existing.get(name)
        if count is not None and count != settings.partitions:
            raise TopicMismatch(
                f"topic {name} has {count} partitions, but TRACKER_PARTITIONS is "
                f"{settings.partitions}: set TRACKER_PARTITIONS={count}, or use new topics "
                "(TRACKER_TOPIC_PREFIX and TRACKER_APP_ID); a partition count cannot change "
                "in place (deploy/README.md, Partitions)"
            )


def consumer(settings: Settings, **kwargs: object) -> AIOKafkaConsumer:
    """A consumer with partitions assigned by hand, committing nothing by itself: outside
    any group, or, given a ``group_id``, with a group that only keeps the offsets it is told
    to commit (no membership, no rebalancing). Under ``exactly_once`` it reads committed
    transactions only, so aborted sends stay unseen."""
    committed = settings.processing_guarantee == "exactly_once"
    kwargs.setdefault("group_id", None)
    return AIOKafkaConsumer(
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
    async with started(reader, settings):
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


async def read_from_start(
    settings: Settings,
    topics: Iterable[str],
    *,
    follow: bool = False,
    timeout: float | None = None,
    idle: float | None = None,
    caught_up_once: Callable[[], None] | None = None,
    **consumer_kwargs: object,
) -> AsyncGenerator[ConsumerRecord[bytes, bytes], None]:
    """Every record of the topics from offset 0, tombstones included, with a consumer
    outside any group (``consumer_kwargs`` go to :func:`consumer`); see :func:`read_assigned`
    for ``follow``, ``timeout``, ``idle`` and ``caught_up_once``."""
    async with started(consumer(settings, **consumer_kwargs), settings) as reader:
        records = read_assigned(
            reader,
            settings,
            topics,
            follow=follow,
            timeout=timeout,
            idle=idle,
            caught_up_once=caught_up_once,
        )
        async with contextlib.aclosing(records):
            async for record in records:
                yield record


async def read_assigned(
    reader: AIOKafkaConsumer,
    settings: Settings,
    topics: Iterable[str],
    *,
    follow: bool = False,
    timeout: float | None = None,
    idle: float | None = None,
    start: Callable[[TopicPartition], Awaitable[int]] | None = None,
    caught_up_once: Callable[[], None] | None = None,
) -> AsyncGenerator[ConsumerRecord[bytes, bytes], None]:
    """The records of the topics, read by a started consumer with partitions assigned by
    hand, each partition from ``start(partition)`` (default: offset 0). Without ``follow``,
    stops once every partition has been read to the highwater its Fetch responses report;
    with ``follow``, keeps going. Partitions of topics that do not exist yet are looked for
    again every second until every topic has the configured count; without ``follow``, no
    partition at all ends the read at once. ``idle`` ends the read once that many seconds
    pass without a record (after the first); past ``timeout`` seconds in all it raises
    :class:`TimeoutError`. ``caught_up_once`` is called the first time every partition has
    been read to its end (or none exists yet)."""
    names = list(topics)
    told = caught_up_once is None

    def tell() -> None:
        nonlocal told
        if not told and caught_up_once is not None:
            told = True
            caught_up_once()

    begun = time.monotonic()
    last_record: float | None = None
    assigned: list[TopicPartition] = []
    refreshed = 0.0
    while True:
        now = time.monotonic()
        if timeout is not None and now - begun > timeout:
            raise TimeoutError(f"{', '.join(names)}: not read to its end within {timeout} s")
        if idle is not None and last_record is not None and now - last_record > idle:
            return
        if len(assigned) < len(names) * settings.partitions and now - refreshed > 1.0:
            refreshed = now
            tps = await partitions_of(reader, names)
            if len(tps) != len(assigned):
                positions = {tp: await reader.position(tp) for tp in assigned}
                for tp in tps:
                    if tp not in positions:
                        positions[tp] = await start(tp) if start is not None else 0
                reader.assign(tps)
                for tp in tps:
                    reader.seek(tp, positions[tp])
                assigned = tps
        if not assigned:
            tell()
            if not follow:
                return
            await asyncio.sleep(0.2)
            continue
        batches = await reader.getmany(timeout_ms=200, max_records=5000)
        for records in batches.values():
            for record in records:
                last_record = time.monotonic()
                yield record
        if not batches and (not told or not follow) and await caught_up(reader, assigned):
            tell()
            if not follow:
                return


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
    """Return once the broker answers a metadata request; :class:`BrokerUnreachable` after
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        admin = AIOKafkaAdminClient(**settings.client_kwargs())
        try:
            async with started(admin, settings):
                await admin.list_topics()
                return
        except KafkaError as exc:
            if not unreachable(exc) and time.monotonic() > deadline:
                raise
            if time.monotonic() > deadline:
                raise BrokerUnreachable(settings, timeout) from None
            await asyncio.sleep(0.5)


__all__ = [
    "BrokerUnreachable",
    "TopicMismatch",
    "caught_up",
    "changelog_topic",
    "consumer",
    "ensure_topics",
    "partitions_of",
    "prepare",
    "quiet_clients",
    "read_assigned",
    "read_from_start",
    "read_range",
    "started",
    "topic_configs",
    "unreachable",
    "wait_for_broker",
]
