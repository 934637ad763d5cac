"""Benchmark of the streaming tracker on Kafka-protocol brokers. Prints figures; no
pass/fail.

    .venv/bin/python bench/bench_streams.py [--kinds kafka tansu] [--tournaments 200]
        [--rates 100 500 1000] [--broker kafka://127.0.0.1:9092 --kind kafka]
        [--latency-only] [--workers N]

Without ``--broker`` it starts a broker of each of ``--kinds`` in turn (Apache Kafka, then
Tansu, by default: the figures side by side, from one run) and prints one column per broker.
The workers get the settings :func:`streams.broker.worker_env` gives a throwaway broker of
that kind (3 s group sessions on both).

``--save``/``--baseline`` (``bench/baseline.py``) print the figures beside another
revision's or a saved run's.

1. **Throughput.** The same pre-loaded input (``--tournaments`` synthetic 10-player round
   robins, every round of every tournament before the next round of any) goes through the
   tracker worker, then through a bare pass-through Faust agent (same app settings, reads a
   message, sends it on). Rate = messages / (last output - first output), from the records'
   broker timestamps, so start-up and group joins are left out. The ratio is the figure.
   Also the worker process's CPU per message (from ``/proc``, start-up left out), which the
   other jobs on a shared machine disturb less than the wall clock. The same for two
   reduced trackers (see :func:`reduced_core`): the *ceiling*, whose core derives nothing
   but an empty ``round_finished`` per round (the ratio a free norm engine would reach),
   and *summaries only*, whose ``round_finished`` carries the real standings and live
   ratings (a tracker that does no norm work at all).
2. **Latency** with all tournaments in flight: the input is published live at each of
   ``--rates`` messages per second (default 100, 500 and 1,000; ``--rate`` for one), in the
   order ``--schedule`` gives (see :func:`schedule`); for every (tournament, round), the
   time from handing its last message to the producer to a subscriber receiving its
   ``round_finished``, median (p50) and 99th percentile, over the whole run and over the
   rounds that ended in its middle 80 % (the first and last rounds of every tournament end
   together at its edges), beside a bare pass-through agent's at the same rate; with
   ``--workers N``, N tracker workers share the partitions, as deployed.
3. **Changelog bytes** per game result: key + value bytes written to the ``facts``
   changelog during phase 1, divided by the number of ``game_result`` messages.
4. **Restart**: the phase-1 worker is SIGKILLed and a new one started; seconds to Faust's
   ``Ready``; then every tournament gets a (repeated) message: seconds until the partitions
   are taken over, and how long each tournament's stored facts take to replay through the
   core on its first message.

The module is over 600 lines because the four phases share one harness (brokers, worker
processes, publishing, reading the output topics, the report beside a baseline); split, each
phase would reach into the others' helpers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from datetime import datetime
from functools import partial
from importlib.util import find_spec
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CODE = Path(os.environ.get("BENCH_TREE") or ROOT)
"""The code the workers run: a baseline revision's (``bench/baseline.py``) or this one's."""
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(CODE))

_EXTRA = ("aiokafka", "faust", "pydantic_settings")
# a module already imported (faust leaves its __spec__ None, on which find_spec raises)
_MISSING = [m for m in _EXTRA if m not in sys.modules and find_spec(m) is None]
if _MISSING:  # bench_core.py imports this module too
    raise SystemExit(
        f"{Path(sys.argv[0]).name} needs the bench extra ({', '.join(_MISSING)} not installed):"
        " pip install -e '.[bench]'"
    )

from aiokafka import AIOKafkaProducer  # noqa: E402

from bench.baseline import Figures, add_arguments, finish  # noqa: E402
from streams.broker import KINDS, label, running, worker_env  # noqa: E402
from streams.kafka import (  # noqa: E402
    consumer,
    ensure_topics,
    partitions_of,
    read_from_start,
)
from streams.publish import publish  # noqa: E402
from streams.records import encode_input  # noqa: E402
from streams.settings import Settings  # noqa: E402
from streams.synthetic import interleave, round_robin  # noqa: E402
from tracker import contract as ev  # noqa: E402
from tracker.engine.round_alerts import Emitted  # noqa: E402
from tracker.engine.state import TournamentState  # noqa: E402
from tracker.engine.transition import Core, apply, round_finished  # noqa: E402

# ------------------------------------------------------------------ worker processes


def settings_for(broker: str, label: str) -> Settings:
    tag = f"bench-{label}-{uuid.uuid4().hex[:6]}"
    return Settings(broker=broker, app_id=tag, topic_prefix=f"{tag}-", partitions=4)


KIND_OF: dict[str, str] = {}
"""The kind of each broker (by URL) the benchmark started or was given."""


def env_for(s: Settings) -> dict[str, str]:
    env = dict(os.environ)
    env.update(worker_env(KIND_OF.get(s.broker)))
    env.update(
        TRACKER_BROKER=s.broker,
        TRACKER_APP_ID=s.app_id,
        TRACKER_TOPIC_PREFIX=s.topic_prefix,
        TRACKER_PARTITIONS=str(s.partitions),
        PYTHONUNBUFFERED="1",
    )
    return env


class Worker:
    def __init__(
        self,
        kind: str,
        s: Settings,
        log: Path,
        *,
        args: Sequence[str] = (),
        env: dict[str, str] | None = None,
        cwd: Path = CODE,
    ) -> None:
        """Start a worker of ``kind`` with ``args`` added to its command line and ``env``
        over :func:`env_for`, in ``cwd``."""
        command = {
            "tracker": [sys.executable, "-m", "cli", "worker", "-l", "info"],
            "ceiling": [sys.executable, __file__, "--ceiling-worker", "worker", "-l", "info"],
            "summaries": [sys.executable, __file__, "--summaries-worker", "worker", "-l", "info"],
            "pass": [sys.executable, __file__, "--passthrough-worker"],
        }[kind]
        self.log = log
        self.wall_start = time.time()
        self.proc = subprocess.Popen(
            [*command, *args],
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            env={**env_for(s), **(env or {})},
            cwd=cwd,
        )

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def stamps(self, needle: str) -> list[float]:
        """Wall-clock times of the log lines containing ``needle``."""
        out = []
        for line in self.text().splitlines():
            m = re.match(r"\[(\S+ \S+),(\d{3})\]", line)
            if m and needle in line:
                at = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S").timestamp()
                out.append(at + int(m.group(2)) / 1000)
        return out

    def wait_for(self, needle: str, count: int = 1, timeout: float = 600) -> None:
        deadline = time.monotonic() + timeout
        while len(self.stamps(needle)) < count:
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker died:\n{self.text()[-3000:]}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {needle!r} in {self.log}")
            time.sleep(0.2)

    def cpu(self) -> float:
        """CPU seconds (user + system) the worker process has used so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(15)


