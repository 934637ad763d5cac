"""Plain aiokafka helpers shared by the worker, the publisher and the alert reader.

The end of a partition is always taken from Fetch responses (the highwater they carry), never
from ``ListOffsets(LATEST)``, which the light Tansu broker answers wrongly (Apache Kafka
answers both alike).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterable
from typing import Any, TypeVar

from aiokafka import AIOKafkaConsumer, ConsumerRecord, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.admin.config_resource import ConfigResource, ConfigResourceType
from aiokafka.errors import (
    KafkaConnectionError,
    KafkaError,
    NodeNotReadyError,
    TopicAlreadyExistsError,
)

from streams.settings import Settings
from streams.topics import Described, creation_configs, problems, roles

log = logging.getLogger(__name__)
T = TypeVar("T")


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
    """A topic exists with partitions, replicas or settings the worker cannot work with."""

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


async def any_node(request: Callable[[], Awaitable[T]], attempts: int = 20) -> T:
    """An admin request: aiokafka's admin client sends it to a random broker of the
    cluster, so with one broker down it is tried again (another broker is picked)."""
    for attempt in range(attempts):
        try:
            return await request()
        except (NodeNotReadyError, KafkaConnectionError):
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")


async def ensure_topics(settings: Settings, names: Iterable[str]) -> None:
    """Create the topics that do not exist, with the configured partitions and replication
    (a broker that auto-creates topics on first use might pick another partition count) and
    the configuration their role needs (:func:`streams.topics.creation_configs`)."""
    role_of = roles(settings)
    admin = AIOKafkaAdminClient(**settings.client_kwargs())
    async with started(admin, settings):
        wanted = list(dict.fromkeys(names))
        existing = await describe(admin, wanted)
        new = [
            NewTopic(
                n,
                settings.partitions,
                settings.replication_factor,
                topic_configs=creation_configs(settings, role_of[n]) if n in role_of else {},
            )
            for n in wanted
            if n not in existing
        ]
        if new:
            try:
                response = await any_node(lambda: admin.create_topics(new))
            except TopicAlreadyExistsError:
                return
            for topic, code, *_ in getattr(response, "topic_errors", ()):
                if code not in (0, TopicAlreadyExistsError.errno):
                    raise KafkaError(f"cannot create topic {topic}: error code {code}")


async def describe(
    admin: AIOKafkaAdminClient, names: list[str], configs: bool = False
) -> dict[str, Described]:
    """Partitions and replicas of the topics that exist, and with ``configs`` their
    configuration."""
    listed = set(await any_node(admin.list_topics))
    present = [n for n in names if n in listed]
    if not present:
        return {}
    out: dict[str, Described] = {}
    for topic in await any_node(lambda: admin.describe_topics(present)):
        partitions = topic.get("partitions") or ()
        if topic.get("error_code", 0) == 0 and partitions:
            replicas = min(len(p.get("replicas") or ()) for p in partitions)
            out[topic["topic"]] = Described(len(partitions), replicas, {})
    if configs and out:
        resources = [ConfigResource(ConfigResourceType.TOPIC, name) for name in out]
        for response in await any_node(lambda: admin.describe_configs(resources)):
            for code, _, _, name, entries, *_ in response.resources:
                if code == 0 and name in out:
                    out[name].configs.update({e[0]: e[1] for e in entries if e[1] is not None})
    return out


async def prepare(settings: Settings) -> None:
    """What ``tracker worker`` makes sure of before it starts: the broker answers (within
    ``broker_wait`` seconds), every topic exists, and the topics that existed have the
    partitions, replicas and configuration the worker needs (:func:`streams.topics.problems`;
    :class:`TopicMismatch` names every one that is wrong). Settings the broker does not
    report (Tansu reports only those set at creation) are logged as not checked."""
    await wait_for_broker(settings, settings.broker_wait)
    names = list(roles(settings))
    await ensure_topics(settings, names)
    admin = AIOKafkaAdminClient(**settings.client_kwargs())
    async with started(admin, settings):
        described = await describe(admin, names, configs=True)
    errors, unknown = problems(settings, described)
    if unknown:
        log.warning("the broker does not report these topic settings; not checked: %s", unknown)
    if errors:
        raise TopicMismatch("; ".join(errors))


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
    """The records of one partition with ``start <= offset < end``, read by fetching;
    :class:`TimeoutError` when ``timeout`` seconds pass without a record. (Not a bound on the
    whole read: the caller handles each record before the next is read, and a backlog of
    tens of thousands takes minutes on a loaded machine.)"""
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
                    f"{topic}[{partition}]: read up to {position}, expected {end}; "
                    f"nothing came for {timeout} s"
                )
            records = (await reader.getmany(tp, timeout_ms=500, max_records=2000)).get(tp, [])
            for record in records:
                if start <= record.offset < end:
                    yield record
            if records:
                deadline = time.monotonic() + timeout


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
    "consumer",
    "describe",
    "ensure_topics",
    "partitions_of",
    "prepare",
    "quiet_clients",
    "read_assigned",
    "read_from_start",
    "read_range",
    "started",
    "unreachable",
    "wait_for_broker",
]
