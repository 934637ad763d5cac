"""What the web views and the live page show, built from a tournament's state.

Pure: a :class:`~tracker.engine.state.TournamentState` in, pydantic models out. The worker's web
server serves these as JSON (their JSON Schemas describe its API); nothing here is stored.

* :func:`summary` -- a tournament in a list;
* :func:`standings` -- every player after the last finished round, with live rating,
  rating change, performance, each norm title in the norm watch (:class:`NormWatch`), and
  the crosstable cells (TRF letters, and points as numbers);
* :func:`player_card` -- one player as a broadcast site shows them beside the board: the
  player (as the standings and alerts name them), score, rating change, performance and,
  for every norm title they could gain, the same :class:`NormWatch` with the prospect and
  the best attempt's IT1-like evidence.

Performance is FIDE's tournament performance (1.48 of 2009 applied to the whole event): the
average rating of the rated opponents met over the board, plus ``dp`` of the percentage
scored against them (table 8.1a); ``None`` without such a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tracker import contract as ev
from tracker.domain.fide_tables import average_half_up, dp, percentage_of_half_points
from tracker.engine.alerts import evidence, player_ref, prospect_detail, score_text
from tracker.engine.evaluation import PlayerRound, norm_event
from tracker.engine.evaluation import standings as evaluate_standings
from tracker.engine.norm_in_force import alert_in_force
from tracker.engine.state import TournamentState
from tracker.engine.watch import Watch, watch_after
from tracker.formats.start_list import name_of
from tracker.norms.search import Cell
from tracker.render.watch_text import entry_text


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
    points: float
    """What the round gave the player, a number: ``1``, ``0.5`` or ``0`` (a forfeit win and
    a full-point bye ``1``, a half-point bye ``0.5``)."""


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
    norms: tuple[NormWatch, ...]
    """Every norm title the player is evaluated for, in the norm watch after the round
    (strongest title first; without the card's prospect and evidence)."""
    cells: tuple[CrossCell, ...]


class Standings(_View):
    tournament: TournamentSummary
    round: int
    """The last finished round (0 before the first finishes)."""
    rows: tuple[StandingRow, ...]


def _card_only(value: object) -> bool:
    """A card's field is left out of the JSON where it is empty (the standings rows)."""
    return value is None


Stage = Literal["achieved", "secured", "conditional", "in_contention", "out_of_reach"]


class NormWatch(_View):
    """A player's norm title after the round, as the norm watch has it
    (``tracker/engine/watch.py``): the one shape of a norm in the standings rows and on the
    player card. The standings give the stage and what it says; the card adds the prospect
    and the evidence."""

    title: str
    stage: Stage
    """``achieved`` (after the last round), ``secured`` (before it, and nothing can take it
    away), ``conditional`` (before it, depending on what later rounds bring),
    ``in_contention`` (still possible) or ``out_of_reach``."""
    says: str
    """In words: why secured or out of reach, what a conditional norm depends on, what the
    remaining rounds must bring (the 1.4.1c condition with it where it applies)."""
    order: int
    """The entry's place in the watch, closest first (1 is the closest: norms that hold,
    then those in contention by the least performance above the player's rating the
    remaining games ask)."""
    conditions: tuple[ev.NormCondition, ...] = ()
    in_force: bool = False
    """Announced by a ``norm_achieved`` alert and not revoked since."""
    alert_id: str | None = None
    prospect: ev.Prospect | None = Field(default=None, exclude_if=_card_only)
    """Card only: in contention (or conditional), what the remaining rounds must bring;
    out of reach, the requirements still open."""
    evidence: ev.NormEvidence | None = Field(default=None, exclude_if=_card_only)
    """Card only: the best attempt after the card's round."""
    alert_round: int | None = Field(default=None, exclude_if=_card_only)
    """Card only: the round after which the alert in force was made."""
    alert_evidence: ev.NormEvidence | None = Field(default=None, exclude_if=_card_only)
    """Card only: the evidence of the alert in force, as the alert carries it (a norm
    secured after round 9 of 11 is still in force after round 11, on other games)."""


class PlayerCard(_View):
    """What a broadcast site shows beside a player."""

    tournament_id: str
    round: int
    player: ev.PlayerRef
    """The same shape as in the standings rows and the alerts."""
    place: int
    score: float
    score_text: str
    games: int
    live_rating: int | None
    rating_change: int | None
    performance: int | None
    norms: tuple[NormWatch, ...]
    """Every norm title the player is evaluated for, strongest first (none before the
    first round, nor in an event that gives no norms)."""
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


def _watch(state: TournamentState) -> Watch | None:
    """The norm watch after the last finished round; ``None`` before the first or where
    the event gives no norms."""
    if not state.announced:
        return None
    watch = watch_after(state, state.announced)
    return watch if watch.norm_event else None


def norm_watch(
    state: TournamentState, watch: Watch | None, rank: int, card: bool = False
) -> tuple[NormWatch, ...]:
    """The player's norms in the watch, strongest title first; with ``card``, with the
    prospect and the evidence."""
    if watch is None:
        return ()
    order = watch.places()
    edition = state.title_rules.name
    out = []
    for title in state.title_rules.eligible_norm_titles(state.players[rank]):
        e = watch.entry(rank, title)
        alert = state.sent.get(f"norm:{rank}:{title.value}")
        extra: dict[str, object] = {}
        if card:
            floor = state.title_rules.rating_floor[title]
            verdict = watch.view.shown(state, rank, title)
            made = alert_in_force(state, rank, title) if alert is not None else None
            extra = {
                "prospect": prospect_detail(e.prospect) if e.prospect is not None else None,
                "evidence": evidence(verdict, verdict.raised, floor),
                "alert_round": made[0] if made else None,
                "alert_evidence": evidence(made[1], made[1].raised, floor) if made else None,
            }
        out.append(
            NormWatch(
                title=title.value,
                stage=e.stage.value,
                says=entry_text(e, edition),
                order=order[e.key],
                conditions=tuple(
                    ev.NormCondition(article=c.article, text=c.text) for c in e.conditions
                ),
                in_force=alert is not None,
                alert_id=alert,
                **extra,
            )
        )
    return tuple(out)


def standings(state: TournamentState) -> Standings:
    up_to = state.announced
    colours = _colours(state, up_to)
    watch = _watch(state)
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
                norms=norm_watch(state, watch, rank),
                cells=tuple(
                    CrossCell(
                        round=c.round,
                        opponent=c.opponent,
                        colour=colours.get((rank, c.round)),
                        result=c.code.value,
                        points=c.code.half_points / 2,
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


def players_named(state: TournamentState, wanted: str) -> list[int]:
    """The start ranks of the players a name stands for, as a person types it: every word
    of ``wanted`` the start of a different word of the player's name, in any case, accents
    and scripts folded (``vallee`` finds ``Vallée, Xavier``; ``carlsen m`` finds ``Carlsen,
    Magnus``). A name that is every word of one player's name is that player alone."""
    words = name_of(wanted).words
    if not words:
        return []
    found = []
    exact = []
    for p in state.players.values():
        theirs = name_of(p.name).words
        if _starts(words, theirs):
            found.append(p.rank)
            if sorted(words) == sorted(theirs):
                exact.append(p.rank)
    return exact if len(exact) == 1 else sorted(found)


def _starts(words: Sequence[str], theirs: Sequence[str]) -> bool:
    """Whether each of ``words`` starts a different one of ``theirs`` (longest first)."""
    free = list(theirs)
    for w in sorted(words, key=len, reverse=True):
        match = next((t for t in free if t.startswith(w)), None)
        if match is None:
            return False
        free.remove(match)
    return True


def player_card(state: TournamentState, rank: int) -> PlayerCard:
    """The card of the player with start rank ``rank`` (``KeyError`` if there is none)."""
    player = state.players[rank]
    place, row = next((pl, r) for pl, r in _rows(state) if r.player.rank == rank)
    return PlayerCard(
        tournament_id=state.tournament.id,
        round=state.announced,
        player=player_ref(player),
        place=place,
        score=float(row.score),
        score_text=score_text(row.score),
        games=len(row.cells),
        live_rating=row.live.rating if row.live else None,
        rating_change=row.live.change if row.live else None,
        performance=performance(state, row.cells),
        norms=norm_watch(state, _watch(state), rank, card=True),
        edition=state.title_rules.name,
    )


__all__ = [
    "CrossCell",
    "NormWatch",
    "PlayerCard",
    "StandingRow",
    "Standings",
    "TournamentSummary",
    "find_player",
    "norm_watch",
    "performance",
    "player_card",
    "players_named",
    "standings",
    "summary",
]
