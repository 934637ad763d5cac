"""The ``tracker`` command: the embedded default, no broker needed.

The commands here read files and print; everything they call in :mod:`tracker` is pure.

``tracker replay FILE`` prints what a live tournament would have emitted; ``tracker check
FILE --player N`` prints an arbiter's breakdown of a player's best norm attempt and, before
the last round, the player's prospects (what the remaining rounds must bring); ``tracker
certificate FILE --player N`` writes the IT1 certificate of a norm as JSON, HTML or PDF;
``tracker titles`` (:mod:`cli.titles`) keeps a federation's title applications.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
import time
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, entry_points, version
from pathlib import Path

from tracker import contract as ev
from tracker.domain.titles import NORM_TITLES, Title
from tracker.domain.tournaments import System
from tracker.engine.state import TournamentState
from tracker.host.replay import (
    InputError,
    Replay,
    Sourced,
    read_bytes,
    render,
    with_overrides,
)
from tracker.render.certificate import NoNorm, certificate
from tracker.render.report import check_lines, check_table
from tracker.rules import TITLE_EDITIONS, describe_editions

EDITION_NAMES = [e.name for e in TITLE_EDITIONS]
NORM_TITLE_NAMES = [t.value for t in NORM_TITLES]

OPTIONAL_COMMANDS = {"streams": ("worker", "publish", "alerts", "dead-letters", "schema")}
"""The subcommands each ``tracker.commands`` plugin adds, by the plugin's name, which is the
name of the extra it needs: when the extra is not installed, these commands say so."""


def _why(exc: OSError) -> str:
    """An OS error as a sentence (``is a folder, not a file``), not an errno."""
    reasons = {
        errno.ENOENT: "no such file or folder",
        errno.EISDIR: "is a folder, not a file",
        errno.ENOTDIR: "a part of the path is not a folder",
        errno.EACCES: "permission denied",
        errno.EPERM: "permission denied",
        errno.EROFS: "the file system is read-only",
        errno.ENOSPC: "no space left on the device",
    }
    return reasons.get(exc.errno or 0, exc.strerror or str(exc))


def _load(
    path: str, edition: str | None, rounds: int | None = None, system: str | None = None
) -> list[Sourced]:
    file = Path(path)
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read it: {_why(exc)}") from None
    named = System(system) if system else None
    return with_overrides(read_bytes(data, file.name), edition, rounds, named)


def _write(path: str, data: bytes) -> None:
    """Write ``--out``, making its folder if needed (``out/cert.pdf`` in a fresh clone)."""
    file = Path(path)
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(data)
    except OSError as exc:
        reason = _why(exc)
        if isinstance(exc, FileExistsError | NotADirectoryError):
            reason = "a part of the path is a file, not a folder"
        raise InputError(f"--out {path}: cannot write it: {reason}") from None


def _up_to(args: argparse.Namespace, state: TournamentState) -> int | None:
    """The round asked for with ``--round`` (``None`` if not asked), one of the rounds that
    have finished."""
    finished = state.announced
    if finished == 0:
        raise InputError(f"{args.file}: no round has finished yet")
    if args.round is None:
        return None
    if not 1 <= args.round <= finished:
        planned = state.tournament.planned_rounds
        of = f" of {planned}" if planned is not None else ""
        raise InputError(
            f"--round {args.round}: out of range: rounds 1-{finished}{of} have finished"
            if finished > 1
            else f"--round {args.round}: out of range: only round 1{of} has finished"
        )
    return int(args.round)


class Progress:
    """``file: 1200/5000 events (24 %), round 5`` on stderr while a long file is worked
    through. On a terminal one line is rewritten in place (at most ten times a second);
    otherwise, when asked for with ``--progress``, a line is printed every 10 %."""

    def __init__(self, label: str, total: int, enabled: bool | None, quiet_stdout: bool) -> None:
        self.label, self.total = label, total
        self.tty = sys.stderr.isatty()
        # by default only on a terminal, and not over output printed to the same terminal
        self.enabled = enabled if enabled is not None else self.tty and quiet_stdout
        self.shown = -1.0
        self.step = -1

    def update(self, done: int, round_: int = 0) -> None:
        if not self.enabled or not self.total:
            return
        percent = 100 * done // self.total
        line = f"{self.label}: {done}/{self.total} events ({percent} %)"
        if round_:
            line += f", round {round_}"
        if self.tty:
            now = time.monotonic()
            if now - self.shown >= 0.1 or done == self.total:
                self.shown = now
                print(f"\r{line}\x1b[K", end="", file=sys.stderr, flush=True)
        elif percent // 10 > self.step:
            self.step = percent // 10
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.enabled and self.tty:
            print(file=sys.stderr, flush=True)


def cmd_replay(args: argparse.Namespace) -> int:
    events = _load(args.file, args.edition, args.rounds, args.system)
    run = Replay()
    out = sys.stdout
    announced: set[str] = set()
    progress = Progress(args.file, len(events), args.progress, not out.isatty())
    for done, item in enumerate(events, 1):
        alerts = run.feed(item)
        progress.update(done, getattr(item.event, "round", 0))
        for line in render(run, item, alerts, args.format, args.top, announced, args.watch):
            print(line, file=out)
    progress.close()
    return 0


def _final_state(args: argparse.Namespace) -> TournamentState:
    events = _load(args.file, args.edition, args.rounds, args.system)
    run = Replay()
    for item in events:
        run.feed(item)
    if not run.states:
        raise InputError(f"{args.file}: no tournament in the file")
    return next(iter(run.states.values()))


def _player(state: TournamentState, wanted: str) -> int:
    """The start rank of the player ``--player`` names: a start rank, a FIDE id, or a name
    (:func:`~tracker.render.views.players_named`); a name that fits several players is
    refused with the candidates."""
    from tracker.render.views import find_player, players_named

    rank = find_player(state, wanted)
    if rank is not None:
        return rank
    found = players_named(state, wanted)
    if len(found) == 1:
        return found[0]
    if not found:
        if wanted.isdigit():
            raise InputError(f"--player: no player with start rank or FIDE id {wanted}")
        raise InputError(f"--player: no player named {wanted!r}")
    listed = "; ".join(f"{r} {state.players[r].label()}" for r in found[:20])
    more = f" and {len(found) - 20} more" if len(found) > 20 else ""
    raise InputError(
        f"--player: {wanted!r} names {len(found)} players; give one's start rank or FIDE id: "
        f"{listed}{more}"
    )


def cmd_check(args: argparse.Namespace) -> int:
    state = _final_state(args)
    up_to = _up_to(args, state) or state.announced
    if args.player is None:
        if args.title:
            raise InputError("--title: goes with --player (without it, every title is listed)")
        lines = check_table(state, up_to)
        status = 0
    else:
        rank = _player(state, args.player)
        title = Title(args.title) if args.title else None
        lines, status = check_lines(state, rank, title, up_to)
    for line in lines:
        print(line)
    return status


def cmd_certificate(args: argparse.Namespace) -> int:
    state = _final_state(args)
    rank = _player(state, args.player)
    up_to = _up_to(args, state)
    try:
        cert = certificate(state, rank, Title(args.title) if args.title else None, up_to)
    except NoNorm as exc:
        raise InputError(f"{args.file}: {exc}") from None
    fmt = args.format or _format_of(args.out)
    if fmt == "pdf":
        from tracker.render.certificate_pdf import render_noting_gaps

        data, undrawn = render_noting_gaps(cert)
        warn_undrawn(undrawn)
    elif fmt == "html":
        from tracker.render.certificate_html import render as html

        data = html(cert).encode()
    else:
        data = (cert.model_dump_json(indent=2) + "\n").encode()
    written = f"{cert.title} norm of {cert.player.name}, rounds 1-{cert.rounds_considered}"
    deliver(args.out, fmt, data, written)
    return 0


def warn_undrawn(undrawn: list[str]) -> None:
    """Say which letters a PDF could not draw (it lists them at its top too)."""
    if undrawn:
        print(
            "tracker: warning: the PDF could not draw these letters (no font here has "
            f"them; the HTML and JSON keep them): {', '.join(undrawn)}",
            file=sys.stderr,
        )


def deliver(out: str | None, fmt: str, data: bytes, written: str) -> None:
    """A document to ``--out`` (``-`` or none: stdout, never a PDF to a terminal); what
    was ``written`` goes to stderr beside the file's name."""
    if out in (None, "-"):
        if fmt == "pdf" and sys.stdout.isatty():
            raise InputError("--out: a PDF is not printed to a terminal; name a file")
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        assert out is not None
        _write(out, data)
        print(f"{out}: {written}", file=sys.stderr)


