"""``tracker titles``: a federation's title applications, kept in a local store.

``add FILE`` takes a tournament (TRF or events, replayed as ``tracker replay`` does), an IT1
certificate, an import file or a FIDE rating list into the store and prints what changed;
``status`` prints a line a player (``--federation`` to choose); ``player FIDE_ID`` the whole
judgement (``--format json`` as data); ``bundle FIDE_ID --title T`` the application bundle of
a complete application (JSON, HTML or PDF). ``docs/titles.md`` is the user's guide.

The judgement is the core's (:mod:`tracker.titles`); the store is :mod:`cli.titles_store`.
Applications are judged under the application rules in force on ``--as-of`` (default: today),
or those of ``--edition``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

from cli.titles_store import StoreError, TitleStore
from tracker.contract.alert_filter import AlertFilter
from tracker.domain.titles import NORM_TITLES, Title
from tracker.host.replay import InputError, to_jsonl
from tracker.host.titles import read_title_file
from tracker.render.application import application_lines, bundle, status_line
from tracker.render.report import story
from tracker.rules import TitleRules, title_rules_in_force, title_rules_named

STORE_ENV = "TRACKER_TITLES_STORE"
DEFAULT_STORE = Path("out/titles")


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    edition_names: list[str],
    rounds_option: Any,
) -> None:
    titles = sub.add_parser(
        "titles", help="title applications: norms and ratings across events, in a local store"
    )
    inner = titles.add_subparsers(dest="titles_command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--store",
            metavar="DIR",
            type=Path,
            help=f"the folder of the store (default: ${STORE_ENV}, else {DEFAULT_STORE})",
        )
        p.add_argument(
            "--as-of",
            metavar="YYYY-MM-DD",
            type=_date,
            help="judge applications under the rules in force on this day (default: today)",
        )
        p.add_argument(
            "--edition",
            choices=edition_names,
            help="judge applications under this edition's rules (default: by --as-of); "
            "each norm keeps the edition it was judged by",
        )

    add = inner.add_parser(
        "add", help="add a tournament, a certificate, an import file or a rating list"
    )
    add.add_argument("file", help="TRF, JSONL events, certificate or import JSON, rating list")
    common(add)
    add.add_argument(
        "--format",
        choices=["text", "jsonl"],
        default="text",
        help="the alerts the file gives: text (default) or the event contract's JSON",
    )
    add.add_argument(
        "--list-date",
        metavar="YYYY-MM-DD",
        type=_date,
        help="a rating list's month, when neither its rating column nor its name says it",
    )
    add.add_argument(
        "--federation",
        action="append",
        metavar="FED",
        help="of a rating list, take only these federations' players (repeatable, or A,B)",
    )
    add.add_argument(
        "--tournament-edition",
        choices=edition_names,
        help="a tournament's title regulations (as tracker replay --edition)",
    )
    rounds_option(add)
    add.set_defaults(func=cmd_add)

    status = inner.add_parser("status", help="one line a player with norms")
    common(status)
    status.add_argument(
        "--federation", action="append", metavar="FED", help="these federations only"
    )
    status.set_defaults(func=cmd_status)

    player = inner.add_parser("player", help="a player's applications, judged in full")
    player.add_argument("fide_id", type=int, help="the player's FIDE id")
    common(player)
    player.add_argument("--title", type=str.upper, choices=[t.value for t in NORM_TITLES])
    player.add_argument("--format", choices=["text", "json"], default="text")
    player.set_defaults(func=cmd_player)

    pack = inner.add_parser(
        "bundle", help="the application bundle of a complete application (summary and IT1s)"
    )
    pack.add_argument("fide_id", type=int, help="the player's FIDE id")
    common(pack)
    pack.add_argument(
        "--title", type=str.upper, choices=[t.value for t in NORM_TITLES], required=True
    )
    pack.add_argument(
        "--format",
        choices=["json", "html", "pdf"],
        help="default: by --out's suffix, else json",
    )
    pack.add_argument("--out", metavar="PATH", help="write here (default: stdout)")
    pack.set_defaults(func=cmd_bundle)


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a date (YYYY-MM-DD)") from None


@contextmanager
def _store(args: argparse.Namespace) -> Iterator[TitleStore]:
    folder = args.store or Path(os.environ.get(STORE_ENV) or DEFAULT_STORE)
    try:
        store = TitleStore(folder)
    except StoreError as exc:
        raise InputError(str(exc)) from None
    try:
        yield store
    finally:
        store.close()


def rules_of(args: argparse.Namespace) -> TitleRules:
    """The application rules: ``--edition``, else those in force on ``--as-of`` (today).

    Reading [titles 10] Which edition: an application is judged under the edition in force on
    the day it is judged (``--as-of``, default today; the worker: the day it handles the fact),
    ``--edition`` overriding it; each norm keeps the edition it was judged by and counts as that
    edition credited it (1.5.4 of 2024, 1.53 of 2009): a 2011 continental championship's 15
    games stay 15 (1.49's exception), where 2024's 1.7 would cap them at 13."""
    if args.edition:
        return title_rules_named(args.edition)
    return title_rules_in_force(args.as_of or date.today())


def cmd_add(args: argparse.Namespace) -> int:
    from cli.main import _why

    path = Path(args.file)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{args.file}: cannot read it: {_why(exc)}") from None
    federations = AlertFilter.of(federations=args.federation).federations
    batch = read_title_file(
        data, path.name, args.tournament_edition, args.rounds, args.list_date, federations
    )
    with _store(args) as store:
        alerts = store.add(batch, rules_of(args))
    print(f"{batch.what}: {len(batch.facts)} facts", file=sys.stderr)
    for alert in alerts:
        if args.format == "jsonl":
            print(to_jsonl(alert))
    if args.format == "text":
        for line in story(alerts):
            print(line)
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    federations = AlertFilter.of(federations=args.federation).federations
    rules = rules_of(args)
    with _store(args) as store:
        players = store.with_norms(federations)
    for p in players:
        for app in p.applications(rules).values():
            print(status_line(app))
    if not players:
        print("no player with a norm in the store", file=sys.stderr)
    return 0


def cmd_player(args: argparse.Namespace) -> int:
    with _store(args) as store:
        found = store.player(args.fide_id)
    if found is None or not found.norms:
        raise InputError(f"fide_id: no norm of {args.fide_id} in the store")
    rules = rules_of(args)
    titles = [Title(args.title)] if args.title else list(found.titles())
    apps = [found.application(t, rules) for t in titles]
    if args.format == "json":
        print(json.dumps([a.model_dump(mode="json") for a in apps], indent=2, ensure_ascii=False))
        return 0
    for app in apps:
        for line in application_lines(app):
            print(line)
    return 0


def cmd_bundle(args: argparse.Namespace) -> int:
    from cli.main import _format_of, deliver, warn_undrawn

    with _store(args) as store:
        found = store.player(args.fide_id)
        certificates = store.certificates(args.fide_id)
    if found is None:
        raise InputError(f"fide_id: no norm of {args.fide_id} in the store")
    app = found.application(Title(args.title), rules_of(args))
    try:
        made = bundle(app, certificates)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    fmt = args.format or _format_of(args.out)
    if fmt == "pdf":
        from tracker.render.application_pdf import render_noting_gaps

        data, undrawn = render_noting_gaps(made)
        warn_undrawn(undrawn)
    elif fmt == "html":
        from tracker.render.application_html import render

        data = render(made).encode()
    else:
        data = (made.model_dump_json(indent=2) + "\n").encode()
    written = (
        f"{app.title} application of {app.name}, {len(app.norms)} norms, "
        f"{len(made.certificates)} certificates"
    )
    deliver(args.out, fmt, data, written)
    return 0


__all__ = ["register"]
