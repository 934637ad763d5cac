"""The worker's watchdog (``streams/faust/watch.py``) without a broker: a lost topic stops the
worker even while Faust rebalances, which deleted topics make it do for good."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from streams.faust import watch
from streams.faust.agents import Channels, Tracker
from streams.settings import Settings


class Stopped(BaseException):
    """What the stand-in for :func:`streams.faust.agents.stop` raises (the real one ends
    the process)."""


class Cluster:
    """Metadata in which only ``left`` topics have partitions."""

    def __init__(self, left: dict[str, int]) -> None:
        self.left = left

    def partitions_for_topic(self, name: str) -> set[int] | None:
        count = self.left.get(name)
        return set(range(count)) if count else None


class Client:
    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    async def fetch_all_metadata(self) -> Cluster:
        return self.cluster


def watchdog(rebalancing: bool, cluster: Cluster) -> watch.Watchdog:
    settings = Settings(watch_every=0.01)
    app = SimpleNamespace(rebalancing=rebalancing, consumer=None)
    topic = SimpleNamespace(get_topic_name=lambda: "input")
    tracker = Tracker(settings, Channels(topic, {}, None, SimpleNamespace(app=app)))
    dog = watch.Watchdog(app, tracker)
    dog.client = Client(cluster)  # type: ignore[assignment]
    return dog


@pytest.fixture
def stops(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    said: list[tuple[int, str]] = []

    def stop(code: int, message: str, exc: BaseException | None = None) -> Any:
        said.append((code, message))
        raise Stopped

    monkeypatch.setattr(watch, "stop", stop)
    return said


@pytest.mark.parametrize("rebalancing", [False, True], ids=["assigned", "rebalancing"])
async def test_a_lost_input_topic_stops_the_worker(
    rebalancing: bool, stops: list[tuple[int, str]]
) -> None:
    dog = watchdog(rebalancing, Cluster({}))
    with pytest.raises(Stopped):
        await asyncio.wait_for(dog.run(), 5)
    ((code, message),) = stops
    assert code == watch.BROKER_FAILED
    assert "lost topic input" in message


async def test_topics_all_there_stop_nothing_while_rebalancing(
    stops: list[tuple[int, str]],
) -> None:
    dog = watchdog(True, Cluster({}))
    s = dog.settings
    dog.client = Client(Cluster({"input": s.partitions, watch.changelog_topic(s): s.partitions}))  # type: ignore[assignment]
    for _ in range(3):
        await dog.tick()  # and, rebalancing, no look at the partitions (no consumer)
    assert stops == []