@contextlib.contextmanager
def worker(kind: str, s: Settings, log: Path) -> Iterator[Worker]:
    w = Worker(kind, s, log)
    try:
        yield w
    finally:
        w.kill()


def passthrough_worker() -> int:
    """The bare agent: every input message sent on, unchanged, to one output topic."""
    import faust

    from streams.faust.wiring import make_app, raw_topic

    s = Settings()
    app = make_app(s)
    source = raw_topic(app, s, s.topic("input"))
    sink = raw_topic(app, s, s.topic("rounds"))

    async def forward(stream: Any) -> None:
        async for event in stream.events():
            await sink.send(key=event.message.key, value=event.message.value)

    app.agent(source, name="bench.forward")(forward)
    faust.Worker(app, loglevel="info").execute_from_commandline()
    return 0


def reduced_core(summaries: bool) -> Core:
    """The transition with a round that derives only its ``round_finished``: with no
    standings in it (``summaries`` false: the *ceiling*, what the tracker's Kafka side costs
    on its own), or with the real standings and live ratings (the *summaries* run: a tracker
    that publishes round summaries and does no norm work)."""
    from tracker.engine.evaluation import standings

    def round_finished_only(state: TournamentState, number: int) -> tuple[TournamentState, Emitted]:
        rows = standings(state, number) if summaries else ()
        finished = round_finished(state, number, rows)
        return dataclasses.replace(state, announced=max(state.announced, number)), [finished]

    return partial(apply, evaluate=round_finished_only)


