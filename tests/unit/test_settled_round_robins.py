"""A round robin's pairs out of reach kept from one round to the next
(:func:`tracker.engine.prospects.outlook.answers_last`): the status pass after a round, built on
what the round before left, says what the status pass from scratch says, pair for pair, on
generated round robins of every edition (with unrated players, forfeits and a round off where
the generator makes them), and none of the pairs kept is certain from scratch
(:func:`tracker.engine.secured.certain_norm`, not worked out for them), so that a pair kept out
of reach that could still make the norm fails here."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.builders import uncarried
from tests.support.generated import tournaments
from tracker import contract as ev
from tracker.engine.prospects import Outlook
from tracker.engine.prospects.round_robin import answers_last
from tracker.engine.round_view import view_after

KEPT: list[int] = []
"""Pairs the status pass answered from the round before's, over every example."""


def rated(events: list[ev.InputEvent]) -> list[ev.InputEvent]:
    """The same event with every player rated (1.42d out of play)."""
    return [
        e.model_copy(update={"rating": 2200})
        if isinstance(e, ev.PlayerRegistered) and e.rating is None
        else e
        for e in events
    ]


def round_robin_events(edition: str) -> st.SearchStrategy[list[ev.InputEvent]]:
    events = tournaments(edition).filter(
        lambda es: isinstance(es[0], ev.TournamentRegistered) and es[0].system.predetermined
    )
    return st.one_of(events, events.map(rated))


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    events=round_robin_events("fide-2009")
    | round_robin_events("fide-pre-2009")
    | round_robin_events("fide-2024")
)
def test_a_round_robin_pair_kept_out_of_reach_is_out_of_reach_from_scratch(
    events: list[ev.InputEvent],
) -> None:
    state = uncarried(events)
    planned = state.tournament.planned_rounds
    assert planned is not None
    prior = None
    for number in range(1, planned + 1):
        secured = view_after(state, number).secured
        carried = Outlook(state, number, prior=prior)
        scratch = Outlook(state, number)
        kept = set(carried.settled)
        assert {k: p.status for k, p in carried.all(secured).items()} == {
            k: p.status for k, p in scratch.all(secured).items()
        }
        # nor is any of them certain (whether it is is not worked out for them either)
        assert kept.isdisjoint(secured)
        if kept:
            assert carried.fixed_field
            KEPT.append(len(kept))
        prior = carried.leaves()


def test_the_property_kept_pairs() -> None:
    """The property above is not vacuous: it met pairs kept from the round before."""
    if not KEPT:
        test_a_round_robin_pair_kept_out_of_reach_is_out_of_reach_from_scratch()
    assert sum(KEPT) > 100


def test_answers_last_only_where_the_argument_holds() -> None:
    """Every player rated, ratings as registered, any won game may go (1.42e), no 1.4.1c:
    a rated 2009 round robin keeps its pairs; with an unrated player (1.42d) or under 2024
    (1.4.1f, 1.4.1c) it does not."""
    from tests.support.round_robins import rr_events

    base = rr_events(close_rounds=True)
    state = uncarried(base)
    ctx = view_after(state, 3).ctx
    assert answers_last(state, ctx)
    unrated = uncarried(
        [
            e.model_copy(update={"rating": None})
            if isinstance(e, ev.PlayerRegistered) and e.rank == 9
            else e
            for e in base
        ]
    )
    assert not answers_last(unrated, view_after(unrated, 3).ctx)
    later = uncarried(
        [
            e.model_copy(update={"start_date": e.start_date.replace(year=2025), "end_date": None})
            if isinstance(e, ev.TournamentRegistered)
            else e
            for e in base
        ]
    )
    assert later.title_rules.name == "fide-2024"
    assert not answers_last(later, view_after(later, 3).ctx)
