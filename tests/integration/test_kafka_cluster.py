"""Three Apache Kafka brokers on loopback (each also a KRaft controller), every topic
replicated 3 times with ``min.insync.replicas`` 2, the worker writing with ``acks=all``:
the broker leading every partition of the input topic and of the facts' changelog is
SIGKILLed while tournaments are being played, rounds go on without it, then it comes back.
What ``tracker alerts`` prints equals what ``tracker replay`` prints for the same input:
no alert lost, none wrong, none repeated.

Apache Kafka only (Tansu has one node); it starts a cluster of its own (Java and Maven, no
``TRACKER_TEST_BROKER`` needed). It takes over a minute on the shared 2-core machine (three
brokers start), so it runs when ``TRACKER_CLUSTER_TEST=1``: ``scripts/cluster-test.sh`` sets
it and runs the test three times in a row.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest
from aiokafka.admin import AIOKafkaAdminClient, NewTopic

from streams import kafka_server
from streams.kafka import started
from streams.settings import Settings
from streams.synthetic import interleave, round_robin
from streams.topics import changelog_topic, creation_configs
from tests.support.pipeline import (
    BROKER_KIND,
    Pipeline,
    by_id,
    replay_jsonl,
    report,
    rounds_finished,
    up_to_round,
    write_jsonl,
)

VICTIM = 2
"""The node made leader of every input and changelog partition, then killed."""

pytestmark = [
    pytest.mark.own_broker,
    pytest.mark.skipif(
        BROKER_KIND != "kafka",
        reason="the cluster test runs Apache Kafka (TRACKER_TEST_BROKER_KIND=kafka)",
    ),
    pytest.mark.skipif(
        os.environ.get("TRACKER_CLUSTER_TEST") != "1",
        reason="three brokers, over a minute: scripts/cluster-test.sh runs it",
    ),
]


async def topics_led_by(settings: Settings, leader: int, others: list[int]) -> None:
    """The input topic and the changelog, created with ``leader`` first in every replica
    list (so it leads them all) and the configuration the worker creates them with."""
    admin = AIOKafkaAdminClient(**settings.client_kwargs())
    assignment = {p: [leader, *others] for p in range(settings.partitions)}
    async with started(admin, settings):
        await admin.create_topics(
            [
                NewTopic(
                    name,
                    num_partitions=-1,
                    replication_factor=-1,
                    replica_assignments=assignment,
                    topic_configs=creation_configs(settings, role),
                )
                for name, role in (
                    (settings.topic("input"), "input"),
                    (changelog_topic(settings), "changelog"),
                )
            ]
        )


async def leaders(settings: Settings) -> dict[str, set[int]]:
    admin = AIOKafkaAdminClient(**settings.client_kwargs())
    async with started(admin, settings):
        names = [settings.topic("input"), changelog_topic(settings)]
        return {
            t["topic"]: {p["leader"] for p in t["partitions"]}
            for t in await admin.describe_topics(names)
        }


def test_the_leader_killed_and_restarted_mid_tournament(tmp_path: Path) -> None:
    started_at = time.monotonic()
    cluster = kafka_server.start(tmp_path / "cluster", nodes=3)
    booted = time.monotonic() - started_at
    pipeline = Pipeline(tmp_path, "cluster", broker=cluster.url, kind="kafka")
    pipeline.settings = pipeline.settings.model_copy(update={"replication_factor": 3})
    s = pipeline.settings
    try:
        others = [n for n in cluster.nodes if n != VICTIM]
        asyncio.run(topics_led_by(s, VICTIM, others))
        assert asyncio.run(leaders(s)) == {
            s.topic("input"): {VICTIM},
            changelog_topic(s): {VICTIM},
        }
        events = interleave([round_robin(f"c{i}", 8, seed=i) for i in range(4)])
        tournaments = {e.tournament_id for e in events}
        want = sorted(replay_jsonl(write_jsonl(tmp_path / "cluster.jsonl", events)))

        pipeline.wait_ready(pipeline.start_worker("w1"))
        pipeline.publish(up_to_round(events, 0, 2))
        pipeline.wait_alerts(lambda seen: rounds_finished(seen, tournaments, 2), "round 2")

        # the leader dies while round 3 is being handled
        pipeline.publish(up_to_round(events, 3, 3))
        cluster.kill(VICTIM)
        killed = time.monotonic()
        pipeline.publish(up_to_round(events, 4, 5))
        pipeline.wait_alerts(lambda seen: rounds_finished(seen, tournaments, 5), "round 5")
        without_leader = time.monotonic() - killed
        moved = asyncio.run(leaders(s))
        assert VICTIM not in set().union(*moved.values()), moved

        cluster.start(VICTIM)  # back on its own log folder, as a follower that catches up
        pipeline.publish(up_to_round(events, 6, 7))
        pipeline.wait_alerts(lambda seen: rounds_finished(seen, tournaments, 7), "round 7")

        printed = pipeline.cli("alerts", "--format", "jsonl", "--timeout", "30").stdout
        got = sorted(line for line in printed.splitlines() if line.strip())
        assert got == want, f"{len(set(want) - set(got))} lost, {len(set(got) - set(want))} wrong"
        raw = pipeline.read_alerts()
        by_id(raw)  # the same id always carries the same alert
        repeats = len(raw) - len(got)
        report(
            "3 brokers, leader SIGKILLed and restarted",
            cluster_start_s=booted,
            rounds_without_leader_s=without_leader,
            alerts=len(got),
            repeated_on_the_topics=repeats,
            total_s=time.monotonic() - started_at,
        )
        assert all(json.loads(line)["tournament_id"] in tournaments for line in got)
        assert pipeline.workers[0].proc.poll() is None, "the worker should ride it out"
    finally:
        pipeline.stop()
        cluster.stop()
