"""``tracker follow``: its arguments, and the command.

``cli.main`` adds the subcommand with :func:`register`; nothing here is imported until
``tracker`` builds its parser, and the loop, the sinks and aiokafka only when the command runs.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import date
from pathlib import Path
from typing import Any

from follow.limits import MAX_BYTES, TIMEOUT, Limits


def register(sub: Any, editions: list[str], editions_help: str) -> None:
    """Add ``follow`` to ``tracker``'s sub-parsers."""
    p = sub.add_parser(
        "follow",
        help="follow an arbiter's TRF export and/or a broadcast PGN as they change",
        description="Watch the arbiter's TRF file or URL (and/or a broadcast's PGN feeds) and "
        "turn every new snapshot into the input events that are new: printed as alerts by the "
        "embedded tracker, or sent to the input topic with --broker.",
    )
    p.add_argument("source", nargs="?", help="the arbiter's TRF export: a file or an http(s) URL")
    p.add_argument(
        "--pgn",
        action="append",
        default=[],
        metavar="FILE_OR_URL",
        help="a broadcast's PGN feed (repeatable: one per round, or one for the event)",
    )
    p.add_argument(
        "--players",
        metavar="START_LIST",
        help="start list for the broadcast's players: a TRF, or FIDE's rating list (TXT or "
        "XML) cut to the event's players (start ranks in its order); default: the "
        "arbiter's file",
    )
    p.add_argument("--broker", help="send to the input topic here instead of the embedded core")
    p.add_argument("--interval", type=float, default=2.0, metavar="S", help="seconds between polls")
    p.add_argument("--once", action="store_true", help="poll each source once, then stop")
    p.add_argument(
        "--max-bytes",
        type=_positive_int,
        default=MAX_BYTES,
        metavar="N",
        help=f"the largest snapshot taken, in bytes, on the wire and decompressed (default "
        f"{MAX_BYTES}: a 4 000-player TRF or a whole broadcast PGN with room); a larger one "
        "is a failed poll",
    )
    p.add_argument(
        "--request-timeout",
        type=float,
        default=TIMEOUT,
        metavar="S",
        help=f"seconds one request to a URL may take in all (default {TIMEOUT:g})",
    )
    p.add_argument("--idle", type=float, metavar="S", help="stop after S seconds without a change")
    p.add_argument(
        "--until-finished",
        action="store_true",
        help="stop once the tracker has finished the last planned round",
    )
    p.add_argument("--format", choices=["text", "jsonl"], default="text")
    p.add_argument("--top", type=int, default=10, help="standings rows shown per round")
    p.add_argument(
        "--state",
        metavar="PATH",
        type=Path,
        help="embedded mode: keep the events handed to the tracker here, so that a restart "
        "prints only what is new (with --broker the input topic is read back instead)",
    )
    p.add_argument(
        "--accept-removals",
        action="store_true",
        help="take a snapshot that drops or changes facts the last one had as the arbiter's "
        "correction: each is taken back by its correction event (pairing_removed, bye_removed, "
        "round_reopened, player_removed, player_corrected) and what the file says now is sent",
    )
    p.add_argument("--edition", choices=editions, help=editions_help)
    from cli.main import rounds_option, system_option, watch_option

    rounds_option(p)
    system_option(p)
    watch_option(p)
    facts = p.add_argument_group(
        "event facts for a broadcast followed alone (default: the start list's TRF header)"
    )
    facts.add_argument("--tournament-id", help="default: a slug of the name, or the file's id")
    facts.add_argument("--name")
    facts.add_argument("--start-date", type=date.fromisoformat, metavar="YYYY-MM-DD")
    facts.add_argument("--end-date", type=date.fromisoformat, metavar="YYYY-MM-DD")
    facts.add_argument("--federation", metavar="FED", help="host federation")
    facts.add_argument(
        "--time-control",
        metavar="TEXT",
        help="the rate of play as a TRF's 122 writes it (decides whether norms count)",
    )
    facts.add_argument(
        "--round-dates",
        type=_dates,
        metavar="YYYY-MM-DD,…",
        help="the date of each round (the rounds-a-day and event-length conditions)",
    )
    p.set_defaults(func=cmd_follow)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: not a positive number")
    return value


def _dates(text: str) -> tuple[date, ...]:
    """``2011-10-14,2011-10-15``: the dates of the rounds, in order."""
    return tuple(date.fromisoformat(part.strip()) for part in text.split(","))