def _format_of(out: str | None) -> str:
    suffix = Path(out).suffix.lower() if out else ""
    return {".pdf": "pdf", ".html": "html", ".htm": "html"}.get(suffix, "json")


SYSTEMS = [s.value for s in System if s is not System.UNKNOWN]


def system_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--system",
        choices=SYSTEMS,
        help="the pairing system, overriding the file (read from XNS, 092, 192, the field "
        "against the rounds and the pairings; without them it is unknown and a norm is "
        "announced with that assumption named, never secured or certified)",
    )


def rounds_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rounds",
        type=_planned_rounds,
        metavar="N",
        help="the planned number of rounds, overriding the file (TRF: XXR, else 142, else the "
        "dates of 132; without them a Swiss has no known last round)",
    )


def _planned_rounds(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of rounds") from None
    if not 1 <= value <= ev.MAX_ROUNDS:
        raise argparse.ArgumentTypeError(f"{value} is not a number of rounds (1-{ev.MAX_ROUNDS})")
    return value


def watch_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--watch",
        type=int,
        default=10,
        metavar="N",
        help="text: after each round, the N players closest to a norm (the norm watch; 0: "
        "none; tracker check FILE --round R lists them all)",
    )


def progress_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show progress on stderr (default: on a terminal, unless the output goes there)",
    )


