"""The values a round's prospect alerts share, against the same values made afresh, on
generated events: the open requirements (:func:`tracker.norms.explain.open_checks`, one
tuple per distinct situation), the table of needs (:meth:`Relaxed.needs`, against the plain
definition of its rows) and the wire forms (:class:`tracker.engine.alerts.Shared`).

Each shortcut is sound by an argument its docstring gives; these tests are what keeps it
honest: a memo key that forgets something the checks read, or a table that stops at the
wrong score, shows here as a difference."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random
from collections.abc import Iterable, Iterator, Sequence
from datetime import date
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from tests.support.builders import FIDE_2009, START, player, record
from tests.support.generated import tournaments
from tests.support.swiss import swiss_events
from tracker import contract as ev
from tracker.domain.results import Code
from tracker.domain.titles import NORM_TITLES
from tracker.domain.tournaments import System
from tracker.engine.alerts import Shared, prospect_detail
from tracker.engine.prospects import Need, Prospect
from tracker.engine.prospects import outlook as outlook_module
from tracker.engine.prospects.bound import Relaxed, avg
from tracker.engine.round_view import view_after
from tracker.engine.state import TournamentState
from tracker.engine.transition import Rejected, apply
from tracker.engine.watch import Watch
from tracker.norms import explain
from tracker.norms.search import Check, NormGame, Requirements, requirements
from tracker.rules import TITLE_EDITIONS, TitleRules

OPENS = [
    (50, 9, 2, date(2008, 7, 1)),  # before 2009: the mix reads the player
    (50, 9, 3, date(2012, 7, 1)),
    (50, 9, 4, date(2025, 7, 1)),
]


def finished_rounds(events: Iterable[ev.InputEvent]) -> Iterator[TournamentState]:
    """The state after each round that finished."""
    state: TournamentState | None = None
    for event in events:
        try:
            state, out = apply(state, event)
        except Rejected:
            continue
        if any(isinstance(a, ev.RoundFinished) for a in out):
            yield state


Call = tuple[Sequence[NormGame], Requirements, int, int | None]


@dataclasses.dataclass
class Seen:
    """What a run of an open made: each call of ``open_checks`` with its answer, each
    route whose table of needs was asked for, each round's prospects with details."""

    open_calls: list[tuple[Call, tuple[Check, ...]]] = dataclasses.field(default_factory=list)
    routes: list[Relaxed] = dataclasses.field(default_factory=list)
    rounds: list[list[Prospect]] = dataclasses.field(default_factory=list)


def watched(events: Iterable[ev.InputEvent]) -> Seen:
    seen = Seen()
    needs_of = outlook_module.needs_of

    def open_checks(
        kept: Sequence[NormGame],
        spec: Requirements,
        games: int,
        opponents: int | None,
        memo: explain.OpenMemo | None = None,
    ) -> tuple[Check, ...]:
        assert memo is not None  # the outlook shares its round's
        out = explain.open_checks(kept, spec, games, opponents, memo)
        seen.open_calls.append(((tuple(kept), spec, games, opponents), out))
        return out

    def recorded_needs_of(found: Sequence[Relaxed]) -> tuple[Need, ...]:
        seen.routes.extend(r for r in found if r.possible())
        return needs_of(found)

    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(outlook_module, "open_checks", open_checks)
        monkeypatch.setattr(outlook_module, "needs_of", recorded_needs_of)
        for state in finished_rounds(events):
            watch = Watch(state, view_after(state, state.announced))
            entries = (watch.entry(*key).prospect for key in watch.stages())
            seen.rounds.append([p for p in entries if p is not None])
    return seen


@functools.cache
def open_run(players: int, rounds: int, seed: int, start: date) -> Seen:
    return watched(
        e for group in swiss_events(players, rounds, seed=seed, start=start) for e in group
    )


def same_afresh(calls: Sequence[tuple[Call, tuple[Check, ...]]]) -> None:
    """Each answer from the memo equals the one made without it."""
    for args, shared in calls:
        assert explain.open_checks(*args) == shared


