"""The SSE feed's memory against history (``streams/feed.py``): the alerts of N synthetic
ten-player round robins (their real alerts, with the tournament id changed) taken in the
topics' order, as a worker reads them at start; then the same tournaments as if still being
played (every message stamped now). No Kafka: the alerts go to :meth:`AlertFeed.add` with
their timestamps.

Prints, per history size, the Python memory the feed holds (tracemalloc) and what it keeps.

Run (after ``pip install -e '.[bench]'``): ``.venv/bin/python bench/bench_feed.py [N ...]``
(default 1000 10000)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
import tracemalloc
from importlib.util import find_spec
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, os.environ.get("BENCH_TREE") or sys.path[0])  # a baseline's code first

_MISSING = [
    m for m in ("aiokafka", "pydantic_settings") if m not in sys.modules and find_spec(m) is None
]
if _MISSING:
    raise SystemExit(
        f"bench_feed.py needs the bench extra ({', '.join(_MISSING)} not installed): "
        "pip install -e '.[bench]'"
    )

from bench.baseline import Figures, add_arguments, run  # noqa: E402
from streams.feed import AlertFeed  # noqa: E402
from streams.settings import Settings  # noqa: E402
from streams.synthetic import round_robin  # noqa: E402
from tracker.engine.transition import apply  # noqa: E402


def one_tournament() -> list[bytes]:
    """The alerts of one ten-player round robin, as JSON, with ``@`` for the tournament id."""
    state = None
    out = []
    for event in round_robin("@", 10, seed=1):
        state, alerts = apply(state, event)
        out.extend(a.model_dump_json().encode() for a in alerts)
    return out


def history(template: list[bytes], tournaments: int) -> list[bytes]:
    return [
        alert.replace(b'"@"', f'"t{n}"'.encode()).replace(
            b'"alert_id":"', f'"alert_id":"{n}-'.encode()
        )
        for n in range(tournaments)
        for alert in template
    ]


async def measure(alerts: list[bytes], stamp: float | None) -> tuple[float, int, int]:
    """(MB held by the feed, alerts kept, bytes of JSON kept)."""
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    feed = AlertFeed(Settings(broker="kafka://127.0.0.1:9"))
    for alert in alerts:
        await feed.add(bytes(bytearray(alert)), stamp)  # a fresh copy, as a consumer's
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return held / 1e6, len(feed.entries), feed.bytes


def main(sizes: list[int]) -> Figures:
    template = one_tournament()
    print(f"one tournament: {len(template)} alerts, {sum(map(len, template)) / 1e3:.0f} kB of JSON")
    day_ago = time.time() - 86_400
    figures: Figures = {}
    for size in sizes:
        alerts = history(template, size)
        for label, stamp in (("finished a day ago", day_ago), ("all still running", None)):
            held, kept, data = asyncio.run(measure(alerts, stamp))
            print(
                f"{size:>6} tournaments ({len(alerts)} alerts), {label}: feed holds {held:.1f} MB"
                f" ({kept} alerts, {data / 1e6:.1f} MB of JSON kept)"
            )
            figures[f"{size} tournaments, {label}: MB held"] = held
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 10000], help="tournaments")
    add_arguments(parser)
    raise SystemExit(run(parser, lambda args: main(args.sizes)))
