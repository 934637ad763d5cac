"""The ``tracker`` command: the embedded default, no broker needed.

This is the one module of ``tracker`` that reads files and prints; everything it calls is
pure.

``tracker replay FILE`` prints what a live tournament would have emitted; ``tracker check
FILE --player N`` prints an arbiter's breakdown of a player's best norm attempt.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import entry_points
from pathlib import Path

from tracker import events as ev
from tracker.alerts import evidence, player_ref
from tracker.editions import TITLE_EDITIONS, describe_editions
from tracker.evaluation import norm_titles, verdict_for
from tracker.replay import InputError, Replay, Sourced, read_events, to_jsonl, with_edition
from tracker.report import breakdown, story
from tracker.titles import Title

EDITION_NAMES = [e.name for e in TITLE_EDITIONS]


def _load(path: str, edition: str | None) -> list[Sourced]:
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        text = file.read_text(encoding="latin-1")
    return with_edition(read_events(text, file.name), edition)


def cmd_replay(args: argparse.Namespace) -> int:
    events = _load(args.file, args.edition)
    run = Replay()
    out = sys.stdout
    announced: set[str] = set()
    for item in events:
        alerts = run.feed(item)
        tid = item.event.tournament_id
        if args.format == "text" and tid in run.states and tid not in announced:
            announced.add(tid)
            state = run.states[tid]
            print(f"# {state.tournament.name or tid}: edition {state.edition_reason}", file=out)
        for alert in alerts:
            if args.format == "jsonl":
                print(to_jsonl(alert), file=out)
        if args.format == "text":
            for line in story(alerts, top=args.top):
                print(line, file=out)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    events = _load(args.file, args.edition)
    run = Replay()
    for item in events:
        run.feed(item)
    if not run.states:
        raise InputError(f"{args.file}: no tournament in the file")
    state = next(iter(run.states.values()))
    wanted = args.player
    matches = [p for p in state.players.values() if wanted in (str(p.rank), str(p.fide_id))]
    if not matches:
        raise InputError(f"--player: no player with start rank or FIDE id {wanted}")
    player = matches[0]
    up_to = args.round or state.announced
    if up_to == 0:
        raise InputError(f"{args.file}: no round has finished yet")
    titles = [Title(args.title)] if args.title else norm_titles(player)
    if not titles:
        print(f"{player.label()} already holds every norm title they could gain")
        return 0
    print(f"# edition {state.edition_reason}")
    for i, title in enumerate(titles):
        verdict = verdict_for(state, player.rank, title, up_to)
        floor = state.title_rules.rating_floor[title]
        if i:
            print()
        for line in breakdown(
            evidence(verdict, verdict.raised, floor), player_ref(player), state.title_rules.name
        ):
            print(line)
    return 0


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
    replay.set_defaults(func=cmd_replay)

    check = sub.add_parser("check", help="an arbiter's breakdown of a player's norm attempt")
    check.add_argument("file", help="TRF file, or JSONL file of input events")
    check.add_argument("--player", required=True, help="start rank or FIDE id")
    check.add_argument("--title", choices=[t.value for t in Title if t.is_norm_title])
    check.add_argument("--round", type=int, help="after this round (default: the last)")
    check.add_argument("--edition", choices=EDITION_NAMES, help=editions_help)
    check.set_defaults(func=cmd_check)

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
