"""Webhook delivery against a local aiohttp receiver on 127.0.0.1: signature over the
timestamp, the alert id and the body; retries with back-off, each signed anew; no retry of a
refusal; giving up; each alert id posted once; a redirect never followed; the receiver's check
(:func:`streams.webhook.verify` and the README's snippet) refusing old or altered requests."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from streams.webhook import Deliverer, Outcome, signature, verify
from tests.support.paths import ROOT

SECRET = b"shared-secret"
README = ROOT / "docs" / "streaming.md"


class Receiver:
    """Answers with the statuses queued for an alert id (200 once they run out)."""

    def __init__(self, plan: dict[str, list[int]]) -> None:
        self.plan = plan
        self.posts: list[tuple[str, bytes, bool]] = []
        """(alert id, body, signature valid)."""
        self.headers: list[dict[str, str]] = []
        self.elsewhere: list[bytes] = []
        """Bodies that reached the address a redirect pointed to."""

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        good = verify(SECRET, request.headers, body)
        alert_id = request.headers["X-Tracker-Alert-Id"]
        self.posts.append((alert_id, body, good))
        self.headers.append(dict(request.headers))
        queued = self.plan.get(alert_id, [])
        status = queued.pop(0) if queued else 200
        if 300 <= status < 400:
            return web.Response(status=status, headers={"Location": "/elsewhere"})
        return web.Response(status=status)

    async def other(self, request: web.Request) -> web.Response:
        self.elsewhere.append(await request.read())
        return web.Response(status=200)


@pytest.fixture
async def receiver() -> AsyncIterator[tuple[Receiver, str]]:
    plan = {"a-retry": [503, 502], "a-refused": [400], "a-down": [503] * 100}
    r = Receiver(plan)
    app = web.Application()
    app.router.add_post("/hook", r.handle)
    app.router.add_route("*", "/elsewhere", r.other)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    yield r, f"http://127.0.0.1:{port}/hook"
    await runner.cleanup()


async def delivered(d: Deliverer, *ids: str) -> list[Outcome]:
    """Each alert id delivered by ``d``, in order, one at a time."""
    async with aiohttp.ClientSession() as session:
        return [
            await d.deliver(session, i, "norm_achieved", b'{"alert_id":"' + i.encode() + b'"}')
            for i in ids
        ]


async def test_deliveries(receiver: tuple[Receiver, str]) -> None:
    r, url = receiver
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)

    d = Deliverer(url, SECRET, attempts=4, backoff=0.5, sleep=sleep)
    outcomes = await delivered(d, "a-ok", "a-retry", "a-refused", "a-down", "a-ok")
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
    outcomes = await delivered(d, "x")
    assert [(o.delivered, o.attempts, o.status) for o in outcomes] == [(False, 2, None)]


async def test_a_wrong_secret_is_visible_to_the_receiver(receiver: tuple[Receiver, str]) -> None:
    r, url = receiver
    d = Deliverer(url, b"another secret", attempts=1)
    await delivered(d, "a-ok")
    assert [good for _, _, good in r.posts] == [False]


@pytest.mark.parametrize("status", [307, 308, 301, 302, 303])
async def test_a_redirect_is_never_followed(receiver: tuple[Receiver, str], status: int) -> None:
    r, url = receiver
    r.plan["a-moved"] = [status]
    d = Deliverer(url, SECRET, attempts=3, backoff=0.01)
    outcomes = await delivered(d, "a-moved")
    assert [(o.delivered, o.attempts, o.status) for o in outcomes] == [(False, 1, status)]
    assert [p[0] for p in r.posts] == ["a-moved"]
    assert r.elsewhere == [], "the signed alert went to the address of the redirect"


async def test_each_attempt_is_signed_with_its_own_timestamp(
    receiver: tuple[Receiver, str],
) -> None:
    r, url = receiver
    clock = iter([1_700_000_000.0, 1_700_000_400.0, 1_700_000_900.0])

    async def sleep(_: float) -> None:
        pass

    d = Deliverer(url, SECRET, attempts=4, sleep=sleep, clock=lambda: next(clock))
    await delivered(d, "a-retry")  # 503, 502, 200
    stamps = [h["X-Tracker-Timestamp"] for h in r.headers]
    assert stamps == ["1700000000", "1700000400", "1700000900"]
    body = r.posts[-1][1]
    for headers, stamp in zip(r.headers, stamps, strict=True):
        assert headers["X-Tracker-Signature"] == signature(SECRET, int(stamp), "a-retry", body)
        assert verify(SECRET, headers, body, now=int(stamp) + 10)


def readme_verify() -> Callable[[bytes, Mapping[str, str], bytes], bool]:
    """The verification snippet of the README, run as a receiver would copy it."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    snippet = next(b for b in blocks if "X-Tracker-Signature" in b)
    scope: dict[str, Any] = {}
    exec(compile(snippet, "README.md", "exec"), scope)
    return scope["verify"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("check", ["package", "readme"])
def test_the_receivers_check_refuses_old_or_altered_requests(check: str) -> None:
    readme = readme_verify()

    def ok(headers: Mapping[str, str], body: bytes, secret: bytes = SECRET) -> bool:
        if check == "readme":
            return readme(secret, headers, body)
        return verify(secret, headers, body)

    body = b'{"alert_id":"a1","type":"norm_achieved"}'
    now = int(time.time())

    def signed(stamp: int, alert_id: str = "a1") -> dict[str, str]:
        return {
            "X-Tracker-Timestamp": str(stamp),
            "X-Tracker-Alert-Id": alert_id,
            "X-Tracker-Signature": signature(SECRET, stamp, alert_id, body),
        }

    assert ok(signed(now), body)
    assert ok(signed(now - 250), body)
    assert not ok(signed(now - 600), body), "a captured request played again 10 min later"
    assert not ok(signed(now + 600), body)
    assert not ok(signed(now), body + b" "), "the body was changed"
    assert not ok(signed(now), body, b"another secret")
    assert not ok({**signed(now), "X-Tracker-Alert-Id": "a2"}, body), "the id was changed"
    assert not ok({**signed(now), "X-Tracker-Timestamp": str(now - 1)}, body)
    assert not ok({k: v for k, v in signed(now).items() if k != "X-Tracker-Timestamp"}, body)
    assert not ok({**signed(now), "X-Tracker-Signature": "v1=é"}, body)
    assert not ok({**signed(now), "X-Tracker-Timestamp": "١٢٣"}, body)  # digits, not ASCII


async def test_retries_outlive_an_outage_of_hours_then_say_why(
    receiver: tuple[Receiver, str],
) -> None:
    """No attempt bound: retried for ``retry_for`` seconds, the wait doubling up to
    ``max_backoff``; the outcome says why it stopped."""
    _, url = receiver
    now = [1_700_000_000.0]
    pauses: list[float] = []

    async def sleep(seconds: float) -> None:
        pauses.append(seconds)
        now[0] += seconds

    d = Deliverer(
        url,
        SECRET,
        backoff=1.0,
        max_backoff=600.0,
        retry_for=4 * 3600.0,
        sleep=sleep,
        clock=lambda: now[0],
    )
    [outcome] = await delivered(d, "a-down")
    assert not outcome.delivered
    assert pauses[:10] == [2.0**k for k in range(10)]
    assert max(pauses) == 600.0
    assert sum(pauses) <= 4 * 3600 < sum(pauses) + 600
    assert outcome.attempts == len(pauses) + 1
    assert outcome.reason.startswith("HTTP 503; gave up after")
    refused = await delivered(d, "a-refused")
    assert refused[0].reason == "HTTP 400: refused (not retried)"
