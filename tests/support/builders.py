"""Small factories for tests: players, one player's record, whole tournaments as events."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import date

from tracker import contract as ev
from tracker.domain.players import Player, Sex
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System, Tournament
from tracker.engine.state import TournamentState
from tracker.engine.transition import apply
from tracker.norms.search import Cell, Context, Verdict, evaluate, find_norm
from tracker.rules import TitleRules, title_rules_named

FIDE_2009 = title_rules_named("fide-2009")
PRE_2009 = title_rules_named("fide-pre-2009")
FIDE_2024 = title_rules_named("fide-2024")
FIDE_2009R2012 = title_rules_named("fide-2009r2012")
FIDE_2009R2017 = title_rules_named("fide-2009r2017")
FIDE_2009R2022 = title_rules_named("fide-2009r2022")
START = {
    "fide-pre-2009": date(2008, 5, 1),
    "fide-2009": date(2011, 5, 1),
    "fide-2009r2012": date(2013, 5, 1),
    "fide-2009r2017": date(2019, 5, 1),
    "fide-2009r2022": date(2023, 5, 1),
    "fide-2024": date(2025, 5, 1),
}
"""A start date in force for each title edition and revision, by name."""


def player(
    rank: int,
    rating: int | None = 2400,
    title: str | None = None,
    fed: str | None = "GER",
    sex: str = "m",
    **extra: object,
) -> Player:
    return Player(
        rank=rank,
        name=f"Player {rank}",
        federation=fed,
        fide_id=90_000_000 + rank,
        sex=Sex(sex),
        title=Title.parse(title),
        rating=rating,
        **extra,  # type: ignore[arg-type]
    )


Opp = tuple[int | None, str | None, str | None, str]
"""(rating, title, federation (``None``: unknown), result letter from the candidate's side:
1 = 0 + - …)."""


def record(
    opponents: Sequence[Opp],
    *,
    candidate: Player | None = None,
    rounds: int | None = None,
    system: System = System.SWISS,
    kinds: Sequence[EventKind] = (),
    host: str | None = "GER",
    start: date = date(2011, 3, 1),
    swiss_exempt: bool = False,
    swiss_exempt_possible: bool = False,
    byes: dict[int, str] | None = None,
) -> tuple[Player, list[Cell], Context]:
    """A candidate (rank 1) who met ``opponents`` in rounds 1, 2, … in that order."""
    me = candidate or player(1, 2450, None, "GER")
    others = {
        i: player(i, rating, title, fed) for i, (rating, title, fed, _) in enumerate(opponents, 2)
    }
    cells = [Cell(r, r + 1, Code.parse(code)) for r, (_, _, _, code) in enumerate(opponents, 1)]
    if byes:
        # a bye (``H``, ``F``, ``U``, ``Z``) in a round: the games after it move one round on
        cells = _with_byes(cells, byes)
    t = Tournament(
        id="t",
        start_date=start,
        planned_rounds=rounds or len(cells),
        system=system,
        host_federation=host,
        kinds=frozenset(kinds),
    )
    ctx = Context(
        tournament=t,
        players={me.rank: me, **others},
        swiss_exempt=swiss_exempt,
        unrated_scored_zero=frozenset(),
        swiss_exempt_possible=swiss_exempt_possible,
    )
    return me, cells, ctx


def _with_byes(cells: list[Cell], byes: dict[int, str]) -> list[Cell]:
    games = iter(cells)
    out = []
    for r in range(1, len(cells) + len(byes) + 1):
        if r in byes:
            out.append(Cell(r, None, Code.parse(byes[r])))
        else:
            game = next(games)
            out.append(Cell(r, game.opponent, game.code))
    return out


def verdict(
    opponents: Sequence[Opp], title: str = "GM", rules: TitleRules = FIDE_2009, **kw: object
) -> Verdict:
    me, cells, ctx = record(opponents, **kw)  # type: ignore[arg-type]
    return evaluate(me, cells, Title(title), ctx, rules)


def achieved(
    opponents: Sequence[Opp], title: str = "GM", rules: TitleRules = FIDE_2009, **kw: object
) -> bool:
    me, cells, ctx = record(opponents, **kw)  # type: ignore[arg-type]
    return find_norm(me, cells, Title(title), ctx, rules) is not None


def check(v: Verdict, name: str) -> bool:
    """Whether the check whose name contains ``name`` was met."""
    matches = [c for c in v.checks if name in c.name]
    assert matches, f"no check named {name!r} in {[c.name for c in v.checks]}"
    return matches[0].met


def tournament_events(
    tid: str,
    names: Sequence[tuple[str, int | None, str | None, str]],
    games: Sequence[tuple[int, int, int, str]],
    *,
    planned_rounds: int,
    start: date = date(2011, 5, 1),
    system: str = "swiss",
    host: str | None = "GER",
    close_rounds: bool = True,
) -> list[ev.InputEvent]:
    """Events for a tournament: players (name, rating, title, fed) get start ranks 1, 2, …;
    ``games`` are (round, white, black, result)."""
    out: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid,
            start_date=start,
            planned_rounds=planned_rounds,
            system=System(system),
            host_federation=host,
        )
    ]
    for rank, (name, rating, title, fed) in enumerate(names, 1):
        out.append(
            ev.PlayerRegistered(
                tournament_id=tid,
                rank=rank,
                name=name,
                rating=rating,
                title=title,
                federation=fed,
            )
        )
    for r in sorted({g[0] for g in games}):
        for rnd, white, black, result in games:
            if rnd == r:
                out.append(
                    ev.GameResult(
                        tournament_id=tid, round=r, white=white, black=black, result=result
                    )
                )
        if close_rounds:
            out.append(ev.RoundClosed(tournament_id=tid, round=r))
    return out


def replayed(events: Sequence[ev.InputEvent]) -> tuple[TournamentState, list[ev.OutputEvent]]:
    """The state after ``events`` (through :func:`tracker.engine.transition.apply`) and every alert
    they gave, in order."""
    state: TournamentState | None = None
    alerts: list[ev.OutputEvent] = []
    for e in events:
        state, emitted = apply(state, e)
        alerts.extend(emitted)
    assert state is not None
    return state, alerts


def uncarried(events: Sequence[ev.InputEvent]) -> TournamentState:
    """The state after ``events`` without what its last evaluation carries
    (:mod:`tracker.engine.carry`): every view of it is worked out from the facts alone."""
    state, _ = replayed(events)
    return dataclasses.replace(state, carry=None)


def climber_events(
    start: date,
    rating: int,
    wins: int,
    *,
    edition: str | None = None,
    **climber: object,
) -> list[ev.InputEvent]:
    """A player (rank 1, GER) rated ``rating`` beats ``wins`` players of the same rating from
    FRA, one a round (title-level alerts); ``climber``: more fields of her registration."""
    tid = "climb"
    out: list[ev.InputEvent] = [
        ev.TournamentRegistered(
            tournament_id=tid, start_date=start, planned_rounds=wins, edition=edition
        ),
        ev.PlayerRegistered.model_validate(
            {
                "tournament_id": tid,
                "rank": 1,
                "name": "Climber",
                "federation": "GER",
                "rating": rating,
                **climber,
            }
        ),
    ]
    for rank in range(2, wins + 2):
        out.append(
            ev.PlayerRegistered(
                tournament_id=tid, rank=rank, name=f"P{rank}", federation="FRA", rating=rating
            )
        )
    for r in range(1, wins + 1):
        out.append(ev.GameResult(tournament_id=tid, round=r, white=1, black=r + 1, result="1-0"))
        out.append(ev.RoundClosed(tournament_id=tid, round=r))
    return out


_LIVE_LEVEL = re.compile(r"(\w+) level \d+ reached live in round (\d+) \((\d+)\)")


def live_levels(alerts: Sequence[ev.OutputEvent], rank: int) -> list[tuple[str, int, int]]:
    """The title levels the last round summary says the player reached only live (2009
    1.3: FM, CM, WFM, WCM need a published rating), as (title, round, live rating)."""
    last = [a for a in alerts if isinstance(a, ev.RoundFinished)][-1]
    (row,) = [s for s in last.standings if s.player.rank == rank]
    return [(t, int(r), int(rating)) for t, r, rating in _LIVE_LEVEL.findall(row.note)]


def berger(n: int) -> list[list[tuple[int, int]]]:
    """Round-robin pairings for ``n`` (even) players by the circle method: for each round,
    (white, black) by start rank."""
    ranks = list(range(1, n + 1))
    rounds = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = ranks[i], ranks[n - 1 - i]
            pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))
        rounds.append(pairs)
        ranks = [ranks[0], ranks[-1], *ranks[1:-1]]
    return rounds
