"""The benchmarks still run against the core they measure (no figures checked: a benchmark
prints figures, it does not pass or fail). ``bench_core`` once broke with an AttributeError
after a refactor moved the function it times; these runs catch that at test time."""

from __future__ import annotations

import inspect

import pytest

pytest.importorskip("aiokafka", reason="the benchmarks need the bench extra")

from bench import bench_core
from tracker.engine import transition


def test_bench_core_runs_on_a_small_input(capsys: pytest.CaptureFixture[str]) -> None:
    bench_core.main(tournaments=2, players=4)
    out = capsys.readouterr().out
    assert "2 round robins of 4 players" in out
    assert "msg/s wall" in out
    assert "ms CPU per finished round (6 rounds)" in out  # 3 rounds each, all timed
    assert transition.prospect_alerts.__name__ == "prospect_alerts"  # put back afterwards


def test_the_reduced_worker_of_bench_streams_replaces_what_transition_calls() -> None:
    """``bench_streams.reduced_worker`` swaps ``transition._evaluate(state, number)`` and
    calls ``transition._round_finished(state, number, rows)``."""
    evaluate = inspect.signature(transition._evaluate)
    assert list(evaluate.parameters) == ["state", "number"]
    finished = inspect.signature(transition._round_finished)
    assert list(finished.parameters)[:3] == ["state", "number", "rows"]
    rest = list(finished.parameters.values())[3:]
    assert all(p.default is not inspect.Parameter.empty for p in rest)


def test_bench_titles_runs_on_a_small_input(capsys: pytest.CaptureFixture[str]) -> None:
    from bench import bench_titles

    bench_titles.main(sizes=(3, 5), players=2, entries=10)
    out = capsys.readouterr().out
    assert "   5 norms:" in out
    assert "ms per title fact (12 facts x 5)" in out
    assert "a rating list of 10 players" in out
