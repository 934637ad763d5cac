"""Publishing a tournament file into the input topic round by round, as a live event would
arrive: every event keyed by its tournament id, in file order, with a pause whenever the
round number changes (registrations go first, without a pause)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from aiokafka import AIOKafkaProducer

from streams.kafka import ensure_topics, started
from streams.records import encode_input
from streams.settings import Settings
from tracker import contract as ev
from tracker.host.replay import read_bytes, with_overrides


def load(path: str | Path, rounds: int | None = None) -> list[ev.InputEvent]:
    """The input events of a TRF or JSONL file (``tracker.host.replay.InputError`` if unreadable);
    ``rounds``: the planned number of rounds, overriding the file's."""
    file = Path(path)
    events = read_bytes(file.read_bytes(), file.name)
    return [s.event for s in with_overrides(events, rounds=rounds)]


def round_of(event: ev.InputEvent) -> int:
    return getattr(event, "round", 0)


def producer(settings: Settings) -> AIOKafkaProducer:
    # acks=all; no idempotence: a repeated event changes nothing (and Tansu refuses it).
    return AIOKafkaProducer(
        acks="all",
        linger_ms=5,
        max_request_size=settings.record_room,
        **settings.client_kwargs(),
    )


async def publish(
    events: Sequence[ev.InputEvent | tuple[bytes | None, bytes]],
    settings: Settings,
    *,
    pace: float = 0.0,
    repeat: int = 1,
    on_round: Callable[[int], None] | None = None,
    on_sent: Callable[[int], None] | None = None,
) -> int:
    """Send the events (or raw ``(key, value)`` messages) to the input topic; returns the
    number of messages sent. ``repeat`` sends every event that many times in a row;
    ``on_sent`` is told the number of messages handed to the producer so far."""
    topic = settings.topic("input")
    await ensure_topics(settings, [topic])
    sent = 0
    async with started(producer(settings), settings) as sender:
        current = 0
        pending: list[asyncio.Future[Any]] = []
        for item in events:
            if isinstance(item, tuple):
                key, value = item
            else:
                number = round_of(item)
                if number and number != current:
                    if pace > 0 and current > 0:
                        await asyncio.gather(*pending)
                        pending.clear()
                        await asyncio.sleep(pace)
                    current = number
                    if on_round:
                        on_round(number)
                key, value = item.tournament_id.encode(), encode_input(item)
            for _ in range(repeat):
                pending.append(await sender.send(topic, value=value, key=key))
                sent += 1
                if on_sent:
                    on_sent(sent)
        await asyncio.gather(*pending)
    return sent


__all__ = ["load", "producer", "publish", "round_of"]