def reduced_worker(argv: list[str], summaries: bool) -> int:
    """The tracker worker with :func:`reduced_core`; everything else runs as in production:
    validation, facts, table writes, sends. Benchmark only."""
    from cli.main import build_parser
    from cli.streams import cmd_worker

    return cmd_worker(build_parser().parse_args(argv), core=reduced_core(summaries))


# ------------------------------------------------------------------ reading topics


async def read_all(s: Settings, topics: Sequence[str]) -> list[Any]:
    """Every record of the topics (read by fetching to the highwater)."""
    records = read_from_start(s, topics, max_partition_fetch_bytes=4 * 1024 * 1024)
    return [record async for record in records]


async def wait_count(s: Settings, topic: str, want: int, timeout: float, distinct: bool) -> None:
    """Follow ``topic`` until ``want`` messages (or distinct values) have arrived."""
    reader = consumer(s)
    await reader.start()
    try:
        deadline = time.monotonic() + timeout
        tps: list[Any] = []
        seen: set[bytes] = set()
        count = 0
        while count < want:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{topic}: {count} of {want} messages after {timeout} s")
            if len(tps) < s.partitions:
                tps = await partitions_of(reader, [topic])
                reader.assign(tps)
                for tp in tps:
                    reader.seek(tp, 0)
                seen.clear()
                count = 0
                if not tps:
                    await asyncio.sleep(0.5)
                    continue
            batches = await reader.getmany(timeout_ms=500, max_records=20000)
            for records in batches.values():
                for r in records:
                    if distinct:
                        seen.add(r.value)
                        count = len(seen)
                    else:
                        count += 1
    finally:
        await reader.stop()


def span_rate(count: int, records: Sequence[Any]) -> float:
    stamps = [r.timestamp for r in records]
    seconds = (max(stamps) - min(stamps)) / 1000
    return count / seconds if seconds > 0 else float("nan")


# ------------------------------------------------------------------ phases


WORKER_KINDS = ("tracker", "ceiling", "summaries", "pass")


def throughput(
    kind: str, broker: str, events: list[ev.InputEvent], rounds: int, tmp: Path
) -> dict[str, Any]:
    """A worker of ``kind`` on the pre-loaded input: its rate and CPU per message; for the
    tracker also the changelog's size and the restart."""
    tournaments = len({e.tournament_id for e in events})
    games = sum(isinstance(e, ev.GameResult) for e in events)
    s = settings_for(broker, kind)
    asyncio.run(publish(events, s))
    # the pass-through agent's output topic (the tracker creates its own; Kafka creates none
    # on first use, as deployed)
    asyncio.run(ensure_topics(s, [s.topic("rounds")]))
    out: dict[str, Any] = {}
    w = Worker(kind, s, tmp / f"{kind}.log")
    try:
        w.wait_for("[^Worker]: Ready")
        cpu = w.cpu()
        if kind == "pass":
            asyncio.run(wait_count(s, s.topic("rounds"), len(events), 600, distinct=False))
            out["pass_cpu"] = (w.cpu() - cpu) / len(events)
            records = asyncio.run(read_all(s, [s.topic("rounds")]))
        else:
            asyncio.run(wait_count(s, s.topic("rounds"), tournaments * rounds, 900, distinct=True))
            time.sleep(1.5)  # let the last changelog writes land
            out[f"{kind}_cpu"] = (w.cpu() - cpu) / len(events)
            changelog = asyncio.run(read_all(s, [f"{s.app_id}-facts-changelog"]))
            alerts = asyncio.run(read_all(s, list(s.output_topics.values())))
            out[f"{kind}_alerts"] = len(alerts)
            records = [*changelog, *alerts]
            if kind == "tracker":
                size = sum(len(r.key or b"") + len(r.value or b"") for r in changelog)
                out["changelog_records"] = len(changelog)
                out["changelog_bytes"] = size
                out["changelog_per_game"] = size / games
                out["changelog_per_message"] = size / len(events)
        out[f"{kind}_rate"] = span_rate(len(events), records)
        if kind == "tracker":
            out["restart"] = restart(s, w, events, tmp)
    finally:
        w.kill()
    return out


