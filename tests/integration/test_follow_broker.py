"""``tracker follow --broker`` on the test broker, with the real worker: a live event served
over HTTP (the arbiter's exports and a broadcast of the top boards that brings results
first), the follower killed with SIGKILL mid-round and restarted. The input topic then holds
every fact exactly once, and the worker's alerts are those of ``tracker replay`` of the final
file."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path

from streams.subscriber import read_topics
from tests.support.follow import games, live, pgn_game, replay_lines, seed, serving, wait_for_polls
from tests.support.pipeline import ROOT, Pipeline, by_id
from tracker import contract as ev
from tracker.formats.trf import format_trf
from tracker.ingest.snapshots import read_snapshot


def _follow(pipeline: Pipeline, trf: str, pgn: str, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cli",
            "follow",
            trf,
            "--pgn",
            pgn,
            "--broker",
            pipeline.settings.broker,
            "--interval",
            "0.1",
        ],
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
        cwd=ROOT,
        env=pipeline.env(),
    )


def _input(pipeline: Pipeline) -> list[bytes]:
    async def read() -> list[bytes]:
        topic = pipeline.settings.topic("input")
        return [value async for _, value in read_topics(pipeline.settings, [topic], timeout=30)]

    return asyncio.run(read())


def test_a_followed_event_killed_mid_round_gives_the_alerts_of_replay(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    final = seed("swiss-11r-secured-2013.trf")
    snapshots = live(final)
    want = by_id(replay_lines(format_trf(final)))
    pipeline.start_worker("w1")
    log = tmp_path / "follow.log"
    kill_at = 1 + 3 * 6  # round 7 paired; its top boards finish on the broadcast
    with serving() as server:
        server.set("/t.trf", snapshots[0])
        server.set("/top.pgn", "")
        proc = _follow(pipeline, server.url("/t.trf"), server.url("/top.pgn"), log)
        try:
            for i, text in enumerate(snapshots):
                number = (i - 1) // 3 + 1
                since = server.requests("/t.trf")
                server.set("/t.trf", text)
                wait_for_polls(server, "/t.trf", since)
                if i % 3 == 1:  # the round is paired: the top boards finish on the broadcast
                    top = games(final, number)[:3]
                    # the broadcast is polled after the file in each poll: its own requests
                    # tell when it has been dealt with
                    since = server.requests("/top.pgn")
                    server.set("/top.pgn", "".join(pgn_game(final, number, *g) for g in top))
                    polls = 2
                    if i == kill_at:
                        proc.send_signal(signal.SIGKILL)
                        proc.wait(30)
                        since = server.requests("/top.pgn")
                        proc = _follow(pipeline, server.url("/t.trf"), server.url("/top.pgn"), log)
                        polls = 3  # one may be the dead follower's, answered after since
                    wait_for_polls(server, "/top.pgn", since, polls)
            pipeline.wait_alerts(lambda seen: set(want) <= set(seen), f"{len(want)} alerts")
        finally:
            proc.kill()
            proc.wait(30)
    assert by_id(pipeline.read_alerts()) == want
    sent = _input(pipeline)
    assert len(sent) == len(set(sent)), "a fact was sent twice"
    facts = {ev.parse_input(raw) for raw in sent}
    results = {e for e in facts if isinstance(e, ev.GameResult)}
    assert not any(isinstance(e, ev.ResultCorrected) for e in facts)
    assert facts == set(read_snapshot(format_trf(final)).facts.values())
    assert len(results) == sum(len(games(final, r)) for r in range(1, 12))
    text = log.read_text(errors="replace")
    assert "facts of swiss-11r-secured-2013 already sent" in text  # the restart read back
    assert "held" not in text
