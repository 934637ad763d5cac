"""The cheap test that a Swiss pair is in contention (tracker/engine/prospects/quick.py)
against the Swiss bound it stands in for: wherever it says "in contention", the bound's
first record (every game so far and every remaining game counted and won, 1.48 and the mix
rules 1.43–1.46 against the pool) passes, and the full status pass says "possible". The
argument (a Swiss pool is the field less at most ``up_to + 1`` players, so its counts and
ratings are at least the field's so lowered) is in the module's docstring; these tests
are what keeps it honest, on opens of every edition and on small hypothesis-generated
fields where the pool is nearly used up."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings

from tests.support.generated import tournaments
from tests.support.swiss import swiss_events
from tracker import contract as ev
from tracker.engine.prospects import Outlook, Status
from tracker.engine.round_view import view_after
from tracker.engine.state import TournamentState
from tracker.engine.transition import apply


def compare_round(state: TournamentState, number: int) -> tuple[int, int]:
    """Every pair after round ``number``: the quick test's answer against the bound's
    (asserted); how many pairs it said were in contention, of how many."""
    view = view_after(state, number)
    quick = Outlook(state, number, view.cells, view.ctx)
    full = Outlook(state, number, view.cells, view.ctx)
    full.quick = None  # the bound alone
    if quick.quick is None:
        return 0, 0
    passed = tried = 0
    for rank, player in state.players.items():
        for title in quick.rules.eligible_norm_titles(player):
            if (rank, title) in view.secured or not quick.games_left_swiss:
                continue
            tried += 1
            if not quick.quick.passes(rank, quick._spec(rank, title)):
                continue
            passed += 1
            spec = full._spec(rank, title)
            first = full._routes(rank, spec, full.opponents.counted(rank), every=False)[0]
            # the bound's first record: every game so far, every game left counted and won
            m = first.left
            games, half, adjusted = next(first.drops())
            total = full.least_sum(spec, half + 2 * m, games + m)
            assert m == full.games_left_swiss, (number, rank, title)
            assert total is not None, (number, rank, title)
            assert total - adjusted <= first.best[m], (number, rank, title)
            assert first._mix_ok(games + m, m), (number, rank, title)
            status = full.prospect(rank, title, secured=False, detail=False).status
            assert status is Status.POSSIBLE, (number, rank, title)
    return passed, tried


def compare_events(events: Iterable[ev.InputEvent]) -> tuple[int, int]:
    """:func:`compare_round` after every finished round of ``events``, summed."""
    state: TournamentState | None = None
    passed = tried = 0
    for event in events:
        state, out = apply(state, event)
        for alert in out:
            if isinstance(alert, ev.RoundFinished) and state is not None:
                p, t = compare_round(state, alert.round)
                passed, tried = passed + p, tried + t
    return passed, tried


@pytest.mark.parametrize(
    "start",
    [date(2005, 1, 1), date(2010, 1, 1), date(2012, 7, 1), date(2025, 7, 1)],
    ids=["pre2009", "2009", "2009r2012", "2024"],
)
def test_the_quick_test_says_in_contention_only_where_the_bound_does(start: date) -> None:
    groups = swiss_events(60, 9, seed=7, start=start)
    passed, tried = compare_events(e for group in groups for e in group)
    # it decides many pairs, not all: the later rounds' pairs are the bound's
    assert 0 < passed < tried


def test_the_quick_test_counts_unrated_opponents_as_the_bound_does() -> None:
    """Every third player unrated: the unrated rule (1.46a) then decides some pairs."""
    groups = swiss_events(60, 9, seed=7, start=date(2012, 7, 1))
    groups[0] = [
        e.model_copy(update={"rating": None})
        if isinstance(e, ev.PlayerRegistered) and e.rank % 3 == 0
        else e
        for e in groups[0]
    ]
    passed, tried = compare_events(e for group in groups for e in group)
    assert 0 < passed < tried


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(events=tournaments("fide-2024") | tournaments("fide-2009"))
def test_on_small_generated_fields_the_quick_test_agrees_with_the_bound(
    events: list[ev.InputEvent],
) -> None:
    compare_events(events)
