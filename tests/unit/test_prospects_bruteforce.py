"""Prospects against brute force: small generated tournaments are played out to the end with
every combination of a candidate's remaining results, through the real transition.

* Round robins (10-player single, 6-player double, 8-player team championship of 7 rounds,
  some under the pre-2009 edition): the prospect is exact. Each remaining score it lists
  must be reached, with the norm, by some order of the remaining rounds and some results, and
  no other score may give the norm; each listed example must give the norm.
* Swiss (12 players, 9 rounds, pairings known to the test only): whenever a combination gives
  the norm, the prospect did not say out of reach, and the average it asked of the counted
  remaining opponents is not above what they had.
* In every played-out stream, ``norm_out_of_reach`` never precedes a norm for the same
  player and title.

The other players' results stay as generated; only the candidate's games vary (the norm of
a player depends on no other game, as no opponent is unrated: 1.42d is not in play).

The same properties are then checked on many more seeded records (120 Swiss, 60 round
robins) with :func:`tracker.norms.search.find_norm`, which gives the transition its verdicts,
judging each played-out record directly: there opponents may be unrated, weak, from the
candidate's federation or FIDE's, and games so far may be forfeits.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

import pytest

from tests.support.builders import berger
from tests.support.round_robins import run
from tracker import contract as ev
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System
from tracker.engine.prospects import Outlook, Prospect, Status
from tracker.engine.state import TournamentState
from tracker.norms.search import Cell, Context, Verdict, find_norm

FEDS = ["GER", "FRA", "ESP", "NED", "HUN", "POL"]
START = {"pre-2009": date(2008, 3, 1), "2009": date(2012, 3, 1), "2024": date(2025, 3, 1)}
"""The start date that puts a generated tournament under each title edition."""

RESULT = {(Code.WIN, True): "1-0", (Code.WIN, False): "0-1", (Code.DRAW, True): "1/2-1/2"}
RESULT.update({(Code.DRAW, False): "1/2-1/2", (Code.LOSS, True): "0-1", (Code.LOSS, False): "1-0"})
HALF = {"1": 2, "=": 1, "0": 0}

Board = tuple[int, int, str]
"""(white, black, result)"""


@dataclass
class Generated:
    events: list[ev.InputEvent]
    schedule: list[list[Board]]
    """Every round's boards with their generated results."""
    system: System


def _title(rating: int, rng: random.Random) -> str | None:
    if rating >= 2540:
        return "GM" if rng.random() < 0.85 else "IM"
    if rating >= 2440:
        return rng.choice(["IM", "IM", "GM", "FM"])
    return rng.choice(["FM", "IM", None])


def generate(
    seed: int, players: int, system: System, swiss_rounds: int = 0, era: str = "2009"
) -> Generated:
    rng = random.Random(seed)
    tid = f"bf{seed}"
    rounds = berger(players)
    if system is System.DOUBLE_ROUND_ROBIN:
        rounds = rounds + [[(b, w) for w, b in r] for r in rounds]
    if system is System.SWISS:
        rng.shuffle(rounds)
        rounds = rounds[:swiss_rounds]
    kinds: tuple[EventKind, ...] = ()
    if system is System.ROUND_ROBIN and players == 8:
        kinds = (EventKind.TEAM_CHAMPIONSHIP,)  # 1.41b: 7 games suffice in 7 rounds
    events: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid,
            start_date=START[era],
            system=system,
            host_federation="GER",
            planned_rounds=len(rounds),
            kinds=kinds,
        )
    ]
    ratings = sorted((rng.randint(2330, 2660) for _ in range(players)), reverse=True)
    for rank, rating in enumerate(ratings, 1):
        events.append(
            ev.PlayerRegistered(
                tournament_id=tid,
                rank=rank,
                name=f"P{rank}",
                federation=rng.choice(FEDS),
                rating=rating,
                title=_title(rating, rng),
                sex="m",
            )
        )
    schedule = []
    for pairs in rounds:
        boards = []
        for white, black in pairs:
            edge = (ratings[white - 1] - ratings[black - 1]) / 800
            roll = rng.random() + edge
            result = "1-0" if roll > 0.62 else ("0-1" if roll < 0.3 else "1/2-1/2")
            boards.append((white, black, result))
        schedule.append(boards)
    return Generated(events, schedule, system)


def round_events(tid: str, number: int, boards: Sequence[Board]) -> list[ev.InputEvent]:
    return [
        ev.GameResult(tournament_id=tid, round=number, white=w, black=b, result=r)
        for w, b, r in boards
    ]


