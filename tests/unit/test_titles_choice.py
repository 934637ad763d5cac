"""Which norms an application uses, against a brute force over every subset of a player's
norms; and the transition over a player's title facts (idempotent, in any order the same,
one ``title_application_complete`` as an application completes)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import date, timedelta

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.support.builders import FIDE_2024
from tests.support.titles import CANDIDATE, PLAYER, norm, rating
from tracker import contract as ev
from tracker.domain.titles import Title
from tracker.titles.facts import (
    NormRecorded,
    NormWithdrawn,
    PlayerFacts,
    RatingRecorded,
    TitleFact,
    apply,
    complete_id,
)
from tracker.titles.judgement import judge

CUT = date(2022, 6, 30)
DAYS = [date(2021, 5, 1), date(2022, 3, 1), date(2023, 1, 1), date(2024, 2, 1), date(2025, 4, 1)]
"""Two days before 1.5.6's cut (30 June 2022), three after; an event may start 300 days
before its norm, so that a norm of an event started before the cut can come after one of an
event started after it."""


@st.composite
def norms(draw: st.DrawFn) -> list[ev.TitleNorm]:
    found = []
    for i in range(draw(st.integers(0, 9))):
        short = draw(st.booleans()) and draw(st.booleans())
        on = draw(st.sampled_from(DAYS))
        found.append(
            norm(
                f"e{i}",
                games=8 if short else 9,
                credited=9 if short else draw(st.integers(9, 13)),
                on=on,
                start=on - timedelta(days=draw(st.sampled_from([0, 0, 300]))),
                short=short,
                one_round_days=draw(st.sampled_from([None, 1, 3, 7])),
                normal=draw(st.sampled_from([True, True, False, None])),
                event_type=draw(st.sampled_from([True, False, False, None, None])),
            )
        )
    return found


def brute_force(norms: Sequence[ev.TitleNorm]) -> tuple[ev.TitleNorm, ...] | None:
    """The set the rules' reading chooses, from its definition: of every subset that meets
    each condition of a 2024 GM application, the one complete earliest, then with the fewest
    norms, then with the most games, then first by its keys."""

    def meets(s: tuple[ev.TitleNorm, ...]) -> bool:
        return (
            sum(n.games_credited for n in s) >= 27
            and len(s) >= 2
            and any(n.one_round_days is not None and n.one_round_days >= 3 for n in s)
            and any(n.normal_foreigners for n in s)
            and sum(n.short_norm for n in s) <= 1
            and (all(n.start_date <= CUT for n in s) or any(n.event_type_1_5_6 for n in s))
        )

    valid = [s for k in range(len(norms) + 1) for s in itertools.combinations(norms, k) if meets(s)]
    if not valid:
        return None
    return min(
        valid,
        key=lambda s: (
            max(n.achieved_on for n in s),
            len(s),
            -sum(n.games_credited for n in s),
            sorted(n.key for n in s),
        ),
    )


OLD_AFTER_RECENT = [
    norm("o1", on=DAYS[0], event_type=None),
    norm("o2", on=DAYS[1], event_type=None),
    norm("o3", on=DAYS[2], start=date(2022, 3, 7), event_type=None),
    norm("r", on=DAYS[2], event_type=False),
]
"""A norm of an event started before 1.5.6's cut achieved with one of an event started after
it: the application leaves the later event's norm out (it would ask for a 1.5.6 norm)."""


@settings(max_examples=300, deadline=None)
@example(OLD_AFTER_RECENT)
@given(norms())
def test_the_chosen_set_is_the_brute_force_s(found: list[ev.TitleNorm]) -> None:
    app = judge(CANDIDATE, PLAYER, found, [rating(2520, date(2020, 1, 1))], Title.GM, FIDE_2024)
    best = brute_force(found)
    assert app.complete == (best is not None)
    if best is not None:
        assert sorted(n.key for n in app.norms) == sorted(n.key for n in best)
        assert app.complete_on == max(n.achieved_on for n in best)
    else:
        assert app.missing


# --------------------------------------------------------------------------- the transition


def recorded(n: ev.TitleNorm) -> NormRecorded:
    return NormRecorded(fide_id=CANDIDATE, player=PLAYER, tournament_id=n.key, norm=n)


FACTS: list[TitleFact] = [
    recorded(norm("a", on=date(2025, 1, 1))),
    recorded(norm("b", on=date(2025, 2, 1))),
    RatingRecorded(fide_id=CANDIDATE, player=PLAYER, rating=rating(2505, date(2025, 2, 15))),
    recorded(norm("c", on=date(2025, 3, 1))),
]


def fold(facts: Sequence[TitleFact]) -> tuple[PlayerFacts | None, list[ev.OutputEvent]]:
    state: PlayerFacts | None = None
    alerts: list[ev.OutputEvent] = []
    for fact in facts:
        state, out = apply(state, fact, FIDE_2024)
        alerts += out
    return state, alerts


def test_one_complete_alert_as_the_application_completes() -> None:
    state, alerts = fold(FACTS)
    assert [a.type for a in alerts] == [
        "title_application_progress",
        "title_application_progress",
        "title_application_progress",
        "title_application_complete",
    ]
    assert state is not None
    app = state.application(Title.GM, FIDE_2024)
    assert alerts[-1].alert_id == complete_id(app)
    assert alerts[-1].application == app  # type: ignore[union-attr]


def test_a_repeated_fact_changes_nothing_and_says_nothing() -> None:
    state, _ = fold(FACTS)
    assert state is not None
    for fact in FACTS:
        again, out = apply(state, fact, FIDE_2024)
        assert again is state
        assert out == []


@given(st.permutations(FACTS))
def test_the_judgement_is_the_same_whatever_order_the_facts_came_in(
    facts: list[TitleFact],
) -> None:
    state, alerts = fold(facts)
    whole, _ = fold(FACTS)
    assert state is not None
    assert whole is not None
    assert state.application(Title.GM, FIDE_2024) == whole.application(Title.GM, FIDE_2024)
    assert [a.type for a in alerts].count("title_application_complete") == 1


def test_a_withdrawn_norm_takes_the_completion_back() -> None:
    """A norm revoked from a complete application: a progress alert that revokes the
    complete one, saying what is missing again."""
    state, alerts = fold(FACTS)
    assert state is not None
    gone = NormWithdrawn(fide_id=CANDIDATE, player=PLAYER, key="c/GM", reason="corrected")
    after, out = apply(state, gone, FIDE_2024)
    (progress,) = out
    assert isinstance(progress, ev.TitleApplicationProgress)
    assert progress.revokes == alerts[-1].alert_id
    assert progress.application.missing == ("9 more games of norms (18 of 27: 1.5.1)",)
    _back, again = apply(after, FACTS[-1], FIDE_2024)
    assert [a.type for a in again] == ["title_application_complete"]
    assert again[0].alert_id == alerts[-1].alert_id  # the same facts, the same id


def test_the_store_of_facts_equals_the_facts_folded() -> None:
    """Nothing derived is kept: the player built from the final facts at once judges as the
    player the facts were folded into."""
    state, _ = fold(FACTS)
    at_once = PlayerFacts(
        fide_id=CANDIDATE,
        player=PLAYER,
        norms={f.norm.key: f.norm for f in FACTS if isinstance(f, NormRecorded)},
        ratings={f.rating.key: f.rating for f in FACTS if isinstance(f, RatingRecorded)},
    )
    assert state == at_once
