"""The ``tracker`` command: the embedded default, no broker needed.

This is the one module of ``tracker`` that reads files and prints; everything it calls is
pure.

``tracker replay FILE`` prints what a live tournament would have emitted; ``tracker check
FILE --player N`` prints an arbiter's breakdown of a player's best norm attempt and, before
the last round, the player's prospects (what the remaining rounds must bring); ``tracker
certificate FILE --player N`` writes the IT1 certificate of a norm as JSON, HTML or PDF.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from importlib.metadata import entry_points
from pathlib import Path

from tracker import events as ev
from tracker.certificate import NoNorm, certificate
from tracker.editions import TITLE_EDITIONS, describe_editions
from tracker.replay import InputError, Replay, Sourced, read_bytes, render, with_edition
from tracker.report import check_lines
from tracker.state import TournamentState
from tracker.titles import NORM_TITLES, Title

EDITION_NAMES = [e.name for e in TITLE_EDITIONS]
NORM_TITLE_NAMES = [t.value for t in NORM_TITLES]


def _load(path: str, edition: str | None) -> list[Sourced]:
    file = Path(path)
    return with_edition(read_bytes(file.read_bytes(), file.name), edition)


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
    events = _load(args.file, args.edition)
    run = Replay()
    out = sys.stdout
    announced: set[str] = set()
    progress = Progress(args.file, len(events), args.progress, not out.isatty())
    for done, item in enumerate(events, 1):
        alerts = run.feed(item)
        progress.update(done, getattr(item.event, "round", 0))
        for line in render(run, item, alerts, args.format, args.top, announced):
            print(line, file=out)
    progress.close()
    return 0


def _final_state(args: argparse.Namespace) -> TournamentState:
    events = _load(args.file, args.edition)
    run = Replay()
    for item in events:
        run.feed(item)
    if not run.states:
        raise InputError(f"{args.file}: no tournament in the file")
    return next(iter(run.states.values()))


def _player(state: TournamentState, wanted: str) -> int:
    from tracker.views import find_player

    rank = find_player(state, wanted)
    if rank is None:
        raise InputError(f"--player: no player with start rank or FIDE id {wanted}")
    return rank


def cmd_check(args: argparse.Namespace) -> int:
    state = _final_state(args)
    rank = _player(state, args.player)
    up_to = args.round or state.announced
    if up_to == 0:
        raise InputError(f"{args.file}: no round has finished yet")
    lines, status = check_lines(state, rank, Title(args.title) if args.title else None, up_to)
    for line in lines:
        print(line)
    return status


def cmd_certificate(args: argparse.Namespace) -> int:
    state = _final_state(args)
    rank = _player(state, args.player)
    try:
        cert = certificate(state, rank, Title(args.title) if args.title else None, args.round)
    except NoNorm as exc:
        raise InputError(f"{args.file}: {exc}") from None
    fmt = args.format or _format_of(args.out)
    if fmt == "pdf":
        from tracker.certificate_pdf import render as pdf

        data = pdf(cert)
    elif fmt == "html":
        from tracker.certificate_html import render as html

        data = html(cert).encode()
    else:
        data = (cert.model_dump_json(indent=2) + "\n").encode()
    if args.out in (None, "-"):
        if fmt == "pdf" and sys.stdout.isatty():
            raise InputError("--out: a PDF is not printed to a terminal; name a file")
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        Path(args.out).write_bytes(data)
        print(
            f"{args.out}: {cert.title} norm of {cert.player.name}, "
            f"rounds 1-{cert.rounds_considered}",
            file=sys.stderr,
        )
    return 0


def _format_of(out: str | None) -> str:
    suffix = Path(out).suffix.lower() if out else ""
    return {".pdf": "pdf", ".html": "html", ".htm": "html"}.get(suffix, "json")


def progress_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show progress on stderr (default: on a terminal, unless the output goes there)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tracker", description="Live tracker of FIDE title norms and title ratings."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    editions_help = (
        "title regulations to judge by (default: the edition in force on the start date): "
        + describe_editions()
    )

    replay = sub.add_parser("replay", help="replay a TRF or JSONL tournament and print alerts")
    replay.add_argument("file", help="TRF file, or JSONL file of input events")
    replay.add_argument("--format", choices=["text", "jsonl"], default="text")
    replay.add_argument("--edition", choices=EDITION_NAMES, help=editions_help)
    replay.add_argument("--top", type=int, default=10, help="standings rows shown per round")
    progress_flag(replay)
    replay.set_defaults(func=cmd_replay)

    check = sub.add_parser("check", help="an arbiter's breakdown of a player's norm attempt")
    check.add_argument("file", help="TRF file, or JSONL file of input events")
    check.add_argument("--player", required=True, help="start rank or FIDE id")
    check.add_argument(
        "--title",
        type=str.upper,
        choices=NORM_TITLE_NAMES,
        help="one norm title (default: every norm title the player can gain)",
    )
    check.add_argument("--round", type=int, help="after this round (default: the last)")
    check.add_argument("--edition", choices=EDITION_NAMES, help=editions_help)
    check.set_defaults(func=cmd_check)

    cert = sub.add_parser(
        "certificate", help="the IT1 certificate of a norm achieved (JSON, HTML or PDF)"
    )
    cert.add_argument("file", help="TRF file, or JSONL file of input events")
    cert.add_argument("--player", required=True, help="start rank or FIDE id")
    cert.add_argument(
        "--title",
        type=str.upper,
        choices=NORM_TITLE_NAMES,
        help="the norm to certify (default: the strongest with an alert in force, else achieved)",
    )
    cert.add_argument("--round", type=int, help="after this round (default: the last finished)")
    cert.add_argument(
        "--format", choices=["json", "html", "pdf"], help="default: by --out's suffix, else json"
    )
    cert.add_argument("--out", metavar="PATH", help="write here (default: stdout)")
    cert.add_argument("--edition", choices=EDITION_NAMES, help=editions_help)
    cert.set_defaults(func=cmd_certificate)

    from follow.cli import register as register_follow  # the shell's loop stays outside

    register_follow(sub, EDITION_NAMES, editions_help)

    for plugin in entry_points(group="tracker.commands"):
        # other packages (the Kafka shell in ``streams``) add their subcommands here, so the
        # core never imports them
        try:
            register = plugin.load()
        except ImportError:  # the plugin's extra (e.g. faust for ``streams``) is not installed
            continue
        register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except (InputError, ev.InvalidEvent, OSError) as exc:
        print(f"tracker: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - e.g. `tracker replay … | head`
        return 0
    return code