def restart(s: Settings, old: Worker, events: list[ev.InputEvent], tmp: Path) -> dict[str, float]:
    """SIGKILL the worker, start another, send every tournament a message, time the
    take-over of the partitions and the replay of each tournament's stored facts."""
    old.kill(signal.SIGKILL)
    registrations = [e for e in events if isinstance(e, ev.TournamentRegistered)]
    with worker("tracker", s, tmp / "tracker-restart.log") as new:
        new.wait_for("[^Worker]: Ready")
        ready = new.stamps("[^Worker]: Ready")[0] - new.wall_start
        # a repeated registration per tournament: changes nothing, but makes its partition
        # rebuild (first time) and its stored facts replay before it is handled
        poked = time.time()
        asyncio.run(publish(registrations, s))
        partitions = min(s.partitions, len(registrations))
        new.wait_for("rebuilt up to offset", count=partitions, timeout=900)
        new.wait_for("replayed in", count=len(registrations), timeout=900)
        taken = max(new.stamps("rebuilt up to offset")) - poked
        replays = sorted(float(x) for x in re.findall(r"replayed in ([\d.]+) s", new.text()))
        everything = max(new.stamps("replayed in")) - poked
        facts = sum(int(n) for n in re.findall(r": (\d+) stored facts of", new.text()))
    return {
        "ready_s": ready,
        "taken_s": taken,
        "replay_median_s": statistics.median(replays),
        "replay_max_s": replays[-1],
        "all_replayed_s": everything,
        "facts": facts,
    }


def schedule(events: list[ev.InputEvent], mode: str) -> list[ev.InputEvent]:
    """The order messages are published in the latency phase.

    ``staggered``: a uniformly random interleaving of the tournaments' own sequences, as
    when many events run at once but not in step (round ends spread over time);
    ``lockstep``: every tournament's round r (shuffled together) before any round r + 1, so
    round ends bunch up at the end of each round (a worst case)."""
    rnd = random.Random(7)
    if mode == "lockstep":
        by_round: dict[int, list[ev.InputEvent]] = {}
        for e in events:
            by_round.setdefault(getattr(e, "round", 0), []).append(e)
        out: list[ev.InputEvent] = []
        for number in sorted(by_round):
            batch = by_round[number]
            if number:
                rnd.shuffle(batch)
            out.extend(batch)
        return out
    queues: dict[str, list[ev.InputEvent]] = {}
    for e in events:
        queues.setdefault(e.tournament_id, []).append(e)
    for q in queues.values():
        q.reverse()
    names = list(queues)
    weights = [len(queues[n]) for n in names]
    out = []
    while names:
        i = rnd.choices(range(len(names)), weights)[0]
        out.append(queues[names[i]].pop())
        weights[i] -= 1
        if not weights[i]:
            del names[i], weights[i]
    return out


