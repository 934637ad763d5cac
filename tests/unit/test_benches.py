"""The benchmarks still run against the core they measure (no figures checked: a benchmark
prints figures, it does not pass or fail). ``bench_core`` once broke with an AttributeError
after a refactor moved the function it times; these runs catch that at test time."""

from __future__ import annotations

import pytest

pytest.importorskip("aiokafka", reason="the benchmarks need the bench extra")

from bench import bench_core
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
