"""The worker process on the real broker when things go wrong: poison messages, a partition
count other than the default, messages Faust leaves undelivered, a broker that loses its
topics, and tournaments that finish and come back with a late correction."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import time
from datetime import date
from pathlib import Path

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
from aiokafka.structs import OffsetAndMetadata

from streams.kafka import ensure_topics, started
from streams.records import RAW_PREFIX_BYTES
from streams.settings import Settings
from streams.synthetic import interleave, round_robin
from streams.topics import roles
from tests.support.pipeline import (
    Pipeline,
    assert_exactly,
    by_id,
    replay_jsonl,
    revoking_correction,
    rounds_finished,
    up_to_round,
    write_jsonl,
)
from tracker import contract as ev


def poison() -> list[tuple[bytes | None, bytes]]:
    """Messages that used to stop the worker for every tournament of their partition."""
    control = bytes(range(32)) * 10_000  # 320 kB of control bytes
    deep = b"[" * 30_000 + b"]" * 30_000  # under the size limit: the parser refuses it
    name = json.dumps(
        {
            "type": "player_registered",
            "tournament_id": "good",
            "rank": 7,
            "name": "N" * 1_000_000,
            "federation": "GER",
        }
    ).encode()
    return [(b"good", control), (b"good", deep), (b"good", name), (b"k" * 50_000, b"{")]


def big_open(tid: str, players: int) -> list[ev.InputEvent]:
    """One round of an open whose ``round_finished`` outgrows a 64 kB record."""
    out: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid, start_date=date(2025, 1, 1), planned_rounds=9, host_federation="GER"
        )
    ]
    for rank in range(1, players + 1):
        name = f"{rank:05d} " + "Longname" * 12
        out.append(
            ev.PlayerRegistered(
                tournament_id=tid, rank=rank, name=name[:100], federation="GER", rating=2000
            )
        )
    half = players // 2
    for board in range(1, half + 1):
        out.append(ev.Pairing(tournament_id=tid, round=1, white=board, black=board + half))
    for board in range(1, half + 1):
        out.append(
            ev.GameResult(tournament_id=tid, round=1, white=board, black=board + half, result="1-0")
        )
    return out


def of(seen: dict[str, str], tid: str) -> dict[str, str]:
    return {k: v for k, v in seen.items() if json.loads(v)["tournament_id"] == tid}


def test_poison_messages_then_a_valid_tournament_gets_all_its_alerts(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    good = round_robin("good", 6, seed=3)
    want = by_id(replay_jsonl(write_jsonl(tmp_path / "good.jsonl", good)))
    small = {"TRACKER_MAX_MESSAGE_BYTES": "65536"}
    first = pipeline.start_worker("w1", env=small)
    head = up_to_round(good, 0, 1)
    # the open's round_finished would not fit a record of 64 kB: its last result is refused
    pipeline.publish([*head[:7], *poison(), *big_open("open", 500), *head[7:]])
    pipeline.until(lambda: len(pipeline.read_dead_letters()) >= 5, "5 dead letters")
    first.kill(signal.SIGKILL)  # the next worker re-reads the poison from the input
    second = pipeline.start_worker("w2", env=small)
    pipeline.publish([e for e in good if e not in head])
    pipeline.wait_alerts(lambda seen: set(want) <= set(seen), "the good tournament's alerts")
    time.sleep(2.0)
    seen = by_id(pipeline.read_alerts())
    assert of(seen, "good") == want
    assert not [v for v in of(seen, "open").values() if '"round_finished"' in v]
    letters = {(d.partition, d.offset): d for d in pipeline.read_dead_letters()}
    assert len(letters) == 5
    for letter in letters.values():
        assert len(letter.encode()) < 6 * RAW_PREFIX_BYTES + 3000
    reasons = [d.reason for d in letters.values()]
    assert sum("bytes: input events are at most 65536" in r for r in reasons) == 2
    assert sum("round_finished alert would be" in r for r in reasons) == 1
    assert second.proc.poll() is None


def test_a_partition_count_other_than_four(pipeline: Pipeline, tmp_path: Path) -> None:
    pipeline.settings = pipeline.settings.model_copy(update={"partitions": 6})
    events = interleave([round_robin(f"p{i}", 6, seed=i) for i in range(6)])
    want = by_id(replay_jsonl(write_jsonl(tmp_path / "six.jsonl", events)))
    worker = pipeline.start_worker("w6")  # before the input topic exists
    pipeline.wait_ready(worker)
    pipeline.publish(events)
    assert_exactly(pipeline, want)

    # an input topic that exists with another count: the worker says so and exits with 2
    odd = Pipeline(tmp_path / "odd", "odd", partitions=4)
    asyncio.run(ensure_topics(odd.settings, [odd.settings.topic("input")]))
    odd.settings = odd.settings.model_copy(update={"partitions": 6})
    (tmp_path / "odd").mkdir()
    refused = odd.start_worker("w-odd")
    refused.exits_with = 2
    pipeline.workers.append(refused)  # stopped with the others if it does not exit
    assert refused.proc.wait(60) == 2
    assert "has 4 partitions, but TRACKER_PARTITIONS is 6" in refused.text()


class AsFaust(RoundRobinPartitionAssignor):  # type: ignore[misc]
    """Round robin under the protocol name of Faust's assignor (the group keeps it)."""

    name = "faust"


