"""Webhook delivery for subscribers that cannot hold a connection (``tracker alerts
--webhook URL``).

Each alert is POSTed once as its JSON (the bytes of ``tracker alerts --format jsonl``), with

* ``X-Tracker-Timestamp: <unix seconds>`` -- when this attempt was signed;
* ``X-Tracker-Alert-Id`` and ``X-Tracker-Alert-Type`` -- the receiver drops ids it has seen;
* ``X-Tracker-Signature: v1=<hex>`` -- HMAC-SHA256, with the shared secret
  (``TRACKER_WEBHOOK_SECRET``), of ``<timestamp>.<alert id>.<body>``: the receiver checks who
  sent it, that the id header belongs to the body, and (by the timestamp) that it is not an
  old request played again. :func:`verify` is the check a receiver makes (the README shows it
  as a snippet to copy).

A delivery succeeds on any 2xx answer. Connection errors, timeouts, 408, 429 and 5xx are
retried after a back-off that doubles (``TRACKER_WEBHOOK_BACKOFF`` seconds first, at most
30 s) up to ``TRACKER_WEBHOOK_ATTEMPTS`` tries, each attempt signed anew; any other answer is
final. Redirects are never followed: a 3xx answer is final, so the signed alert never goes to
an address other than the one configured. An alert id that was delivered is never posted
again by the same deliverer.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import logging
import time
from collections.abc import AsyncIterable, AsyncIterator, Awaitable, Callable, Mapping

import aiohttp

log = logging.getLogger(__name__)

RETRIED = frozenset({408, 425, 429, 500, 502, 503, 504})


TOLERANCE = 300
"""Seconds a receiver accepts a timestamp off its own clock (:func:`verify`)."""


def signature(secret: bytes, timestamp: int, alert_id: str, body: bytes) -> str:
    """The ``X-Tracker-Signature`` value: HMAC-SHA256 of ``<timestamp>.<alert id>.<body>``.

    >>> signature(b"s3cret", 1700000000, "a1", b'{"alert_id":"a1"}')
    'v1=a8d7c5c479d24a06917b4d5931f759c296eb6aa5627db130e0a138baf19a5395'
    """
    signed = f"{timestamp}.{alert_id}.".encode() + body
    return "v1=" + hmac.new(secret, signed, hashlib.sha256).hexdigest()


def verify(
    secret: bytes,
    headers: Mapping[str, str],
    body: bytes,
    now: float | None = None,
    tolerance: float = TOLERANCE,
) -> bool:
    """A receiver's check of a delivery: the signature matches the secret, the timestamp,
    the alert id header and the body, and the timestamp is within ``tolerance`` seconds of
    the receiver's clock (an old request played again is refused). The README's snippet is
    this function."""
    stamp = headers.get("X-Tracker-Timestamp", "")
    if not (stamp.isascii() and stamp.isdigit()) or len(stamp) > 12:
        return False
    if abs((time.time() if now is None else now) - int(stamp)) > tolerance:
        return False  # a captured request played again later (or a clock far off)
    expected = signature(secret, int(stamp), headers.get("X-Tracker-Alert-Id", ""), body)
    given = headers.get("X-Tracker-Signature", "")
    return hmac.compare_digest(given.encode(), expected.encode())


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
    clock: Callable[[], float] = time.time

    async def deliver(
        self, session: aiohttp.ClientSession, alert_id: str, kind: str, body: bytes
    ) -> Outcome:
        """Post one alert, retrying as described above."""
        if alert_id in self.delivered:
            return Outcome(alert_id, True, 0, None)
        status: int | None = None
        wait = self.backoff
        for attempt in range(1, self.attempts + 1):
            stamp = int(self.clock())
            headers = {
                "Content-Type": "application/json",
                "X-Tracker-Timestamp": str(stamp),
                "X-Tracker-Alert-Id": alert_id,
                "X-Tracker-Alert-Type": kind,
                "X-Tracker-Signature": signature(self.secret, stamp, alert_id, body),
            }
            try:
                async with session.post(
                    self.url,
                    data=body,
                    headers=headers,
                    timeout=aiohttp.ClientTimeout(total=self.timeout),
                    allow_redirects=False,  # never send the signed alert elsewhere
                ) as answer:
                    status = answer.status
                    await answer.read()
                if 200 <= status < 300:
                    self.delivered.add(alert_id)
                    return Outcome(alert_id, True, attempt, status)
                if 300 <= status < 400:
                    log.warning(
                        "webhook %s answered alert %s with a redirect (HTTP %d to %s), which is "
                        "not followed: configure the final address",
                        self.url,
                        alert_id,
                        status,
                        answer.headers.get("Location", "?")[:200],
                    )
                    return Outcome(alert_id, False, attempt, status)
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


__all__ = ["TOLERANCE", "Deliverer", "Outcome", "signature", "verify"]
