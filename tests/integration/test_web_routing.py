"""Two workers with web servers: a request for a tournament, sent to either worker, is
answered by the worker owning the tournament's partition (forwarded by Faust's partition
assignment)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from streams.broker import free_port
from streams.synthetic import interleave, round_robin
from tests.support.http import get
from tests.support.pipeline import Pipeline, rounds_finished


def test_requests_reach_the_owner(pipeline: Pipeline, tmp_path: Path) -> None:
    events = interleave([round_robin(f"web{i}", 6, seed=i) for i in range(8)])
    tournaments = {e.tournament_id for e in events}
    ports = [free_port(), free_port()]
    workers = [
        # --web-host: the name the other worker forwards requests to
        pipeline.start_worker(f"w{i}", "--web-port", str(p), "--web-host", "127.0.0.1")
        for i, p in enumerate(ports)
    ]
    for w in workers:
        pipeline.wait_ready(w)
    pipeline.publish(events)
    pipeline.wait_alerts(lambda s: rounds_finished(s, tournaments, 5), "every tournament")
    bases = [f"http://127.0.0.1:{p}" for p in ports]

    def listing(base: str) -> set[str]:
        return {t["tournament_id"] for t in get(f"{base}/api/tournaments")[1]["tournaments"]}

    pipeline.until(lambda: listing(bases[0]) | listing(bases[1]) == tournaments, "listings")
    local = [listing(b) for b in bases]
    assert local[0], f"worker 0 owns nothing: {local}"
    assert local[1], f"worker 1 owns nothing: {local}"
    assert not local[0] & local[1]
    for tid in sorted(tournaments):
        answers = []
        for base in bases:
            with urllib.request.urlopen(f"{base}/api/tournaments/{tid}/standings") as answer:
                assert answer.status == 200
                answers.append(json.loads(answer.read()))
        assert answers[0] == answers[1]
        assert answers[0]["round"] == 5