def played_to(g: Generated, n: int) -> tuple[TournamentState, list[ev.OutputEvent]]:
    tid = g.events[0].tournament_id
    events = list(g.events)
    for number, boards in enumerate(g.schedule[:n], 1):
        events += round_events(tid, number, boards)
    return run(events)


@dataclass
class Outcome:
    """One played-out future: the candidate's results by opponent, and what came of it."""

    results: tuple[tuple[int, tuple[str, ...]], ...]
    """The candidate's result letters against each opponent (sorted, for comparison)."""
    half: int
    norms: frozenset[tuple[int, str]]
    """Every (player, title) with a norm at the end."""
    alerts: list[ev.OutputEvent]


def canonical(results: dict[int, list[str]]) -> tuple[tuple[int, tuple[str, ...]], ...]:
    return tuple(sorted((rank, tuple(sorted(codes))) for rank, codes in results.items()))


def play_out(g: Generated, base: TournamentState, n: int, rank: int, orders: bool) -> list[Outcome]:
    """Every combination of the candidate's remaining results (and, with ``orders``, every
    order of the remaining rounds), played to the last round."""
    tid = base.tournament.id
    later = g.schedule[n:]
    outcomes = []
    perms = itertools.permutations(later) if orders else [tuple(later)]
    for perm in perms:
        mine = [next(b for b in boards if rank in b[:2]) for boards in perm]
        for combo in itertools.product((Code.WIN, Code.DRAW, Code.LOSS), repeat=len(mine)):
            events: list[ev.InputEvent] = []
            results: dict[int, list[str]] = {}
            for offset, (boards, board, code) in enumerate(zip(perm, mine, combo, strict=True)):
                white, black, _ = board
                fixed = [b for b in boards if b is not board]
                played = (white, black, RESULT[(code, white == rank)])
                events += round_events(tid, n + 1 + offset, [*fixed, played])
                results.setdefault(black if white == rank else white, []).append(code.value)
            state, alerts = run(events, base)
            norms = frozenset(
                (int(k.split(":")[1]), k.split(":")[2]) for k in state.sent if k.startswith("norm:")
            )
            outcomes.append(
                Outcome(canonical(results), sum(HALF[c.value] for c in combo), norms, alerts)
            )
    return outcomes


def candidates(base: TournamentState, n: int) -> list[tuple[int, Title, Prospect]]:
    """Up to two players in contention and one out of reach, with their full prospects."""
    view = Outlook(base, n)
    found = view.all(secured=set())
    chosen = [k for k, p in found.items() if p.status is Status.POSSIBLE][:2]
    chosen += [k for k, p in found.items() if p.status is Status.OUT_OF_REACH][:1]
    return [(rank, title, view.prospect(rank, title, secured=False)) for rank, title in chosen]


def assert_no_out_of_reach_before_a_norm(base: Sequence[ev.OutputEvent], o: Outcome) -> None:
    out = {(a.player.rank, a.title) for a in [*base, *o.alerts] if isinstance(a, ev.NormOutOfReach)}
    assert not out & o.norms, out & o.norms


RR_CASES = [
    # (seed, players, system, rounds played, edition era)
    (1, 10, System.ROUND_ROBIN, 7, "2009"),
    (3, 10, System.ROUND_ROBIN, 7, "pre-2009"),
    (4, 6, System.DOUBLE_ROUND_ROBIN, 8, "2009"),
    (5, 6, System.DOUBLE_ROUND_ROBIN, 7, "pre-2009"),
    (6, 8, System.ROUND_ROBIN, 5, "2009"),
    (8, 6, System.DOUBLE_ROUND_ROBIN, 8, "2009"),
    (1, 10, System.ROUND_ROBIN, 7, "2024"),
    (4, 6, System.DOUBLE_ROUND_ROBIN, 8, "2024"),
    (6, 8, System.ROUND_ROBIN, 5, "2024"),
]


