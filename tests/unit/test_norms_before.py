"""The norm search of a round built on the norms of the round before
(:func:`tracker.engine.evaluation.norms_before`, 1.42f of 2009, 1.4.1e of 2024): a norm found
before is found again without a search, and a norm not found before is looked for on the whole
record only. Round by round, the norms so found equal those of the search from scratch, verdict
for verdict (each lazy verdict made), on generated Swiss events and round robins of every
edition and on generated opens with the Swiss exemption; where the argument does not hold
(round robins, whose certain norms the search does not find) nothing is built on."""

from __future__ import annotations

import dataclasses
import random
from datetime import date

import pytest
from hypothesis import HealthCheck, given, settings

from tests.support.builders import uncarried
from tests.support.generated import tournaments
from tests.support.paths import DATA
from tests.support.swiss import swiss_events
from tracker import contract as ev
from tracker.domain.titles import Title
from tracker.engine.evaluation import achieved_norms, norms_before
from tracker.engine.round_view import view_after
from tracker.engine.secured import by_exemption
from tracker.engine.state import TournamentState
from tracker.engine.transition import apply
from tracker.host.replay import read_events
from tracker.norms.search import Check, find_norm

RR10 = (DATA / "guesses" / "rr10-2009.trf").read_text(encoding="utf-8")

KEPT: list[int] = []
"""Norms of the round before found again without a search, over every example."""


def same_norms_round_by_round(state: TournamentState) -> None:
    planned = state.tournament.planned_rounds
    assert planned is not None
    previous = None
    for number in range(1, planned + 1):
        view = view_after(state, number)  # from scratch: the state carries nothing
        scratch = achieved_norms(state, view.rows, view.ctx)
        if previous is not None:
            before = norms_before(state, number, view.ctx, previous.ctx, previous.norms)
            if state.tournament.system.predetermined:
                assert before is None
            if before is not None:
                built = achieved_norms(state, view.rows, view.ctx, before)
                assert list(built) == list(scratch)
                assert {k: built[k] for k in built} == {k: scratch[k] for k in scratch}
                KEPT.append(len(set(before) & set(scratch)))
        previous = view


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(events=tournaments("fide-2009") | tournaments("fide-pre-2009") | tournaments("fide-2024"))
def test_norms_built_on_the_round_before_equal_the_search_from_scratch(
    events: list[ev.InputEvent],
) -> None:
    same_norms_round_by_round(uncarried(events))


@pytest.mark.parametrize("start", [date(2008, 7, 1), date(2012, 7, 1), date(2025, 3, 1)])
def test_an_open_with_norms_from_round_9(start: date) -> None:
    """A 120-player open of 11 rounds: norms from round 9 on, kept to the end; the Swiss
    exemption (1.43e, 1.4.3d) read round by round."""
    events = [e for group in swiss_events(120, 11, seed=3, start=start) for e in group]
    before = sum(KEPT)
    same_norms_round_by_round(uncarried(events))
    assert sum(KEPT) > before


def test_the_property_kept_norms() -> None:
    """The property above is not vacuous: it met norms of the round before found again."""
    if not KEPT:
        test_norms_built_on_the_round_before_equal_the_search_from_scratch()
    assert sum(KEPT) > 20


def test_nothing_is_built_on_where_the_argument_does_not_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1.42f: a Swiss of the same context builds on the round before; a change of what the
    requirements or the games read (the Swiss exemption starting to hold, say) does not, nor
    an edition asking more games of a record cut after the norm than of any, nor a round
    robin, whose view holds a norm certain before it is achieved (after round 8 of
    ``rr10-2009.trf``, with 8 games), which the search does not find."""
    events = [e for group in swiss_events(40, 11, seed=3) for e in group]
    state = uncarried(events)
    before, after = view_after(state, 9), view_after(state, 10)
    assert norms_before(state, 10, after.ctx, before.ctx, before.norms) is before.norms
    for change in (
        {"swiss_exempt": not before.ctx.swiss_exempt},
        {"swiss_exempt_possible": not before.ctx.swiss_exempt_possible},
        {"unrated_scored_zero": frozenset({1})},
        {"game_date_ratings": True},
        {"event_check": Check("1.14", "rate of play", "standard", "rapid", False)},
    ):
        other = dataclasses.replace(before.ctx, **change)
        assert norms_before(state, 10, after.ctx, other, before.norms) is None, change
    # an edition asking more games of a record cut after the norm (1.42f) than of any
    monkeypatch.setattr(type(state.title_rules), "min_games_after_cut", lambda self, t: 10)
    assert norms_before(state, 10, after.ctx, before.ctx, before.norms) is None
    monkeypatch.undo()

    rr = uncarried([s.event for s in read_events(RR10, "rr10-2009.trf")])
    eighth = view_after(rr, 8)
    assert (10, Title.GM) in eighth.norms  # certain, not found: 8 games
    assert find_norm(rr.players[10], eighth.cells[10], Title.GM, eighth.ctx, rr.title_rules) is None
    assert norms_before(rr, 9, view_after(rr, 9).ctx, eighth.ctx, eighth.norms) is None


def host_heavy_open(share: float, start: date) -> list[ev.InputEvent]:
    """A 120-player open of 11 rounds in which about ``share`` of the players are of the
    host federation (GER): many norms hold only by the Swiss exemption (1.4.3d)."""
    rng = random.Random(3)
    events = [e for group in swiss_events(120, 11, seed=3, start=start) for e in group]
    return [
        e.model_copy(update={"federation": "GER"})
        if isinstance(e, ev.PlayerRegistered) and rng.random() < share
        else e
        for e in events
    ]


@pytest.mark.parametrize("start", [date(2012, 7, 1), date(2025, 3, 1)])
def test_the_conditions_built_on_the_round_before_equal_those_from_scratch(start: date) -> None:
    """The conditions of each norm (the Swiss exemption of 2024's 1.4.3d, searched for
    without it) in the view built on the round before's, against the view from scratch,
    round by round, on an open where norms hold only by the exemption and then without it."""
    state = None
    held_by_exemption = 0
    for event in host_heavy_open(0.7, start):
        announced = 0 if state is None else state.announced
        state, _ = apply(state, event)
        carry = state.carry
        if state.announced == announced or carry is None or carry.number < 10:
            continue
        built = carry.watch.view
        scratch = view_after(dataclasses.replace(state, carry=None), built.number)
        assert list(built.norms) == list(scratch.norms)
        assert built.pending == scratch.pending
        held_by_exemption += sum(by_exemption(state, found) for found in built.pending.values())
    if start.year > 2024:
        assert held_by_exemption > 0  # the 2024 exemption is read round by round
