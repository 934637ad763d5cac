"""A state rebuilt from its record is the state (issue 22, point 6): for each arbiter's
mistake of ``tests/support/corrections.py`` and its correction, and for generated
tournaments, the state after any event, written as a :class:`StateRecord` (to JSON and back)
and rebuilt, equals the live state, and the rest of the feed gives the same alerts, ids
included, from either."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.corrections import Events, cases, feed, rr
from tests.support.generated import tournaments as generated
from tracker import contract as ev
from tracker.engine.state import TournamentState
from tracker.engine.state_record import StateRecord, record_of, state_of
from tracker.engine.transition import Rejected, apply

CASES = cases()


def rebuilt(state: TournamentState) -> TournamentState:
    text = record_of(state).model_dump_json()
    return state_of(StateRecord.model_validate_json(text))


def rest(state: TournamentState, events: Events) -> list[str]:
    out = []
    for e in events:
        try:
            state, alerts = apply(state, e)
        except Rejected as exc:
            out.append(f"refused {exc}")
            continue
        out.extend(a.model_dump_json() for a in alerts)
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_corrected_state_rebuilt_from_its_record_goes_on_the_same(case: str) -> None:
    events = rr(close_rounds=True)
    mistaken, fix = CASES[case]
    stream = [*mistaken(events), *fix, *events[-12:]]
    corrections = [i for i, e in enumerate(stream) if e in fix]
    state: TournamentState | None = None
    checked = 0
    for i, event in enumerate(stream):
        try:
            state, _ = apply(state, event)
        except Rejected:
            continue
        if i in corrections or i % 25 == 0:
            again = rebuilt(state)
            assert again == state
            assert list(again.players) == list(state.players)
            assert rest(again, stream[i + 1 :]) == rest(state, stream[i + 1 :])
            checked += 1
    assert checked >= 4
    assert state is not None
    assert state.sent, "alerts in force are part of the state"
    final, _, _ = feed(stream)
    assert rebuilt(final) == final


@pytest.mark.parametrize("edition", ["fide-2009", "fide-2024"])
def test_generated_tournaments_rebuilt_anywhere_go_on_the_same(edition: str) -> None:
    @settings(
        max_examples=20,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(events=generated(edition), data=st.data())
    def run(events: Events, data: st.DataObject) -> None:
        at = data.draw(st.integers(1, len(events) - 1), label="rebuilt after")
        state: TournamentState | None = None
        for e in events[:at]:
            state, _ = apply(state, e)
        assert state is not None
        again = rebuilt(state)
        assert again == state
        assert rest(again, events[at:]) == rest(state, events[at:])

    run()


def test_the_editions_are_chosen_again_from_the_tournament() -> None:
    events = rr(close_rounds=False)
    forced = events[0].model_copy(update={"edition": "fide-2024"})
    assert isinstance(forced, ev.TournamentRegistered)
    state, _ = apply(None, forced)
    again = rebuilt(state)
    assert again.title_rules is state.title_rules
    assert again.edition_reason == state.edition_reason
