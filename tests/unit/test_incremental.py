"""The incremental evaluation (``tracker/engine/carry.py``: live ratings extended round by
round, pairs out of reach for good not worked out again) against an evaluation from scratch
of the same facts: the same events in, the same alerts out, field for field, on every seed,
every file of the real corpus and generated events, corrections of finished rounds included
(each makes the next evaluation start again from round 1)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.support.generated import tournaments
from tests.support.paths import DATA, REAL, SEEDS
from tests.support.swiss import swiss_events
from tracker import contract as ev
from tracker.engine.carry import carried
from tracker.engine.state import TournamentState
from tracker.engine.transition import Rejected, apply, record
from tracker.host.replay import read_bytes

FILES = sorted(
    [
        *SEEDS.glob("*.trf"),
        *SEEDS.glob("*.jsonl"),
        *(SEEDS / "follow").glob("*.trf"),
        *REAL.glob("*.trf"),
        *DATA.glob("*.trf"),
    ]
)


@dataclasses.dataclass
class Run:
    """One way of applying events: its alerts (JSON) and how many rounds built on a carry."""

    scratch: bool
    state: TournamentState | None = None
    alerts: list[str] = dataclasses.field(default_factory=list)
    carried: int = 0

    def apply(self, event: ev.InputEvent) -> None:
        state = self.state
        if self.scratch and state is not None:
            state = dataclasses.replace(state, carry=None)  # every round from round 1
        try:
            follows = state is not None and carried(record(state, event), state.announced + 1)
            self.state, out = apply(state, event)
        except Rejected as exc:
            self.alerts.append(f"rejected: {exc}")
            return
        if follows and state is not None and self.state.announced > state.announced:
            self.carried += 1  # the next round was evaluated on the carry
        self.alerts.extend(a.model_dump_json() for a in out)


def compare(events: Iterable[ev.InputEvent]) -> Run:
    """The carried run, once it is shown to give what the run from scratch gives."""
    incremental, scratch = Run(scratch=False), Run(scratch=True)
    for event in events:
        incremental.apply(event)
        scratch.apply(event)
    assert scratch.carried == 0
    assert incremental.alerts == scratch.alerts
    return incremental


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_file_gives_the_same_alerts_carried_or_from_scratch(path: Path) -> None:
    run = compare(item.event for item in read_bytes(path.read_bytes(), path.name))
    assert run.state is not None
    if run.state.announced > 1:
        assert run.carried > 0


def corrected(groups: Sequence[list[ev.InputEvent]], at: int) -> list[ev.InputEvent]:
    """The rounds in order, with a finished round's result corrected and a player's
    registration corrected once round ``at`` has finished (both take the next evaluation
    back to round 1), and a late player registered before the round after."""
    out = [e for group in groups[: at + 1] for e in group]
    game = next(e for e in groups[2] if isinstance(e, ev.GameResult))
    flipped = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[game.result]
    out.append(
        ev.ResultCorrected(
            tournament_id=game.tournament_id,
            round=2,
            white=game.white,
            black=game.black,
            result=flipped,
        )
    )
    player = next(e for e in groups[0] if isinstance(e, ev.PlayerRegistered) and e.rank == 3)
    out.append(ev.PlayerCorrected(**{**player.model_dump(exclude={"type"}), "rating": 2390}))
    for group in groups[at + 1 :]:
        out.extend(group)
    return out


@pytest.mark.parametrize("start", [date(2012, 7, 1), date(2025, 7, 1)], ids=["2009r", "2024"])
def test_a_generated_open_gives_the_same_alerts_carried_or_from_scratch(start: date) -> None:
    groups = swiss_events(150, 9, seed=3, start=start)
    run = compare(e for group in groups for e in group)
    assert run.carried == 8  # every round after the first built on the one before
    assert run.state is not None
    assert run.state.carry is not None
    assert run.state.carry.settled  # some pairs went out of reach for good
    compare(corrected(groups, at=5))


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(events=tournaments("fide-2024") | tournaments("fide-2009"))
def test_generated_events_give_the_same_alerts_carried_or_from_scratch(
    events: list[ev.InputEvent],
) -> None:
    compare(events)
