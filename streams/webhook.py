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

A delivery succeeds on any 2xx answer. Connection errors, timeouts, 408, 425, 429 and 5xx are
retried after a back-off that doubles (``TRACKER_WEBHOOK_BACKOFF`` seconds first, at most
``TRACKER_WEBHOOK_MAX_BACKOFF``) for up to ``TRACKER_WEBHOOK_RETRY_FOR`` seconds (a day), each
attempt signed anew; any other answer is final. Redirects are never followed: a 3xx answer is
final, so the signed alert never goes to an address other than the one configured. An alert
id that was delivered is never posted again by the same deliverer. What happens around one
delivery (which alerts, in what order, what a restart resumes from, the dead letter of an
alert that could not be delivered) is :mod:`streams.relay`'s.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import logging
import time
from collections.abc import Awaitable, Callable, Mapping

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
    reason: str = ""
    """Why it was not delivered (the last answer or error, and why no more attempts)."""


@dataclasses.dataclass
class Deliverer:
    """Posts alerts to one receiver. An alert is tried until a 2xx or a final answer, or,
    on answers worth another try (:data:`RETRIED`, connection errors, timeouts), until
    ``retry_for`` seconds have passed since its first attempt (or ``attempts`` attempts, when
    given), waiting ``backoff`` seconds before the first retry, twice as long before each next
    one, at most ``max_backoff``: with the defaults a receiver may be down for a day."""

    url: str
    secret: bytes
    attempts: int | None = None
    backoff: float = 0.5
    max_backoff: float = 300.0
    retry_for: float = 86_400.0
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
        first: float | None = None
        attempt = 0
        while True:
            attempt += 1
            now = self.clock()
            first = now if first is None else first
            stamp = int(now)
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
                    where = answer.headers.get("Location", "?")[:200]
                    reason = (
                        f"HTTP {status}: a redirect to {where}, which is not followed "
                        "(configure the final address)"
                    )
                    log.warning("webhook %s, alert %s: %s", self.url, alert_id, reason)
                    return Outcome(alert_id, False, attempt, status, reason)
                if status not in RETRIED:
                    reason = f"HTTP {status}: refused (not retried)"
                    log.warning("webhook %s, alert %s: %s", self.url, alert_id, reason)
                    return Outcome(alert_id, False, attempt, status, reason)
                last = f"HTTP {status}"
            except (aiohttp.ClientError, TimeoutError) as exc:
                last = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                log.info("webhook %s, alert %s, attempt %d: %s", self.url, alert_id, attempt, last)
            spent = now - first  # at this attempt's start
            if (self.attempts is not None and attempt >= self.attempts) or (
                spent + wait > self.retry_for
            ):
                reason = f"{last}; gave up after {attempt} attempts in {spent:.0f} s"
                log.warning("webhook %s, alert %s: %s", self.url, alert_id, reason)
                return Outcome(alert_id, False, attempt, status, reason)
            await self.sleep(wait)
            wait = min(wait * 2, self.max_backoff)


__all__ = ["TOLERANCE", "Deliverer", "Outcome", "signature", "verify"]
