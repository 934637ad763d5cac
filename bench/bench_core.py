"""The core alone on the streaming benchmark's input: 200 synthetic ten-player round robins
(``bench_streams.py``'s default), every message through ``tracker.engine.transition.apply``.

Prints messages per second (wall and CPU) and the CPU the norm prospects take per finished
round (``prospect_alerts`` as ``transition`` calls it, timed from outside). No Kafka, no
pass/fail.

Run (after ``pip install -e '.[bench]'``): ``.venv/bin/python bench/bench_core.py``
(``--baseline REV`` for another revision's figures beside these: ``bench/baseline.py``)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, os.environ.get("BENCH_TREE") or sys.path[0])  # a baseline's code first

from bench.baseline import Figures, add_arguments, run
from bench.bench_streams import core_only
from streams.synthetic import interleave, round_robin
from tracker.engine import transition


def main(tournaments: int = 200, players: int = 10) -> Figures:
    events = interleave([round_robin(f"b{i}", players, seed=i) for i in range(tournaments)])
    spent, rounds = 0.0, 0
    prospects = transition.prospect_alerts

    def timed(*args: Any, **kwargs: Any) -> Any:
        nonlocal spent, rounds
        started = time.process_time()
        try:
            return prospects(*args, **kwargs)
        finally:
            spent += time.process_time() - started
            rounds += 1

    transition.prospect_alerts = timed  # type: ignore[assignment]
    try:
        cpu = time.process_time()
        rate = core_only(events)
        cpu = time.process_time() - cpu
    finally:
        transition.prospect_alerts = prospects  # type: ignore[assignment]
    print(f"{tournaments} round robins of {players} players, {len(events)} messages")
    print(f"core_only: {rate:.0f} msg/s wall, {len(events) / cpu:.0f} msg/s CPU")
    print(
        f"prospects: {spent / rounds * 1000:.2f} ms CPU per finished round ({rounds} rounds), "
        f"{spent / cpu:.0%} of the core's CPU"
    )
    return {
        "core msg/s (CPU)": len(events) / cpu,
        "prospects ms per round": spent / rounds * 1000,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--players", type=int, default=10)
    add_arguments(parser)
    raise SystemExit(run(parser, lambda args: main(args.tournaments, args.players)))
