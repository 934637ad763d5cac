"""Every benchmark's figures beside a baseline's, so that a regression shows as a ratio.

A benchmark's ``main`` returns its figures (name -> number, smaller is better unless the name
ends in ``/s``); :func:`run` prints them and, when asked:

* ``--save PATH`` writes them as JSON;
* ``--baseline PATH`` (a JSON written by ``--save``) prints them beside those;
* ``--baseline REV`` (a git revision of this checkout) runs the same benchmark, with the same
  arguments, on that revision's code (``git archive`` into a temporary folder, imported
  first: :data:`TREE`) right after this tree's run, and prints both side by side. This
  machine is shared and loaded: only figures measured in the same run are compared, never
  absolute times against an old figure.

Each benchmark puts :data:`TREE` first on ``sys.path`` (this checkout unless a baseline run
says otherwise), then the checkout itself, so that a revision without this module still
runs with it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
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


def run(parser: argparse.ArgumentParser, main: Callable[[argparse.Namespace], Figures]) -> int:
    """Parse the arguments (:func:`add_arguments` added), measure, print, compare."""
    args = parser.parse_args()
    return finish(args, main(args))


def finish(args: argparse.Namespace, figures: Figures) -> int:
    """Save and compare the figures as the arguments ask (for a benchmark with its own
    ``main``)."""
    if args.save:
        args.save.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    if args.baseline:
        label, base = _baseline(args.baseline)
        print()
        print(compare(figures, base, label))
    return 0


def _baseline(what: str) -> tuple[str, Figures]:
    path = Path(what)
    if path.is_file():
        return path.name, json.loads(path.read_text(encoding="utf-8"))
    return what, measure_revision(what)


def measure_revision(rev: str) -> Figures:
    """The figures of this benchmark, with this run's arguments, on revision ``rev``."""
    with tempfile.TemporaryDirectory(prefix="bench-baseline-") as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(CHECKOUT), "archive", rev], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        out = Path(tmp) / "figures.json"
        argv = _without_baseline(sys.argv[1:])
        print(f"\n--- the same on {rev} ---", flush=True)
        subprocess.run(
            [sys.executable, sys.argv[0], *argv, "--save", str(out)],
            check=True,
            env={**os.environ, "BENCH_TREE": str(tree)},
        )
        figures: Figures = json.loads(out.read_text(encoding="utf-8"))
        return figures


def _without_baseline(argv: list[str]) -> list[str]:
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--baseline", "--save"):
            skip = True
        elif not arg.startswith(("--baseline=", "--save=")):
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
    for name, value in figures.items():
        then = base.get(name)
        ratio = f"{value / then:8.2f}" if then else f"{'-':>8}"
        shown = f"{then:13.2f}" if then is not None else f"{'-':>13}"
        lines.append(f"{name[:44]:<44} {value:15.2f} {shown} {ratio}")
    return "\n".join(lines)
