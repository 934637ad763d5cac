"""Does a worker's restart cost grow with the tournaments it has already finished? Prints
figures; no pass/fail.

    .venv/bin/python bench/bench_history.py [--history 1000 10000] [--partitions 4 24]
        [--players 6] [--broker kafka://…] [--code DIR]

For each (history, partitions): ``history`` finished round robins of ``players`` players go
through a worker (the *history*), which is then SIGKILLed after the finished-tournament grace
period (``TRACKER_FINISHED_GRACE``, set to 2 s here) has passed. A fresh worker with its web
server starts on the same topics, ``--new`` new tournaments are published as soon as it is
``Ready``, and the benchmark prints:

* ``ready``: seconds from the fresh worker's start to Faust's ``Ready``;
* ``first`` / ``all``: seconds from its start to the first alert of a new tournament and to
  the last one (broker timestamps of the alerts);
* ``rss``: the fresh worker's resident memory once the new tournaments are done, and its peak;
* ``feed``: the resident memory added by one SSE client on ``/api/alerts`` once the worker's
  alert feed has read the output topics (which hold every alert of the history).

``--store rocksdb://`` keeps the table on a volume both workers share, as a restarted pod
with its volume would. ``--code DIR`` runs the workers from another checkout (the figures
*before* a change: ``git archive main | tar -x -C DIR``); the benchmark's own publisher and
readers are this tree's. Without ``--broker`` (or ``TRACKER_TEST_BROKER``) each run gets a
Tansu broker of its own, so the broker's memory does not carry over from one run to the next.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, os.environ.get("BENCH_TREE") or sys.path[0])  # a baseline's code first

from bench_streams import Worker, read_all, wait_count  # noqa: E402

from bench.baseline import Figures, add_arguments, finish  # noqa: E402
from streams.broker import free_port  # noqa: E402
from streams.publish import publish  # noqa: E402
from streams.settings import Settings  # noqa: E402
from streams.synthetic import interleave, round_robin  # noqa: E402


class Proc(Worker):
    """A tracker worker run from the checkout ``code``, with a 2 s finished-tournament grace
    period, retirement at every chance, the settings' store, and the web server on
    ``web_port`` if given."""

    def __init__(self, s: Settings, log: Path, code: Path, web_port: int | None = None) -> None:
        env = {
            "TRACKER_FINISHED_GRACE": "2",
            "TRACKER_RETIRE_EVERY": "1",
            "PYTHONPATH": str(code),
            "TRACKER_STORE": s.store,
            "TRACKER_DATA_DIR": s.data_dir,
        }
        args = ["--web-port", str(web_port)] if web_port else []
        super().__init__("tracker", s, log, args=args, env=env, cwd=code)

    def memory(self) -> tuple[float, float]:
        """Resident and peak resident memory, MB."""
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        rss = int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
        peak = int(re.search(r"VmHWM:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
        return rss / 1024, peak / 1024


def retired(w: Proc) -> int:
    return sum(int(n) for n in re.findall(r"(\d+) tournaments? retired", w.text()))


async def sse(port: int, quiet: float = 4.0, limit: float = 300.0) -> int:
    """Read ``/api/alerts`` until ``quiet`` seconds pass without an event; the event count."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /api/alerts HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    await writer.drain()
    events = 0
    deadline = time.monotonic() + limit
    try:
        while time.monotonic() < deadline:
            try:
                line = await asyncio.wait_for(reader.readline(), quiet)
            except TimeoutError:
                break
            if not line:
                break
            if line.startswith(b"id: "):
                events += 1
    finally:
        writer.close()
    return events