def commit_to_end(pipeline: Pipeline) -> None:
    """Commit the worker group's input offsets at the end of each partition, as Faust does
    when it skips messages after an assignment and commits past them (joining the group
    once the killed worker's session has expired: the broker takes commits from members)."""
    s = pipeline.settings

    async def run() -> None:
        reader = AIOKafkaConsumer(
            s.topic("input"),
            group_id=s.app_id,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            session_timeout_ms=3000,
            heartbeat_interval_ms=1000,
            partition_assignment_strategy=(AsFaust,),
            **s.client_kwargs(),
        )
        async with started(reader, s):
            deadline = time.monotonic() + 60
            ends: dict[TopicPartition, int] = {}
            while len(ends) < s.partitions:
                assert time.monotonic() < deadline, "no assignment and highwaters"
                await reader.getmany(timeout_ms=500)
                ends = {
                    tp: end
                    for tp in reader.assignment()
                    if (end := reader.highwater(tp)) is not None
                }
            await reader.commit({tp: OffsetAndMetadata(end, "") for tp, end in ends.items()})

    asyncio.run(run())


def test_messages_left_undelivered_after_a_restart_are_handled(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    events = interleave([round_robin(f"late{i}", 6, seed=i) for i in range(4)])
    tournaments = {e.tournament_id for e in events}
    want = by_id(replay_jsonl(write_jsonl(tmp_path / "late.jsonl", events)))
    first = pipeline.start_worker("w1")
    pipeline.publish(up_to_round(events, 0, 2))
    pipeline.wait_alerts(lambda s: rounds_finished(s, tournaments, 2), "round 2 everywhere")
    first.kill(signal.SIGKILL)
    pipeline.publish(up_to_round(events, 3, 3))  # while no worker runs
    commit_to_end(pipeline)  # ... and Faust will never deliver them
    # the watchdog reads them itself after 1 s without a delivery (5 s deployed), looking
    # every 0.5 s (2 s deployed): what it does is the same, sooner
    second = pipeline.start_worker(
        "w2", env={"TRACKER_CATCH_UP_AFTER": "1", "TRACKER_WATCH_EVERY": "0.5"}
    )
    pipeline.wait_alerts(lambda s: rounds_finished(s, tournaments, 3), "round 3, no new message")
    # the watchdog says so once it has handled them, after their alerts went out
    pipeline.until(lambda: "had not been handled" in second.text(), "the watchdog's warning")

    # and input published while a fresh worker starts, with nothing after it
    second.kill(signal.SIGKILL)
    third = pipeline.start_worker("w3")
    pipeline.publish(up_to_round(events, 4, 5))
    assert_exactly(pipeline, want)
    assert third.proc.poll() is None


async def delete_topics(settings: Settings) -> None:
    """Delete every topic of the pipeline, and return once the broker lists none of them."""
    names = list(roles(settings))
    admin = AIOKafkaAdminClient(**settings.client_kwargs())
    async with started(admin, settings):
        await admin.delete_topics(names)
        deadline = time.monotonic() + 60
        while set(names) & set(await admin.list_topics()):
            assert time.monotonic() < deadline, "the topics were not deleted"
            await asyncio.sleep(0.2)


def test_a_broker_that_lost_its_topics(pipeline: Pipeline, tmp_path: Path) -> None:
    """Every topic gone under a running worker (deleted, or a broker back without its data:
    Tansu keeps everything in memory): the worker says so and exits with 75; the next one
    creates them again and works."""
    events = round_robin("before", 6, seed=1)
    first = pipeline.start_worker("w1", env={"TRACKER_BROKER_WAIT": "20"})
    pipeline.publish(events)
    pipeline.wait_alerts(lambda s: rounds_finished(s, {"before"}, 5), "the first tournament")
    first.exits_with = 75
    asyncio.run(delete_topics(pipeline.settings))
    assert first.proc.wait(90) == 75
    assert "lost" in first.text()
    after = round_robin("after", 6, seed=2)
    want = by_id(replay_jsonl(write_jsonl(tmp_path / "after.jsonl", after)))
    pipeline.start_worker("w2")
    pipeline.publish(after)
    assert_exactly(pipeline, want)


def retired(text: str) -> int:
    return sum(int(n) for n in re.findall(r"(\d+) tournaments retired", text))


def test_a_retired_tournament_takes_a_late_correction(pipeline: Pipeline, tmp_path: Path) -> None:
    events = interleave([round_robin(f"fin{i}", 10, seed=i) for i in range(3)])
    tournaments = {e.tournament_id for e in events}
    fix = revoking_correction(events)
    want = by_id(replay_jsonl(write_jsonl(tmp_path / "fin.jsonl", [*events, fix])))
    quick = {"TRACKER_FINISHED_GRACE": "1", "TRACKER_RETIRE_EVERY": "1"}
    first = pipeline.start_worker("w1", env=quick)
    pipeline.publish(events)
    pipeline.wait_alerts(lambda s: rounds_finished(s, tournaments, 9), "every last round")
    pipeline.until(lambda: retired(first.text()) >= 3, "retirement")
    pipeline.publish([fix])
    pipeline.wait_alerts(lambda s: set(want) <= set(s), "the correction's alerts")
    assert "rebuilt from" in first.text()
    first.kill(signal.SIGKILL)

    # a fresh worker over retired tournaments: the same correction again changes nothing
    second = pipeline.start_worker("w2", env=quick)
    pipeline.publish([fix])
    assert_exactly(pipeline, want)
    pipeline.until(lambda: "retired history read back" in second.text(), "the read-back")
