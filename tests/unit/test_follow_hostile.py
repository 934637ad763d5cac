"""Following over a hostile network (issue 22, points 1-3): against a local server that cuts
answers, sends corrupt or bombing gzip, endless or trickling bodies, a status line that is not
HTTP or over-long headers, every poll fails with a reported reason and the next one is tried
after a back-off; the follower ends with the alerts ``tracker replay`` gives for the final
file. A document changed twice within a second (``Last-Modified`` counts whole seconds) is
never missed; a file over the size bound is refused, not read."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from follow.limits import Limits
from follow.runner import Options
from follow.sources import FileSource, SourceError, UrlSource
from tests.support.follow import (
    SEEDS,
    TRICKS,
    live,
    replay_lines,
    seed,
    serving,
)
from tests.support.follow import follower as make_follower
from tracker.formats.trf import format_trf

SMALL = Limits(max_bytes=256 * 1024, timeout=1.0)
"""Bounds a test can reach quickly: the seeds are 5-15 kB."""

WHY = {
    "cut": "cut short",
    "cut-chunked": "cut short",
    "bad-gzip": "corrupt gzip",
    "cut-gzip": "gzip body cut short",
    "bomb": "once decompressed",
    "huge": "more than 262144",
    "endless": "more than 262144",
    "trickle": "within 1 s",
    "not-http": "not a readable HTTP answer",
    "long-header": "not a readable HTTP answer",
    "many-headers": "not a readable HTTP answer",
    "reset": "Remote end closed connection without response",
}


@pytest.mark.parametrize("trick", TRICKS)
async def test_each_failure_is_a_source_error_and_the_next_poll_reads(trick: str) -> None:
    text = format_trf(seed("gm-roundrobin-2011.trf"))
    with serving() as server:
        server.set("/t.trf", text)
        server.misbehave("/t.trf", trick)
        source = UrlSource(server.url("/t.trf"), SMALL)
        started = time.monotonic()
        with pytest.raises(SourceError, match=WHY[trick]):
            await source.fetch()
        # the 1 s limit cut it: a trickle lasts 30 s (10 s leaves room for a loaded machine)
        assert time.monotonic() - started < 10
        assert await source.fetch() == text.encode()


async def test_a_live_event_through_every_failure_gives_the_alerts_of_replay() -> None:
    name = "gm-roundrobin-2011.trf"
    final = seed(name)
    tricks = iter(TRICKS * 10)
    with serving() as server:
        run = make_follower(
            UrlSource(server.url("/live.trf"), SMALL), options=Options(interval=0.01)
        )
        poll = run.follower.trf
        assert poll is not None
        snapshots = live(final)
        for number, text in enumerate(snapshots):
            server.set("/live.trf", text)
            if number % 2 == 0:  # every other snapshot comes after a failed request
                server.misbehave("/live.trf", next(tricks))
            while True:
                poll.due = 0.0  # the test does the waiting
                await run.follower.poll()
                if not poll.failures:
                    break
        assert run.lines() == replay_lines((SEEDS / name).read_text("utf-8"))
        assert server.statuses("/live.trf").count(-1) == (len(snapshots) + 1) // 2
    failures = [line for line in run.said if "trying again in" in line]
    for trick in TRICKS:  # each reported with its reason (a line is said once)
        assert any(WHY[trick] in line for line in failures), trick
    assert any("readable again after 1 failure(s)" in line for line in run.said)
    assert not run.reports("held")


async def test_two_changes_within_a_second_are_both_read() -> None:
    """A static file server without ETag: a change within the second of the last answer
    has the same Last-Modified, so If-Modified-Since would be answered 304 for good. (The
    server stamps Last-Modified when it answers: a time taken before the request would be
    two seconds older than the answer's Date on a machine that stalls the test a second,
    and the source would then rightly trust it.)"""
    with serving(etag=False) as server:
        source = UrlSource(server.url("/r.pgn"), SMALL)
        server.set("/r.pgn", "one", live=True)
        assert await source.fetch() == b"one"
        server.set("/r.pgn", "two", live=True)  # within the second of the answer
        assert await source.fetch() == b"two"
        assert "If-Modified-Since" not in server.asked[-1]
        # a Last-Modified well before the answer is trusted: an unchanged feed costs a 304
        server.set("/r.pgn", "three", modified=time.time() - 10)
        assert await source.fetch() == b"three"
        assert await source.fetch() is None
        assert "If-Modified-Since" in server.asked[-1]
        assert server.statuses("/r.pgn")[-1] == 304


async def test_an_etag_is_asked_with_if_none_match_alone() -> None:
    with serving() as server:
        source = UrlSource(server.url("/t.trf"), SMALL)
        server.set("/t.trf", "one", modified=time.time() - 10)
        assert await source.fetch() == b"one"
        assert await source.fetch() is None
        assert "If-None-Match" in server.asked[-1]
        assert "If-Modified-Since" not in server.asked[-1]


async def test_a_file_over_the_bound_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "export.trf"
    text = format_trf(seed("gm-roundrobin-2011.trf"))
    path.write_text(text, encoding="utf-8")
    run = make_follower(
        FileSource(path, Limits(max_bytes=len(text.encode()) - 1)),
        options=Options(interval=0.01),
    )
    assert not await run.follower.poll()
    assert any(f"larger than {len(text.encode()) - 1} bytes" in line for line in run.said)
    assert not run.lines()
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    assert run.follower.trf is not None
    run.follower.trf.due = 0.0
    await run.follower.poll()
    assert any("readable again after 1 failure(s)" in line for line in run.said)


def test_once_against_a_trickling_server_stops_at_the_request_timeout(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cli.main import main

    with serving() as server:
        server.set("/t.trf", format_trf(seed("gm-roundrobin-2011.trf")))
        server.misbehave("/t.trf", "trickle")
        started = time.monotonic()
        code = main(["follow", server.url("/t.trf"), "--once", "--request-timeout", "0.5"])
        took = time.monotonic() - started
    err = capsys.readouterr().err
    assert code == 1
    assert "no complete answer within 0.5 s" in err
    assert "trying again" not in err
    assert "Traceback" not in err
    assert took < 10
