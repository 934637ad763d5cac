"""The fast prospects against the computation they replaced (``tests/slow_prospects.py``):
for every (player, title), after every round, the same status, reason, remaining games,
ways, needs and open requirements, with and without the detail, in the order the transition
asks for them (every status, then the detail of some) and on a fresh outlook.

Records: the seed tournaments, the generated round robins and Swiss of the brute-force
tests (both editions, team championships, double round robins), the candidate records with
unrated, FIDE and own-federation opponents and forfeits, and the synthetic round robins the
streaming benchmark plays.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from streams.synthetic import round_robin
from tests import slow_prospects
from tests.test_prospects_bruteforce import (
    generate,
    played_to,
    random_field,
    random_results,
    record_state,
)
from tracker.evaluation import achieved_norms, norm_titles, standings
from tracker.prospects import Outlook
from tracker.replay import Replay, read_events
from tracker.state import TournamentState
from tracker.titles import Title
from tracker.tournaments import System
from tracker.transition import apply

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


def assert_same(state: TournamentState) -> int:
    """Compare every round's prospects; returns how many were in contention."""
    contenders = 0
    for number in range(1, state.announced + 1):
        secured: set[tuple[int, Title]] = set()
        last = number == state.tournament.planned_rounds
        if last or state.title_rules.may_ignore_after_norm(state.tournament):
            secured = set(achieved_norms(state, number, standings(state, number)))
        fast, slow = Outlook(state, number), slow_prospects.Outlook(state, number)
        statuses = fast.all(secured)
        assert statuses == slow.all(secured), (state.tournament.id, number)
        fresh = Outlook(state, number)
        for rank, player in sorted(state.players.items()):
            for title in norm_titles(player):
                key = (rank, title)
                expected = slow.prospect(rank, title, key in secured)
                assert fast.prospect(rank, title, key in secured) == expected, (number, key)
                assert fresh.prospect(rank, title, key in secured) == expected, (number, key)
                contenders += expected.in_contention
    return contenders


def seed_states() -> Iterator[TournamentState]:
    for path in sorted(SEEDS.glob("*.trf")) + sorted(SEEDS.glob("*.jsonl")):
        run = Replay()
        for item in read_events(path.read_text(encoding="utf-8"), path.name):
            run.feed(item)
        yield from run.states.values()


def test_seed_tournaments() -> None:
    assert sum(assert_same(state) for state in seed_states()) > 0


@pytest.mark.parametrize(
    ("seed", "players", "system", "rounds", "era"),
    [
        (1, 10, System.ROUND_ROBIN, 0, "2009"),
        (2, 10, System.ROUND_ROBIN, 0, "pre-2009"),
        (3, 6, System.DOUBLE_ROUND_ROBIN, 0, "2009"),
        (4, 8, System.ROUND_ROBIN, 0, "2009"),
        (5, 12, System.SWISS, 9, "2009"),
        (6, 12, System.SWISS, 9, "pre-2009"),
        (7, 12, System.ROUND_ROBIN, 0, "2009"),
        (8, 6, System.DOUBLE_ROUND_ROBIN, 0, "pre-2009"),
        (9, 10, System.ROUND_ROBIN, 0, "2024"),
        (10, 12, System.SWISS, 9, "2024"),
        (11, 6, System.DOUBLE_ROUND_ROBIN, 0, "2024"),
    ],
)
def test_generated_tournaments(
    seed: int, players: int, system: System, rounds: int, era: str
) -> None:
    g = generate(seed, players, system, rounds, era)
    state, _ = played_to(g, len(g.schedule))
    assert_same(state)


def test_candidate_records() -> None:
    """The brute-force tests' records of one candidate against a varied field."""
    for seed in range(24):
        rng = random.Random(5000 + seed)
        system = System.SWISS if seed % 2 else System.ROUND_ROBIN
        size = rng.randint(12, 14) if system is System.SWISS else 9
        planned = rng.randint(9, 11) if system is System.SWISS else 9
        field = random_field(rng, size)
        n = planned - rng.randint(1, 3)
        order = list(range(2, size + 2))
        if system is System.SWISS:
            rng.shuffle(order)
        played = list(zip(order[:n], random_results(rng, n), strict=True))
        assert_same(
            record_state(
                field, played, system, planned, "pre-2009" if rng.random() < 0.3 else "2009"
            )
        )


def test_synthetic_round_robins() -> None:
    for i in range(6):
        state = None
        for event in round_robin(f"b{i}", 10, seed=i):
            state, _ = apply(state, event)
        assert state is not None
        assert_same(state)