@pytest.mark.parametrize(("seed", "players", "system", "n", "era"), RR_CASES)
def test_round_robin_prospect_is_exact(
    seed: int, players: int, system: System, n: int, era: str
) -> None:
    g = generate(seed, players, system, era=era)
    base, base_alerts = played_to(g, n)
    chosen = candidates(base, n)
    assert chosen
    for rank, title, prospect in chosen:
        outcomes = play_out(g, base, n, rank, orders=True)
        reached = {Fraction(o.half, 2) for o in outcomes if (rank, title.value) in o.norms}
        assert {w.score for w in prospect.ways} == reached, (rank, title, prospect.reason)
        assert prospect.in_contention == bool(reached)
        # each example is a combination that gives the norm (in some order of the rounds)
        with_norm = {o.results for o in outcomes if (rank, title.value) in o.norms}
        for way in prospect.ways:
            results: dict[int, list[str]] = {}
            for remaining, code in zip(prospect.remaining, way.results, strict=True):
                results.setdefault(remaining.opponent.rank, []).append(code.value)
            assert canonical(results) in with_norm, (rank, title, way)
        for o in outcomes:
            assert_no_out_of_reach_before_a_norm(base_alerts, o)


SWISS_CASES = [
    # (seed, rounds played, edition era)
    (12, 7, "2009"),
    (13, 7, "2009"),
    (14, 7, "pre-2009"),
    (16, 7, "2009"),
    (12, 7, "2024"),
    (13, 7, "2024"),
]


@pytest.mark.parametrize(("seed", "n", "era"), SWISS_CASES)
def test_swiss_prospect_never_rules_out_a_norm_or_overstates_the_average(
    seed: int, n: int, era: str
) -> None:
    g = generate(seed, 12, System.SWISS, swiss_rounds=9, era=era)
    base, base_alerts = played_to(g, n)
    chosen = candidates(base, n)
    assert chosen
    for rank, title, prospect in chosen:
        for o in play_out(g, base, n, rank, orders=False):
            assert_no_out_of_reach_before_a_norm(base_alerts, o)
            if (rank, title.value) not in o.norms:
                continue
            assert prospect.in_contention, (rank, title, prospect.reason)
            norm = [
                a
                for a in o.alerts
                if isinstance(a, ev.NormAchieved)
                and (a.player.rank, a.title) == (rank, title.value)
            ][-1]
            future = [c for c in norm.evidence.counted if c.round > n]
            m = len(future)
            half = sum(HALF[c.result] for c in future)
            total = sum(c.rating_used for c in future)
            rows = [r for r in prospect.needs if r.games == m and r.score <= Fraction(half, 2)]
            assert rows, (rank, title, m, half)
            assert rows[-1].average <= (2 * total + m) // (2 * m), (rows[-1], total)


# ----------------------------------------------------------------------------- generated records
#
# Only the candidate's games exist; the at-most rules and the unrated values are in play.


def random_field(rng: random.Random, size: int) -> list[tuple[int | None, str | None, str]]:
    """Mostly strong titled opponents; some weaker, some unrated, a third from the
    candidate's federation (GER) or FIDE's."""
    field: list[tuple[int | None, str | None, str]] = []
    for _ in range(size):
        roll = rng.random()
        rating = (
            None
            if roll < 0.08
            else rng.randint(2000, 2380)
            if roll < 0.2
            else rng.randint(2380, 2700)
        )
        title = rng.choice([None, "GM", "GM", "GM", "IM", "IM", "FM", "WGM"])
        fed = rng.choice(["GER", "GER", "FRA", "ESP", "NED", "FID"])
        field.append((rating, title, fed))
    return field


def random_results(rng: random.Random, count: int) -> list[str]:
    return [rng.choice(["1-0"] * 4 + ["1/2-1/2"] * 3 + ["0-1", "+-"]) for _ in range(count)]


def record_state(
    field: Sequence[tuple[int | None, str | None, str]],
    played: Sequence[tuple[int, str]],
    system: System,
    planned: int,
    era: str,
) -> TournamentState:
    """The candidate (rank 1, IM GER 2450) and ``field`` (ranks 2, …); ``played`` are the
    candidate's games so far, (opponent rank, result from White's side with the candidate
    White), one per round; every round is closed after it."""
    names = [("Candidate", 2450, "IM", "GER")] + [
        (f"O{i}", rating, title, fed) for i, (rating, title, fed) in enumerate(field, 2)
    ]
    events = [
        ev.TournamentRegistered(
            tournament_id="g",
            start_date=START[era],
            system=system,
            host_federation="GER",
            planned_rounds=planned,
        ),
        *(
            ev.PlayerRegistered(
                tournament_id="g", rank=r, name=n, rating=rt, title=t, federation=f, sex="m"
            )
            for r, (n, rt, t, f) in enumerate(names, 1)
        ),
    ]
    for number, (other, result) in enumerate(played, 1):
        events.append(
            ev.GameResult(tournament_id="g", round=number, white=1, black=other, result=result)
        )
        events.append(ev.RoundClosed(tournament_id="g", round=number))
    state, _ = run(events)
    return state


