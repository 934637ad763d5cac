"""The seed tournaments replayed to a state, for the views and certificates built from it."""

from __future__ import annotations

from tests.support.paths import SEEDS
from tracker import contract as ev
from tracker.engine.state import TournamentState
from tracker.host.replay import Replay, read_events


def replayed(
    name: str, last_round: int | None = None
) -> tuple[TournamentState, list[ev.OutputEvent]]:
    run = Replay()
    alerts: list[ev.OutputEvent] = []
    path = SEEDS / name
    for item in read_events(path.read_text(encoding="utf-8"), path.name):
        if last_round is not None and getattr(item.event, "round", 0) > last_round:
            break
        alerts.extend(run.feed(item))
    return next(iter(run.states.values())), alerts
