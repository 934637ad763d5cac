"""A seeded Swiss of any size, paired by score with no repeats and results drawn by the
rating difference: the large field the benchmarks time and the incremental evaluation is
compared on (``tests/unit/test_incremental.py``)."""

from __future__ import annotations

import random
from datetime import date

from tracker import contract as ev

FEDS = ["GER", "FRA", "ESP", "NED", "ENG", "USA", "RUS", "IND", "CHN", "POL", "HUN", "CZE",
        "ITA", "SWE", "NOR", "DEN", "SUI", "AUT", "BEL", "ISR", "ARM", "GEO", "AZE", "UKR",
        "SRB", "CRO", "ROU", "BUL", "GRE", "TUR"]  # fmt: skip


def _title(rating: int, rng: random.Random) -> str | None:
    if rating >= 2550 and rng.random() < 0.9:
        return "GM"
    if rating >= 2400 and rng.random() < 0.7:
        return "IM"
    if rating >= 2300 and rng.random() < 0.6:
        return "FM"
    if rating >= 2200 and rng.random() < 0.3:
        return "CM"
    return None


def swiss_events(
    players: int, rounds: int, seed: int = 1, start: date = date(2012, 7, 1)
) -> list[list[ev.InputEvent]]:
    """Events of a generated Swiss, grouped: registrations, then one group per round."""
    rng = random.Random(seed)
    tid = "bench-open"
    ratings = sorted((rng.randint(1500, 2720) for _ in range(players)), reverse=True)
    head: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid,
            start_date=start,
            planned_rounds=rounds,
            host_federation="GER",
        )
    ]
    for rank, rating in enumerate(ratings, 1):
        head.append(
            ev.PlayerRegistered(
                tournament_id=tid,
                rank=rank,
                name=f"Player {rank}",
                rating=rating,
                title=_title(rating, rng),
                federation=rng.choice(FEDS),
                sex=rng.choice("mmmw"),
            )
        )
    score = dict.fromkeys(range(1, players + 1), 0.0)
    met: set[tuple[int, int]] = set()
    groups = [head]
    for r in range(1, rounds + 1):
        order = sorted(score, key=lambda p: (-score[p], p))
        unpaired = list(order)
        events: list[ev.InputEvent] = []
        while len(unpaired) > 1:
            a = unpaired.pop(0)
            partner = next((b for b in unpaired if (min(a, b), max(a, b)) not in met), unpaired[0])
            unpaired.remove(partner)
            met.add((min(a, partner), max(a, partner)))
            white, black = (a, partner) if r % 2 else (partner, a)
            diff = ratings[white - 1] - ratings[black - 1]
            expected = 1 / (1 + 10 ** (-diff / 400))
            roll = rng.random()
            if roll < expected - 0.15:
                result, pw = "1-0", 1.0
            elif roll < expected + 0.15:
                result, pw = "1/2-1/2", 0.5
            else:
                result, pw = "0-1", 0.0
            score[white] += pw
            score[black] += 1 - pw
            events.append(
                ev.GameResult(tournament_id=tid, round=r, white=white, black=black, result=result)
            )
        for p in unpaired:
            score[p] += 1
            events.append(ev.Bye(tournament_id=tid, round=r, player=p, kind="U"))
        groups.append(events)
    return groups
