"""Title applications: what judging one costs as a player's norms grow, against trying every
subset of them; what one title fact costs the worker's titles agent (``streams.titles``, no
Kafka); and what taking a rating list into ``tracker titles``' SQLite store costs.

Prints figures and ratios from this one run (the machine is shared: compare the ratios, not
the times of another run). No pass/fail.

Run (after ``pip install -e '.[bench]'``): ``.venv/bin/python bench/bench_titles.py``
"""

from __future__ import annotations

import itertools
import random
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cli.titles_store import TitleStore
from streams.titles import Titles, title_messages
from tests.support.titles import CANDIDATE, PLAYER, norm, rating, seed_events
from tracker import contract as ev
from tracker.domain.titles import Title
from tracker.host.replay import Replay, Sourced
from tracker.host.titles import Batch
from tracker.rules import title_rules_named
from tracker.titles.facts import RatingRecorded
from tracker.titles.judgement import conditions, judge, valid

RULES = title_rules_named("fide-2024")


def player_norms(n: int, seed: int) -> list[ev.TitleNorm]:
    """``n`` GM norms of 9 to 12 games over six years, a fifth of them exempt, some without
    round dates or 1.5.6 events: realistic mixes where several sets meet the conditions."""
    rng = random.Random(seed)
    return [
        norm(
            f"e{i:02}",
            credited=rng.randint(9, 12),
            on=date(2020, 1, 1) + timedelta(days=rng.randint(0, 6 * 365)),
            normal=rng.random() > 0.2,
            one_round_days=rng.choice([None, 1, 5]),
            event_type=rng.choice([True, False, None]),
        )
        for i in range(n)
    ]


def every_subset(norms: list[ev.TitleNorm]) -> int:
    """The subsets that meet every condition, found by trying them all (what the choice
    avoids)."""
    conds = conditions(Title.GM, RULES)
    return sum(
        valid(s, conds) for k in range(len(norms) + 1) for s in itertools.combinations(norms, k)
    )


def judging(sizes: tuple[int, ...], players: int) -> None:
    print("judging a GM application (ms per player), and trying every subset instead:")
    for n in sizes:
        groups = [player_norms(n, seed) for seed in range(players)]
        ratings = [rating(2510, date(2019, 1, 1))]
        started = time.perf_counter()
        for found in groups:
            judge(CANDIDATE, PLAYER, found, ratings, Title.GM, RULES)
        judged = (time.perf_counter() - started) / players
        started = time.perf_counter()
        for found in groups[: max(1, players // 10)]:
            every_subset(found)
        brute = (time.perf_counter() - started) / max(1, players // 10)
        print(
            f"  {n:2} norms: {judged * 1000:7.2f} ms; every subset {brute * 1000:8.2f} ms "
            f"({brute / judged:6.1f} x)"
        )


def worker_facts(repeat: int) -> None:
    messages: list[tuple[bytes, bytes]] = []
    for events in seed_events().values():
        run = Replay()
        for e in events:
            alerts = run.feed(Sourced(e, ""))
            messages += title_messages(alerts, run.states[e.tournament_id].tournament)
    started = time.perf_counter()
    for r in range(repeat):
        table: dict[str, bytes] = {}
        titles = Titles("title-facts", rules=lambda: RULES)
        for offset, (key, value) in enumerate(messages):
            table.update(titles.handle(table.get, key, value, 0, offset).writes)
        del r
    spent = (time.perf_counter() - started) / (repeat * len(messages))
    print(f"titles agent: {spent * 1000:.2f} ms per title fact ({len(messages)} facts x {repeat})")


def rating_list(entries: int) -> None:
    on = date(2026, 3, 1)
    batch = Batch(what="bench list")
    for i in range(entries):
        player = ev.PlayerRef(
            rank=0,
            fide_id=10_000_000 + i,
            name=f"P{i}",
            federation="GER",
            title=None,
            rating=2000,
        )
        batch.facts.append(
            RatingRecorded(
                fide_id=10_000_000 + i,
                player=player,
                rating=ev.TitleRating(
                    key=f"list/{on}", rating=2000, on=on, kind="published", source="list"
                ),
            )
        )
    with tempfile.TemporaryDirectory() as folder:
        store = TitleStore(Path(folder))
        started = time.perf_counter()
        store.add(batch, RULES)
        spent = time.perf_counter() - started
        size = (Path(folder) / "titles.sqlite3").stat().st_size
        store.close()
    print(
        f"store: a rating list of {entries} players in {spent:.2f} s "
        f"({spent / entries * 1e6:.0f} us a player), {size / entries:.0f} bytes a player"
    )


def main(
    sizes: tuple[int, ...] = (3, 6, 9, 12, 15), players: int = 40, entries: int = 20_000
) -> None:
    judging(sizes, players)
    worker_facts(repeat=5)
    rating_list(entries)


if __name__ == "__main__":
    main()
