"""The Kafka subcommands of ``tracker``: ``worker``, ``publish``, ``alerts``, ``schema``.

``cli.main`` finds :func:`register` through the ``tracker.commands`` entry point. Nothing
here imports faust until a command runs, so ``tracker replay`` stays fast.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from streams.settings import Settings

if TYPE_CHECKING:
    from tracker.engine.transition import Core

BROKER_HELP = "bootstrap broker, kafka://host:port (default: $TRACKER_BROKER or localhost:9092)"


def register(sub: Any) -> None:
    """Add the subcommands to ``tracker``'s argparse sub-parsers."""
    worker = sub.add_parser("worker", help="run the streaming worker (faust) on the input topic")
    worker.add_argument("--broker", help=BROKER_HELP)
    worker.add_argument(
        "-l",
        "--loglevel",
        default="info",
        choices=["crit", "error", "warn", "info", "debug"],
        help="how much the worker logs (default: info)",
    )
    worker.add_argument(
        "--web-port", type=int, help="serve the web views, the alert stream and /live on this port"
    )
    worker.add_argument(
        "--web-bind",
        metavar="ADDRESS",
        help="the address the web server listens on (default: $TRACKER_WEB_BIND or 127.0.0.1, "
        "this host only; 0.0.0.0 for every interface)",
    )
    worker.add_argument(
        "--web-host",
        help="the name other workers reach this one by (default: $TRACKER_WEB_HOST or the host "
        "name); requests for their tournaments are forwarded",
    )
    worker.set_defaults(func=cmd_worker)

    publish = sub.add_parser(
        "publish", help="publish a TRF or JSONL tournament to the input topic, round by round"
    )
    publish.add_argument("file", help="TRF file, or JSONL file of input events")
    publish.add_argument("--broker", help=BROKER_HELP)
    publish.add_argument(
        "--pace", type=float, default=0.0, metavar="SECONDS", help="pause between rounds"
    )
    from cli.main import progress_flag, rounds_option

    rounds_option(publish)
    progress_flag(publish)
    publish.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="send every event N times in a row (shows that repeats change nothing)",
    )
    publish.set_defaults(func=cmd_publish)

    alerts = sub.add_parser("alerts", help="print the alerts on the output topics")
    alerts.add_argument("--broker", help=BROKER_HELP)
    alerts.add_argument("--follow", action="store_true", help="keep printing new alerts")
    alerts.add_argument(
        "--format",
        choices=["text", "jsonl"],
        default="text",
        help="text: each round's standings and alerts, in round order, each line naming its "
        "round (default); "
        "jsonl: each alert as JSON, the event contract",
    )
    alerts.add_argument(
        "--timeout",
        type=float,
        metavar="S",
        help="stop after S seconds, deliveries included (default: never)",
    )
    alerts.add_argument(
        "--idle",
        type=float,
        metavar="S",
        help="with --follow, stop once S seconds pass without a new alert (after the first)",
    )
    alerts.add_argument(
        "--audience",
        action="append",
        choices=["norms", "titles", "ignorable", "rounds"],
        help="only these output topics (repeatable; default: all)",
    )
    alerts.add_argument("--top", type=int, default=10, help="standings rows shown per round")
    alerts.add_argument(
        "--federation",
        action="append",
        metavar="FED",
        help="only alerts about players of this federation (repeatable, or FED1,FED2): the "
        "title-threshold and norm alerts a federation follows",
    )
    alerts.add_argument(
        "--tournament", action="append", metavar="ID", help="only these tournaments (repeatable)"
    )
    alerts.add_argument(
        "--type",
        action="append",
        metavar="TYPE",
        help="only these alert types, e.g. norm_achieved (repeatable)",
    )
    alerts.add_argument(
        "--webhook",
        action="append",
        metavar="URL",
        help="POST each alert to URL, signed with $TRACKER_WEBHOOK_SECRET (HMAC-SHA256), with "
        "retries for up to $TRACKER_WEBHOOK_RETRY_FOR seconds, then to the webhook "
        "dead-letter topic; resumes where the last run stopped (a consumer group per URL); "
        "repeatable, one receiver each; prints one line per delivery instead of the alerts",
    )
    alerts.set_defaults(func=cmd_alerts)

    dead = sub.add_parser("dead-letters", help="print the refused input messages")
    dead.add_argument("--broker", help=BROKER_HELP)
    dead.add_argument("--follow", action="store_true", help="keep printing new refused messages")
    dead.add_argument(
        "--webhook",
        action="store_true",
        help="the alerts tracker alerts --webhook could not deliver instead, with the reason",
    )
    dead.add_argument(
        "--timeout", type=float, metavar="S", help="stop after S seconds (default: never)"
    )
    dead.set_defaults(func=cmd_dead_letters)

    schema = sub.add_parser("schema", help="write the JSON Schemas of the events")
    schema.add_argument(
        "--out", default="out/schemas", metavar="DIR", help="default: ./out/schemas"
    )
    schema.set_defaults(func=cmd_schema)


