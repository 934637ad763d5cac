"""Does a worker's restart cost grow with the corrections a tournament has had? Prints
figures; no pass/fail.

    .venv/bin/python bench/bench_corrected_restart.py [--cycles 0 1000] [--players 40]
        [--broker kafka://…] [--code DIR]

For each number of cycles: a generated ``--players``-player, 9-round Swiss (the tests'
generator, ``tests/support/swiss.py``) is played through a worker, then corrected ``cycles``
times (its last round reopened, its last board taken back, paired and played again: four
input events and a new ``round_finished`` each time). The worker is SIGKILLed once every
alert is out; a fresh one starts on the same topics, and once it is ``Ready`` one more cycle of
the corrected tournament and the first round of a new tournament on the same partition are
published. The benchmark prints, from the fresh worker's start: ``ready`` (Faust's
``Ready``), ``corrected`` (the first alert of the corrected tournament's new cycle: the
tournament must be rebuilt first), ``new`` (the new tournament's first alert: it waits behind
that rebuild), and the ratio of each to the run without corrections. ``--code DIR`` runs the
workers from another checkout (``git archive main | tar -x -C DIR``: the figures before a
change). Without ``--broker`` (or ``TRACKER_TEST_BROKER``) each run gets a Tansu broker of its
own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aiokafka.partitioner import DefaultPartitioner  # noqa: E402
from bench_streams import Worker, read_all, wait_count  # noqa: E402

from streams.publish import publish  # noqa: E402
from streams.records import AUDIENCE_OF  # noqa: E402
from streams.settings import Settings  # noqa: E402
from streams.synthetic import round_robin  # noqa: E402
from tests.support.swiss import swiss_events  # noqa: E402
from tracker import contract as ev  # noqa: E402
from tracker.engine.transition import apply  # noqa: E402

ROUNDS = 9


def cycle(last: ev.GameResult) -> list[ev.InputEvent]:
    board = {
        "tournament_id": last.tournament_id,
        "round": last.round,
        "white": last.white,
        "black": last.black,
    }
    return [
        ev.RoundReopened(tournament_id=last.tournament_id, round=last.round),
        ev.PairingRemoved(**board),
        ev.Pairing(**board),
        last,
    ]


def partition_of(key: str, partitions: int) -> int:
    """The partition the publisher's producer puts a key on (Kafka's default partitioner)."""
    every = list(range(partitions))
    return int(DefaultPartitioner()(key.encode(), every, every))


def round_alerts(events: list[ev.InputEvent], state: Any = None) -> tuple[Any, set[str]]:
    """The state after the events (from ``state``), and the ids of the alerts of the
    round-summary topic they give."""
    ids = set()
    for e in events:
        state, alerts = apply(state, e)
        ids.update(a.alert_id for a in alerts if AUDIENCE_OF[a.type] == "rounds")
    return state, ids


def run(broker: str, cycles: int, players: int, code: Path, tmp: Path) -> dict[str, float]:
    tag = f"fix-{cycles}-{uuid.uuid4().hex[:6]}"
    s = Settings(broker=broker, app_id=tag, topic_prefix=f"{tag}-")
    played = [e for group in swiss_events(players, ROUNDS) for e in group]
    last = next(e for e in reversed(played) if isinstance(e, ev.GameResult))
    history = [*played, *[e for _ in range(cycles) for e in cycle(last)]]
    home = partition_of(last.tournament_id, s.partitions)
    newcomer = next(
        f"new-{n}" for n in range(1000) if partition_of(f"new-{n}", s.partitions) == home
    )
    fresh = [e for e in round_robin(newcomer, 6, seed=1) if getattr(e, "round", 1) <= 1]
    env = {"PYTHONPATH": str(code)}

    asyncio.run(publish(history, s))
    first = Worker("tracker", s, tmp / f"{tag}-history.log", env=env, cwd=code)
    try:
        first.wait_for("[^Worker]: Ready", timeout=900)
        state, ids = round_alerts(history)
        asyncio.run(wait_count(s, s.topic("rounds"), len(ids), 3600, True))
        time.sleep(3)  # the last sent marks and commits
    finally:
        first.kill()

    second = Worker("tracker", s, tmp / f"{tag}-restart.log", env=env, cwd=code)
    try:
        second.wait_for("[^Worker]: Ready", timeout=900)
        out = {"ready": second.stamps("[^Worker]: Ready")[0] - second.wall_start}
        probe_at = time.time()
        asyncio.run(publish([*cycle(last), *fresh], s))
        more = round_alerts(cycle(last), state)[1] - ids
        want = len(ids) + len(more) + 1  # and the newcomer's round 1
        asyncio.run(wait_count(s, s.topic("rounds"), want, 900, True))
        records = asyncio.run(read_all(s, list(s.output_topics.values())))
    finally:
        second.kill()

    def first_alert(key: str) -> float:
        stamps = [
            r.timestamp / 1000
            for r in records
            if r.key == key.encode() and r.timestamp / 1000 >= probe_at - 0.5
        ]
        return min(stamps) - second.wall_start

    out["corrected"] = first_alert(last.tournament_id)
    out["new"] = first_alert(newcomer)
    out["messages"] = len(history)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--broker", default=os.environ.get("TRACKER_TEST_BROKER"))
    parser.add_argument("--cycles", type=int, nargs="+", default=[0, 1000])
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout the workers run from")
    args = parser.parse_args()

    from streams.broker import running

    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-corrected-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    print(f"workers from {args.code.resolve()}; logs in {tmp}", flush=True)
    print(
        f"{'cycles':>6} {'msgs':>6} {'ready s':>8} {'corrected s':>11} {'new s':>7}"
        f"  (ratio to {args.cycles[0]} cycles)",
        flush=True,
    )
    base: dict[str, Any] | None = None
    for cycles in args.cycles:
        with contextlib.ExitStack() as stack:
            broker = args.broker or stack.enter_context(
                running(log_path=tmp / f"tansu-{cycles}.log")
            )
            r = run(broker, cycles, args.players, args.code, tmp)
        base = base or r
        print(
            f"{cycles:6d} {r['messages']:6.0f} {r['ready']:8.1f} {r['corrected']:11.1f} "
            f"{r['new']:7.1f}  ({r['ready'] / base['ready']:.2f}, "
            f"{r['corrected'] / base['corrected']:.2f}, {r['new'] / base['new']:.2f})",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
