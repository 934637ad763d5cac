"""A real worker process on the test broker, for the integration and browser tests.

The broker comes from ``TRACKER_TEST_BROKER`` (``.ci/run`` starts one and sets it); without
it every test that needs it is skipped (``tests/conftest.py``). Each test gets its own app id
and topic prefix, so tests never share a consumer group, a changelog or a topic.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

import pytest

from streams.broker import worker_env
from streams.publish import publish
from streams.records import DeadLetter, encode_input
from streams.settings import Settings
from streams.subscriber import dead_letters, read_topics
from tests.support.paths import ROOT
from tracker import contract as ev
from tracker.host.replay import Replay, Sourced

BROKER = os.environ.get("TRACKER_TEST_BROKER")
BROKER_KIND = os.environ.get("TRACKER_TEST_BROKER_KIND")
"""``kafka`` or ``tansu`` (``python -m streams.broker`` prints both variables)."""
WAIT = 90.0
"""Seconds any single wait may take before the test fails."""
APPLICATION = "title_application_"
"""The alert types of title applications (:meth:`Pipeline.read_alerts`)."""


def replay_jsonl(path: Path) -> list[str]:
    """What ``tracker replay FILE --format jsonl`` prints."""
    out = subprocess.run(
        [sys.executable, "-m", "cli", "replay", str(path), "--format", "jsonl"],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    return [line for line in out.stdout.splitlines() if line.strip()]


def by_id(lines: Sequence[str]) -> dict[str, str]:
    """Alert JSON by alert id; the same id must always carry the same alert."""
    out: dict[str, str] = {}
    for line in lines:
        alert_id = json.loads(line)["alert_id"]
        assert out.setdefault(alert_id, line) == line, f"two different alerts under {alert_id}"
    return out


def write_jsonl(path: Path, events: Sequence[ev.InputEvent]) -> Path:
    path.write_text("".join(encode_input(e).decode() + "\n" for e in events), encoding="utf-8")
    return path


class Worker:
    def __init__(self, name: str, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.name, self.proc, self.log = name, proc, log
        self.started, self.wall_start = time.monotonic(), time.time()
        self.exits_with: int | None = None
        """An exit code this test expects (the wait helpers do not fail on it)."""

    def seconds_to(self, needle: str, since: float | None = None) -> float:
        """Seconds from ``since`` (wall clock; default: the process start) to the first log
        line at or after it containing ``needle``, by the log's timestamps."""
        since = self.wall_start if since is None else since
        for line in self.text().splitlines():
            if needle not in line:
                continue
            stamp = re.match(r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})\]", line)
            if stamp:
                at = datetime.strptime(stamp.group(1), "%Y-%m-%d %H:%M:%S").timestamp()
                at += int(stamp.group(2)) / 1000
                if at >= since - 0.001:
                    return at - since
        return float("nan")

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def rebuilds(self) -> list[tuple[int, int, int]]:
        """(partition, offset, input messages re-read) of each rebuild logged."""
        pattern = r"partition (\d+) rebuilt up to offset (\d+) in [\d.]+ s \((\d+) input"
        return [(int(a), int(b), int(c)) for a, b, c in re.findall(pattern, self.text())]

    def handled(self) -> bool:
        """Whether it rebuilt a partition at a non-zero offset or handled messages."""
        return bool(self.rebuilds())

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class Pipeline:
    """Topics, workers and readers of one test."""

    def __init__(
        self,
        tmp: Path,
        label: str,
        store: str = "memory://",
        partitions: int = 4,
        broker: str | None = None,
        kind: str | None = None,
    ) -> None:
        tag = f"{label}-{uuid.uuid4().hex[:8]}"
        broker = broker or BROKER
        assert broker
        self.kind = kind or BROKER_KIND
        """The broker's kind: the worker gets the settings it needs there."""
        self.settings = Settings(
            broker=broker,
            app_id=f"it-{tag}",
            topic_prefix=f"it-{tag}-",
            partitions=partitions,
            data_dir=str(tmp / "data"),
            store=store,
            # the test's own readers poll to the end of the topics again and again: an
            # empty Fetch held 100 ms, not the default 500 (Kafka holds it that long)
            fetch_max_wait_ms=100,
        )
        self.tmp = tmp
        self.workers: list[Worker] = []

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        s = self.settings
        env.update(
            TRACKER_BROKER=s.broker,
            TRACKER_APP_ID=s.app_id,
            TRACKER_TOPIC_PREFIX=s.topic_prefix,
            TRACKER_PARTITIONS=str(s.partitions),
            TRACKER_REPLICATION_FACTOR=str(s.replication_factor),
            TRACKER_DATA_DIR=s.data_dir,
            TRACKER_STORE=s.store,
            TRACKER_PROCESSING_GUARANTEE=s.processing_guarantee,
            PYTHONUNBUFFERED="1",
        )
        env.update(worker_env(self.kind))
        return env

    def cli(
        self, *args: str, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """``python -m cli ARGS`` (the ``tracker`` command) against this pipeline's broker and
        topics; fails the test (with its stderr) unless it exits 0."""
        done = subprocess.run(
            [sys.executable, "-m", "cli", *args],
            check=False,
            env={**self.env(), **(env or {})},
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done

    def start_worker(self, name: str, *options: str, env: dict[str, str] | None = None) -> Worker:
        """``tracker worker`` with these options (and settings in ``env`` beside the
        pipeline's)."""
        log = self.tmp / f"{name}.log"
        proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "worker", "-l", "info", *options],
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            env={**self.env(), **(env or {})},
            cwd=self.tmp,
        )
        worker = Worker(name, proc, log)
        self.workers.append(worker)
        return worker

    def wait_ready(self, worker: Worker) -> float:
        """Seconds from the worker's start to Faust's ``Ready`` (by the log's clock)."""
        self.until(lambda: "[^Worker]: Ready" in worker.text(), f"{worker.name} ready")
        return worker.seconds_to("[^Worker]: Ready")

    def publish(
        self, events: Sequence[ev.InputEvent | tuple[bytes | None, bytes]], repeat: int = 1
    ) -> None:
        asyncio.run(publish(events, self.settings, repeat=repeat))

    def read_alerts(self, applications: bool = False) -> list[str]:
        """Every alert message on the output topics (repeats included), as JSON lines. The
        title applications rest on every tournament the worker has seen, so ``tracker
        replay`` does not give them: they are left out unless ``applications``."""

        async def read() -> list[str]:
            return [
                value.decode()
                async for _, value in read_topics(
                    self.settings, self.settings.output_topics.values(), timeout=30
                )
            ]

        found = asyncio.run(read())
        if applications:
            return found
        return [a for a in found if not json.loads(a)["type"].startswith(APPLICATION)]

    def read_dead_letters(self) -> list[DeadLetter]:
        async def read() -> list[DeadLetter]:
            return [d async for d in dead_letters(self.settings, timeout=30)]

        return asyncio.run(read())

    def wait_alerts(self, want: Callable[[dict[str, str]], bool], what: str) -> dict[str, str]:
        seen: dict[str, str] = {}

        def check() -> bool:
            seen.clear()
            seen.update(by_id(self.read_alerts()))
            return want(seen)

        self.until(check, what)
        return seen

    def until(self, condition: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            for w in self.workers:
                code = w.proc.poll()
                if code not in (None, -signal.SIGKILL, -signal.SIGTERM, 0, w.exits_with):
                    pytest.fail(f"worker {w.name} died ({code}):\n{w.text()[-4000:]}")
            if time.monotonic() > deadline:
                logs = "\n".join(f"--- {w.name}\n{w.text()[-3000:]}" for w in self.workers)
                pytest.fail(f"timed out after {timeout} s waiting for {what}\n{logs}")
            time.sleep(0.3)

    def stop(self) -> None:
        for w in self.workers:
            w.kill(signal.SIGKILL)


def rounds_finished(seen: dict[str, str], tournaments: set[str], number: int) -> bool:
    """Whether every tournament has announced round ``number``."""
    done = set()
    for line in seen.values():
        alert = json.loads(line)
        if alert["type"] == "round_finished" and alert["round"] >= number:
            done.add(alert["tournament_id"])
    return tournaments <= done


def report(name: str, **figures: float) -> None:
    """Print measured figures (shown with ``pytest -s``; also appended to
    ``$TRACKER_TIMINGS`` when set)."""
    line = f"[timing] {name}: " + ", ".join(f"{k}={v:.2f}" for k, v in figures.items())
    print(line)
    path = os.environ.get("TRACKER_TIMINGS")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


def up_to_round(events: list[ev.InputEvent], first: int, last: int) -> list[ev.InputEvent]:
    return [e for e in events if first <= getattr(e, "round", 0) <= last]


def assert_exactly(pipeline: Pipeline, want: dict[str, str], tournament: str | None = None) -> None:
    """Every expected alert arrives, and after a grace period nothing else has (about
    ``tournament`` only, when given: a worker shared by several tests)."""
    pipeline.wait_alerts(lambda seen: set(want) <= set(seen), f"{len(want)} alerts")
    time.sleep(2.0)
    seen = by_id(pipeline.read_alerts())
    if tournament is not None:
        seen = {i: a for i, a in seen.items() if json.loads(a)["tournament_id"] == tournament}
    missing = set(want) - set(seen)
    extra = set(seen) - set(want)
    assert (missing, extra) == (set(), set()), f"{len(missing)} missing, {len(extra)} unexpected"
    assert seen == want


def revoking_correction(events: list[ev.InputEvent]) -> ev.ResultCorrected:
    """A correction, turning one of a norm holder's games into a loss, that revokes a norm."""

    def norm_revoked(evs: list[ev.InputEvent]) -> bool:
        run = Replay()
        return any(a.type == "norm_revoked" for e in evs for a in run.feed(Sourced(e, "")))

    run = Replay()
    holders = [
        a for e in events for a in run.feed(Sourced(e, "")) if isinstance(a, ev.NormAchieved)
    ]
    for norm in holders:
        rank = norm.player.rank
        for g in events:
            if (
                isinstance(g, ev.GameResult)
                and g.tournament_id == norm.tournament_id
                and rank in (g.white, g.black)
            ):
                loss = "0-1" if g.white == rank else "1-0"
                fix = ev.ResultCorrected(**{**g.model_dump(exclude={"type"}), "result": loss})
                if g.result != loss and norm_revoked([*events, fix]):
                    return fix
    raise AssertionError("no correction revokes a norm")