def latency(
    broker: str, events: list[ev.InputEvent], rate: float, tmp: Path, mode: str, workers: int = 1
) -> dict[str, Any]:
    s = settings_for(broker, "latency")
    ordered = schedule(events, mode)
    expected = {(e.tournament_id, e.round) for e in events if isinstance(e, ev.GameResult)}

    async def run() -> list[tuple[float, float]]:
        await ensure_topics(s, [s.topic("input"), *s.output_topics.values()])
        last_sent: dict[tuple[str, int], float] = {}
        arrived: dict[tuple[str, int], float] = {}
        reader = consumer(s)
        await reader.start()
        tps = await partitions_of(reader, [s.topic("rounds")])
        reader.assign(tps)
        for tp in tps:
            reader.seek(tp, 0)

        async def subscribe() -> None:
            while len(arrived) < len(expected):
                batches = await reader.getmany(timeout_ms=100)
                now = time.time()
                for records in batches.values():
                    for r in records:
                        alert = json.loads(r.value)
                        arrived.setdefault((alert["tournament_id"], alert["round"]), now)

        producer = AIOKafkaProducer(acks="all", linger_ms=0, **s.client_kwargs())
        await producer.start()
        listening = asyncio.create_task(subscribe())
        begun = time.time()
        try:
            started = time.monotonic()
            for sent, e in enumerate(ordered, 1):
                ahead = started + sent / rate - time.monotonic()
                if ahead > 0:
                    await asyncio.sleep(ahead)
                number = getattr(e, "round", 0)
                if number:
                    last_sent[(e.tournament_id, number)] = time.time()
                await producer.send(
                    s.topic("input"), key=e.tournament_id.encode(), value=encode_input(e)
                )
            await producer.flush()
            await asyncio.wait_for(listening, timeout=600)
        finally:
            listening.cancel()
            await producer.stop()
            await reader.stop()
        return [(arrived[k] - last_sent[k], last_sent[k] - begun) for k in expected]

    with contextlib.ExitStack() as stack:
        ws = [
            stack.enter_context(worker("tracker", s, tmp / f"latency-{i}.log"))
            for i in range(workers)
        ]
        for w in ws:
            w.wait_for("[^Worker]: Ready")
        if workers > 1:
            # the group rebalances as the later workers join (3 s sessions: done within a
            # few seconds); the worker logs say which partitions each took
            time.sleep(8)
        timed = sorted(asyncio.run(run()))
        lags = [lag for lag, _ in timed]
        # the rounds that ended in the middle of the run: the first rounds of every
        # tournament end together at the start of a staggered run and the last rounds at its
        # end (a random interleaving keeps each tournament's order, so its first and last
        # messages fall in the first and last 1 % of the run), bursts of 200 evaluations
        run_s = len(ordered) / rate
        middle = [lag for lag, at in timed if 0.1 * run_s <= at <= 0.9 * run_s]
        # when the worst 1 % of rounds ended, in seconds into the run (a burst of round ends,
        # as the last seconds of the staggered schedule, shows as a narrow late window)
        worst = [at for _, at in timed[int(0.99 * (len(timed) - 1)) :]]
        # the worker's part: broker timestamps of the round's last input message and of
        # its round_finished (both taken when the producer sent them)
        last_in: dict[tuple[str, int], int] = {}
        for r in asyncio.run(read_all(s, [s.topic("input")])):
            e = json.loads(r.value)
            if "round" in e:
                key = (e["tournament_id"], e["round"])
                last_in[key] = max(last_in.get(key, 0), r.timestamp)
        inside = []
        for r in asyncio.run(read_all(s, [s.topic("rounds")])):
            a = json.loads(r.value)
            inside.append((r.timestamp - last_in[(a["tournament_id"], a["round"])]) / 1000)
    return {
        "rounds": len(lags),
        **percentiles(lags),
        **percentiles(middle, "middle_"),
        **percentiles(inside, "worker_"),
        "worst_from_s": min(worst),
        "worst_to_s": max(worst),
        "run_s": run_s,
    }


def percentiles(seconds: Sequence[float], prefix: str = "") -> dict[str, float]:
    ordered = sorted(seconds)
    return {
        f"{prefix}median_ms": statistics.median(ordered) * 1000,
        f"{prefix}p99_ms": ordered[int(0.99 * (len(ordered) - 1))] * 1000,
        f"{prefix}max_ms": ordered[-1] * 1000,
    }


def passthrough_latency(broker: str, rate: float, tmp: Path, count: int = 3000) -> dict[str, float]:
    """The bare agent's part of the latency at the same rate: broker timestamp of each
    forwarded message minus that of its input message."""
    p = settings_for(broker, "pass-latency")

    async def run() -> None:
        producer = AIOKafkaProducer(acks="all", linger_ms=0, **p.client_kwargs())
        await producer.start()
        started = time.monotonic()
        for i in range(count):
            ahead = started + i / rate - time.monotonic()
            if ahead > 0:
                await asyncio.sleep(ahead)
            await producer.send(p.topic("input"), key=b"%d" % (i % 200), value=b"%d" % i)
        await producer.stop()

    # both topics before the agent starts (Kafka, as deployed, creates none on first use)
    asyncio.run(ensure_topics(p, [p.topic("input"), p.topic("rounds")]))
    with worker("pass", p, tmp / "pass-latency.log") as w:
        w.wait_for("[^Worker]: Ready")
        asyncio.run(run())
        asyncio.run(wait_count(p, p.topic("rounds"), count, 600, distinct=False))
        sent = {r.value: r.timestamp for r in asyncio.run(read_all(p, [p.topic("input")]))}
        forwarded = asyncio.run(read_all(p, [p.topic("rounds")]))
    return percentiles([(r.timestamp - sent[r.value]) / 1000 for r in forwarded])