LETTER = {"1-0": "1", "1/2-1/2": "=", "0-1": "0", "+-": "+"}


def final_verdict(
    state: TournamentState,
    played: Sequence[tuple[int, str]],
    future: Sequence[tuple[int, Code]],
    title: Title,
) -> Verdict | None:
    cells = [Cell(r, o, Code.parse(LETTER[res])) for r, (o, res) in enumerate(played, 1)]
    cells += [Cell(len(played) + i, o, c) for i, (o, c) in enumerate(future, 1)]
    ctx = Context(state.tournament, dict(state.players), False, frozenset())
    return find_norm(state.players[1], cells, title, ctx, state.title_rules)


SWISS_RECORDS = range(120)
RR_RECORDS = range(60)


def test_swiss_bound_holds_on_generated_records() -> None:
    """Swiss records of 9 to 11 rounds with 1 to 3 left, GM and IM, both editions."""
    with_norm = 0
    for seed in SWISS_RECORDS:
        rng = random.Random(seed)
        planned, left = rng.randint(9, 11), rng.randint(1, 3)
        title = rng.choice([Title.GM, Title.IM])
        field = random_field(rng, rng.randint(12, 14))
        n = planned - left
        order = list(range(2, len(field) + 2))
        rng.shuffle(order)
        played = list(zip(order[:n], random_results(rng, n), strict=True))
        state = record_state(
            field, played, System.SWISS, planned, "pre-2009" if rng.random() < 0.3 else "2009"
        )
        secured = final_verdict(state, played, [], title) is not None and (
            state.title_rules.may_ignore_after_norm(state.tournament)
        )
        if secured:
            continue
        p = Outlook(state, n).prospect(1, title, secured=False)
        for codes in itertools.product((Code.WIN, Code.DRAW, Code.LOSS), repeat=left):
            future = list(zip(order[n:planned], codes, strict=True))
            verdict = final_verdict(state, played, future, title)
            if verdict is None:
                continue
            with_norm += 1
            assert p.in_contention, (seed, p.reason)
            counted = [g for g in verdict.counted if g.round > n]
            m = len(counted)
            if m == 0:
                continue
            half = sum(g.half_points for g in counted)
            floor = state.title_rules.rating_floor[title]
            used = sum(
                max(g.rating, floor) if g.opponent.rank in verdict.raised else g.rating
                for g in counted
            )
            rows = [r for r in p.needs if r.games == m and r.score <= Fraction(half, 2)]
            assert rows, (seed, m, half, p.needs)
            assert rows[-1].average <= (2 * used + m) // (2 * m), seed
    assert with_norm >= 100  # the records reach norms often enough to test something


def test_round_robin_prospect_is_exact_on_generated_records() -> None:
    """10-player round robins with 1 to 3 games left, GM and IM, both editions; every order
    of the remaining games and every result."""
    possible = 0
    for seed in RR_RECORDS:
        rng = random.Random(1000 + seed)
        left = rng.randint(1, 3)
        title = rng.choice([Title.GM, Title.IM])
        field = [o if o[0] is not None else (2400, o[1], o[2]) for o in random_field(rng, 9)]
        n = 9 - left
        played = list(zip(range(2, n + 2), random_results(rng, n), strict=True))
        state = record_state(
            field, played, System.ROUND_ROBIN, 9, "pre-2009" if rng.random() < 0.3 else "2009"
        )
        secured = final_verdict(state, played, [], title) is not None and (
            state.title_rules.may_ignore_after_norm(state.tournament)
        )
        if secured:
            continue
        p = Outlook(state, n).prospect(1, title, secured=False)
        remaining = [r.opponent.rank for r in p.remaining]
        assert remaining == list(range(n + 2, 11))
        reached: set[Fraction] = set()
        examples: set[tuple[Code, ...]] = set()
        for codes in itertools.product((Code.WIN, Code.DRAW, Code.LOSS), repeat=left):
            for order in itertools.permutations(range(left)):
                future = [(remaining[i], codes[i]) for i in order]
                if final_verdict(state, played, future, title) is not None:
                    reached.add(Fraction(sum(c.half_points for c in codes), 2))
                    examples.add(codes)
                    break
        assert {w.score for w in p.ways} == reached, (seed, p.reason)
        assert all(w.results in examples for w in p.ways), seed
        possible += bool(reached)
    assert possible >= 10  # enough records where the norm is still possible