def _version() -> str:
    try:
        return version("fide-norm-tracker")
    except PackageNotFoundError:  # run from a checkout that was not installed
        return "unknown (not installed)"


def _title(text: str) -> str:
    """``--title``, in any case (``gm`` is ``GM``)."""
    return text.upper()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tracker", description="Live tracker of FIDE title norms and title ratings."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    editions_help = (
        "title regulations to judge by (default: the edition in force on the start date): "
        + describe_editions()
    )
    titles = ", ".join(NORM_TITLE_NAMES)

    replay = sub.add_parser("replay", help="replay a TRF or JSONL tournament and print alerts")
    replay.add_argument("file", help="TRF file, or JSONL file of input events")
    replay.add_argument(
        "--format",
        choices=["text", "jsonl"],
        default="text",
        help="text: each round's standings and alerts, for people (default); jsonl: one alert "
        "per line as JSON, the event contract",
    )
    replay.add_argument("--edition", choices=EDITION_NAMES, help=editions_help)
    replay.add_argument("--top", type=int, default=10, help="standings rows shown per round")
    watch_option(replay)
    rounds_option(replay)
    system_option(replay)
    progress_flag(replay)
    replay.set_defaults(func=cmd_replay)

    check = sub.add_parser(
        "check",
        help="the norm watch of every player, or an arbiter's breakdown of one player's norm",
    )
    check.add_argument("file", help="TRF file, or JSONL file of input events")
    check.add_argument(
        "--player",
        help="start rank, FIDE id or name (without it: the whole norm watch, every player "
        "and title, closest first)",
    )
    check.add_argument(
        "--title",
        type=_title,
        choices=NORM_TITLE_NAMES,
        metavar="TITLE",
        help=f"the norm to check: {titles} (default: every norm title the player can gain)",
    )
    check.add_argument("--round", type=int, help="after this round (default: the last finished)")
    check.add_argument("--edition", choices=EDITION_NAMES, help=editions_help)
    rounds_option(check)
    system_option(check)
    check.set_defaults(func=cmd_check)

    cert = sub.add_parser(
        "certificate", help="the IT1 certificate of a norm achieved (JSON, HTML or PDF)"
    )
    cert.add_argument("file", help="TRF file, or JSONL file of input events")
    cert.add_argument("--player", required=True, help="start rank, FIDE id or name")
    cert.add_argument(
        "--title",
        type=_title,
        choices=NORM_TITLE_NAMES,
        metavar="TITLE",
        help=f"the norm to certify: {titles} (default: the strongest with an alert in force, "
        "else achieved)",
    )
    cert.add_argument("--round", type=int, help="after this round (default: the last finished)")
    cert.add_argument(
        "--format",
        choices=["json", "html", "pdf"],
        help="json: the IT1 data; html: a printable page; pdf: the form to sign (default: by "
        "--out's suffix, else json)",
    )
    cert.add_argument("--out", metavar="PATH", help="write here (default: stdout)")
    cert.add_argument("--edition", choices=EDITION_NAMES, help=editions_help)
    rounds_option(cert)
    system_option(cert)
    cert.set_defaults(func=cmd_certificate)

    from cli.follow import register as register_follow  # the shell's loop stays outside

    register_follow(sub, EDITION_NAMES, editions_help)

    from cli.titles import register as register_titles

    register_titles(sub, EDITION_NAMES, rounds_option)

    for plugin in entry_points(group="tracker.commands"):
        # other packages (the Kafka shell in ``streams``) add their subcommands here, so the
        # core never imports them
        try:
            register = plugin.load()
        except ImportError as exc:  # the plugin's extra (faust for ``streams``) is missing
            for name in OPTIONAL_COMMANDS.get(plugin.name, ()):
                _needs_extra(sub, name, plugin.name, exc)
            continue
        register(sub)
    return parser


def _needs_extra(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    extra: str,
    exc: ImportError,
) -> None:
    """A stand-in for a command whose extra is not installed: whatever its arguments, it
    says which extra to install."""
    stub = sub.add_parser(
        name, help=f"(needs the {extra} extra)", add_help=False, prefix_chars="\0"
    )
    stub.add_argument("arguments", nargs=argparse.REMAINDER)

    def explain(args: argparse.Namespace) -> int:
        print(
            f"tracker {name}: needs the {extra} extra ({exc}): pip install -e '.[{extra}]' in "
            f"a clone, or pip install 'fide-norm-tracker[{extra}]'",
            file=sys.stderr,
        )
        return 2

    stub.set_defaults(func=explain)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader left (``tracker check … | head``): not an error; send what Python
        # still holds for stdout to nowhere, so that it says nothing at exit either
        _quiet_stdout()
        return 0
    except (InputError, ev.InvalidEvent, OSError) as exc:
        print(f"tracker: error: {exc}", file=sys.stderr)
        return 2
    return code


def _quiet_stdout() -> None:
    try:
        fileno = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, fileno)
    finally:
        os.close(devnull)
