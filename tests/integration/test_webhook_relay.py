"""Webhook delivery that survives a crash and an outage (issue 22, point 4), on the real
broker: ``tracker alerts --follow --webhook A --webhook B`` is SIGKILLed while receiver B
fails every request; restarted, it resumes where its consumer groups committed. Every alert
reaches both receivers, none is posted again after a receiver answered 2xx for it, each
tournament's alerts arrive in their order, an alert B refuses goes to the webhook dead-letter
topic with the reason, and a last run posts nothing at all."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from aiokafka import AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient

from streams.kafka import ensure_topics
from streams.records import AUDIENCE_OF, WebhookDeadLetter
from streams.relay import Receiver as streams_receiver
from streams.relay_offsets import parse_done
from streams.subscriber import webhook_dead_letters
from tests.support.paths import ROOT
from tests.support.pipeline import Pipeline, replay_jsonl

SEEDS = [ROOT / "seeds" / "swiss-11r-secured-2013.trf", ROOT / "seeds" / "gm-roundrobin-2011.trf"]
SECRET = {"TRACKER_WEBHOOK_SECRET": "s3cret"}
QUICK = {
    **SECRET,
    "TRACKER_WEBHOOK_BACKOFF": "0.1",
    "TRACKER_WEBHOOK_MAX_BACKOFF": "0.5",
    "TRACKER_WEBHOOK_TIMEOUT": "5",
}


class Receiver:
    """Records every POST (alert id, status answered); answers 200 unless told to fail
    (500), and always 400 for the ids in ``refused``. With ``fail_after``, it starts failing
    by itself once it has answered that many 200s (the relay posts faster than a test can
    look); with ``stuck``, it fails those ids (500) until ``stuck`` is emptied."""

    def __init__(
        self,
        refused: frozenset[str] = frozenset(),
        fail_after: int | None = None,
        stuck: frozenset[str] = frozenset(),
    ) -> None:
        self.posts: list[tuple[str, int]] = []
        self.failing = False
        self.refused = refused
        self.fail_after = fail_after
        self.stuck = stuck
        self.lock = threading.Lock()
        receiver = self

        class Hook(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                alert_id = self.headers["X-Tracker-Alert-Id"]
                with receiver.lock:
                    ok = sum(status == 200 for _, status in receiver.posts)
                    if receiver.fail_after is not None and ok >= receiver.fail_after:
                        receiver.failing = True
                        receiver.fail_after = None
                    status = 500 if receiver.failing or alert_id in receiver.stuck else 200
                    if alert_id in receiver.refused:
                        status = 400
                    receiver.posts.append((alert_id, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def delivered(self) -> list[str]:
        with self.lock:
            return [i for i, status in self.posts if status == 200]

    def heal(self) -> None:
        with self.lock:
            self.failing = False
            self.stuck = frozenset()

    def failures(self) -> int:
        with self.lock:
            return sum(status == 500 for _, status in self.posts)

    def posted_after_2xx(self) -> list[str]:
        """Ids posted again after the receiver had answered 2xx for them."""
        done: set[str] = set()
        again = []
        with self.lock:
            for alert_id, status in self.posts:
                if alert_id in done:
                    again.append(alert_id)
                if status == 200:
                    done.add(alert_id)
        return again


@contextmanager
def receiving(*receivers: Receiver) -> Iterator[None]:
    threads = [threading.Thread(target=r.server.serve_forever, daemon=True) for r in receivers]
    for t in threads:
        t.start()
    try:
        yield
    finally:
        for r in receivers:
            r.server.shutdown()
            r.server.server_close()


def put_alerts(pipeline: Pipeline, alerts: list[str]) -> None:
    """The alerts on the output topics, as the worker writes them (keyed by tournament)."""
    s = pipeline.settings

    async def put() -> None:
        await ensure_topics(s, s.output_topics.values())
        producer = AIOKafkaProducer(**s.client_kwargs())
        await producer.start()
        try:
            for line in alerts:
                alert = json.loads(line)
                topic = s.output_topics[AUDIENCE_OF[alert["type"]]]
                key = alert["tournament_id"].encode()
                await producer.send_and_wait(topic, line.encode(), key=key)
        finally:
            await producer.stop()

    asyncio.run(put())


def sender(pipeline: Pipeline, log: Path, *urls: str) -> subprocess.Popen[bytes]:
    hooks = [a for url in urls for a in ("--webhook", url)]
    return subprocess.Popen(
        [sys.executable, "-m", "cli", "alerts", "--follow", *hooks],
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        env={**pipeline.env(), **QUICK},
        cwd=ROOT,
    )


def told(log: Path, since: int, url: str, ids: Iterable[str]) -> bool:
    """Whether the sender whose output starts at byte ``since`` of ``log`` has said each of
    ``ids`` is done for ``url`` (delivered, or failed and dead-lettered): a receiver's 2xx is
    done for the sender only once it has read the answer, and a stop before that posts the
    alert again (at least once)."""
    text = log.read_text(encoding="utf-8", errors="replace")[since:]
    said = set(re.findall(rf"(?:delivered|FAILED) (\S+) to {re.escape(url)} ", text))
    return set(ids) <= said


def test_a_sender_killed_during_an_outage_resumes_and_resends_nothing_delivered(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    alerts = [line for seed in SEEDS for line in replay_jsonl(seed)]
    ids = [json.loads(line)["alert_id"] for line in alerts]
    assert len(ids) == len(set(ids))
    refused = ids[len(ids) // 3]
    put_alerts(pipeline, alerts)
    # B answers a quarter of the alerts, then fails every request for a while
    healthy, flaky = Receiver(), Receiver(frozenset({refused}), fail_after=len(ids) // 4)
    log = tmp_path / "sender.log"
    with receiving(healthy, flaky):
        first = sender(pipeline, log, healthy.url, flaky.url)
        try:
            pipeline.until(lambda: flaky.failures() >= 10, "B failing, retried")
            first.send_signal(signal.SIGKILL)
            first.wait(15)
        finally:
            first.kill()
        delivered_before = set(flaky.delivered())
        posts_before, posts_before_a = len(flaky.posts), len(healthy.posts)
        since = log.stat().st_size
        second = sender(pipeline, log, healthy.url, flaky.url)
        try:
            pipeline.until(lambda: flaky.failures() >= 20, "B failing after the restart")
            flaky.heal()
            want = set(ids) - {refused}
            pipeline.until(lambda: set(flaky.delivered()) == want, "every alert to B")
            pipeline.until(lambda: set(healthy.delivered()) == set(ids), "every alert to A")
            # what the second sender posted, it has read the answer of (SIGTERM then
            # commits it; the last run below must find nothing left)
            again_b = {i for i, _ in flaky.posts[posts_before:]}
            pipeline.until(lambda: told(log, since, flaky.url, again_b), "B's answers read")
            again_a = {i for i, _ in healthy.posts[posts_before_a:]}
            pipeline.until(lambda: told(log, since, healthy.url, again_a), "A's answers read")
        finally:
            second.send_signal(signal.SIGTERM)
            second.wait(15)
        resent = {i for i, _ in flaky.posts[posts_before:]} & delivered_before
        assert not resent, "the restart posted alerts B had answered 2xx to"
        assert not flaky.posted_after_2xx()
        assert not healthy.posted_after_2xx()
        lane = {}  # each tournament's alerts on one topic: delivered in the topic's order
        for line in alerts:
            alert = json.loads(line)
            lane[alert["alert_id"]] = (alert["tournament_id"], AUDIENCE_OF[alert["type"]])
        for receiver in (healthy, flaky):
            got = receiver.delivered()
            for key in set(lane.values()):
                assert [i for i in got if lane[i] == key] == [
                    i for i in ids if lane[i] == key and i in got
                ], f"{key} out of order"
        # a last run has nothing left to post
        posts = len(healthy.posts), len(flaky.posts)
        hooks = ["--webhook", healthy.url, "--webhook", flaky.url]
        last = pipeline.cli("alerts", "--timeout", "60", *hooks, env=QUICK)
        assert "delivered" not in last.stdout
        assert (len(healthy.posts), len(flaky.posts)) == posts
    letters = asyncio.run(collect(pipeline))
    assert [(d.alert_id, d.receiver, d.status) for d in letters] == [(refused, flaky.url, 400)]
    assert "HTTP 400" in letters[0].reason
    assert json.loads(letters[0].alert)["alert_id"] == refused
    assert f"FAILED {refused} to {flaky.url}" in log.read_text()


def test_a_restart_posts_again_none_of_the_alerts_done_beyond_one_being_retried(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    """Two tournaments on one partition: while the receiver fails the first one's last
    alert, the second one's alerts after it are answered 2xx. The committed offset stays at
    the alert retried; its metadata names those done beyond it, so that a relay killed then
    and started again posts the alert retried and nothing else."""
    pipeline.settings = pipeline.settings.model_copy(update={"partitions": 1})
    first_t, second_t = (
        [line for line in replay_jsonl(seed) if AUDIENCE_OF[json.loads(line)["type"]] == "rounds"]
        for seed in SEEDS
    )  # one topic of one partition
    alerts = first_t + second_t
    ids = [json.loads(line)["alert_id"] for line in alerts]
    retried = ids[len(first_t) - 1]
    beyond = ids[len(first_t) :]
    put_alerts(pipeline, alerts)
    receiver = Receiver(stuck=frozenset({retried}))
    log = tmp_path / "sender.log"
    group = streams_receiver.of(receiver.url, pipeline.settings).group

    def committed_beyond() -> bool:
        offset, metadata = asyncio.run(committed(pipeline, group))
        return offset == len(first_t) - 1 and all(
            o in parse_done(offset, metadata) for o in range(len(first_t), len(ids))
        )

    with receiving(receiver):
        first = sender(pipeline, log, receiver.url)
        try:
            pipeline.until(lambda: set(beyond) <= set(receiver.delivered()), "the second's")
            pipeline.until(lambda: receiver.failures() >= 3, "the first's last, retried")
            pipeline.until(committed_beyond, "a commit naming the alerts done beyond it")
            first.send_signal(signal.SIGKILL)
            first.wait(15)
        finally:
            first.kill()
        assert set(receiver.delivered()) == set(ids) - {retried}
        posts_before = len(receiver.posts)
        receiver.heal()
        since = log.stat().st_size
        second = sender(pipeline, log, receiver.url)
        try:
            pipeline.until(lambda: retried in receiver.delivered(), "the retried alert")
            # the sender has read the 2xx (SIGTERM then commits it: the last run has nothing)
            pipeline.until(lambda: told(log, since, receiver.url, [retried]), "its answer read")
        finally:
            second.send_signal(signal.SIGTERM)
            second.wait(15)
        assert second.returncode == 0, "SIGTERM ends a run as its timeout does, committing"
        again = [i for i, _ in receiver.posts[posts_before:]]
        assert again == [retried], "the restart posted alerts done before it"
        last = pipeline.cli("alerts", "--timeout", "60", "--webhook", receiver.url, env=QUICK)
        assert "delivered" not in last.stdout
        assert len(receiver.posts) == posts_before + 1


async def committed(pipeline: Pipeline, group: str) -> tuple[int, str]:
    """The offset and metadata ``group`` committed on the rounds topic's only partition."""
    admin = AIOKafkaAdminClient(**pipeline.settings.client_kwargs())
    await admin.start()
    try:
        listed = await admin.list_consumer_group_offsets(group)
    finally:
        await admin.close()
    topic = pipeline.settings.output_topics["rounds"]
    om = listed.get(TopicPartition(topic, 0))
    return (om.offset, om.metadata or "") if om is not None else (-1, "")


async def collect(pipeline: Pipeline) -> list[WebhookDeadLetter]:
    return [d async for d in webhook_dead_letters(pipeline.settings, timeout=30)]