def _settings(args: argparse.Namespace) -> Settings:
    return Settings().with_broker(getattr(args, "broker", None))


def _fail(message: str) -> int:
    print(f"tracker: error: {message}", file=sys.stderr)
    return 2


def _kafka_failure(settings: Settings, exc: BaseException) -> int:
    """One line for a Kafka client error (exit code 2)."""
    from streams.kafka import BrokerUnreachable, TopicMismatch, unreachable

    if isinstance(exc, BrokerUnreachable | TopicMismatch):
        return _fail(exc.message)
    if unreachable(exc):
        return _fail(BrokerUnreachable(settings).message)
    return _fail(f"{settings.broker}: {exc}")


def _quiet_clients() -> None:
    from streams.kafka import quiet_clients

    quiet_clients()


def cmd_worker(args: argparse.Namespace, core: Core | None = None) -> int:
    """``tracker worker``; ``core`` replaces the transition every fact goes through (only
    ``bench/bench_streams.py`` gives one, to measure the worker without the norm work)."""
    from aiokafka.errors import KafkaError

    from streams.kafka import prepare

    settings = _settings(args)
    if args.web_port:
        settings = settings.model_copy(update={"web_port": args.web_port})
    if args.web_bind:
        settings = settings.model_copy(update={"web_bind": args.web_bind})
    if args.web_host:
        settings = settings.model_copy(update={"web_host": args.web_host})
    _quiet_clients()
    print(
        f"tracker worker: connecting to {settings.broker} (waiting up to "
        f"{settings.broker_wait:g} s, TRACKER_BROKER_WAIT)",
        file=sys.stderr,
        flush=True,
    )
    try:
        asyncio.run(prepare(settings))
    except KafkaError as exc:
        return _kafka_failure(settings, exc)
    if settings.web_port is not None:
        print(f"tracker worker: {_web_address(settings)}", file=sys.stderr, flush=True)
    import logging

    import faust

    from streams.faust.wiring import build
    from streams.pauses import Heap

    logging.getLogger("aiokafka").setLevel(logging.NOTSET)
    heap = Heap(settings.heap_tidy_every, settings.heap_full_every)
    wiring = build(settings, heap=heap) if core is None else build(settings, core, heap)
    worker = faust.Worker(wiring.app, loglevel=args.loglevel)
    heap.start()
    try:
        worker.execute_from_commandline()
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 0
    return 0


def _web_address(settings: Any) -> str:
    """Where the worker's pages are, for a person to open: the address it is reached by
    (``--web-host``, else the one it listens on, else this machine's loopback)."""
    host = settings.web_host or (
        settings.web_bind if settings.web_bind not in ("0.0.0.0", "::", "") else "127.0.0.1"
    )
    base = f"http://{host}:{settings.web_port}"
    return f"the live page at {base}/live (REST under {base}/api, OpenAPI at {base}/openapi.json)"


def cmd_publish(args: argparse.Namespace) -> int:
    from aiokafka.errors import KafkaError

    _quiet_clients()

    from cli.main import Progress
    from streams.publish import load, publish

    settings = _settings(args)
    events = load(args.file, args.rounds)
    progress = Progress(args.file, len(events) * args.repeat, args.progress, quiet_stdout=True)
    current = 0

    def announce(number: int) -> None:
        nonlocal current
        current = number
        if not progress.enabled:
            print(f"round {number} …", file=sys.stderr, flush=True)

    started = time.monotonic()
    try:
        sent = asyncio.run(
            publish(
                events,
                settings,
                pace=args.pace,
                repeat=args.repeat,
                on_round=announce if args.pace or progress.enabled else None,
                on_sent=lambda n: progress.update(n, current),
            )
        )
    except KafkaError as exc:
        return _kafka_failure(settings, exc)
    finally:
        progress.close()
    tournaments = len({e.tournament_id for e in events})
    print(
        f"published {sent} messages ({tournaments} tournament(s)) to "
        f"{settings.topic('input')} in {time.monotonic() - started:.1f} s",
        file=sys.stderr,
    )
    return 0