@pytest.mark.parametrize("opened", OPENS, ids=[str(o[3].year) for o in OPENS])
def test_shared_open_requirements_equal_those_made_afresh(
    opened: tuple[int, int, int, date],
) -> None:
    """Every prospect's open requirements, most from the round's memo, equal those worked
    out without it; and players do share them (the memo is used)."""
    calls = open_run(*opened).open_calls
    assert len({id(out) for _, out in calls}) < len(calls)
    same_afresh(calls)


@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(events=tournaments("fide-2024") | tournaments("fide-2009") | tournaments("fide-pre-2009"))
def test_shared_values_equal_afresh_on_generated_events(events: list[ev.InputEvent]) -> None:
    """The open requirements and the tables of needs on generated round robins and Swiss
    events of 10 to 12 players (FID and unrated players, every edition)."""
    seen = watched(events)
    same_afresh(seen.open_calls)
    for route in seen.routes:
        assert route.needs() == plain_needs(route)


def random_open_calls(rules: TitleRules, seed: int) -> Iterator[Call]:
    """Records of one or two games drawn from a field of every kind of opponent the checks
    read (titled or not, of the applicant's, a foreign, FID, NON or an unknown federation,
    rated, unrated or below the floor), sometimes the same opponent twice (and then the
    same record with another of that kind), for applicants of known and unknown
    federation, titled or not, searches optimistic or not, in Swiss events with the
    exemption, without it and with it only if players of unknown federation are foreign,
    and in a double round robin: records that differ in one thing the checks read meet
    often."""
    rng = random.Random(seed)
    kinds = list(
        itertools.product(
            ["GER", "FRA", "ESP", "FID", "NON", None], [None, 1900, 2450], ["GM", "WGM", None]
        )
    )
    field = [  # two of each kind
        player(rank, rating, title, fed)
        for rank, (fed, rating, title) in enumerate([*kinds, *kinds], 2)
    ]
    half = len(kinds)
    twin = {p.rank: q for p, q in zip(field, field[half:] + field[:half], strict=True)}
    applicants = [
        player(1, 2400, None, "GER"),
        player(1, 2400, "FM", "FRA"),
        player(1, 2300, "WIM", None, "w"),
        player(1, 2350, None, "FID", "w"),
    ]
    events: list[dict[str, Any]] = [
        {},
        {"swiss_exempt": True},
        {"swiss_exempt_possible": True},
        {"system": System.DOUBLE_ROUND_ROBIN},
    ]
    for event in events:
        for me in applicants:
            _, _, ctx = record([], candidate=me, start=START[rules.name], **event)
            ctx = dataclasses.replace(ctx, players={p.rank: p for p in [me, *field]})
            title = next(t for t in NORM_TITLES if not rules.why_not_eligible(me, t))
            optimistic = requirements(title, me, ctx, rules)
            specs = [
                optimistic,
                dataclasses.replace(optimistic, optimistic=False),
                dataclasses.replace(optimistic, min_games=optimistic.min_games - 1),
            ]
            for _ in range(200):
                met = rng.sample(field, rng.randint(1, 2))
                if rng.random() < 0.2:
                    met.append(met[0])  # met again
                kept = [  # an unrated opponent counted below the floor or above it
                    NormGame(r, o, Code.WIN, o.rating or rng.choice([2000, 2400]))
                    for r, o in enumerate(met, 1)
                ]
                games = len(kept) + 4
                spec = rng.choice(specs)
                opponents = rng.choice([games, games, None])
                yield kept, spec, games, opponents
                if len(met) > 1 and met[-1] is met[0]:  # the same with another of that kind
                    last = kept[-1]
                    other = NormGame(last.round, twin[last.opponent.rank], last.code, last.rating)
                    yield [*kept[:-1], other], spec, games, opponents


EDITIONS = [
    *TITLE_EDITIONS,
    # a raised unrated opponent counted as rated, with 1.46a's cap
    dataclasses.replace(FIDE_2009, raised_unrated_counts_as_rated=True),
]


@pytest.mark.parametrize("rules", EDITIONS, ids=[f"{r.name}-{i}" for i, r in enumerate(EDITIONS)])
def test_shared_open_requirements_equal_afresh_on_drawn_records(rules: TitleRules) -> None:
    """Every edition, records drawn so that the memo's key often matches: a key that left
    out something the checks read would hand one record another's checks."""
    memo: explain.OpenMemo = {}
    calls = [(args, explain.open_checks(*args, memo)) for args in random_open_calls(rules, 7)]
    assert len({id(out) for _, out in calls}) < len(calls)
    same_afresh(calls)


