"""Following an arbiter's TRF export as it changes (issue 14): successive snapshots of the
seed events, served over a local HTTP server or written to a file, give exactly the alerts
of ``tracker replay`` of the final file; half-written files and snapshots that lose facts
are held; corrections of results are sent as ``result_corrected``."""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Sequence
from pathlib import Path

import pytest

from follow.embedded import EmbeddedSink
from follow.runner import Follower, Options, SinkError
from follow.sources import FileSource, UrlSource
from tests.support.follow import (
    ROOT,
    SEEDS,
    _blank_byes,
    _blank_result,
    _is_bye,
    _swap,
    boards,
    cut,
    live,
    replay_lines,
    seed,
    serving,
)
from tests.support.follow import follower as make_follower
from tracker import contract as ev
from tracker.domain.results import Code
from tracker.formats.decoding import decode
from tracker.formats.trf import Cell, TrfFile, TrfPlayer, format_trf, parse_trf
from tracker.host.replay import Replay, Sourced, render
from tracker.ingest.ledger import Fact
from tracker.ingest.snapshots import read_snapshot

TRF_SEEDS = sorted(p.name for p in SEEDS.glob("*.trf"))


def sent(state_file: Path) -> list[ev.InputEvent]:
    """The events a follower handed to the tracker, from its state file."""
    return [
        ev.parse_input(json.loads(line)["event"])
        for line in state_file.read_text("utf-8").splitlines()
    ]


def replay_events(events: list[ev.InputEvent]) -> list[str]:
    run = Replay()
    out: list[str] = []
    for e in events:
        item = Sourced(e, "")
        out.extend(render(run, item, run.feed(item), "jsonl", 10, set()))
    return out


def with_result(trf: TrfFile, round_: int, a: int, b: int, mine: Code) -> TrfFile:
    """The file with the result of board a-b in round ``round_`` set to ``mine`` for ``a``."""
    players = []
    for p in trf.players:
        cells = list(p.cells)
        if p.rank in (a, b):
            c = cells[round_ - 1]
            assert c is not None
            cells[round_ - 1] = Cell(c.opponent, c.colour, mine if p.rank == a else mine.opposite())
        players.append(dataclasses.replace(p, cells=tuple(cells)))
    return dataclasses.replace(trf, players=tuple(players))


def other(code: Code | None) -> Code:
    return Code.LOSS if code is Code.WIN else Code.WIN


@pytest.mark.parametrize("name", TRF_SEEDS)
async def test_a_live_event_over_http_gives_the_alerts_of_replay(name: str) -> None:
    final = seed(name)
    with serving() as server:
        run = make_follower(UrlSource(server.url("/live.trf")))
        for text in live(final):
            server.set("/live.trf", text)
            assert await run.follower.poll()
        assert run.lines() == replay_lines((SEEDS / name).read_text("utf-8"))
        assert not run.reports("held")
        assert not run.reports("refused")
        # an unchanged file is asked with If-None-Match and answered 304: nothing is sent
        assert not await run.follower.poll()
        assert server.statuses("/live.trf")[-1] == 304


async def test_a_file_rewritten_in_place_is_followed(tmp_path: Path) -> None:
    final = seed("gm-roundrobin-2011.trf")
    path = tmp_path / "export.trf"
    run = make_follower(FileSource(path))
    for text in live(final):
        # the same size and, often, the same modification time: compared by content
        path.write_text(text, encoding="utf-8")
        await run.follower.poll()
    assert run.lines() == replay_lines(format_trf(final))


async def test_byes_entered_ahead_never_finish_a_round() -> None:
    final = seed("swiss-open-9r-2012.trf")
    with serving() as server:
        run = make_follower(UrlSource(server.url("/t.trf")))
        for text in live(final, ahead=True):
            server.set("/t.trf", text)
            await run.follower.poll()
        want = replay_lines(format_trf(final))
        assert run.lines() == want
        finished = [json.loads(x)["round"] for x in want if '"round_finished"' in x]
        assert finished == list(range(1, 10))
        # byes ahead beside a round in progress: every export is taken as it comes
        assert not run.reports("held")


