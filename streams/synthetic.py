"""Made-up tournaments for the benchmark, the demo and the tests: deterministic round
robins strong enough for norms, as input events in the order a live event produces them
(registration, players, then per round: pairings, results)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from datetime import date

from tracker import contract as ev
from tracker.domain.tournaments import System

FEDERATIONS = ("GER", "FRA", "NED", "ESP", "ITA", "ENG", "USA", "HUN", "POL", "CZE")


def round_robin(tid: str, players: int = 10, seed: int = 0) -> list[ev.InputEvent]:
    """A single round robin (``players`` even) with titled, rated players."""
    rnd = random.Random(f"{tid}:{seed}")
    rounds = players - 1
    out: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid,
            name=f"Synthetic {tid}",
            start_date=date(2011, 5, 1),
            end_date=date(2011, 5, 10),
            system=System.ROUND_ROBIN,
            host_federation="GER",
            planned_rounds=rounds,
        )
    ]
    strength = {}
    for rank in range(1, players + 1):
        rating = rnd.randint(2380, 2640)
        strength[rank] = rating + rnd.randint(-150, 250)
        out.append(
            ev.PlayerRegistered(
                tournament_id=tid,
                rank=rank,
                name=f"Player {tid}-{rank}",
                federation=FEDERATIONS[(rank + seed) % len(FEDERATIONS)],
                fide_id=10_000_000 + rank,
                sex="m",
                title="GM" if rating >= 2560 else ("IM" if rating >= 2450 else None),
                rating=rating,
                k_factor=10 if rating >= 2400 else 20,
            )
        )
    for number, boards in enumerate(_berger(players), 1):
        for white, black in boards:
            out.append(ev.Pairing(tournament_id=tid, round=number, white=white, black=black))
        for white, black in boards:
            out.append(
                ev.GameResult(
                    tournament_id=tid,
                    round=number,
                    white=white,
                    black=black,
                    result=_result(rnd, strength[white] - strength[black]),
                )
            )
    return out


def _result(rnd: random.Random, diff: int) -> str:
    expected = 1 / (1 + 10 ** (-diff / 400))
    draw = 0.35
    x = rnd.random()
    if x < expected - draw / 2:
        return "1-0"
    if x < expected + draw / 2:
        return "1/2-1/2"
    return "0-1"


def _berger(players: int) -> Iterator[list[tuple[int, int]]]:
    """Round-robin boards by the circle method."""
    ranks = list(range(1, players + 1))
    for number in range(players - 1):
        boards = []
        for i in range(players // 2):
            a, b = ranks[i], ranks[players - 1 - i]
            boards.append((a, b) if (number + i) % 2 == 0 else (b, a))
        yield boards
        ranks = [ranks[0], ranks[-1], *ranks[1:-1]]


def interleave(tournaments: Sequence[Sequence[ev.InputEvent]]) -> list[ev.InputEvent]:
    """Many tournaments in flight at once: the events of each round of every tournament
    before the next round of any (registrations first)."""
    out: list[ev.InputEvent] = []
    by_round: dict[int, list[ev.InputEvent]] = {}
    for events in tournaments:
        for e in events:
            by_round.setdefault(getattr(e, "round", 0), []).append(e)
    for number in sorted(by_round):
        out.extend(by_round[number])
    return out


__all__ = ["FEDERATIONS", "interleave", "round_robin"]