def run(
    broker: str,
    history: int,
    partitions: int,
    players: int,
    new: int,
    code: Path,
    tmp: Path,
    store: str,
) -> dict[str, Any]:
    tag = f"hist-{history}-{partitions}-{uuid.uuid4().hex[:6]}"
    s = Settings(
        broker=broker,
        app_id=tag,
        topic_prefix=f"{tag}-",
        partitions=partitions,
        store=store,
        data_dir=str(tmp / f"{tag}-data"),  # one volume for both workers
    )
    rounds = players - 1
    old = interleave([round_robin(f"h{i}", players, seed=i) for i in range(history)])
    fresh = interleave([round_robin(f"n{i}", players, seed=i) for i in range(new)])
    out: dict[str, Any] = {"history_messages": len(old)}

    started = time.monotonic()
    asyncio.run(publish(old, s))
    first = Proc(s, tmp / f"{tag}-history.log", code)
    try:
        first.wait_for("[^Worker]: Ready", timeout=900)
        asyncio.run(wait_count(s, s.topic("rounds"), history * rounds, 3600, distinct=True))
        deadline = time.monotonic() + 60
        time.sleep(4)  # the grace period, and the retirement after it, if the code has one
        while 0 < retired(first) < history and time.monotonic() < deadline:
            time.sleep(1)
        out["history_s"] = time.monotonic() - started
        out["retired"] = retired(first)
        out["history_rss"] = first.memory()[0]
    finally:
        first.kill()

    port = free_port()
    second = Proc(s, tmp / f"{tag}-restart.log", code, web_port=port)
    try:
        second.wait_for("[^Worker]: Ready", timeout=900)
        ready = second.stamps("[^Worker]: Ready")[0]
        out["ready_s"] = ready - second.wall_start
        asyncio.run(publish(fresh, s))
        asyncio.run(wait_count(s, s.topic("rounds"), (history + new) * rounds, 900, distinct=True))
        ours = [
            r.timestamp / 1000
            for r in asyncio.run(read_all(s, list(s.output_topics.values())))
            if r.key and r.key.startswith(b"n")
        ]
        out["first_s"] = min(ours) - second.wall_start
        out["all_s"] = max(ours) - second.wall_start
        out["rss"], out["peak"] = second.memory()
        out["sse_events"] = asyncio.run(sse(port))
        out["feed_mb"] = second.memory()[0] - out["rss"]
    finally:
        second.kill()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--broker", default=os.environ.get("TRACKER_TEST_BROKER"))
    parser.add_argument("--history", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--partitions", type=int, nargs="+", default=[4, 24])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--new", type=int, default=20, help="tournaments after the restart")
    parser.add_argument(
        "--code",
        type=Path,
        default=Path(os.environ.get("BENCH_TREE") or ROOT),
        help="checkout the workers run from",
    )
    parser.add_argument(
        "--store", default="memory://", help="memory:// (default) or rocksdb:// (kept volume)"
    )
    add_arguments(parser)
    args = parser.parse_args()

    from streams.broker import running

    figures: Figures = {}
    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-history-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    print(f"workers from {args.code.resolve()}, store {args.store}; logs in {tmp}", flush=True)
    print(
        f"{'history':>8} {'parts':>5} {'msgs':>7} {'retired':>7} {'ready s':>7} {'first s':>7} "
        f"{'all s':>6} {'RSS MB':>6} {'peak':>6} {'feed MB':>7} {'SSE ev':>7}",
        flush=True,
    )
    for history in args.history:
        for partitions in args.partitions:
            with contextlib.ExitStack() as stack:
                broker = args.broker or stack.enter_context(
                    running(log_path=tmp / f"tansu-{history}-{partitions}.log")
                )
                r = run(
                    broker, history, partitions, args.players, args.new, args.code, tmp, args.store
                )
            print(
                f"{history:8d} {partitions:5d} {r['history_messages']:7d} {r['retired']:7d} "
                f"{r['ready_s']:7.1f} {r['first_s']:7.1f} {r['all_s']:6.1f} {r['rss']:6.0f} "
                f"{r['peak']:6.0f} {r['feed_mb']:7.0f} {r['sse_events']:7d}",
                flush=True,
            )
            label = f"{history} history, {partitions} partitions"
            figures[f"{label}: ready s"] = r["ready_s"]
            figures[f"{label}: all s"] = r["all_s"]
            figures[f"{label}: peak RSS MB"] = r["peak"]
    return finish(args, figures)


if __name__ == "__main__":
    raise SystemExit(main())
