"""Building the Faust application from :class:`~streams.settings.Settings`: topics, the
``facts`` table and its agent with its watchdog, the ``titles`` table and its agent
(:mod:`streams.faust.titles`), and the web views. :mod:`streams.faust.app` holds the
module-level app for ``faust -A streams.faust.app``; ``tracker worker`` builds its own with
:func:`build`. The wiring depends on the agent and the views; they do not know it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import faust

from streams import web
from streams.faust import agents, titles, watch
from streams.faust.agents import Channels, Tracker
from streams.faust.internals import set_fetch_wait
from streams.faust.titles import TitlesAgent
from streams.feed import AlertFeed
from streams.pauses import Heap, LoopProbe
from streams.processor import Processor
from streams.settings import Audience, Settings
from tracker.engine.transition import Core, apply


@dataclasses.dataclass
class Wiring:
    """One Faust app and everything attached to it."""

    settings: Settings
    app: faust.App
    input: Any
    """The input topic (faust.TopicT)."""
    outputs: dict[Audience, Any]
    dead_letters: Any
    facts: Any
    """The ``facts`` table (faust.Table): ``b"<tournament id>/<seq>"`` -> an encoded
    :class:`~streams.records.StoredFact`."""
    agent: Any = None
    tracker: Tracker | None = None
    """The agent's state and steps (for tests and the benchmark)."""
    titles: TitlesAgent | None = None
    """The titles agent's state and steps."""
    feed: AlertFeed | None = None
    """The web server's alert feed, when the web is on."""

    @property
    def processor(self) -> Processor | None:
        """The agent's in-memory view of its tournaments."""
        return self.tracker.processor if self.tracker else None


def credentials(settings: Settings) -> Any:
    """``broker_credentials`` for :class:`faust.App` (``None`` for PLAINTEXT)."""
    context = settings.ssl_context()
    if settings.security_protocol.startswith("SASL"):
        password = settings.sasl_password.get_secret_value() if settings.sasl_password else ""
        return faust.SASLCredentials(
            username=settings.sasl_username or "",
            password=password,
            mechanism=settings.sasl_mechanism,
            ssl_context=context,
        )
    if context is not None:
        return faust.SSLCredentials(context)
    return None


def make_app(settings: Settings) -> faust.App:
    """A Faust app with the settings' broker, store, guarantee and group timings (shared by
    the tracker and the benchmark's pass-through agent)."""
    app = faust.App(
        settings.app_id,
        broker=settings.faust_broker,
        broker_credentials=credentials(settings),
        store=settings.store,
        datadir=settings.data_dir,
        processing_guarantee=settings.processing_guarantee,
        broker_session_timeout=settings.session_timeout,
        broker_heartbeat_interval=settings.heartbeat_interval,
        broker_rebalance_timeout=settings.rebalance_timeout,
        broker_commit_interval=settings.commit_interval,
        # the default 1200 s would leave a worker blocked for 20 min on a lost produce reply
        producer_request_timeout=settings.producer_request_timeout,
        # room for the largest record the worker writes (a round_finished of a big open)
        producer_max_request_size=settings.record_room,
        topic_partitions=settings.partitions,
        topic_replication_factor=settings.replication_factor,
        table_standby_replicas=settings.standby_replicas,
        recovery_consistency_check=settings.recovery_consistency_check,
        **settings.faust_web(),
        web_application_options={"handler_args": web.HANDLER_ARGS},
        consumer_auto_offset_reset="earliest",
        autodiscover=False,
    )
    set_fetch_wait(app, settings.worker_fetch_wait_ms)
    return app


def raw_topic(app: faust.App, settings: Settings, name: str) -> Any:
    """A topic of raw bytes (we encode and decode ourselves, so bad input reaches the agent)."""
    return app.topic(
        name,
        key_type=bytes,
        value_type=bytes,
        key_serializer="raw",
        value_serializer="raw",
        partitions=settings.partitions,
        replicas=settings.replication_factor,
    )


def build(settings: Settings | None = None, core: Core = apply, heap: Heap | None = None) -> Wiring:
    """The app; ``heap`` is the worker process's collector policy (``tracker worker`` gives
    one; tests that build apps in their own process do not)."""
    settings = settings or Settings()
    app = make_app(settings)

    def topic(name: str) -> Any:
        return raw_topic(app, settings, name)

    wiring = Wiring(
        settings=settings,
        app=app,
        input=topic(settings.topic("input")),
        outputs={audience: topic(name) for audience, name in settings.output_topics.items()},
        dead_letters=topic(settings.topic("dead_letters")),
        facts=app.Table(
            "facts",
            partitions=settings.partitions,
            key_type=bytes,  # bytes -> the "raw" codec for keys and values, no JSON layer
            value_type=bytes,
        ),
    )
    title_facts = topic(settings.topic("title_facts"))
    channels = Channels(
        wiring.input, wiring.outputs, wiring.dead_letters, wiring.facts, title_facts
    )
    wiring.agent, wiring.tracker = agents.attach(app, settings, channels, core, heap)
    titles_table = app.Table(
        "titles", partitions=settings.partitions, key_type=bytes, value_type=bytes
    )
    _, wiring.titles = titles.attach(
        app,
        settings,
        title_facts,
        titles_table,
        wiring.outputs["titles"],
        wiring.dead_letters,
        busy=wiring.tracker.behind,
    )
    watch.attach(app, wiring.tracker)
    tracker = wiring.tracker
    probe = LoopProbe(current=lambda: tracker.current)

    async def measure_loop() -> None:
        await probe.run()

    app.task(measure_loop)
    if settings.web_port is not None:
        wiring.feed = mount_web(wiring).backend.feed
    return wiring


def mount_web(wiring: Wiring) -> web.Views:
    """The web views (:mod:`streams.web`) in Faust's web server, answering from the agent's
    processor; a request for a tournament of another worker's partition goes there (Faust's
    partition assignment knows which, by the input topic's key)."""
    app, tracker = wiring.app, wiring.tracker
    assert tracker is not None

    def owner(tid: str) -> Any:
        url = app.router.external_topic_key_store(wiring.input, tid.encode())
        here = app.conf.canonical_url
        return None if (url.host, url.port) == (here.host, here.port) else url

    backend = web.Backend(tracker.processor, AlertFeed(wiring.settings), wiring.settings, owner)
    server: Any = app.web  # Faust's aiohttp driver (its base type does not name web_app)
    return web.mount(server.web_app, backend)