def cmd_alerts(args: argparse.Namespace) -> int:
    from aiokafka.errors import KafkaError

    _quiet_clients()

    from streams.subscriber import alerts, bursts
    from tracker.contract.alert_filter import AlertFilter
    from tracker.contract.round_order import in_round_order
    from tracker.render.report import story

    settings = _settings(args)
    wanted = AlertFilter.of(args.tournament, args.type, args.federation)
    if args.webhook and settings.webhook_secret is None:
        return _fail("--webhook: set TRACKER_WEBHOOK_SECRET to the secret shared with the receiver")
    failed = 0

    async def chosen() -> Any:
        async for alert in alerts(
            settings, args.audience, follow=args.follow, timeout=args.timeout, idle=args.idle
        ):
            if wanted.matches(alert.model_dump(mode="json")):
                yield alert

    async def run() -> None:
        if args.format == "jsonl":
            async for alert in chosen():
                print(alert.model_dump_json(), flush=True)
            return
        # for people: what came together (a backlog read topic by topic, a round's alerts
        # from several topics) in round order, each round's summary first
        async for batch in bursts(chosen(), TOGETHER):
            for line in story(in_round_order(batch, _round_of), top=args.top):
                print(line, flush=True)

    async def post() -> None:
        from streams.relay import Receiver, Relay
        from streams.webhook import Deliverer, Outcome

        nonlocal failed
        assert settings.webhook_secret is not None
        secret = settings.webhook_secret.get_secret_value().encode()

        def told(receiver: Receiver, outcome: Outcome, dead_letters: str) -> None:
            verdict = "delivered" if outcome.delivered else "FAILED"
            line = (
                f"{verdict} {outcome.alert_id} to {receiver.url} after {outcome.attempts} "
                f"attempt(s) (HTTP {outcome.status})"
            )
            if dead_letters:
                line += f": {outcome.reason}; dead-lettered to {dead_letters}"
            print(line, flush=True)

        topics = settings.topics_of(args.audience)
        relays = []
        for url in dict.fromkeys(args.webhook):
            deliverer = Deliverer(
                url,
                secret,
                attempts=settings.webhook_attempts,
                backoff=settings.webhook_backoff,
                max_backoff=settings.webhook_max_backoff,
                retry_for=settings.webhook_retry_for,
                timeout=settings.webhook_timeout,
            )
            receiver = Receiver.of(url, settings)
            relays.append(Relay(settings, receiver, deliverer, wanted.matches, told, topics))
        # SIGTERM (a container or a supervisor stopping the sender) ends the run as the
        # timeout does: each relay commits what is done before the process exits, so that the
        # next run does not post it again (killed outright, up to a commit's worth would be)
        main = asyncio.current_task()
        assert main is not None
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)
        try:
            async with asyncio.timeout(args.timeout):  # the whole run, deliveries included
                await asyncio.gather(*(r.run(follow=args.follow, idle=args.idle) for r in relays))
        except TimeoutError:
            pass  # what was done is committed; the rest is delivered by the next run
        except asyncio.CancelledError:
            pass  # SIGTERM: the relays committed what was done as they stopped
        finally:
            failed = sum(r.failed for r in relays)

    try:
        asyncio.run(post() if args.webhook else run())
    except KafkaError as exc:
        return _kafka_failure(settings, exc)
    except KeyboardInterrupt:
        return 0
    return 1 if failed else 0


TOGETHER = 0.5
"""Seconds without a new alert that end what ``tracker alerts --format text`` puts in round
order before printing it."""


def _round_of(alert: Any) -> tuple[str, int, str]:
    return alert.tournament_id, alert.round, alert.type


def cmd_dead_letters(args: argparse.Namespace) -> int:
    from aiokafka.errors import KafkaError

    _quiet_clients()

    from streams.subscriber import dead_letters, webhook_dead_letters

    settings = _settings(args)
    read = webhook_dead_letters if args.webhook else dead_letters

    async def run() -> None:
        async for letter in read(settings, follow=args.follow, timeout=args.timeout):
            print(letter.model_dump_json(), flush=True)

    try:
        asyncio.run(run())
    except KafkaError as exc:
        return _kafka_failure(settings, exc)
    except KeyboardInterrupt:
        return 0
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from streams.records import write_schemas

    for path in write_schemas(Path(args.out)):
        print(path)
    return 0


__all__ = ["register"]
