"""How fast the core judges norms: what a user waits for when a round finishes.

1. Whole rounds: generated Swiss opens (a 500-player 11-round one under the 2009 edition as
   revised in 2012 and under ``fide-2024``, and a 2,000-player 13-round one), the CPU time
   of ``apply()`` of each round's last result, the evaluation of the whole round (standings,
   live ratings, norms, prospects, every alert), median of ``--repeat`` runs on the same
   state, and of its parts measured from outside: the round's view (standings, live ratings,
   the norm context and search: ``view_after``), the prospects and their alerts
   (``prospect_alerts``), and the rest (norm and title alerts, the summary).
2. The worst case for one player: 19 rounds, 19 wins, every norm failing, over a set of
   adversarial records (strong opponents, so the performance bounds pass, with title,
   federation and unrated mixes that fail only in combination), and the ratio against a
   plain search over every subset of won games for the smallest of them.

Run (after ``pip install -e '.[bench]'``): ``.venv/bin/python bench/bench_norms.py`` (prints
figures; no pass/fail); ``--fields 500`` for the 500-player opens only; ``--baseline main``
for the same figures of another revision beside these (``bench/baseline.py``).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import date
from importlib.util import find_spec
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, os.environ.get("BENCH_TREE") or sys.path[0])  # a baseline's code first

if find_spec("hypothesis") is None:  # the worst case compares with the tests' brute force
    raise SystemExit(
        "bench_norms.py needs the bench extra (hypothesis not installed): pip install -e '.[bench]'"
    )

from bench.baseline import Figures, add_arguments, run
from tests.support.builders import FIDE_2009, record
from tests.support.swiss import FEDS, swiss_events
from tracker import contract as ev
from tracker.domain.titles import NORM_TITLES
from tracker.engine.round_alerts import prospect_alerts
from tracker.engine.round_view import view_after
from tracker.engine.state import TournamentState
from tracker.engine.transition import apply
from tracker.engine.transition import record as record_fact
from tracker.norms.search import find_norm
from tracker.rules import TitleRules

FIELDS = {
    "500": [(500, 11, date(2012, 7, 1)), (500, 11, date(2025, 7, 1))],
    "2000": [(2000, 13, date(2012, 7, 1))],
}
"""The opens of part 1, by ``--fields``: players, rounds, start date (which edition)."""


def cpu(work: Callable[[], object], repeat: int) -> float:
    """The median CPU time of ``work`` over ``repeat`` runs (the garbage collector on, as in
    the worker, but collected before each run so that one run's garbage is not another's)."""
    times = []
    for _ in range(repeat):
        gc.collect()
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return statistics.median(times)


def bench_rounds(players: int, rounds: int, start: date, repeat: int) -> Figures:
    """Part 1 for one open: a line per round, the figures of the whole open."""
    groups = swiss_events(players, rounds, start=start)
    state: TournamentState | None = None
    for e in groups[0]:
        state, _ = apply(state, e)
    assert state is not None
    name = f"{players}x{rounds} {state.title_rules.name}"
    print(f"1. {players}-player, {rounds}-round Swiss ({state.title_rules.name}): each round")
    print(
        f"   {'round':>5} {'whole ms':>9} {'view ms':>8} {'prospects ms':>13} {'rest ms':>8} "
        f"{'alerts':>7}   (CPU, median of {repeat}; view: standings, live ratings, norms)"
    )
    whole: list[float] = []
    views: list[float] = []
    prospects: list[float] = []
    for number, events in enumerate(groups[1:], 1):
        for e in events[:-1]:
            state, _ = apply(state, e)
        assert state is not None
        before, last = state, events[-1]
        after = record_fact(before, last)
        view = view_after(after, number)
        t_whole = cpu(lambda b=before, e=last: apply(b, e), repeat)
        t_view = cpu(lambda a=after, n=number: view_after(a, n), repeat)
        t_prospects = cpu(lambda a=after, v=view: prospect_alerts(a, v, dict(a.sent)), repeat)
        state, out = apply(before, last)
        assert isinstance(out[0], ev.RoundFinished)
        whole.append(t_whole)
        views.append(t_view)
        prospects.append(t_prospects)
        rest = max(0.0, t_whole - t_view - t_prospects)
        print(
            f"   {number:>5} {t_whole * 1e3:>9.1f} {t_view * 1e3:>8.1f} "
            f"{t_prospects * 1e3:>13.1f} {rest * 1e3:>8.1f} {len(out):>7}"
        )
    figures = {
        f"{name}: median round ms": statistics.median(whole) * 1e3,
        f"{name}: worst round ms": max(whole) * 1e3,
        f"{name}: median view ms": statistics.median(views) * 1e3,
        f"{name}: median prospects ms": statistics.median(prospects) * 1e3,
    }
    print(
        f"   whole round: median {figures[f'{name}: median round ms']:.1f} ms, worst "
        f"{figures[f'{name}: worst round ms']:.1f} ms CPU"
    )
    return figures


def adversarial(seed: int) -> list[tuple[int | None, str | None, str, str]]:
    """19 wins against opponents chosen so that the rating bounds pass and the mix fails."""
    rng = random.Random(seed)
    kind = seed % 4
    opps: list[tuple[int | None, str | None, str, str]] = []
    for i in range(19):
        if kind == 0:  # strong titled players all from the candidate's federation + unrated
            opps.append((2600, "GM", "GER", "1") if i < 10 else (None, None, "FRA", "1"))
        elif kind == 1:  # GMs only among low-rated, strong untitled foreigners
            opps.append(
                (2250, "GM", rng.choice(["GER", "FRA"]), "1")
                if i < 3
                else (rng.randint(2500, 2650), None, rng.choice(FEDS), "1")
            )
        elif kind == 2:  # two federations only, one of them the candidate's
            opps.append(
                (
                    rng.randint(2450, 2650),
                    rng.choice(["GM", "IM", None]),
                    "GER" if i % 3 else "FRA",
                    "1",
                )
            )
        else:  # random strong mix
            opps.append(
                (
                    rng.choice([None, rng.randint(2300, 2700)]),
                    rng.choice([None, "GM", "IM", "FM", "CM"]),
                    rng.choice(FEDS[:3]),
                    "1",
                )
            )
    return opps


def bench_worst_case(cases: int = 40, repeats: int = 20, rules: TitleRules = FIDE_2009) -> Figures:
    print(
        f"2. one player, 19 rounds, 19 wins, every norm failing (all four titles, a woman; "
        f"{rules.name})"
    )
    worst = 0.0
    worst_seed = -1
    failing = 0
    for seed in range(cases):
        opps = adversarial(seed)
        me, cells, ctx = record(opps)
        me = dataclasses.replace(me, sex=me.sex.__class__("w"))
        ctx = dataclasses.replace(ctx, players={**ctx.players, 1: me})
        if any(find_norm(me, cells, t, ctx, rules) for t in NORM_TITLES):
            continue
        failing += 1
        t0 = time.process_time()
        for _ in range(repeats):
            for t in NORM_TITLES:
                find_norm(me, cells, t, ctx, rules)
        elapsed = (time.process_time() - t0) / repeats
        if elapsed > worst:
            worst, worst_seed = elapsed, seed
    print(
        f"   {failing} failing records of {cases}; worst {worst * 1000:.2f} ms for all four "
        f"titles (record {worst_seed}; target < 5 ms)"
    )
    # a plain search over every subset of the 19 won games, per title: 2^19 evaluations
    opps = adversarial(worst_seed)
    me, cells, ctx = record(opps)
    from tests.support.oracles import brute_force

    sample = opps[:12]
    me12, cells12, ctx12 = record(sample)
    t0 = time.perf_counter()
    brute_force(me12, cells12, ctx12, NORM_TITLES[0], rules)
    plain12 = time.perf_counter() - t0
    t0 = time.perf_counter()
    find_norm(me12, cells12, NORM_TITLES[0], ctx12, rules)
    fast12 = time.perf_counter() - t0
    per_subset = plain12 / sum(2**k for k in range(1, 13))  # cuts × subsets, roughly
    print(
        f"   12 rounds, GM only: plain search {plain12 * 1000:.0f} ms, this search "
        f"{fast12 * 1000:.2f} ms (ratio {plain12 / max(fast12, 1e-9):.0f}x); a plain search "
        f"of 19 rounds would need about {per_subset * sum(2**k for k in range(1, 20)):.0f} s"
        f" per title"
    )
    return {"worst-case record, four titles ms": worst * 1000}


def main(args: argparse.Namespace) -> Figures:
    figures: Figures = {}
    for field in args.fields:
        for players, rounds, start in FIELDS[field]:
            figures.update(bench_rounds(players, rounds, start, args.repeat))
            print()
    if not args.no_worst_case:
        figures.update(bench_worst_case(rules=FIDE_2009))
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--fields", nargs="+", choices=sorted(FIELDS), default=sorted(FIELDS), help="opens"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each round (median)")
    parser.add_argument("--no-worst-case", action="store_true", help="part 1 only")
    add_arguments(parser)
    raise SystemExit(run(parser, main))
