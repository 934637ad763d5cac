"""Every benchmark's figures beside a baseline's, so that a regression shows as a ratio.

A benchmark's ``main`` returns its figures (name -> number, smaller is better unless the name
ends in ``/s``); :func:`run` prints them and, when asked:

* ``--save PATH`` writes them as JSON;
* ``--baseline PATH`` (a JSON written by ``--save``) prints them beside those;
* ``--baseline REV`` (a git revision of this checkout) runs the same benchmark, with the same
  arguments, on that revision's code (``git archive`` into a temporary folder, imported
  first: :data:`TREE`) right after this tree's run, and prints both side by side. This
  machine is shared and loaded: only figures measured in the same run are compared, never
  absolute times against an old figure;
* ``--turns N`` with ``--baseline REV`` runs both trees ``N`` times more, in turns (this
  tree, the revision, the revision, this tree, ...; each in a fresh process), and prints
  each figure's medians, their ratio and the range of the ``N`` ratios of a turn: on a
  machine whose speed drifts (the same two trees measured one after the other gave 0.65x
  to 1.50x), a ratio whose range stays on one side of 1 is one the drift did not make.

Each benchmark puts :data:`TREE` first on ``sys.path`` (this checkout unless a baseline run
says otherwise), then the checkout itself, so that a revision without this module still
runs with it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
TREE = Path(os.environ.get("BENCH_TREE") or CHECKOUT)
"""The code under measurement: a baseline revision's tree while it runs, else the checkout."""

Figures = dict[str, float]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--save", type=Path, help="write the figures to this JSON file")
    parser.add_argument(
        "--baseline",
        help="a JSON file of figures (--save), or a git revision to run the same benchmark on",
    )
    parser.add_argument(
        "--turns",
        type=int,
        default=1,
        help="with --baseline REV: run both trees this many times, in turns; medians and the "
        "range of the turns' ratios",
    )


def run(parser: argparse.ArgumentParser, main: Callable[[argparse.Namespace], Figures]) -> int:
    """Parse the arguments (:func:`add_arguments` added), measure, print, compare."""
    args = parser.parse_args()
    return finish(args, main(args))


def finish(args: argparse.Namespace, figures: Figures) -> int:
    """Save and compare the figures as the arguments ask (for a benchmark with its own
    ``main``)."""
    if args.save:
        args.save.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    if not args.baseline:
        return 0
    path = Path(args.baseline)
    if path.is_file():
        base = json.loads(path.read_text(encoding="utf-8"))
        print()
        print(compare(figures, base, path.name))
        return 0
    turns = max(1, getattr(args, "turns", 1))
    # in turns, every run in a fresh process: the run above, in this one, may differ by
    # what the process did before (imports, caches), which only this tree's would carry
    this, other = ([figures] if turns == 1 else []), []
    with _revision(args.baseline) as tree:
        for turn in range(turns):
            # this tree first in even turns, last in odd ones: a drift of the machine's
            # speed favours neither tree
            if turns > 1 and turn % 2 == 0:
                this.append(_measure(None, "this tree"))
            other.append(_measure(tree, args.baseline))
            if turn % 2 == 1:
                this.append(_measure(None, "this tree"))
    print()
    if turns == 1:
        print(compare(figures, other[0], args.baseline))
    else:
        print(compare_turns(this, other, args.baseline))
    return 0


@contextlib.contextmanager
def _revision(rev: str) -> Iterator[Path]:
    """Revision ``rev``'s files in a temporary folder (``git archive``)."""
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(CHECKOUT), "archive", rev], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        yield tree


def _measure(tree: Path | None, label: str) -> Figures:
    """This benchmark, with this run's arguments, in a fresh process, on ``tree`` (``None``:
    the checkout)."""
    with tempfile.TemporaryDirectory(prefix="bench-figures-") as tmp:
        out = Path(tmp) / "figures.json"
        argv = _without_baseline(sys.argv[1:])
        env = dict(os.environ)
        env.pop("BENCH_TREE", None)
        if tree is not None:
            env["BENCH_TREE"] = str(tree)
        print(f"\n--- the same on {label} ---", flush=True)
        subprocess.run(
            [sys.executable, sys.argv[0], *argv, "--save", str(out)], check=True, env=env
        )
        figures: Figures = json.loads(out.read_text(encoding="utf-8"))
        return figures


def _without_baseline(argv: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--baseline", "--save", "--turns"):
            skip = True
        elif not arg.startswith(("--baseline=", "--save=", "--turns=")):
            out.append(arg)
    return out


def compare(figures: Mapping[str, float], base: Mapping[str, float], label: str) -> str:
    """A table of every figure beside the baseline's, with this tree's over the baseline's
    (below 1: less time, or fewer of what is counted; for a rate, ``/s``, above 1 is better).

    >>> print(compare({"round ms": 5.0, "msg/s": 900.0}, {"round ms": 50.0}, "main"))
    figure                                             this tree          main    ratio
    round ms                                               5.00         50.00     0.10
    msg/s                                                900.00             -        -
    """
    lines = [f"{'figure':<44} {'this tree':>15} {label[:13]:>13} {'ratio':>8}"]
    lines += [_row(name, value, base.get(name)) for name, value in figures.items()]
    return "\n".join(lines)


def _row(name: str, value: float, then: float | None, spread: str = "") -> str:
    """A line of :func:`compare` or :func:`compare_turns`: the figure, this tree's, the
    baseline's (``None``: it has none) and their ratio, then ``spread``."""
    ratio = f"{value / then:8.2f}" if then else f"{'-':>8}"
    shown = f"{then:13.2f}" if then is not None else f"{'-':>13}"
    return f"{name[:44]:<44} {value:15.2f} {shown} {ratio}{spread}"


def compare_turns(this: Sequence[Figures], base: Sequence[Figures], label: str) -> str:
    """:func:`compare` for several turns of both trees: each figure's median in each tree, the
    ratio of the medians, and the lowest and highest ratio of a turn (this tree's figure of a
    turn over the baseline's of the same turn).

    >>> print(compare_turns([{"round ms": 5.0}, {"round ms": 7.0}],
    ...                     [{"round ms": 10.0}, {"round ms": 9.0}], "main"))
    figure (median of 2 turns)                         this tree          main    ratio  turns
    round ms                                               6.00          9.50     0.63  0.50-0.78
    """
    lines = [
        f"{f'figure (median of {len(this)} turns)':<44} {'this tree':>15} {label[:13]:>13} "
        f"{'ratio':>8}  turns"
    ]
    for name in this[0]:
        mine = [f[name] for f in this if name in f]
        theirs = [f[name] for f in base if name in f]
        turns = [a / b for a, b in zip(mine, theirs, strict=False) if b]
        spread = f"  {min(turns):.2f}-{max(turns):.2f}" if turns else ""
        then = statistics.median(theirs) if theirs else None
        lines.append(_row(name, statistics.median(mine), then, spread))
    return "\n".join(lines)
