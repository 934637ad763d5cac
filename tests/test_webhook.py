"""Webhook delivery against a local aiohttp receiver on 127.0.0.1: signature, retries with
back-off, no retry of a refusal, giving up, and each alert id posted once."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from streams.webhook import Deliverer

SECRET = b"shared-secret"


class Receiver:
    """Answers with the statuses queued for an alert id (200 once they run out)."""

    def __init__(self, plan: dict[str, list[int]]) -> None:
        self.plan = plan
        self.posts: list[tuple[str, bytes, bool]] = []
        """(alert id, body, signature valid)."""

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        expected = "sha256=" + hmac.new(SECRET, body, hashlib.sha256).hexdigest()
        good = hmac.compare_digest(request.headers["X-Tracker-Signature"], expected)
        alert_id = request.headers["X-Tracker-Alert-Id"]
        self.posts.append((alert_id, body, good))
        queued = self.plan.get(alert_id, [])
        return web.Response(status=queued.pop(0) if queued else 200)


@pytest.fixture
async def receiver() -> AsyncIterator[tuple[Receiver, str]]:
    plan = {"a-retry": [503, 502], "a-refused": [400], "a-down": [503] * 10}
    r = Receiver(plan)
    app = web.Application()
    app.router.add_post("/hook", r.handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    yield r, f"http://127.0.0.1:{port}/hook"
    await runner.cleanup()


async def items(*ids: str) -> AsyncIterator[tuple[str, str, bytes]]:
    for alert_id in ids:
        yield alert_id, "norm_achieved", b'{"alert_id":"' + alert_id.encode() + b'"}'


async def test_deliveries(receiver: tuple[Receiver, str]) -> None:
    r, url = receiver
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)

    d = Deliverer(url, SECRET, attempts=4, backoff=0.5, sleep=sleep)
    outcomes = [o async for o in d.run(items("a-ok", "a-retry", "a-refused", "a-down", "a-ok"))]
    got = [(o.alert_id, o.delivered, o.attempts, o.status) for o in outcomes]
    assert got == [
        ("a-ok", True, 1, 200),
        ("a-retry", True, 3, 200),  # 503, 502, then 200
        ("a-refused", False, 1, 400),  # a 4xx is final
        ("a-down", False, 4, 503),  # gave up after the bounded number of attempts
        ("a-ok", True, 0, None),  # delivered before: not posted again
    ]
    assert pauses == [0.5, 1.0, 0.5, 1.0, 2.0]  # doubling back-off, reset per alert
    assert [p[0] for p in r.posts].count("a-ok") == 1
    assert all(good for _, _, good in r.posts)
    assert r.posts[0][1] == b'{"alert_id":"a-ok"}'


async def test_a_receiver_that_is_not_there() -> None:
    d = Deliverer("http://127.0.0.1:9/hook", SECRET, attempts=2, backoff=0.01, timeout=2)
    outcomes = [o async for o in d.run(items("x"))]
    assert [(o.delivered, o.attempts, o.status) for o in outcomes] == [(False, 2, None)]


async def test_a_wrong_secret_is_visible_to_the_receiver(receiver: tuple[Receiver, str]) -> None:
    r, url = receiver
    d = Deliverer(url, b"another secret", attempts=1)
    [o async for o in d.run(items("a-ok"))]
    assert [good for _, _, good in r.posts] == [False]