def plain_needs(route: Relaxed) -> tuple[Need, ...]:
    """The table of needs by its definition, every number of games and score tried: the
    least sum over every record (wins left out) whose rating and mix pass, its average,
    and per number of games only the scores whose average is lower than every lower
    score's."""
    spec, o = route.spec, route.o
    out: list[Need] = []
    for m in reversed(route._counts()):
        if m == 0:
            continue
        rows: dict[int, int] = {}
        for n_c, h_c, adj_c in route.drops():
            n = n_c + m
            if n == 0 or n < spec.min_games:
                continue
            for h in range(2 * m + 1):
                total = o.least_sum(spec, h_c + h, n)
                if total is None or total - adj_c > route.best[m] or not route._mix_ok(n, m):
                    continue
                rows[h] = min(rows.get(h, total - adj_c), total - adj_c)
        previous = None
        for h in sorted(rows):
            average = avg(rows[h], m)
            if previous is None or average < previous:
                previous = average
                out.append(Need(m, Fraction(h, 2), average, avg(route.best[m], m), route.note))
    return tuple(out)


@pytest.mark.parametrize("opened", OPENS, ids=[str(o[3].year) for o in OPENS])
def test_a_table_of_needs_is_its_plain_definition(opened: tuple[int, int, int, date]) -> None:
    """:meth:`Relaxed.needs` stops at the first score the rating bound refuses (fewer
    points only raise the least sum, 1.48) and asks the mix once per record (it does not
    read the score); the plain definition tries every score."""
    routes = open_run(*opened).routes
    assert len(routes) > 100
    for route in routes:
        assert route.needs() == plain_needs(route)


@pytest.mark.parametrize("opened", OPENS, ids=[str(o[3].year) for o in OPENS])
def test_routes_that_read_the_same_ratings_share_a_table(
    opened: tuple[int, int, int, date],
) -> None:
    """Routes of a round with the same rating inputs (:meth:`Relaxed._rating_key`) take one
    table, worked out once, where every mix they ask passes: fewer tables are worked out
    than asked for, and every route's table, most taken from another route, is its own
    plain definition (1.48)."""
    players, rounds, seed, start = opened
    made = asked = 0
    worked_out, table_of = Relaxed._needs, Relaxed.needs

    def counted_needs(route: Relaxed, questions: list[tuple[int, int]]) -> Any:
        nonlocal made
        made += 1
        return worked_out(route, questions)

    def counted_table(route: Relaxed) -> tuple[Need, ...]:
        nonlocal asked
        asked += 1
        return table_of(route)

    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(Relaxed, "_needs", counted_needs)
        monkeypatch.setattr(Relaxed, "needs", counted_table)
        first_rounds = swiss_events(players, rounds, seed=seed, start=start)[:4]
        seen = watched(e for group in first_rounds for e in group)
    assert 0 < 5 * made < 4 * asked  # at least a fifth of the tables taken, not worked out
    by_key: dict[tuple[object, ...], list[Relaxed]] = {}
    for route in seen.routes:
        by_key.setdefault((id(route.o), route._rating_key()), []).append(route)
    assert sum(len(group) > 1 for group in by_key.values()) > 10
    for route in seen.routes:
        assert route.needs() == plain_needs(route)


@pytest.mark.parametrize("opened", OPENS, ids=[str(o[3].year) for o in OPENS])
def test_shared_wire_forms_are_the_same_json(opened: tuple[int, int, int, date]) -> None:
    """A round's prospects turned into their wire form with the models shared give the
    same JSON, byte for byte, as each made on its own; and they do share rows."""
    reused = 0
    for found in open_run(*opened).rounds:
        shared = Shared()
        made = []
        for p in found:
            wire = prospect_detail(p, shared)
            made.append(wire)
            alone = prospect_detail(p)
            assert wire.model_dump_json() == alone.model_dump_json()
            assert shared.requirements(p.open) == alone.open_requirements
        rows = [n for w in made for n in w.needs]
        reused += len(rows) - len({id(n) for n in rows})
    assert reused  # rows shared, if not whole tables
