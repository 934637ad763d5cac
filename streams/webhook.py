"""Webhook delivery for subscribers that cannot hold a connection (``tracker alerts
--webhook URL``).

Each alert is POSTed once as its JSON (the bytes of ``tracker alerts --format jsonl``), with

* ``X-Tracker-Signature: sha256=<hex>`` -- HMAC-SHA256 of the body with the shared secret
  (``TRACKER_WEBHOOK_SECRET``), so the receiver can check who sent it;
* ``X-Tracker-Alert-Id`` and ``X-Tracker-Alert-Type`` -- the receiver drops ids it has seen.

A delivery succeeds on any 2xx answer. Connection errors, timeouts, 408, 429 and 5xx are
retried after a back-off that doubles (``TRACKER_WEBHOOK_BACKOFF`` seconds first, at most
30 s) up to ``TRACKER_WEBHOOK_ATTEMPTS`` tries; any other answer is final. An alert id that
was delivered is never posted again by the same deliverer.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import logging
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable

import aiohttp

log = logging.getLogger(__name__)

RETRIED = frozenset({408, 425, 429, 500, 502, 503, 504})


def signature(secret: bytes, body: bytes) -> str:
    """The ``X-Tracker-Signature`` value.

    >>> signature(b"s3cret", b'{"alert_id":"a1"}')
    'sha256=7a373620b8c545e5cc5075eaeed702d30db7db2acb197c5b882ed7b945eb031e'
    """
    return "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()


@dataclasses.dataclass
class Outcome:
    alert_id: str
    delivered: bool
    attempts: int
    status: int | None
    """The last HTTP status (``None`` if the receiver was never reached)."""


@dataclasses.dataclass
class Deliverer:
    url: str
    secret: bytes
    attempts: int = 6
    backoff: float = 0.5
    timeout: float = 10.0
    delivered: set[str] = dataclasses.field(default_factory=set)
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    async def deliver(
        self, session: aiohttp.ClientSession, alert_id: str, kind: str, body: bytes
    ) -> Outcome:
        """Post one alert, retrying as described above."""
        if alert_id in self.delivered:
            return Outcome(alert_id, True, 0, None)
        headers = {
            "Content-Type": "application/json",
            "X-Tracker-Signature": signature(self.secret, body),
            "X-Tracker-Alert-Id": alert_id,
            "X-Tracker-Alert-Type": kind,
        }
        status: int | None = None
        wait = self.backoff
        for attempt in range(1, self.attempts + 1):
            try:
                async with session.post(
                    self.url,
                    data=body,
                    headers=headers,
                    timeout=aiohttp.ClientTimeout(total=self.timeout),
                ) as answer:
                    status = answer.status
                    await answer.read()
                if 200 <= status < 300:
                    self.delivered.add(alert_id)
                    return Outcome(alert_id, True, attempt, status)
                if status not in RETRIED:
                    log.warning("webhook %s refused alert %s: HTTP %d", self.url, alert_id, status)
                    return Outcome(alert_id, False, attempt, status)
            except (aiohttp.ClientError, TimeoutError) as exc:
                log.info("webhook %s, alert %s, attempt %d: %s", self.url, alert_id, attempt, exc)
            if attempt < self.attempts:
                await self.sleep(wait)
                wait = min(wait * 2, 30.0)
        log.warning(
            "webhook %s: gave up on alert %s after %d attempts", self.url, alert_id, self.attempts
        )
        return Outcome(alert_id, False, self.attempts, status)

    async def run(self, alerts: AsyncIterable[tuple[str, str, bytes]]) -> AsyncIterator[Outcome]:
        """Deliver ``(alert id, type, JSON body)`` items in order, one at a time."""
        async with aiohttp.ClientSession() as session:
            async for alert_id, kind, body in alerts:
                yield await self.deliver(session, alert_id, kind, body)


__all__ = ["Deliverer", "Outcome", "signature"]
