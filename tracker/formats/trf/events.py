"""A :class:`~tracker.formats.trf.model.TrfFile` as the input events the tournament would
have sent live: the registration (with the system read from the file), the players, and
round by round the pairings, results and byes, each round closed once every game has its
result."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pydantic

from tracker.contract import (
    Bye,
    GameResult,
    InputEvent,
    Pairing,
    PlayerRegistered,
    RoundClosed,
    TournamentRegistered,
)
from tracker.domain.federations import is_federation
from tracker.domain.results import Code, format_result
from tracker.domain.tournaments import System
from tracker.formats.trf.model import ByeKind, Cell, TrfError, TrfFile, TrfPlayer


def to_events(trf: TrfFile, tournament_id: str | None = None) -> list[InputEvent]:
    """The input events a live tournament would have produced, in order.

    One ``tournament_registered``, one ``player_registered`` per player, then for every round
    with at least one cell: a ``pairing`` per board, a ``bye`` per bye cell, a
    ``game_result`` per board with a result, and ``round_closed`` once the round has been
    played to the end. Boards are ordered by the lower start rank, byes by start rank.

    A round has been *played* (or is being played) when it has boards, or when a later round
    has: a blank cell there is an absence (a bye ``Z``: TRF reads blank as ``0000``, "not
    paired"). It is closed when every board has a result. A round without boards before
    any paired round is not played yet: its cells are byes and absences entered ahead, sent
    as they are (blank cells send nothing), and it stays open. So a file whose last paired
    round lacks results, or that holds byes for later rounds, is a tournament in progress.

    A cell ``0000 - +`` (a forfeit win with no opponent named) becomes a bye ``F``,
    ``0000 - -`` a bye ``Z``.

    In a Swiss a round is paired only once the one before has all its results, so a round
    with a board lacking its result followed by a round with results is an error; in a round
    robin it is a postponed game, and the later rounds wait for it (rounds are announced in
    order).
    """
    tid = tournament_id or trf.tournament_id
    events: list[InputEvent] = [_tournament_event(trf, tid), *player_events(trf, tid)]
    paired = [r for r in trf.played_rounds if any(_has_board(p, r) for p in trf.players)]
    last_paired = paired[-1] if paired else 0
    # every round up to the last paired one (a blank column there is a round of absences)
    rounds = sorted({*range(1, last_paired + 1), *trf.played_rounds})
    unfinished: tuple[int, int, int] | None = None
    for r in rounds:
        played = r <= last_paired
        round_events = list(_round_events(trf, r, tid, played))
        has_result = any(isinstance(e, GameResult) for e in round_events)
        if unfinished is not None and has_result and trf.system is System.SWISS:
            number, white, black = unfinished
            raise TrfError(
                f"round {number}: board {white}-{black} has no result, but round {r} has "
                "results (a Swiss round is paired after the one before it is finished)"
            )
        events.extend(round_events)
        if played and unfinished is None and not isinstance(events[-1], RoundClosed):
            decided = {(e.white, e.black) for e in round_events if isinstance(e, GameResult)}
            unfinished = next(
                (r, e.white, e.black)
                for e in round_events
                if isinstance(e, Pairing) and (e.white, e.black) not in decided
            )
    return events


def _has_board(p: TrfPlayer, r: int) -> bool:
    cell = p.cell(r)
    return cell is not None and cell.is_game


def _wrap(what: str, make: Callable[..., InputEvent], **fields: object) -> InputEvent:
    try:
        return make(**fields)
    except pydantic.ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise TrfError(f"{what}: {problems}") from None


def _tournament_event(trf: TrfFile, tid: str) -> InputEvent:
    h = trf.header
    start = h.start_date or next((d for d in h.round_dates if d is not None), None)
    if start is None:
        raise TrfError("no start date: neither record 042 nor record 132 gives one")
    planned = trf.planned_rounds
    if planned is not None and planned < trf.rounds:
        raise TrfError(
            f"the file has {trf.rounds} round columns but plans {planned} rounds (XXR, 142 or 132)"
        )
    return _wrap(
        "tournament",
        TournamentRegistered,
        tournament_id=tid,
        name=h.name,
        start_date=start,
        end_date=h.end_date,
        system=trf.system,
        system_evidence=trf.system_reading.evidence if trf.header.system is None else None,
        host_federation=trf.host_federation,
        planned_rounds=planned,
        kinds=h.kinds,
        city=h.city or None,
        chief_arbiter=h.chief_arbiter or None,
        time_control=h.time_control or h.encoded_time_control or None,
        event_type=h.tournament_type or None,
        round_dates=h.round_dates or None,
    )


def player_events(trf: TrfFile, tid: str) -> list[InputEvent]:
    """The ``player_registered`` of every player, as :func:`to_events` registers them
    (raises :exc:`TrfError` naming the line); no tournament facts are needed."""
    return [_player_event(p, tid) for p in trf.players]


def _player_event(p: TrfPlayer, tid: str) -> InputEvent:
    where = f"line {p.line}, player {p.rank}" if p.line else f"player {p.rank}"
    return _wrap(
        where,
        PlayerRegistered,
        tournament_id=tid,
        rank=p.rank,
        name=p.name,
        # blank, or a code not on FIDE's list (an anonymised ``ZZZ``): an unknown federation,
        # which no norm rule guesses (the README's readings)
        federation=p.federation if is_federation(p.federation) else None,
        fide_id=p.fide_id,
        sex=p.sex,
        title=p.title.value if p.title else None,
        rating=p.rating,
        birth_date=p.birth_date,
    )


def _round_events(trf: TrfFile, r: int, tid: str, played: bool) -> Iterator[InputEvent]:
    """Round ``r``'s facts; ``played``: the round has been paired (or a later one has), so
    a blank cell is an absence. A round that is played and has every result is closed."""
    by_rank = {p.rank: p for p in trf.players}
    boards: list[tuple[int, int, Cell, Cell]] = []  # white, black, white's cell, black's cell
    byes: list[Bye] = []
    for p in trf.players:
        cell = p.cell(r)
        if cell is None and not played:
            continue  # nothing entered yet for a round still to be paired
        if cell is None or cell.opponent is None:
            byes.append(Bye(tournament_id=tid, round=r, player=p.rank, kind=_bye_kind(cell)))
            continue
        if cell.opponent < p.rank:
            continue  # the board is listed under the lower start rank
        back = by_rank[cell.opponent].cell(r)
        assert back is not None  # checked by parse_trf
        if cell.colour == "b" or (cell.colour == "-" and back.colour == "w"):
            boards.append((cell.opponent, p.rank, back, cell))
        else:
            boards.append((p.rank, cell.opponent, cell, back))
    for white, black, _, _ in boards:
        yield Pairing(tournament_id=tid, round=r, white=white, black=black)
    yield from byes
    finished = played
    for white, black, white_cell, black_cell in boards:
        if white_cell.code is None or black_cell.code is None:
            finished = False
            continue
        result = format_result(white_cell.code, black_cell.code)
        yield GameResult(tournament_id=tid, round=r, white=white, black=black, result=result)
    if finished:
        yield RoundClosed(tournament_id=tid, round=r)


def _bye_kind(cell: Cell | None) -> ByeKind:
    if cell is None or cell.code is None:
        return "Z"
    code = cell.code
    if code is Code.FORFEIT_WIN:
        return "F"
    if code is Code.HALF_BYE:
        return "H"
    if code is Code.FULL_BYE:
        return "F"
    if code is Code.PAIRING_BYE:
        return "U"
    return "Z"
