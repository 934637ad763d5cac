"""The throwaway brokers (:mod:`streams.broker`, :mod:`streams.kafka_server`), without
starting one: a Kafka node's settings, and a machine that cannot run Kafka told so, never
handed another broker."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from streams import broker, kafka_server


def properties(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines())


def test_three_nodes_replicate_three_times_with_two_in_sync(tmp_path: Path) -> None:
    nodes = {1: (9001, 9101), 2: (9002, 9102), 3: (9003, 9103)}
    props = properties(kafka_server.node_properties(2, nodes, tmp_path))
    assert props["node.id"] == "2"
    assert props["controller.quorum.voters"] == (
        "1@127.0.0.1:9101,2@127.0.0.1:9102,3@127.0.0.1:9103"
    )
    assert props["listeners"] == "PLAINTEXT://127.0.0.1:9002,CONTROLLER://127.0.0.1:9102"
    assert props["default.replication.factor"] == "3"
    assert props["min.insync.replicas"] == "2"
    assert props["offsets.topic.replication.factor"] == "3"
    assert props["auto.create.topics.enable"] == "false"  # as deploy/


def test_one_node_asks_no_replication(tmp_path: Path) -> None:
    props = properties(kafka_server.node_properties(1, {1: (9001, 9101)}, tmp_path))
    assert props["default.replication.factor"] == "1"
    assert props["min.insync.replicas"] == "1"
    assert props["transaction.state.log.min.isr"] == "1"
    # the tests' 3 s group sessions are allowed (a stock broker refuses less than 6 s)
    assert int(props["group.min.session.timeout.ms"]) <= 3000


def test_no_java_is_an_error_that_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kafka_server.shutil, "which", lambda tool: None)
    with pytest.raises(kafka_server.KafkaUnavailable, match="needs Java 17"):
        kafka_server.libs()


def test_the_broker_command_fails_instead_of_falling_back(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(kafka_server.shutil, "which", lambda tool: None)
    with pytest.raises(SystemExit) as stopped:
        broker.main(["--kind", "kafka", "--dir", str(tmp_path)])
    assert stopped.value.code == 1
    err = capsys.readouterr()
    assert "needs Java 17" in err.err
    assert "--kind tansu" in err.err
    assert "TRACKER_TEST_BROKER" not in err.out


def test_workers_on_tansu_get_what_tansu_needs() -> None:
    assert broker.worker_env("kafka") == broker.QUICK_GROUP
    tansu = broker.worker_env("tansu")
    assert tansu["TRACKER_FETCH_MAX_WAIT_MS"] == "20"
    assert tansu["TRACKER_SESSION_TIMEOUT"] == "3"
    assert broker.label("kafka") == f"Apache Kafka {kafka_server.KAFKA_VERSION} (KRaft)"


def test_a_cluster_id_never_starts_with_a_dash() -> None:
    """Kafka's storage tool reads an id starting with ``-`` as an option and refuses to
    format (a CI run failed so): such a draw is made again, as ``kafka-storage random-uuid``
    does; other ids are the UUID in URL-safe base64 without padding."""
    draws = iter([uuid.UUID(bytes=b"\xf8" + bytes(15)), uuid.UUID(int=1)])
    assert kafka_server.new_cluster_id(lambda: next(draws)) == "AAAAAAAAAAAAAAAAAAAAAQ"
    ids = [kafka_server.new_cluster_id() for _ in range(2000)]  # ~31 dashes drawn first
    assert all(len(i) == 22 and not i.startswith("-") for i in ids)
    assert len(set(ids)) == len(ids)
