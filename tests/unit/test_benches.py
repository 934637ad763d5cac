"""The benchmarks still run against the core they measure (no figures checked: a benchmark
prints figures, it does not pass or fail). ``bench_core`` once broke with an AttributeError
after a refactor moved the function it times; these runs catch that at test time."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("aiokafka", reason="the benchmarks need the bench extra")

from bench import baseline, bench_core
from tests.support.builders import tournament_events
from tracker.engine import transition


def test_bench_core_runs_on_a_small_input(capsys: pytest.CaptureFixture[str]) -> None:
    bench_core.main(tournaments=2, players=4)
    out = capsys.readouterr().out
    assert "2 round robins of 4 players" in out
    assert "msg/s wall" in out
    assert "ms CPU per finished round (6 rounds)" in out  # 3 rounds each, all timed
    assert transition.prospect_alerts.__name__ == "prospect_alerts"  # put back afterwards


@pytest.mark.parametrize("summaries", [False, True])
def test_the_reduced_core_of_bench_streams_derives_only_round_finished(summaries: bool) -> None:
    """``bench_streams.reduced_core`` (the worker of the *ceiling* and *summaries* runs):
    a round robin of four gives one ``round_finished`` per round and no other alert, with
    the standings only in the *summaries* run."""
    from bench import bench_streams

    core = bench_streams.reduced_core(summaries)
    names = [(f"P{i}", 2400 + 10 * i, None, "GER") for i in range(4)]
    games = [(1, 1, 2, "1-0"), (1, 3, 4, "1/2-1/2"), (2, 1, 3, "0-1"), (2, 2, 4, "1-0")]
    state, alerts = None, []
    for event in tournament_events("t", names, games, planned_rounds=3):
        state, out = core(state, event)
        alerts.extend(out)
    assert [(a.type, a.round) for a in alerts] == [("round_finished", 1), ("round_finished", 2)]
    assert all(bool(a.standings) is summaries for a in alerts)  # type: ignore[union-attr]


def test_bench_titles_runs_on_a_small_input(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import bench_titles

    bench_titles.main(sizes=(3, 5), players=2, entries=10)
    out = capsys.readouterr().out
    assert "   5 norms:" in out
    assert "ms per title fact (12 facts x 5)" in out
    assert "a rating list of 10 players" in out


def test_turns_alternate_the_trees_and_print_the_range_of_ratios(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--turns 4`` runs this tree and the revision as ABBA ABBA, each in a fresh process
    (the caller's run is not one of them): a drift of the machine's speed favours neither
    tree."""
    order: list[str] = []
    speed = iter(range(2, 20))

    @contextlib.contextmanager
    def revision(rev: str) -> Iterator[Path]:
        yield Path("/nowhere")

    def measure(tree: Path | None, label: str) -> baseline.Figures:
        order.append("base" if tree else "this")
        return {"round ms": float(next(speed))}

    monkeypatch.setattr(baseline, "_revision", revision)
    monkeypatch.setattr(baseline, "_measure", measure)
    args = argparse.Namespace(save=None, baseline="main", turns=4)
    assert baseline.finish(args, {"round ms": 1.0}) == 0
    assert order == ["this", "base", "base", "this", "this", "base", "base", "this"]
    table = capsys.readouterr().out.splitlines()[-1].split()
    # this tree 2, 5, 6, 9 against 3, 4, 7, 8 (the caller's 1.0 left out): medians 5.5 and
    # 5.5, turns 2/3 .. 9/8
    assert table[-4:] == ["5.50", "5.50", "1.00", "0.67-1.25"]
