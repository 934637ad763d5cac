"""What the web views and the live page show, built from a tournament's state.

Pure: a :class:`~tracker.engine.state.TournamentState` in, pydantic models out. The worker's web
server serves these as JSON (their JSON Schemas describe its API); nothing here is stored.

* :func:`summary` -- a tournament in a list;
* :func:`standings` -- every player after the last finished round, with live rating,
  rating change, performance, the norms in force, and the crosstable cells;
* :func:`player_card` -- one player as a broadcast site shows them beside the board: name,
  title, federation, FIDE id, rating, score, rating change, performance and, for every norm
  title they could gain, the best attempt with its IT1-like evidence.

Performance is FIDE's tournament performance (1.48 of 2009 applied to the whole event): the
average rating of the rated opponents met over the board, plus ``dp`` of the percentage
scored against them (table 8.1a); ``None`` without such a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict

from tracker import contract as ev
from tracker.domain.fide_tables import average_half_up, dp, percentage_of_half_points
from tracker.domain.titles import Title
from tracker.engine.alerts import evidence, player_ref, prospect_detail, score_text
from tracker.engine.evaluation import PlayerRound, norm_event, verdict_for
from tracker.engine.evaluation import standings as evaluate_standings
from tracker.engine.norm_in_force import alert_in_force
from tracker.engine.prospects import Outlook
from tracker.engine.secured import secured_norm
from tracker.engine.state import TournamentState
from tracker.norms.search import Cell


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class TournamentSummary(_View):
    tournament_id: str
    name: str
    start_date: date
    end_date: date | None
    system: str
    host_federation: str | None
    planned_rounds: int | None
    """``None`` when the number of rounds is not known."""
    rounds_finished: int
    players: int
    edition: str
    """The title regulations the tournament is judged by."""
    rate_of_play: str = "unknown"
    """``standard``, ``rapid``, ``blitz`` or ``unknown``, from the file's time control."""
    norm_event: bool = True
    """Whether the event can give title norms and title ratings (its rate of play)."""
    norm_event_reason: str = ""
    """How the rate of play was read and, when it is no norm event, why."""


class CrossCell(_View):
    """One round of a player's line in the crosstable."""

    round: int
    opponent: int | None
    """The opponent's start rank; ``None`` for a bye or absence."""
    colour: Literal["w", "b"] | None
    result: str
    """The player's TRF letter: ``1`` ``=`` ``0``, ``+`` ``-`` forfeits, ``W`` ``D`` ``L``
    decided before a move, ``H`` ``F`` ``U`` ``Z`` byes."""


class StandingRow(_View):
    place: int
    """1 + the number of players with a higher score (equal scores share a place)."""
    player: ev.PlayerRef
    score: float
    """Points, a number (a half point is ``.5``)."""
    score_text: str
    """The same as arbiters write it (``6½``), for display."""
    games: int
    """Rounds with a result or a bye, up to the last finished round."""
    live_rating: int | None
    rating_change: int | None
    performance: int | None
    norms: tuple[str, ...]
    """Norm titles in force for the player (as announced by ``norm_achieved``)."""
    cells: tuple[CrossCell, ...]


class Standings(_View):
    tournament: TournamentSummary
    round: int
    """The last finished round (0 before the first finishes)."""
    rows: tuple[StandingRow, ...]


class NormStatus(_View):
    """One norm title a player could gain: the best attempt so far."""

    title: str
    achieved: bool
    in_force: bool
    """Announced by a ``norm_achieved`` alert and not revoked since."""
    alert_id: str | None
    alert_round: int | None = None
    """The round after which the alert in force was made (``None``: none in force)."""
    alert_evidence: ev.NormEvidence | None = None
    """The evidence of the alert in force, as the alert carries it: the ``evidence`` above
    is the best attempt after the card's round, which may be another (a norm secured after
    round 9 of 11 is still in force after round 11)."""
    evidence: ev.NormEvidence
    contention: str | None = None
    """Before the last round: ``possible``, ``secured`` or ``out_of_reach`` (see
    ``tracker/engine/prospects/``); ``None`` once the tournament is over."""
    prospect: ev.Prospect | None = None
    """What the remaining rounds must bring, while the player is in contention."""


class PlayerCard(_View):
    """What a broadcast site shows beside a player."""

    tournament_id: str
    round: int
    rank: int
    name: str
    title: str | None
    federation: str | None
    """``None``: not known."""
    fide_id: int | None
    rating: int | None
    place: int
    score: float
    score_text: str
    games: int
    live_rating: int | None
    rating_change: int | None
    performance: int | None
    norms: tuple[NormStatus, ...]
    edition: str


def summary(state: TournamentState) -> TournamentSummary:
    t = state.tournament
    gate = norm_event(state)
    return TournamentSummary(
        tournament_id=t.id,
        name=t.name,
        start_date=t.start_date,
        end_date=t.end_date,
        system=t.system.value,
        host_federation=t.host_federation,
        planned_rounds=t.planned_rounds,
        rounds_finished=state.announced,
        players=len(state.players),
        edition=state.title_rules.name,
        rate_of_play=gate.rate.pace.value,
        norm_event=gate.norms,
        norm_event_reason=gate.reason,
    )


