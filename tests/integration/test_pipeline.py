"""The worker process on the real broker: the alerts subscribers see (after dropping
repeated alert ids) are exactly those ``tracker replay --format jsonl`` prints for the same
input, whatever happens on the way."""

from __future__ import annotations

import json
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from streams.synthetic import interleave, round_robin
from tests.support.pipeline import (
    ROOT,
    Pipeline,
    assert_exactly,
    by_id,
    replay_jsonl,
    report,
    revoking_correction,
    rounds_finished,
    up_to_round,
    write_jsonl,
)
from tracker import contract as ev

SEEDS = sorted(
    p for p in (ROOT / "seeds").glob("*") if p.suffix in (".jsonl", ".trf") and p.is_file()
)


def many(count: int, tmp: Path, players: int = 10) -> tuple[list[ev.InputEvent], Path]:
    events = interleave([round_robin(f"rr{i}", players, seed=i) for i in range(count)])
    return events, write_jsonl(tmp / "tournaments.jsonl", events)


class SeedWorkers:
    """Running workers the seed tests share (a worker's start is most of such a test's
    time): each seed goes to one that has not seen its tournament id (two seeds, the .trf
    and the .jsonl of one round robin, share theirs)."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.seen: list[tuple[Pipeline, set[str]]] = []

    def for_tournament(self, tid: str) -> Pipeline:
        for pipeline, tournaments in self.seen:
            if tid not in tournaments:
                tournaments.add(tid)
                return pipeline
        n = len(self.seen)
        pipeline = Pipeline(self.tmp / f"p{n}", f"seeds-{n}")
        (self.tmp / f"p{n}").mkdir()
        worker = pipeline.start_worker("w1")
        report("first start", ready_s=pipeline.wait_ready(worker))
        self.seen.append((pipeline, {tid}))
        return pipeline

    def stop(self) -> None:
        for pipeline, _ in self.seen:
            pipeline.stop()


@pytest.fixture(scope="module")
def seed_workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SeedWorkers]:
    workers = SeedWorkers(tmp_path_factory.mktemp("seeds"))
    try:
        yield workers
    finally:
        workers.stop()


@pytest.mark.parametrize("seed", SEEDS or [None], ids=lambda p: p.name if p else "synthetic")
def test_seed_tournament_gives_the_alerts_of_replay(
    seed_workers: SeedWorkers, tmp_path: Path, seed: Path | None
) -> None:
    path = seed or many(1, tmp_path)[1]
    want = by_id(replay_jsonl(path))
    assert want, "the seed yields no alerts"
    (tid,) = {json.loads(a)["tournament_id"] for a in want.values()}
    pipeline = seed_workers.for_tournament(tid)
    pipeline.cli("publish", str(path))
    assert_exactly(pipeline, want, tid)
    # the CLI subscriber prints the same lines as replay, each alert once (and the title
    # applications, which replay does not give: tests/integration/test_titles_worker.py)
    out = pipeline.cli("alerts", "--format", "jsonl", "--timeout", "60", "--tournament", tid)
    lines = [a for a in out.stdout.splitlines() if '"type":"title_application_' not in a]
    assert sorted(lines) == sorted(want.values())
    # and for people, round by round in round order, though read from several topics
    text = pipeline.cli("alerts", "--timeout", "60", "--tournament", tid).stdout
    assert_round_blocks(text)


def assert_round_blocks(text: str) -> None:
    """Every alert line (``round N: …``) stands in the block of round N's summary, and the
    blocks come in round order (issue 20: a round-3 line was printed in round 1's block)."""
    block = 0
    rounds = []
    for line in text.splitlines():
        if (head := re.search(r": round (\d+) finished", line)) is not None:
            block = int(head.group(1))
            rounds.append(block)
        elif (told := re.search(r"\bround (\d+): ", line)) is not None:
            assert int(told.group(1)) == block, (line, block)
    assert rounds
    assert rounds == sorted(rounds)


def test_every_event_sent_twice(pipeline: Pipeline, tmp_path: Path) -> None:
    events, _ = many(3, tmp_path)
    correction = revoking_correction(events)
    path = write_jsonl(tmp_path / "with-correction.jsonl", [*events, correction])
    want = by_id(replay_jsonl(path))
    assert any('"norm_revoked"' in line for line in want.values())
    pipeline.start_worker("w1")
    pipeline.publish([*events, correction], repeat=2)
    # and the whole stream once more, as a producer retrying from the start would
    pipeline.publish([*events, correction])
    assert_exactly(pipeline, want)
    raw = pipeline.read_alerts()
    assert len(raw) == len(want), "a repeated fact was alerted again"


@pytest.mark.parametrize("pipeline", ["memory://", "rocksdb://"], indirect=True)
def test_worker_killed_mid_tournament_and_restarted(pipeline: Pipeline, tmp_path: Path) -> None:
    """With ``rocksdb://`` on Apache Kafka the worker runs as ``deploy/`` runs it, under
    ``exactly_once`` (Tansu refuses transactions: ``at_least_once`` there)."""
    if pipeline.settings.store == "rocksdb://" and pipeline.kind == "kafka":
        pipeline.settings = pipeline.settings.model_copy(
            update={"processing_guarantee": "exactly_once"}
        )
    events, path = many(8, tmp_path)
    tournaments = {e.tournament_id for e in events}
    want = by_id(replay_jsonl(path))
    first = pipeline.start_worker("w1")
    pipeline.publish(up_to_round(events, 0, 3))
    pipeline.wait_alerts(lambda s: rounds_finished(s, tournaments, 3), "round 3 everywhere")

    # kill it while it is working through rounds 4-6
    pipeline.publish(up_to_round(events, 4, 6))
    pipeline.wait_alerts(
        lambda s: rounds_finished(s, {"rr0"}, 4) or rounds_finished(s, tournaments, 4),
        "a round-4 alert",
    )
    first.kill(signal.SIGKILL)
    pipeline.publish(up_to_round(events, 7, 7))  # arrives while no worker runs

    second = pipeline.start_worker("w2")
    pipeline.wait_alerts(lambda s: rounds_finished(s, tournaments, 7), "round 7 everywhere")
    mode = f"{pipeline.settings.store}, {pipeline.settings.processing_guarantee}"
    report(
        f"restart after SIGKILL ({mode})",
        ready_s=pipeline.wait_ready(second),
        processing_s=second.seconds_to("rebuilt up to offset"),
    )

    # once more, killed right after the last rounds went in
    pipeline.publish(up_to_round(events, 8, 9))
    pipeline.wait_alerts(lambda s: rounds_finished(s, {"rr0", "rr1", "rr2"}, 8), "round 8")
    second.kill(signal.SIGKILL)
    third = pipeline.start_worker("w3")
    assert_exactly(pipeline, want)
    report(
        f"second restart after SIGKILL ({mode})",
        ready_s=pipeline.wait_ready(third),
    )
    # Whether a restarted worker found no committed offset and re-handled a partition from
    # offset 0 (a rebuild up to offset 0; no rebuild at all: it had nothing to redo). Twice
    # in 24 restarts on Tansu a worker found none: slower, and every alert sent again under
    # its id, but still exactly the alerts above.
    report(
        f"restarts re-reading a partition from offset 0 ({mode})",
        second=float(any(o == 0 for _, o, _ in second.rebuilds())),
        third=float(any(o == 0 for _, o, _ in third.rebuilds())),
    )


def test_two_workers_share_tournaments(pipeline: Pipeline, tmp_path: Path) -> None:
    events, path = many(12, tmp_path)
    tournaments = {e.tournament_id for e in events}
    want = by_id(replay_jsonl(path))
    a = pipeline.start_worker("a")
    b = pipeline.start_worker("b")
    pipeline.wait_ready(a)
    pipeline.wait_ready(b)
    pipeline.publish(up_to_round(events, 0, 4))
    pipeline.wait_alerts(lambda s: rounds_finished(s, tournaments, 4), "round 4 everywhere")

    a.kill(signal.SIGKILL)  # b takes a's partitions over
    killed = time.time()
    pipeline.publish(up_to_round(events, 5, 6))
    pipeline.wait_alerts(lambda s: rounds_finished(s, tournaments, 6), "round 6 everywhere")
    report(
        "failover after SIGKILL of the other worker",
        reassigned_s=b.seconds_to("Executing _on_partitions_assigned", since=killed),
        processing_s=b.seconds_to("rebuilt up to offset", since=killed),
    )

    a2 = pipeline.start_worker("a2")  # and a fresh worker takes some back
    ready = pipeline.wait_ready(a2)
    pipeline.publish(up_to_round(events, 7, 9))
    assert_exactly(pipeline, want)
    report("rebalance onto a new worker", ready_s=ready)
    partitions_a = {p for p, _, _ in a.rebuilds()}
    partitions_b = {p for p, _, _ in b.rebuilds()}
    assert partitions_a, "worker a should have owned partitions"
    assert partitions_b, "worker b should have owned partitions"
    assert a2.rebuilds(), a2.text()[-3000:]


def test_bad_events_go_to_the_dead_letter_topic(pipeline: Pipeline, tmp_path: Path) -> None:
    good = round_robin("dl", 6, seed=4)
    want = by_id(replay_jsonl(write_jsonl(tmp_path / "good.jsonl", good)))
    head, tail = good[:12], good[12:]
    bad: list[tuple[bytes | None, bytes]] = [
        (b"dl", b"{this is not json"),
        (b"dl", b'{"type": "resignation", "tournament_id": "dl"}'),
        (b"ghost", b'{"type": "round_closed", "tournament_id": "ghost", "round": 1}'),
        (b"dl", b'{"type": "pairing", "tournament_id": "dl", "round": 2, "white": 1, "black": 42}'),
        (
            b"dl",
            b'{"type": "game_result", "tournament_id": "dl", "round": 1, "white": 1, '
            b'"black": 6, "result": "3-0"}',
        ),
        (b"dl", b'{"type": "pairing", "tournament_id": "dl", "round": 2, "white": 4, "black": 4}'),
    ]
    first_result = next(e for e in good if isinstance(e, ev.GameResult))
    conflicting = first_result.model_copy(
        update={"result": "0-1" if first_result.result != "0-1" else "1-0"}
    )
    pipeline.start_worker("w1")
    pipeline.publish([*head, *bad, *tail])
    pipeline.publish([(b"dl", conflicting.model_dump_json().encode())])
    assert_exactly(pipeline, want)

    pipeline.until(lambda: len(pipeline.read_dead_letters()) >= 7, "7 dead letters")
    letters = pipeline.read_dead_letters()
    reasons = {(d.raw, d.field): d.reason for d in letters}
    assert len(letters) == 7
    expected = [
        (bad[0][1], None, "malformed JSON"),
        (bad[1][1], "type", "type"),
        (bad[2][1], "tournament_id", "unknown tournament 'ghost'"),
        (bad[3][1], "black", "unknown player with start rank 42"),
        (bad[4][1], "result", "impossible result"),
        (bad[5][1], "black", "against themself"),
        (conflicting.model_dump_json().encode(), "result", "already has the result"),
    ]
    for raw, field, reason in expected:
        key = (raw.decode(), field)
        assert key in reasons, f"no dead letter for {raw!r} on {field}: {reasons}"
        assert reason in reasons[key]
    for letter in letters:
        assert letter.topic == pipeline.settings.topic("input")
        assert letter.partition in range(pipeline.settings.partitions)
        assert letter.offset >= 0
        json.dumps(letter.model_dump())  # plain JSON
