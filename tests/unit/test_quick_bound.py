"""The cheap tests of a Swiss pair's contention (tracker/engine/prospects/quick.py)
against the Swiss bound they stand in for: wherever they say "in contention", a record of the
bound (the games so far but some wins, 1.42e, and remaining games all won, 1.48 and the mix
rules 1.43–1.46 against the pool) passes, and the full status pass says "possible"; wherever
they say "out of reach", every record of the bound fails on the games or the rating, the
full status pass says so and keeps the pair as out of reach for good. The
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


def compare_round(state: TournamentState, number: int) -> tuple[int, int, int]:
    """Every pair after round ``number``: the quick tests' answer against the bound's
    (asserted); how many pairs they said were in contention, out of reach, of how many."""
    view = view_after(state, number)
    quick = Outlook(state, number, view.cells, view.ctx)
    full = Outlook(state, number, view.cells, view.ctx)
    full.quick = None  # the bound alone
    if quick.quick is None:
        return 0, 0, 0
    possible = out = tried = 0
    for rank, player in state.players.items():
        for title in quick.rules.eligible_norm_titles(player):
            if (rank, title) in view.secured or not quick.games_left_swiss:
                continue
            tried += 1
            where = (number, rank, title)
            spec = full._spec(rank, title)
            route = full._routes(rank, spec, full.opponents.counted(rank), every=False)[0]
            # the mix answer the bound takes from the cheap tests (Relaxed._mix_ok): a pass
            # there is a pass of the bound's own count, for every record it may try
            games = len(full.opponents.record(rank).ordered)
            for kept, _, _ in route.drops():
                for m in range(route.left + 1):
                    if quick.quick.mix_surely(spec, games, kept + m, m):
                        assert next(route._mix_failures(kept + m, m), None) is None, (*where, m)
            found = quick.quick.status(rank, quick._spec(rank, title))
            if found is None:
                continue
            status = full.prospect(rank, title, secured=False, detail=False).status
            assert status is found, where
            if found is Status.POSSIBLE:
                possible += 1
                assert route.possible(), where
            else:
                # every record fails on the number of games or the rating: for good
                out += 1
                assert not route.possible(), where
                assert not route.rating_ok, where
                assert (rank, title) in full.settled, where
    return possible, out, tried


def compare_events(events: Iterable[ev.InputEvent]) -> tuple[int, int, int]:
    """:func:`compare_round` after every finished round of ``events``, summed."""
    state: TournamentState | None = None
    possible = out = tried = 0
    for event in events:
        state, emitted = apply(state, event)
        for alert in emitted:
            if isinstance(alert, ev.RoundFinished) and state is not None:
                p, o, t = compare_round(state, alert.round)
                possible, out, tried = possible + p, out + o, tried + t
    return possible, out, tried


@pytest.mark.parametrize(
    "start",
    [date(2005, 1, 1), date(2010, 1, 1), date(2012, 7, 1), date(2025, 7, 1)],
    ids=["pre2009", "2009", "2009r2012", "2024"],
)
def test_the_quick_tests_decide_only_as_the_bound_does(start: date) -> None:
    # 11 rounds: in a 9-round event of 2024 1.4.1c's 8 games leave "out of reach" to the bound
    groups = swiss_events(60, 11, seed=7, start=start)
    possible, out, tried = compare_events(e for group in groups for e in group)
    # they decide many pairs, not all: some are the bound's to decide
    assert possible > 0
    assert out > 0
    assert possible + out < tried


def test_the_quick_tests_count_unrated_opponents_as_the_bound_does() -> None:
    """Every third player unrated: the unrated rule (1.46a) then decides some pairs."""
    groups = swiss_events(60, 9, seed=7, start=date(2012, 7, 1))
    groups[0] = [
        e.model_copy(update={"rating": None})
        if isinstance(e, ev.PlayerRegistered) and e.rank % 3 == 0
        else e
        for e in groups[0]
    ]
    possible, out, tried = compare_events(e for group in groups for e in group)
    assert possible > 0
    assert possible + out < tried


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(events=tournaments("fide-2024") | tournaments("fide-2009"))
def test_on_small_generated_fields_the_quick_tests_agree_with_the_bound(
    events: list[ev.InputEvent],
) -> None:
    compare_events(events)