def performance(state: TournamentState, cells: Sequence[Cell]) -> int | None:
    """Ra of the rated opponents met over the board + dp of the score against them."""
    ratings: list[int] = []
    half = 0
    for c in cells:
        if c.opponent is None or not c.code.over_the_board:
            continue
        rating = state.players[c.opponent].rating
        if rating is None:
            continue
        ratings.append(rating)
        half += c.code.half_points
    if not ratings:
        return None
    ra = average_half_up(sum(ratings), len(ratings))
    return ra + dp(percentage_of_half_points(half, len(ratings)))


def norms_in_force(state: TournamentState) -> dict[int, list[str]]:
    """Norm titles announced and not revoked, by start rank (strongest first)."""
    out: dict[int, list[str]] = {}
    for key in state.sent:
        kind, _, rest = key.partition(":")
        if kind == "norm":
            rank, _, title = rest.partition(":")
            out.setdefault(int(rank), []).append(title)
    return {r: sorted(t, key=lambda x: -Title(x).level) for r, t in out.items()}


def _colours(state: TournamentState, up_to: int) -> dict[tuple[int, int], Literal["w", "b"]]:
    colours: dict[tuple[int, int], Literal["w", "b"]] = {}
    for number in range(1, up_to + 1):
        for white, black in state.round(number).boards:
            colours[(white, number)] = "w"
            colours[(black, number)] = "b"
    return colours


def _rows(state: TournamentState) -> list[tuple[int, PlayerRound]]:
    rows = evaluate_standings(state, state.announced)
    places, higher, previous = [], 0, None
    for i, row in enumerate(rows):
        if row.score != previous:
            higher, previous = i, row.score
        places.append((higher + 1, row))
    return places


def standings(state: TournamentState) -> Standings:
    up_to = state.announced
    colours = _colours(state, up_to)
    norms = norms_in_force(state)
    out = []
    for place, row in _rows(state):
        rank = row.player.rank
        out.append(
            StandingRow(
                place=place,
                player=player_ref(row.player),
                score=float(row.score),
                score_text=score_text(row.score),
                games=len(row.cells),
                live_rating=row.live.rating if row.live else None,
                rating_change=row.live.change if row.live else None,
                performance=performance(state, row.cells),
                norms=tuple(norms.get(rank, ())),
                cells=tuple(
                    CrossCell(
                        round=c.round,
                        opponent=c.opponent,
                        colour=colours.get((rank, c.round)),
                        result=c.code.value,
                    )
                    for c in row.cells
                ),
            )
        )
    return Standings(tournament=summary(state), round=up_to, rows=tuple(out))


def find_player(state: TournamentState, wanted: str) -> int | None:
    """The start rank of the player named by start rank or FIDE id (``None`` if unknown).
    A start rank wins over a FIDE id with the same digits."""
    for p in state.players.values():
        if wanted == str(p.rank):
            return p.rank
    for p in state.players.values():
        if p.fide_id is not None and wanted == str(p.fide_id):
            return p.rank
    return None


def player_card(state: TournamentState, rank: int) -> PlayerCard:
    """The card of the player with start rank ``rank`` (``KeyError`` if there is none)."""
    player = state.players[rank]
    up_to = state.announced
    place, row = next((pl, r) for pl, r in _rows(state) if r.player.rank == rank)
    statuses = []
    if up_to:
        ongoing = not state.tournament.is_last(up_to)
        view = Outlook(state, up_to) if ongoing else None
        for title in state.title_rules.eligible_norm_titles(player):
            verdict = verdict_for(state, rank, title, up_to)
            floor = state.title_rules.rating_floor[title]
            alert = state.sent.get(f"norm:{rank}:{title.value}")
            made = alert_in_force(state, rank, title) if alert is not None else None
            outlook = None
            if view is not None:
                sure = secured_norm(state, rank, title, verdict, up_to, view.cells, view.facts_ctx)
                outlook = view.prospect(rank, title, sure is not None)
            statuses.append(
                NormStatus(
                    title=title.value,
                    achieved=verdict.achieved,
                    in_force=alert is not None,
                    alert_id=alert,
                    alert_round=made[0] if made else None,
                    alert_evidence=evidence(made[1], made[1].raised, floor) if made else None,
                    evidence=evidence(verdict, verdict.raised, floor),
                    contention=outlook.status.value if outlook else None,
                    prospect=prospect_detail(outlook)
                    if outlook is not None and outlook.in_contention
                    else None,
                )
            )
    return PlayerCard(
        tournament_id=state.tournament.id,
        round=up_to,
        rank=rank,
        name=player.name,
        title=player.title.value if player.title else None,
        federation=player.federation,
        fide_id=player.fide_id,
        rating=player.rating,
        place=place,
        score=float(row.score),
        score_text=score_text(row.score),
        games=len(row.cells),
        live_rating=row.live.rating if row.live else None,
        rating_change=row.live.change if row.live else None,
        performance=performance(state, row.cells),
        norms=tuple(statuses),
        edition=state.title_rules.name,
    )


__all__ = [
    "CrossCell",
    "NormStatus",
    "PlayerCard",
    "StandingRow",
    "Standings",
    "TournamentSummary",
    "find_player",
    "norms_in_force",
    "performance",
    "player_card",
    "standings",
    "summary",
]