def core_only(events: list[ev.InputEvent]) -> float:
    """Messages per second through ``tracker.engine.transition.apply`` alone, no Kafka."""
    from tracker.engine.transition import apply

    states: dict[str, Any] = {}
    started = time.perf_counter()
    for e in events:
        states[e.tournament_id], _ = apply(states.get(e.tournament_id), e)
    return len(events) / (time.perf_counter() - started)


# ------------------------------------------------------------------ main


def table(rows: list[tuple[str, list[str]]], kinds: list[str]) -> None:
    width = max(len(name) for name, _ in rows)
    print(f"{'':{width}}  " + "  ".join(f"{label(k)[:34]:>34}" for k in kinds))
    for name, cells in rows:
        print(f"{name:{width}}  " + "  ".join(f"{c:>34}" for c in cells))


def _ratio(a: float, b: float) -> str:
    """``a / b`` to two places; ``-`` when ``b`` is nothing (too small an input to measure)."""
    return f"{a / b:.2f}" if b else "-"


def report_all(results: dict[str, dict[str, Any]], core: float, args: Any) -> None:
    kinds = list(results)
    us = 1e6
    rows: list[tuple[str, list[str]]] = []

    def row(name: str, cell: Any) -> None:
        rows.append((name, [cell(results[k]) for k in kinds]))

    row("tracker, messages/s", lambda t: f"{t['tracker_rate']:.0f}")
    row("bare pass-through agent, messages/s", lambda t: f"{t['pass_rate']:.0f}")
    row(
        "ratio (by CPU per message)",
        lambda t: (
            f"{_ratio(t['tracker_rate'], t['pass_rate'])} "
            f"({_ratio(t['pass_cpu'], t['tracker_cpu'])})"
        ),
    )
    row(
        "CPU per message: tracker / bare / ceiling",
        lambda t: (
            f"{us * t['tracker_cpu']:.0f} / {us * t['pass_cpu']:.0f} / "
            f"{us * t['ceiling_cpu']:.0f} us"
        ),
    )
    row(
        "summaries only: messages/s, ratio",
        lambda t: f"{t['summaries_rate']:.0f}, {t['summaries_rate'] / t['pass_rate']:.2f}",
    )
    for i, rate in enumerate(r for r, _, _ in next(iter(results.values()))["latency"]):
        row(
            f"latency at {rate:.0f}/s: median / p99 / max",
            lambda t, i=i: "{median_ms:.0f} / {p99_ms:.0f} / {max_ms:.0f} ms".format(
                **t["latency"][i][1]
            ),
        )
        row(
            "  rounds ended in the middle 80 % of the run: median / p99",
            lambda t, i=i: "{middle_median_ms:.0f} / {middle_p99_ms:.0f} ms".format(
                **t["latency"][i][1]
            ),
        )
        row(
            "  inside the worker: median / p99",
            lambda t, i=i: "{worker_median_ms:.0f} / {worker_p99_ms:.0f} ms".format(
                **t["latency"][i][1]
            ),
        )
        row(
            "  the worst 1 % ended, s into the run",
            lambda t, i=i: "{worst_from_s:.0f}-{worst_to_s:.0f} of {run_s:.0f} s".format(
                **t["latency"][i][1]
            ),
        )
        row(
            "  bare agent inside: median / p99",
            lambda t, i=i: "{median_ms:.0f} / {p99_ms:.0f} ms".format(**t["latency"][i][2]),
        )
    row(
        "changelog bytes per game result",
        lambda t: f"{t['changelog_per_game']:.0f} ({t['changelog_records']} records)",
    )
    row("restart: SIGKILL -> Ready", lambda t: f"{t['restart']['ready_s']:.1f} s")
    row(
        "  partitions taken over; all replayed",
        lambda t: f"{t['restart']['taken_s']:.1f} s; {t['restart']['all_replayed_s']:.1f} s",
    )
    print()
    print(
        f"{args.tournaments} round robins of {args.players} players in flight "
        f"({args.schedule}), 4 partitions; core alone (apply(), no Kafka) {core:.0f} messages/s"
    )
    table(rows, kinds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--broker", help="a running broker (with --kind) instead of --kinds")
    parser.add_argument("--kind", choices=KINDS, help="the kind of --broker")
    parser.add_argument("--kinds", choices=KINDS, nargs="+", default=list(KINDS))
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--rate", type=float, help="messages/s of a single latency phase")
    parser.add_argument(
        "--rates",
        type=float,
        nargs="+",
        default=[100.0, 500.0, 1000.0],
        help="messages/s in the latency phase",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="tracker worker processes in the latency phase"
    )
    parser.add_argument(
        "--latency-only", action="store_true", help="only the latency phase, at --rates"
    )
    parser.add_argument(
        "--schedule",
        choices=["staggered", "lockstep"],
        default="staggered",
        help="order of the messages in the latency phase (see schedule())",
    )
    parser.add_argument("--passthrough-worker", action="store_true", help=argparse.SUPPRESS)
    add_arguments(parser)
    if sys.argv[1:2] in (["--ceiling-worker"], ["--summaries-worker"]):
        return reduced_worker(sys.argv[2:], summaries=sys.argv[1] == "--summaries-worker")
    args = parser.parse_args()
    if args.passthrough_worker:
        return passthrough_worker()

    tmp = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-streams-{os.getpid()}"
    tmp.mkdir(parents=True, exist_ok=True)
    events = interleave(
        [round_robin(f"b{i}", args.players, seed=i) for i in range(args.tournaments)]
    )
    rounds = args.players - 1
    games = sum(isinstance(e, ev.GameResult) for e in events)
    print(
        f"input: {args.tournaments} round robins of {args.players} players, "
        f"{len(events)} messages ({games} game results), 4 partitions; logs in {tmp}",
        flush=True,
    )
    core = core_only(events)
    results: dict[str, dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        # every broker up at once, and each phase run on one after the other, so that the
        # load of other jobs on a shared machine falls alike on both columns
        if args.broker:
            brokers = {args.kind or "given": args.broker}
        else:
            brokers = {
                k: stack.enter_context(running(k, tmp / f"{k}-broker")).url for k in args.kinds
            }
        for kind, broker in brokers.items():
            KIND_OF[broker] = kind
            (tmp / kind).mkdir(exist_ok=True)
            print(f"{label(kind)} at {broker}", flush=True)
            results[kind] = {"latency": []}
        if not args.latency_only:
            for worker_kind in WORKER_KINDS:
                for kind, broker in brokers.items():
                    results[kind].update(
                        throughput(worker_kind, broker, events, rounds, tmp / kind)
                    )
        for rate in [args.rate] if args.rate else args.rates:
            for kind, broker in brokers.items():
                lat = latency(broker, events, rate, tmp / kind, args.schedule, args.workers)
                bare = passthrough_latency(broker, rate, tmp / kind)
                results[kind]["latency"].append((rate, lat, bare))
                print(f"  {kind} latency at {rate:.0f}/s: {lat}; pass-through: {bare}", flush=True)
    figures: Figures = {"core alone msg/s": core}
    us = 1e6
    for kind, t in results.items():
        if not args.latency_only:
            figures[f"{kind}: tracker msg/s"] = t["tracker_rate"]
            figures[f"{kind}: tracker CPU per message us"] = us * t["tracker_cpu"]
            figures[f"{kind}: pass-through CPU per message us"] = us * t["pass_cpu"]
        for rate, lat, bare in t["latency"]:
            figures[f"{kind}: at {rate:.0f} msg/s: p50 ms"] = lat["median_ms"]
            figures[f"{kind}: at {rate:.0f} msg/s: p99 ms"] = lat["p99_ms"]
            figures[f"{kind}: at {rate:.0f} msg/s: middle p99 ms"] = lat["middle_p99_ms"]
            figures[f"{kind}: at {rate:.0f} msg/s: pass-through p99 ms"] = bare["p99_ms"]
    if not args.latency_only:
        report_all(results, core, args)
    return finish(args, figures)


if __name__ == "__main__":
    raise SystemExit(main())
