"""The federation feed on the real broker: ``tracker alerts --federation`` and webhook
delivery with ``--webhook`` (to a receiver on 127.0.0.1)."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from streams.publish import load
from streams.webhook import verify
from tests.support.pipeline import ROOT, Pipeline, by_id, replay_jsonl

SEED = ROOT / "seeds" / "swiss-11r-secured-2013.trf"


def alerts_cli(pipeline: Pipeline, *options: str, env: dict[str, str] | None = None) -> str:
    return pipeline.cli("alerts", "--timeout", "40", *options, env=env).stdout


def test_federation_filter_and_webhook(pipeline: Pipeline) -> None:
    want = by_id(replay_jsonl(SEED))
    srb = {
        i: a for i, a in want.items() if json.loads(a).get("player", {}).get("federation") == "SRB"
    }
    assert {json.loads(a)["type"] for a in srb.values()} >= {"title_rating_reached"}
    pipeline.start_worker("w1")
    published = pipeline.cli("publish", str(SEED), "--progress")
    total = len(load(SEED))
    progress = [line for line in published.stderr.splitlines() if " events (" in line]
    assert len(progress) >= 10  # one line per 10 % off a terminal
    assert progress[-1] == f"{SEED}: {total}/{total} events (100 %), round 11"
    pipeline.wait_alerts(lambda seen: set(want) <= set(seen), "every alert")

    lines = alerts_cli(pipeline, "--federation", "srb", "--format", "jsonl").splitlines()
    assert sorted(lines) == sorted(srb.values())

    received: list[tuple[bytes, str, str]] = []

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((body, dict(self.headers), self.headers["X-Tracker-Alert-Id"]))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/hook"
        report = alerts_cli(
            pipeline,
            "--federation",
            "SRB",
            "--type",
            "title_rating_reached",
            "--webhook",
            url,
            env={"TRACKER_WEBHOOK_SECRET": "s3cret"},
        )
    finally:
        server.shutdown()
    wanted = {i for i, a in srb.items() if json.loads(a)["type"] == "title_rating_reached"}
    assert {alert_id for _, _, alert_id in received} == wanted
    assert len(received) == len(wanted)
    for body, headers, alert_id in received:
        assert json.loads(body) == json.loads(want[alert_id])
        stamp = headers["X-Tracker-Timestamp"]
        signed = f"{stamp}.{alert_id}.".encode() + body
        digest = hmac.new(b"s3cret", signed, hashlib.sha256).hexdigest()
        assert headers["X-Tracker-Signature"] == f"v1={digest}"
        assert verify(b"s3cret", headers, body)
    assert report.count("delivered ") == len(wanted)
