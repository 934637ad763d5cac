"""What the norm watch costs (``tracker/engine/watch.py``, issue 20): ``tracker replay`` of
a large open in text, which prints the watch after each round, against the same replay in
JSONL, which does not, run in turns in the same process (this machine is shared: compare the
ratio, not an old figure); then the whole watch of each round as ``tracker check FILE``
prints it, and the alert lines a round the text replay prints. No pass/fail.

Run: ``.venv/bin/python bench/bench_watch.py [FILE ...]`` (default: the 580-player synthetic
open of the real-data corpus, and ``shared/real-trf/karl-mala-2005.trf`` when it is beside
the checkout); ``--baseline main`` for the same figures of another revision beside these
(``bench/baseline.py``).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
import time
from collections import Counter
from contextlib import redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, os.environ.get("BENCH_TREE") or sys.path[0])  # a baseline's code first

from bench.baseline import Figures, add_arguments, run
from cli.main import main as tracker
from tests.support.paths import REAL, shared_real_trf
from tracker.host.replay import Replay, read_bytes
from tracker.render.report import check_table


def _cpu(argv: list[str]) -> tuple[float, str]:
    out = io.StringIO()
    started = time.process_time()
    with redirect_stdout(out):
        tracker(argv)
    return time.process_time() - started, out.getvalue()


def alert_lines(text: str) -> Counter[int]:
    """The lines of each round's block that are neither its standings nor its watch."""
    lines: Counter[int] = Counter()
    number, watch = 0, False
    for line in text.splitlines():
        if (head := re.search(r": round (\d+) finished", line)) is not None:
            number, watch = int(head.group(1)), False
        elif line.startswith("   norm watch after round"):
            watch = True
        elif (
            number
            and not watch
            and (re.search(r"\bround \d+: ", line) or line.startswith(("**", "!!")))
        ):
            lines[number] += 1
    return lines


def main(args: argparse.Namespace) -> Figures:
    figures: Figures = {}
    turns = args.turns
    for path in args.files or _default_files():
        text_cpu, bare_cpu, jsonl_cpu = [], [], []
        for _ in range(turns):  # in turns, so that all see the same load
            spent, text = _cpu(["replay", str(path), "--no-progress"])
            text_cpu.append(spent)
            bare_cpu.append(_cpu(["replay", str(path), "--watch", "0", "--no-progress"])[0])
            jsonl_cpu.append(_cpu(["replay", str(path), "--format", "jsonl", "--no-progress"])[0])
        run = Replay()
        for item in read_bytes(path.read_bytes(), path.name):
            run.feed(item)
        (state,) = run.states.values()
        tables = []
        for number in range(1, state.announced + 1):
            started = time.process_time()
            check_table(state, number)
            tables.append(time.process_time() - started)
        text_s, bare_s, jsonl_s = min(text_cpu), min(bare_cpu), min(jsonl_cpu)
        per_round = alert_lines(text)
        print(f"{path.name}: {len(state.players)} players, {state.announced} rounds")
        print(
            f"  replay CPU, best of {turns} each in turns: text with the watch {text_s:.2f} s, "
            f"text --watch 0 {bare_s:.2f} s, jsonl {jsonl_s:.2f} s; the watch costs "
            f"{text_s / bare_s:.2f}x the text without it, {text_s / jsonl_s:.2f}x jsonl"
        )
        print(
            f"  check FILE (the whole watch of a round): {sum(tables) / len(tables) * 1000:.0f} "
            f"ms CPU a round on average, {max(tables) * 1000:.0f} ms at most"
        )
        rounds = [per_round[n] for n in range(1, state.announced + 1)]
        print(f"  alert lines a round in text: {rounds} (at most {max(rounds, default=0)})")
        figures |= {
            f"{path.name}: text replay s": text_s,
            f"{path.name}: text --watch 0 s": bare_s,
            f"{path.name}: jsonl replay s": jsonl_s,
            f"{path.name}: watch over bare text": text_s / bare_s,
            f"{path.name}: check a round ms": sum(tables) / len(tables) * 1000,
        }
    return figures


def _default_files() -> list[Path]:
    given = [REAL / "synthetic-french-open-580-2025.trf"]
    shared = shared_real_trf()
    if shared is not None:
        given.append(shared / "karl-mala-2005.trf")
    return given


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", type=Path, help="TRF or JSONL files (default above)")
    parser.add_argument("--turns", type=int, default=3, help="runs of each replay (best)")
    add_arguments(parser)
    raise SystemExit(run(parser, main))