def cmd_follow(args: argparse.Namespace) -> int:
    from follow.runner import Follower, Options
    from follow.sources import source
    from tracker.host.replay import InputError
    from tracker.ingest.ledger import Report

    if args.source is None and not args.pgn:
        raise InputError("follow: give the arbiter's file, or --pgn with --players")
    if args.source is None and not args.players:
        raise InputError("--players: a broadcast followed alone needs a start list")
    if args.pgn:
        from tracker.formats.pgn import PGN_EXTRA, pgn_available

        if not pgn_available():
            raise InputError(
                f"--pgn: reading a broadcast PGN needs python-chess, the pgn extra: {PGN_EXTRA}"
            )
    if args.broker and args.state:
        raise InputError("--state: with --broker the input topic is read back instead")

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    def report(r: Report) -> None:
        say(f"follow: {r}")

    from tracker import contract as ev
    from tracker.domain.tournaments import System

    start_list, start_trf = _start_list(args.players) if args.players else (None, None)
    named = System(args.system) if args.system else None
    overrides = ev.Overrides(args.edition, args.rounds, named)
    options = Options(
        interval=args.interval,
        accept_removals=args.accept_removals,
        tournament_id=args.tournament_id if args.source else None,
        overrides=overrides,
    )
    if args.source is None:
        assert start_list is not None
        options.event = _event(args, start_list, start_trf, overrides)

    limits = Limits(max_bytes=args.max_bytes, timeout=args.request_timeout)
    sink: Any
    if args.broker:
        try:
            from follow.broker import BrokerSink
            from streams.kafka import quiet_clients
            from streams.settings import Settings
        except ImportError as exc:
            raise InputError(
                f"--broker: needs the streams extra ({exc}): pip install -e '.[streams]' in a "
                "clone, or pip install 'fide-norm-tracker[streams]'"
            ) from None

        quiet_clients()
        sink = BrokerSink(Settings().with_broker(args.broker), report)
    else:
        from follow.embedded import EmbeddedSink

        sink = EmbeddedSink(sys.stdout, args.format, args.top, args.state, report, args.watch)
    follower = Follower(
        sink,
        say,
        options,
        trf=source(args.source, limits) if args.source else None,
        pgns=[source(p, limits) for p in args.pgn],
        start_list=start_list,
    )
    try:
        asyncio.run(
            follower.run(once=args.once, idle=args.idle, until_finished=args.until_finished)
        )
    except KeyboardInterrupt:
        return 0
    if args.once and follower.failed:
        return 2  # as every Kafka command whose broker cannot be reached
    return 1 if args.once and (follower.held or follower.unread) else 0


def _start_list(path: str) -> tuple[Any, Any]:
    """The start list, and the TRF it came from (``None`` for a rating list)."""
    from tracker.formats.decoding import decode
    from tracker.formats.rating_list import RatingListError, read_rating_list
    from tracker.formats.start_list import StartList
    from tracker.formats.trf import TrfError, parse_trf
    from tracker.host.replay import InputError

    text = decode(Path(path).read_bytes()).text
    try:
        if any(line.startswith("001") for line in text.splitlines()):
            trf = parse_trf(text)
            return StartList.from_trf(trf), trf
        return StartList.from_rating_list(read_rating_list(text)), None
    except (TrfError, RatingListError) as exc:
        raise InputError(f"{path}: {exc}") from None


def _event(args: argparse.Namespace, start_list: Any, start_trf: Any, overrides: Any) -> Any:
    """A broadcast-only event's registration: the start list's TRF header, if it is a TRF, with
    the event facts of the command line over it. The system is what the start list's records say
    (:mod:`tracker.formats.pairing_system`), else ``--system``.

    Reading [issue-19 70] A broadcast followed alone: neither the broadcast nor FIDE's rating
    list says the system: without ``--system`` (or a TRF start list that names it) it is
    unknown, not a round robin by default."""
    import dataclasses

    import pydantic

    from tracker import contract as ev
    from tracker.domain.tournaments import System
    from tracker.formats.trf import TrfError, slugify, to_events
    from tracker.host.replay import InputError

    fields: dict[str, object] = {
        "system": System.UNKNOWN,
        "system_evidence": "system unknown: a broadcast followed alone, whose start list "
        "names no system (--system names it)",
    }
    if start_trf is not None:
        # a start list: its header and players, not its rounds
        trf = start_trf.without_rounds()
        if args.start_date is not None and trf.header.start_date is None:
            # the command line dates a start list that does not (neither 042 nor 132)
            header = dataclasses.replace(trf.header, start_date=args.start_date)
            trf = dataclasses.replace(trf, header=header)
        try:
            first = to_events(trf)[0]
            fields = first.model_dump(exclude={"type"}, exclude_none=True)
        except TrfError:
            # the tournament records alone can fail here (StartList.from_trf has read the
            # players): no start date at all, or no tournament id (neither XNI nor a 012
            # name, or an XNI the contract refuses); the command line must give them
            header = start_trf.header
            fields = {"name": header.name, "start_date": header.start_date}
            fields = {k: v for k, v in fields.items() if v}
            reading = trf.system_reading
            fields["system"] = reading.system
            if header.system is None:
                fields["system_evidence"] = reading.evidence
    given = {
        "name": args.name,
        "start_date": args.start_date,
        "end_date": args.end_date,
        "host_federation": args.federation,
        "tournament_id": args.tournament_id,
        "time_control": args.time_control,
        "round_dates": args.round_dates,
    }
    fields.update({k: v for k, v in given.items() if v is not None})
    if "tournament_id" not in fields and fields.get("name"):
        fields["tournament_id"] = slugify(str(fields["name"]))
    for name, flag in (
        ("tournament_id", "--tournament-id or --name"),
        ("start_date", "--start-date"),
    ):
        if not fields.get(name):
            raise InputError(f"{flag}: a broadcast followed alone needs it")
    try:
        registered = ev.TournamentRegistered.model_validate(fields)
    except pydantic.ValidationError as exc:
        raise InputError(
            f"event facts: {exc.errors()[0]['loc']}: {exc.errors()[0]['msg']}"
        ) from None
    return overrides.apply(registered, len(start_list.players))


__all__ = ["cmd_follow", "register"]
