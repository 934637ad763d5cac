"""Settings of the Kafka shell, from ``TRACKER_*`` environment variables.

Every command that talks to Kafka takes ``--broker`` and falls back to ``TRACKER_BROKER``.
The defaults are for Apache Kafka as deployed (``deploy/``); the tests' throwaway brokers
take quicker group timings (:data:`streams.broker.QUICK_GROUP`).

>>> s = Settings(broker="kafka://a:9092,b:9092", topic_prefix="t1-")
>>> s.bootstrap_servers
['a:9092', 'b:9092']
>>> s.topic("input")
't1-tournament-events'
"""

from __future__ import annotations

import ssl
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

Audience = Literal["norms", "titles", "ignorable", "rounds"]
"""Who an output topic is for; see :data:`streams.records.AUDIENCE_OF`."""

TopicRole = Literal[
    "input",
    "norms",
    "titles",
    "ignorable",
    "rounds",
    "dead_letters",
    "title_facts",
    "webhook_dead_letters",
]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TRACKER_", extra="ignore")

    broker: str = "kafka://localhost:9092"
    """Bootstrap servers, ``kafka://host:port`` (several separated by ``,`` or ``;``)."""
    app_id: str = "fide-norm-tracker"
    """Faust application id: the consumer group and the prefix of the changelog topic."""

    topic_prefix: str = ""
    """Prepended to every topic name below (one broker, several pipelines)."""
    input_topic: str = "tournament-events"
    norm_topic: str = "norm-alerts"
    """``norm_achieved``, ``norm_revoked``, ``norm_prospect``, ``norm_out_of_reach`` and
    ``norm_prospect_revoked``."""
    title_topic: str = "title-alerts"
    """``title_rating_reached`` and ``title_rating_revoked``; ``title_application_complete``
    and ``title_application_progress`` (keyed by FIDE id)."""
    ignorable_topic: str = "ignorable-games"
    round_topic: str = "round-summaries"
    """``round_finished``, ``standings_corrected`` and ``round_reopened``."""
    dead_letter_topic: str = "tournament-events-dead-letters"
    title_facts_topic: str = "title-facts"
    """Internal: the title facts of the norm and rating alerts, keyed by FIDE id, that the
    titles agent keeps in its table (:mod:`streams.titles`)."""

    partitions: int = Field(default=4, ge=1)
    """Partitions of every topic; the changelog gets the same number (co-partitioning)."""
    replication_factor: int = Field(default=1, ge=1)

    store: str = "memory://"
    """``memory://`` or ``rocksdb://`` (rocksdict); state is rebuilt at assignment anyway."""
    data_dir: str = "tracker-data"
    processing_guarantee: Literal["at_least_once", "exactly_once"] = "at_least_once"
    """``exactly_once`` needs a broker with transactions (Apache Kafka; tested there), not
    Tansu."""
    recovery_consistency_check: bool = False
    """Faust's check that a table's local offset is not past the changelog's end (a
    changelog deleted under a kept ``rocksdb://`` store). Off: it fails healthy workers.
    Under ``exactly_once`` on Apache Kafka a worker restarted on its ``rocksdb://`` volume
    after a crash holds the offsets of writes whose transaction was never committed, while
    the changelog's end it reads (the last stable offset) stops before that open transaction
    (seen in CI: "persisted offset 8 > highwater -1", the worker exiting at start); on Tansu
    the end is reported too low (its ListOffsets bug). The facts' chain catches a changelog
    cut short or deleted without it, and ignores stored facts past the input offset a
    worker resumes from."""
    standby_replicas: int = Field(default=0, ge=0)
    """Faust standby copies of the table; the memory store drops them, so 0 by default."""

    session_timeout: float = 10.0
    """Seconds before a silent worker's partitions move to the others. Apache Kafka refuses
    less than its ``group.min.session.timeout.ms`` (6 s by default)."""
    heartbeat_interval: float = 3.0
    rebalance_timeout: float = 30.0
    commit_interval: float = 1.0
    producer_request_timeout: float = 30.0
    fetch_max_wait_ms: int = Field(default=500, ge=1)
    """How long the broker may hold a Fetch of the plain readers (the subscriber, the
    worker's re-reads). Apache Kafka answers as soon as records arrive, so this only bounds
    idle polling; Tansu holds a Fetch for half of it whatever arrives (use 20 there)."""

    worker_fetch_wait_ms: int = Field(default=50, ge=1)
    """How long the broker may hold a Fetch of the worker's own consumer (Faust's, which
    hard-codes 1,500). With one Fetch in flight per broker, a partition the agent has drained
    gets nothing new until the Fetch out returns, so this bounds how long the agent can wait
    for input that is already on the broker (:func:`streams.faust.internals.set_fetch_wait`).
    When idle, one Fetch per broker every this many milliseconds."""

    broker_wait: float = Field(default=30.0, gt=0)
    """Seconds ``tracker worker`` waits for the broker to answer at start (then it exits
    with code 2), and how long a running worker tolerates losing it (then it exits with
    code 75 for its supervisor to restart it)."""
    catch_up_after: float = Field(default=5.0, gt=0)
    """Seconds a partition may hold messages that Faust has not delivered before the worker
    reads and handles them itself (Faust 0.15 sometimes skips messages right after an
    assignment, and they would otherwise wait for the next message)."""
    watch_every: float = Field(default=2.0, gt=0)
    """Seconds between two checks of the broker, the topics and the partitions."""
    heap_tidy_every: int = Field(default=200, ge=0)
    """Messages handled between two collections of the objects made since the last one,
    after which what survived is frozen (:class:`streams.pauses.Heap`): no collection walks
    the whole heap, which held the event loop 50-270 ms every ~30 s with 200 tournaments in
    flight. 0 leaves Python's collector as it is."""
    heap_full_every: float = Field(default=3600.0, gt=0)
    """Seconds between two collections of the whole heap (frozen objects included), which
    free the garbage cycles that reach into frozen objects (see :mod:`streams.pauses`)."""

    max_input_bytes: int = Field(default=65_536, ge=1024)
    """Input messages longer than this are dead-lettered unread (any valid event within the
    contract's limits is a few kB)."""
    max_message_bytes: int = Field(default=4_194_304, ge=65_536)
    """The largest record the worker writes. An event whose alert would be longer is refused
    (dead letter). A ``round_finished`` of 4 000 players with 100-character names is 1.0 MB
    (ASCII) to 2.1 MB (4-byte characters), so the default holds every tournament within the
    contract's limits; the topics the worker creates allow records of this size
    (``max.message.bytes``). Apache Kafka's own default is 1 MB: pre-created topics need
    ``max.message.bytes`` at least this (see ``deploy/``)."""
    max_attempts: int = Field(default=3, ge=1)
    """A message the worker fails on (a bug, not bad input) is tried by this many workers,
    then dead-lettered (each failure stops the worker with code 70)."""
    idle_retire: float = Field(default=604_800.0, gt=0)
    """Seconds after which a tournament with no new fact is retired whatever its state."""
    retire_every: float = Field(default=60.0, gt=0)
    """Seconds between two retirement passes."""

    security_protocol: Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] = "PLAINTEXT"
    sasl_mechanism: Literal["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] = "SCRAM-SHA-512"
    sasl_username: str | None = None
    sasl_password: SecretStr | None = None
    ssl_cafile: str | None = None
    ssl_certfile: str | None = None
    ssl_keyfile: str | None = None

    web_port: int | None = None
    """The worker's web server port; ``None`` runs without it (needed for 2 workers on 1 host)."""
    web_bind: str = "127.0.0.1"
    """The address the web server listens on: loopback only unless told otherwise
    (``0.0.0.0`` for every interface, as a container or several hosts need; see ``deploy/``)."""
    web_host: str | None = None
    """The name other workers reach this one's web server by (Faust's ``canonical_url``
    host; default: the bind address when it is one address, else the host name); requests
    for another worker's tournament are forwarded."""

    feed_alerts: int = Field(default=20_000, ge=1)
    """Alerts the SSE feed (``/api/alerts``) keeps in memory at most, the oldest dropped first."""
    feed_bytes: int = Field(default=32 * 1024 * 1024, ge=1)
    """Bytes of alert JSON the SSE feed keeps at most (32 MiB), the oldest dropped first."""
    feed_heartbeat: float = Field(default=15.0, gt=0)
    """Seconds without an alert after which the SSE feed (``/api/alerts``) sends a keep-alive
    comment (so that a client, and the worker, notice a stream gone silent)."""
    finished_grace: float = Field(default=3600.0, ge=0)
    """Seconds a finished tournament (its last round finished) stays in the SSE feed's memory
    after its latest alert, by the messages' timestamps, and in the worker's after its last
    fact (then it is retired: a late event reads it back from the input topic); its alerts
    stay in the topics."""

    certificate_renders: int = Field(default=1, ge=1)
    """Certificate PDFs the web server renders at the same time, each in a thread of its own
    beside the event loop (each ~0.2 s of CPU): more answers a crowd sooner, and takes more
    of the CPU the alerts need (the threads share the interpreter with the loop)."""

    webhook_secret: SecretStr | None = None
    """Shared secret of the webhook signature (``X-Tracker-Signature: v1=<HMAC>`` of the
    timestamp, the alert id and the body; see :mod:`streams.webhook`)."""
    webhook_attempts: int | None = Field(default=None, ge=1)
    """Deliveries tried per alert at most; by default as many as ``webhook_retry_for`` allows."""
    webhook_backoff: float = Field(default=0.5, gt=0)
    """Seconds before the first retry; doubled after each failure (at most
    ``webhook_max_backoff``)."""
    webhook_max_backoff: float = Field(default=300.0, gt=0)
    """The longest wait between two attempts, in seconds."""
    webhook_retry_for: float = Field(default=86_400.0, gt=0)
    """Seconds an alert is retried for after its first attempt (a day: a receiver may be down
    for hours); then it is dead-lettered (``webhook_dead_letter_topic``) with the reason."""
    webhook_timeout: float = Field(default=10.0, gt=0)
    """Seconds one attempt may take (a slower answer counts as a failure and is retried)."""
    webhook_concurrency: int = Field(default=8, ge=1)
    """Tournaments whose alerts go to one receiver at the same time (each tournament's in
    order)."""
    webhook_dead_letter_topic: str = "webhook-dead-letters"
    """Alerts that could not be delivered to a receiver, with the reason."""

    # ------------------------------------------------------------------ derived

    def topic(self, role: TopicRole) -> str:
        name = {
            "input": self.input_topic,
            "norms": self.norm_topic,
            "titles": self.title_topic,
            "ignorable": self.ignorable_topic,
            "rounds": self.round_topic,
            "dead_letters": self.dead_letter_topic,
            "title_facts": self.title_facts_topic,
            "webhook_dead_letters": self.webhook_dead_letter_topic,
        }[role]
        return f"{self.topic_prefix}{name}"

    @property
    def output_topics(self) -> dict[Audience, str]:
        return {
            "norms": self.topic("norms"),
            "titles": self.topic("titles"),
            "ignorable": self.topic("ignorable"),
            "rounds": self.topic("rounds"),
        }

    def topics_of(self, audiences: Iterable[Audience] | None) -> list[str]:
        """The output topics of these audiences (``None``: all)."""
        wanted = set(audiences or self.output_topics)
        return [name for audience, name in self.output_topics.items() if audience in wanted]

    @property
    def bootstrap_servers(self) -> list[str]:
        servers = []
        for part in self.broker.replace(";", ",").split(","):
            part = part.strip()
            if "://" in part:
                part = part.split("://", 1)[1]
            if part:
                servers.append(part.rstrip("/"))
        return servers

    @property
    def faust_broker(self) -> list[str]:
        return [f"kafka://{s}" for s in self.bootstrap_servers]

    def ssl_context(self) -> ssl.SSLContext | None:
        if self.security_protocol not in ("SSL", "SASL_SSL"):
            return None
        context = ssl.create_default_context(cafile=self.ssl_cafile)
        if self.ssl_certfile:
            context.load_cert_chain(self.ssl_certfile, self.ssl_keyfile)
        return context

    @property
    def record_room(self) -> int:
        """Bytes a produce request and a topic's ``max.message.bytes`` must allow: the
        largest record the worker writes, and 64 kB for the batch and record overhead."""
        return self.max_message_bytes + 65_536

    def client_kwargs(self) -> dict[str, Any]:
        """Connection arguments for plain aiokafka clients (publisher, alerts, repair)."""
        kwargs: dict[str, Any] = {
            "bootstrap_servers": self.bootstrap_servers,
            "security_protocol": self.security_protocol,
        }
        context = self.ssl_context()
        if context is not None:
            kwargs["ssl_context"] = context
        if self.security_protocol.startswith("SASL"):
            kwargs["sasl_mechanism"] = self.sasl_mechanism
            kwargs["sasl_plain_username"] = self.sasl_username
            kwargs["sasl_plain_password"] = (
                self.sasl_password.get_secret_value() if self.sasl_password else None
            )
        return kwargs

    def faust_web(self) -> dict[str, Any]:
        """The web server's options for :class:`faust.App`: where it listens, the name
        other workers reach it by, and none of Faust's own pages (``/router``, ``/table``,
        statistics, graph, metrics), which describe the cluster to anyone who asks."""
        host = self.web_host
        if host is None and self.web_bind not in ("0.0.0.0", "::", ""):
            host = self.web_bind
        return {
            "web_enabled": self.web_port is not None,
            "web_port": self.web_port or 6066,
            "web_bind": self.web_bind,
            **({"web_host": host} if host else {}),
            "web_router_enabled": False,
            "web_tables_enabled": False,
            "web_stats_enabled": False,
            "web_graph_enabled": False,
            "web_metrics_enabled": False,
        }

    def with_broker(self, broker: str | None) -> Settings:
        """These settings, with ``--broker`` applied when given."""
        return self.model_copy(update={"broker": broker}) if broker else self


__all__ = ["Audience", "Settings", "TopicRole"]
