"""What a correction costs the core: a generated Swiss open (bench_norms' generator), played to
its last round, then each kind of correction applied to the finished event and timed (CPU):
a round-1 result corrected, a player's rating put right, a round-1 board taken back and
entered again, the last round reopened (a board taken back, so the round is no longer
complete) and finished again. A correction works the announced rounds out again from round
1 (norms, standings) and judges contention after the last round still finished
(tracker/engine/corrections.py); the replay of the whole event is printed beside it.

    .venv/bin/python bench/bench_corrections.py            # 500 and 2000 players
    .venv/bin/python bench/bench_corrections.py 4000       # the contract's largest field
    .venv/bin/python bench/bench_corrections.py --baseline main   # beside main's figures
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, os.environ.get("BENCH_TREE") or sys.path[0])  # a baseline's code first

from bench.baseline import Figures, add_arguments, run
from tests.support.swiss import swiss_events
from tracker import contract as ev
from tracker.engine.state import TournamentState
from tracker.engine.transition import apply

ROUNDS = 9


def timed(state: TournamentState, fixes: list[ev.InputEvent]) -> tuple[float, int]:
    started = time.process_time()
    alerts = 0
    for e in fixes:
        state, out = apply(state, e)
        alerts += len(out)
    return time.process_time() - started, alerts


def bench(players: int) -> Figures:
    groups = swiss_events(players, ROUNDS)
    state: TournamentState | None = None
    started = time.process_time()
    for group in groups:
        for e in group:
            state, _ = apply(state, e)
    replay = time.process_time() - started
    assert state is not None
    assert state.announced == ROUNDS
    tid = state.tournament.id
    first = next(e for e in groups[1] if isinstance(e, ev.GameResult) and e.result != "1/2-1/2")
    last = next(e for e in groups[ROUNDS] if isinstance(e, ev.GameResult))
    someone = next(e for e in groups[0] if isinstance(e, ev.PlayerRegistered) and e.rating)
    assert isinstance(someone, ev.PlayerRegistered)
    assert someone.rating is not None

    def board(e: ev.GameResult) -> ev.PairingRemoved:
        return ev.PairingRemoved(tournament_id=tid, round=e.round, white=e.white, black=e.black)

    kinds: dict[str, Callable[[], list[ev.InputEvent]]] = {
        "result_corrected, round 1": lambda: [
            ev.ResultCorrected(**{**first.model_dump(exclude={"type"}), "result": "1/2-1/2"})
        ],
        "player_corrected, rating -100": lambda: [
            ev.PlayerCorrected(
                **{**someone.model_dump(exclude={"type"}), "rating": someone.rating - 100}  # type: ignore[operator]
            )
        ],
        "pairing_removed + game_result, round 1": lambda: [board(first), first],
        f"round {ROUNDS} reopened and finished again": lambda: [
            ev.RoundReopened(tournament_id=tid, round=ROUNDS),
            board(last),
            ev.Pairing(tournament_id=tid, round=ROUNDS, white=last.white, black=last.black),
            last,
        ],
    }
    print(f"{players} players, {ROUNDS} rounds: replay {replay:.2f} s CPU")
    figures = {f"{players} players: replay s": replay}
    for name, fixes in kinds.items():
        seconds, alerts = timed(state, fixes())
        print(f"  {name:<45} {seconds:6.2f} s CPU, {alerts} alerts")
        figures[f"{players} players: {name} s"] = seconds
    return figures


def main(args: argparse.Namespace) -> Figures:
    figures: Figures = {}
    for players in args.sizes:
        figures.update(bench(players))
    return figures


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[500, 2000], help="players")
    add_arguments(parser)
    raise SystemExit(run(parser, main))
