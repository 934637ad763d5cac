"""The SSE feed's memory and positions, without a broker (issue 15, items 2 and 6): a read
from any position waits instead of spinning; a position the feed cannot honour gets a notice;
the feed keeps at most its size in alerts and bytes; a finished tournament leaves it after the
grace period, by the messages' timestamps, so old history read at start is not kept."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from streams.feed import AlertFeed, Entry
from streams.settings import Settings
from tracker.contract.alert_filter import AlertFilter

NOW = 1_800_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


def feed(clock: Clock | None = None, **settings: Any) -> AlertFeed:
    return AlertFeed(Settings(broker="kafka://127.0.0.1:9", **settings), clock=clock or Clock())


def alert(alert_id: str, tid: str = "t1", kind: str = "norm_achieved", **extra: Any) -> bytes:
    body = {"alert_id": alert_id, "tournament_id": tid, "type": kind, "round": 1, **extra}
    if kind != "round_finished":
        body.setdefault("player", {"federation": "ROU", "name": "Popescu"})
    return json.dumps(body).encode()


def last_round(alert_id: str, tid: str = "t1") -> bytes:
    return alert(alert_id, tid, "round_finished", last_round=True, standings=[])


def within(seconds: float, make: Callable[[], Awaitable[Any]]) -> Any:
    """Run ``make()`` in its own event loop on a thread; fail if it is still running after
    ``seconds`` (a loop that spins without awaiting cannot be timed out from inside)."""
    out: dict[str, Any] = {}

    def run() -> None:
        out["value"] = asyncio.run(make())  # type: ignore[arg-type]

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the feed's read loop did not return to the event loop"
    return out["value"]


async def first(f: AlertFeed, after: int, wanted: AlertFilter | None = None) -> list[Entry]:
    """The entries a reader gets before its first keep-alive."""
    out = []
    async for entry in f.read(wanted or AlertFilter(), after, heartbeat=0.05):
        if entry is None:
            return out
        out.append(entry)
    return out


def ids(entries: list[Entry]) -> list[str]:
    return [json.loads(e.data)["alert_id"] for e in entries]


# ----------------------------------------------------------------------------- positions


def test_a_negative_or_unknown_position_waits_instead_of_spinning() -> None:
    """Issue 15 item 2: ``since=-1`` as the first request after a start spun the loop."""
    for after in (-1, -(10**18), 0, 5, 10**19):

        async def read(after: int = after) -> list[Entry]:
            return await first(feed(), after)

        assert within(10, read) == []


def test_a_reader_waits_when_the_newest_alerts_were_dropped() -> None:
    async def scenario() -> tuple[list[str], list[str]]:
        f = feed(finished_grace=0)
        await f.add(alert("a1", "t1"), NOW - 5)
        await f.add(alert("b1", "t2"), NOW - 5)
        position = f.last - 1  # a reader that has seen a1
        await f.add(last_round("b2", "t2"), NOW - 5)  # t2 finished: b1, b2 dropped
        assert list(f.entries) == ["a1"]
        before = await first(f, position)
        await f.add(alert("a2", "t1"), NOW)
        return ids(before), ids(await first(f, position))

    assert within(10, scenario) == ([], ["a2"])


async def test_resuming_from_an_id_this_start_did_not_give_says_so() -> None:
    f = feed()
    assert f.resume(0) == (f.base, None)
    for alien in (5, f.base - 1, f.base + 1):  # before this start; after anything given
        start, notice = f.resume(alien)
        assert start == f.base
        assert notice is not None
        assert notice.kind == "reset"
    await f.add(alert("a1"))
    await f.add(alert("a2"))
    start, notice = f.resume(f.base + 1)
    assert (start, notice) == (f.base + 1, None)
    assert ids(await first(f, start)) == ["a2"]
    start, notice = f.resume(f.last + 1)
    assert notice is not None
    assert notice.kind == "reset"
    assert ids(await first(f, start)) == ["a1", "a2"]  # everything kept: drop what you have


async def test_resuming_after_alerts_no_longer_kept_says_so() -> None:
    f = feed(feed_alerts=3)
    for i in range(1, 6):
        await f.add(alert(f"a{i}"))
    assert list(f.entries) == ["a3", "a4", "a5"]
    start, notice = f.resume(f.base + 1)
    assert notice is not None
    assert notice.kind == "gap"
    assert notice.oldest == f.base + 3
    assert "output topics" in json.loads(notice.json())["message"]
    assert ids(await first(f, start)) == ["a3", "a4", "a5"]
    assert f.resume(f.base + 4) == (f.base + 4, None)  # nothing after 4 was dropped


# ----------------------------------------------------------------------------- memory


async def test_the_feed_keeps_at_most_its_size_in_bytes() -> None:
    f = feed(feed_bytes=1000)
    for i in range(20):
        await f.add(alert(f"a{i:02}", note="x" * 200))
    assert 0 < f.bytes <= 1000
    assert f.bytes == sum(len(e.data) for e in f.entries.values())
    assert list(f.entries)[-1] == "a19"
    assert len(f.entries) == 1000 // len(f.entries["a19"].data)


async def test_only_what_the_filters_need_is_decoded() -> None:
    f = feed()
    await f.add(alert("a1", note="x" * 5000))
    entry = f.entries["a1"]
    assert entry.head == {
        "tournament_id": "t1",
        "type": "norm_achieved",
        "round": 1,  # for the backlog's round order
        "player": {"federation": "ROU"},
    }
    assert AlertFilter.of(federations=["rou"]).matches(entry.head)


async def test_an_alert_is_one_sse_data_line() -> None:
    f = feed()
    await f.add(b'{"alert_id": "a1",\n "type": "x",\r\n "tournament_id": "t"}')
    data = f.entries["a1"].data
    assert b"\n" not in data
    assert b"\r" not in data
    assert json.loads(data) == {"alert_id": "a1", "type": "x", "tournament_id": "t"}


async def test_a_finished_tournament_leaves_after_the_grace_period() -> None:
    clock = Clock()
    f = feed(clock, finished_grace=600)
    await f.add(alert("a1", "t1"), NOW - 100)
    await f.add(last_round("a2", "t1"), NOW)
    await f.add(alert("b1", "t2"), NOW)
    clock.now = NOW + 500
    assert f.expire() == []
    assert list(f.entries) == ["a1", "a2", "b1"]
    clock.now = NOW + 700
    assert f.expire() == ["t1"]
    assert list(f.entries) == ["b1"]
    assert f.bytes == len(f.entries["b1"].data)
    assert "t1" not in f.by_tournament
    # a late correction: kept for the grace period from its own time, then gone again
    await f.add(alert("a3", "t1", "norm_revoked"), NOW + 800)
    assert list(f.entries) == ["b1", "a3"]
    clock.now = NOW + 1300
    assert f.expire() == []
    clock.now = NOW + 1500
    assert f.expire() == ["t1"]
    assert list(f.entries) == ["b1"]


async def test_history_read_at_start_keeps_no_finished_tournament() -> None:
    f = feed(finished_grace=3600)
    day = 86_400
    for n in range(200):  # 200 tournaments that finished yesterday, read in topic order
        tid = f"old{n}"
        await f.add(alert(f"{tid}-1", tid), NOW - day)
        await f.add(last_round(f"{tid}-2", tid), NOW - day)
        await f.add(alert(f"{tid}-3", tid, "ignorable_games"), NOW - day)  # another topic
    await f.add(alert("live-1", "live"), NOW - day)  # running for two days: kept
    assert list(f.entries) == ["live-1"]
    assert f.bytes == len(f.entries["live-1"].data)
    assert set(f.latest) == {"live"}


async def test_the_first_client_after_a_start_waits_for_the_history_to_be_read(
    monkeypatch: Any,
) -> None:
    """The first client starts the feed. Before the feed has read the topics to the end they
    had, it knows of a finished tournament only the alerts before its last round: the client
    must not get those; it gets what is kept once the history is read (issue 22, point 7)."""
    import streams.feed

    day = 86_400
    history = [
        (alert("old-1", "old"), NOW - day),
        (alert("live-1", "live"), NOW - 60),
        (last_round("old-2", "old"), NOW - day),
    ]
    released = asyncio.Event()

    async def topics(*args: Any, caught_up_once: Callable[[], None], **kwargs: Any) -> Any:
        for value, stamp in history[:2]:
            yield "t", value, int(stamp * 1000)
        await released.wait()  # the rest of the history is slow to come
        yield "t", history[2][0], int(history[2][1] * 1000)
        caught_up_once()
        await asyncio.sleep(3600)

    monkeypatch.setattr(streams.feed, "read_records", topics)
    f = feed(finished_grace=3600)
    f.start()
    try:
        early = await first(f, 0)  # keep-alives while the history is read
        assert early == []
        assert list(f.entries) == ["old-1", "live-1"]  # taken, not served yet
        released.set()
        await asyncio.wait_for(f.ready.wait(), 5)
        assert ids(await first(f, 0)) == ["live-1"]
    finally:
        await f.stop()


async def test_the_backlog_comes_in_round_order_with_the_newest_id_last() -> None:
    """Issue 20: a worker reads its backlog topic by topic (here the norms of rounds 1 and 2,
    then the rounds' summaries): a reader gets it round by round, each summary before its
    alerts. Inside the backlog no entry has an id but the last, which has the newest given,
    so a reader cut off inside it resumes before it; what comes later has its own ids."""
    f = feed()
    await f.add(alert("n2", round=2))
    await f.add(alert("n1", round=1))
    await f.add(alert("r1", kind="round_finished", round=1, standings=[]))
    await f.add(alert("r2", kind="round_finished", round=2, standings=[]))
    backlog = await first(f, 0)
    assert ids(backlog) == ["r1", "n1", "r2", "n2"]
    assert [e.seq for e in backlog] == [0, 0, 0, f.last]
    assert [e.sse().startswith(b"id: ") for e in backlog] == [False, False, False, True]
    await f.add(alert("n3", round=3))
    later = await first(f, f.last - 1)
    assert ids(later) == ["n3"]  # a reader resuming: what is new, with its id
    assert later[0].sse() == b"id: %d\ndata: %s\n\n" % (f.last, later[0].data)