async def test_a_result_corrected_within_the_round(tmp_path: Path) -> None:
    final = seed("swiss-open-9r-2012.trf")
    a, b = boards(final, 4)[0]
    cell = final.player(a).cell(4)
    assert cell is not None
    wrong = with_result(final, 4, a, b, other(cell.code))
    snapshots = live(final)
    at = 1 + 3 * 3 + 1  # round 4: the snapshot with half the results
    snapshots[at] = format_trf(cut(wrong, 4, len(boards(final, 4)) // 2))
    state = tmp_path / "state.jsonl"
    with serving() as server:
        run = make_follower(UrlSource(server.url("/t.trf")), state_file=state)
        for text in snapshots:
            server.set("/t.trf", text)
            await run.follower.poll()
    assert run.lines() == replay_lines(format_trf(final))
    fixes = [e for e in sent(state) if isinstance(e, ev.ResultCorrected)]
    assert [(f.round, {f.white, f.black}) for f in fixes] == [(4, {a, b})]


async def test_a_result_corrected_after_the_round_finished(tmp_path: Path) -> None:
    final = seed("dropped-win-2012.trf")
    a, b = boards(final, 2)[0]
    cell = final.player(a).cell(2)
    assert cell is not None
    wrong = with_result(final, 2, a, b, other(cell.code))
    snapshots = live(final)
    # round 2 finishes with the wrong result; the export of round 3's pairing corrects it
    half = len(boards(final, 2)) // 2
    snapshots[1 + 3 + 1] = format_trf(cut(wrong, 2, half))
    snapshots[1 + 3 + 2] = format_trf(cut(wrong, 2))
    state = tmp_path / "state.jsonl"
    with serving() as server:
        run = make_follower(UrlSource(server.url("/t.trf")), state_file=state)
        for text in snapshots:
            server.set("/t.trf", text)
            await run.follower.poll()
    events = sent(state)
    assert sum(isinstance(e, ev.ResultCorrected) for e in events) == 1
    # the alerts are those of the facts in the order they came, each fact once
    assert run.lines() == replay_events(events)
    assert len({json.dumps(e.model_dump(mode="json")) for e in events}) == len(events)
    # and the tracker ends with the file's facts
    assert run.follower.ledger is not None
    held = {f.event for f in run.follower.ledger.facts.values()}
    assert held == set(read_snapshot(format_trf(final)).facts.values())


async def test_a_half_written_file_is_never_taken() -> None:
    """Every prefix of the next export (what a poll can catch while the exporter writes)
    is held: nothing is sent until the whole file is there."""
    final = seed("swiss-open-9r-2012.trf")
    snapshots = live(final)
    k = 1 + 3 * 4  # after round 4
    with serving() as server:
        run = make_follower(UrlSource(server.url("/t.trf")))
        for text in snapshots[: k + 1]:
            server.set("/t.trf", text)
            await run.follower.poll()
        before = len(run.lines())
        ledger = run.follower.ledger
        nxt = snapshots[k + 1]
        cuts = {i + 1 for i, ch in enumerate(nxt) if ch == "\n"} - {len(nxt)}
        for line_start in sorted(cuts):
            cuts |= {line_start + 3, line_start + 40, line_start + 95, line_start + 101}
        for at in sorted(c for c in cuts if 0 < c < len(nxt)):
            server.set("/t.trf", nxt[:at])
            await run.follower.poll()
            assert run.follower.ledger is ledger, f"a cut at {at} changed the tracker"
        assert len(run.lines()) == before
        assert run.reports("held")
        for text in snapshots[k + 1 :]:
            server.set("/t.trf", text)
            await run.follower.poll()
    assert run.lines() == replay_lines(format_trf(final))


async def test_a_file_without_a_final_line_break_is_taken_once_unchanged() -> None:
    final = seed("gm-roundrobin-2011.trf")
    snapshots = live(final)
    with serving() as server:
        run = make_follower(UrlSource(server.url("/t.trf")))
        for text in snapshots[:-1]:
            server.set("/t.trf", text)
            await run.follower.poll()
        done = len(run.lines())
        server.set("/t.trf", snapshots[-1].rstrip("\n"))
        await run.follower.poll()
        assert len(run.lines()) == done  # maybe still being written
        await run.follower.poll()  # unchanged (304): the exporter is done
    assert run.lines() == replay_lines(format_trf(final))


def _drop_player(trf: TrfFile, rank: int) -> TrfFile:
    """The file without the player, and record 062 counting one fewer."""
    players = tuple(p for p in trf.players if p.rank != rank)
    header = dataclasses.replace(trf.header, player_count=len(players))
    return dataclasses.replace(trf, header=header, players=players)


@pytest.mark.parametrize("loss", ["result", "player", "pairing", "bye"])
async def test_a_snapshot_that_loses_facts_is_held(loss: str) -> None:
    final = seed("swiss-open-9r-2012.trf")
    snapshots = live(final)
    k = 1 + 3 * 2  # round 3 paired
    good = cut(final, 3, 0)
    assert format_trf(good) == snapshots[k]
    (a, b), (c, d) = boards(final, 2)[:2]
    if loss == "result":
        bad = cut(with_result(final, 2, a, b, Code.WIN), 3, 0)
        bad = _blank_result(bad, 2, a, b)
    elif loss == "player":
        bad = _drop_player(cut(final, 2), 40)
    elif loss == "pairing":
        bad = _swap(cut(final, 3, 0), 3, boards(final, 3)[0], boards(final, 3)[1])
    else:
        rank = next(p.rank for p in final.players if any(_is_bye(x) for x in p.cells[:3]))
        bad = _blank_byes(cut(final, 3, 0), rank)
    with serving() as server:
        run = make_follower(UrlSource(server.url("/t.trf")))
        for text in snapshots[: k + 1]:
            server.set("/t.trf", text)
            await run.follower.poll()
        ledger = run.follower.ledger
        server.set("/t.trf", format_trf(bad))
        await run.follower.poll()
        assert run.follower.ledger is ledger
        (held,) = run.reports("held")
        assert "the last good snapshot stands" in held
        for text in snapshots[k + 1 :]:
            server.set("/t.trf", text)
            await run.follower.poll()
    assert run.lines() == replay_lines(format_trf(final))
    _ = (c, d)


async def test_an_accepted_removal_is_sent_as_its_correction() -> None:
    final = seed("swiss-open-9r-2012.trf")
    gone = 40  # deleted from the start list by the arbiter before round 1
    with serving() as server:
        run = make_follower(
            UrlSource(server.url("/t.trf")), options=Options(interval=0.0, accept_removals=True)
        )
        server.set("/t.trf", format_trf(cut(final, 0)))
        await run.follower.poll()
        ledger = run.follower.ledger
        server.set("/t.trf", format_trf(_drop_player(cut(final, 0), gone)))
        await run.follower.poll()
    assert ledger is not None
    assert run.follower.ledger is not None
    assert set(ledger.facts) - set(run.follower.ledger.facts) == {("player", gone)}
    assert run.follower.last_good is not None
    assert len(run.follower.last_good.trf.players) == 39
    assert not run.reports("held")
    assert not run.reports("not expressible")
    assert any(f"removals accepted: player {gone} " in line for line in run.said)
    state = run.follower.ledger.state
    assert state is not None
    assert gone not in state.players  # player_removed reached the tracker


async def test_a_changed_tournament_record_is_reported_and_the_rest_sent() -> None:
    final = seed("gm-roundrobin-2011.trf")
    renamed = dataclasses.replace(
        final, header=dataclasses.replace(final.header, name="Costa Brava Open 2011")
    )
    snapshots = live(final)
    with serving() as server:
        run = make_follower(UrlSource(server.url("/t.trf")))
        for i, text in enumerate(snapshots):
            if i >= 5:
                text = text.replace(final.header.name, renamed.header.name)
            server.set("/t.trf", text)
            await run.follower.poll()
    assert run.lines() == replay_lines(format_trf(final))
    (line,) = run.reports("not expressible")
    assert "tournament gm-roundrobin-2011" in line
    assert "'Costa Brava Open 2011'" in line


async def test_a_follower_restarted_mid_round_sends_nothing_twice(tmp_path: Path) -> None:
    final = seed("swiss-11r-secured-2013.trf")
    snapshots = live(final)
    state = tmp_path / "state.jsonl"
    stop = 1 + 3 * 6 + 1  # killed after half of round 7's results
    with serving() as server:
        first = make_follower(UrlSource(server.url("/t.trf")), state_file=state)
        for text in snapshots[: stop + 1]:
            server.set("/t.trf", text)
            await first.follower.poll()
        # more results arrive while it is down
        server.set("/t.trf", snapshots[stop + 1])
        second = make_follower(UrlSource(server.url("/t.trf")), state_file=state)
        for text in snapshots[stop + 1 :]:
            server.set("/t.trf", text)
            await second.follower.poll()
    assert any("already sent" in line for line in second.said)
    assert first.lines() + second.lines() == replay_lines(format_trf(final))
    events = sent(state)
    assert len(events) == len(set(events))
    assert set(events) == set(read_snapshot(format_trf(final)).facts.values())


async def test_errors_back_off_and_recovery_is_reported() -> None:
    final = seed("gm-roundrobin-2011.trf")
    with serving() as server:
        run = make_follower(UrlSource(server.url("/t.trf")), options=Options(interval=0.5))
        poll = run.follower.trf
        assert poll is not None
        server.set("/t.trf", format_trf(cut(final, 1)))
        server.fail("/t.trf", 2)
        waits = []
        for _ in range(3):
            poll.due = 0.0  # the test does the waiting
            await run.follower.poll()
            waits.append(poll.failures)
        assert server.statuses("/t.trf") == [503, 503, 200]
        assert waits == [1, 2, 0]
        assert any("HTTP 503" in line and "trying again in 1 s" in line for line in run.said)
        assert any("readable again after 2 failure(s)" in line for line in run.said)
        assert run.lines()  # round 1 was followed once the server answered


async def test_a_late_entrant_is_registered_and_its_past_absences_refused() -> None:
    final = seed("swiss-open-9r-2012.trf")
    paired = cut(final, 2, 0)
    late = TrfPlayer(
        rank=41,
        name="Spaet, Konrad",
        federation="GER",
        sex="m",
        rating=1900,
        fide_id=90000299,
        cells=(None, Cell(None, "-", Code.HALF_BYE)),  # arrives with a bye for round 2
    )
    entered = dataclasses.replace(
        paired,
        header=dataclasses.replace(paired.header, player_count=41),
        players=(*paired.players, late),
    )
    with serving() as server:
        run = make_follower(UrlSource(server.url("/t.trf")))
        for text in live(final)[:4]:  # round 1 finished
            server.set("/t.trf", text)
            await run.follower.poll()
        server.set("/t.trf", format_trf(entered))
        await run.follower.poll()
    ledger = run.follower.ledger
    assert ledger is not None
    assert ("player", 41) in ledger.facts
    assert ("bye", 2, 41) in ledger.facts
    assert ("bye", 1, 41) not in ledger.facts
    (refused,) = run.reports("refused")
    assert "round 1: bye Z of player 41: round: round 1 has already finished" in refused


class _Flaky(EmbeddedSink):
    """The embedded tracker behind a transport that fails every other send."""

    def __init__(self, state: Path) -> None:
        super().__init__(io.StringIO(), "jsonl", 10, state, lambda r: None)
        self.calls = 0

    async def send(self, facts: Sequence[Fact]) -> None:
        self.calls += 1
        if self.calls % 2:
            raise SinkError("connection reset")
        await super().send(facts)


async def test_a_destination_that_fails_is_sent_to_again_after_reading_back(
    tmp_path: Path,
) -> None:
    final = seed("gm-roundrobin-2011.trf")
    sink = _Flaky(tmp_path / "state.jsonl")
    said: list[str] = []
    with serving() as server:
        follower = Follower(sink, said.append, Options(interval=0.0), UrlSource(server.url("/t")))
        for text in live(final):
            server.set("/t", text)
            await follower.poll()  # fails: the ledger is read back, the bytes taken as new
            await follower.poll()  # sent
    out = sink.out
    assert isinstance(out, io.StringIO)
    lines = [line for line in out.getvalue().splitlines() if line]
    assert lines == replay_lines(format_trf(final))
    assert any("the destination failed (connection reset); trying again" in x for x in said)
    assert len(sent(tmp_path / "state.jsonl")) == len(set(sent(tmp_path / "state.jsonl")))


REAL = sorted((ROOT / "tests" / "data" / "real").glob("*.trf"))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
async def test_the_real_corpus_followed_live_gives_the_alerts_of_replay(path: Path) -> None:
    """Each real file cut round by round (pairings, then half the results, then all) as its
    program would have exported it: byes ahead, rounds without XXR, team records, other code
    pages (read back as the file's text)."""
    final = parse_trf(decode(path.read_bytes()).text)
    overrides = ev.Overrides()
    if final.header.system is None and final.system.predetermined:
        # a round robin without XNS or 092 is one only once every pair has met: the
        # operator says so (--system), as the README asks
        overrides = ev.Overrides(system=final.system)
    with serving() as server:
        run = make_follower(
            UrlSource(server.url("/t.trf")), options=Options(interval=0.0, overrides=overrides)
        )
        for text in live(final, ahead=True):
            server.set("/t.trf", text)
            await run.follower.poll()
    assert run.lines() == replay_lines(format_trf(final))
    assert not run.reports("held")
    assert not run.reports("refused")
    assert not run.reports("not expressible")
