"""Recording one fact in a tournament's state: how each input event type changes the crosstable
(:data:`RECORDERS`, one function per type), each refusal a :exc:`Rejected` naming the field.
Nothing is derived here: :func:`tracker.engine.transition.apply` announces rounds and alerts
from the state these functions leave."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from tracker import contract as ev
from tracker.domain.players import Player, Sex
from tracker.domain.results import Code, format_result, parse_result
from tracker.domain.titles import Title
from tracker.domain.tournaments import Tournament
from tracker.engine.state import Round, TournamentState
from tracker.rules import title_rules_in_force, title_rules_named, why_chosen
from tracker.rules.rating import rating_rules_in_force

K = TypeVar("K")


V = TypeVar("V")


class Rejected(ValueError):
    """An input event the tracker refuses; ``field`` names the offending field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def register_tournament(
    state: TournamentState | None, e: ev.TournamentRegistered
) -> TournamentState:
    tournament = Tournament(
        id=e.tournament_id,
        name=e.name,
        start_date=e.start_date,
        end_date=e.end_date,
        system=e.system,
        system_evidence=e.system_evidence,
        host_federation=e.host_federation,
        planned_rounds=e.planned_rounds,
        kinds=frozenset(e.kinds),
        edition=e.edition,
        city=e.city,
        chief_arbiter=e.chief_arbiter,
        time_control=e.time_control,
        event_type=e.event_type,
        round_dates=e.round_dates or (),
    )
    if state is not None:
        if state.tournament == tournament:
            return state
        raise Rejected(
            "tournament_id",
            f"tournament {e.tournament_id!r} is already registered with other facts",
        )
    return begin(tournament)


def begin(tournament: Tournament) -> TournamentState:
    """The state of a tournament just registered: no players, no rounds, the editions in
    force on its start date, or the one it names (``edition``)."""
    start, edition = tournament.start_date, tournament.edition
    try:
        rules = title_rules_named(edition) if edition else title_rules_in_force(start)
    except ValueError as exc:
        raise Rejected("edition", str(exc)) from None
    rating = rating_rules_in_force(start)
    reason = why_chosen(rules, start, forced=edition is not None)
    return TournamentState(
        tournament=tournament,
        title_rules=rules,
        rating_rules=rating,
        edition_reason=f"{reason}; live ratings by {rating.name}, in force on the start date",
    )


def _correct_system(state: TournamentState, e: ev.SystemCorrected) -> TournamentState:
    """The system (and the rounds it plans, how it was read and the ``092`` words) put
    right. Refused when the rounds already played do not fit the rounds it plans."""
    t = state.tournament
    fixed = dataclasses.replace(
        t,
        system=e.system,
        planned_rounds=e.planned_rounds,
        system_evidence=e.system_evidence,
        event_type=t.event_type if e.event_type is None else e.event_type,
    )
    if fixed == t:
        return state
    played = max(state.rounds, default=0)
    if e.planned_rounds is not None and played > e.planned_rounds:
        raise Rejected(
            "planned_rounds",
            f"{e.planned_rounds} planned rounds, but round {played} has facts already",
        )
    return dataclasses.replace(state, tournament=fixed)


def _player(e: ev.PlayerRegistered | ev.PlayerCorrected) -> Player:
    return Player(
        rank=e.rank,
        name=e.name,
        federation=e.federation,
        fide_id=e.fide_id,
        sex=Sex(e.sex) if e.sex else None,
        title=Title.parse(e.title),
        rating=e.rating or None,
        k_factor=e.k_factor,
        birth_date=e.birth_date,
        rated_games=e.rated_games,
        computer=e.computer,
    )


def _register_player(state: TournamentState, e: ev.PlayerRegistered) -> TournamentState:
    player = _player(e)
    known = state.players.get(e.rank)
    if known == player:
        return state
    if known is not None:
        raise Rejected(
            "rank",
            f"start rank {e.rank} is already registered as {known.label()} "
            "(send player_corrected to change the record)",
        )
    if len(state.players) >= ev.MAX_PLAYERS:
        raise Rejected(
            "rank",
            f"start rank {e.rank}: the tournament already has {len(state.players)} players, "
            f"the most the contract allows ({ev.MAX_PLAYERS})",
        )
    return dataclasses.replace(state, players=_with(state.players, e.rank, player))


def _correct_player(state: TournamentState, e: ev.PlayerCorrected) -> TournamentState:
    """The registered record replaced by the corrected one."""
    known = state.players.get(e.rank)
    if known is None:
        raise Rejected(
            "rank", f"no player with start rank {e.rank} is registered (send player_registered)"
        )
    player = _player(e)
    if known == player:
        return state
    return dataclasses.replace(state, players=_with(state.players, e.rank, player))


def _remove_player(state: TournamentState, e: ev.PlayerRemoved) -> TournamentState:
    """A player registered by mistake taken off the start list, with their byes. A player
    not registered (or removed already) changes nothing."""
    if e.rank not in state.players:
        return state
    rounds = dict(state.rounds)
    for number, rnd in sorted(state.rounds.items()):
        board = rnd.opponent_board(e.rank)
        if board is not None:
            raise Rejected(
                "rank",
                f"player {e.rank} plays on board {board[0]}-{board[1]} in round {number}: "
                "take the board back first (pairing_removed)",
            )
        if e.rank in rnd.byes:
            rounds[number] = rnd.replaced(byes=_without(rnd.byes, e.rank))
    return dataclasses.replace(
        state,
        players=_without(state.players, e.rank),
        rounds=MappingProxyType(rounds),
    )


def _board(
    state: TournamentState, e: ev.GameResult | ev.ResultCorrected | ev.PairingRemoved
) -> tuple[Round, tuple[int, int]]:
    """The round and the board the event names, its players known; a board the round has
    with the colours the other way round is refused (naming ``white``)."""
    _check_players(state, e.round, white=e.white, black=e.black)
    rnd = state.round(e.round)
    if (e.white, e.black) not in rnd.boards and (e.black, e.white) in rnd.boards:
        raise Rejected(
            "white",
            f"round {e.round} pairs {e.black} with White against {e.white}, "
            "not the other way round",
        )
    return rnd, (e.white, e.black)


def _check_players(state: TournamentState, round_: int, **ranks: int) -> None:
    planned = state.tournament.planned_rounds
    if planned is not None and round_ > planned:
        raise Rejected("round", f"round {round_} is beyond the {planned} planned rounds")
    for field, rank in ranks.items():
        if rank not in state.players:
            raise Rejected(field, f"unknown player with start rank {rank}")
    values = list(ranks.values())
    if len(values) == 2 and values[0] == values[1]:
        raise Rejected("black", f"player {values[0]} cannot be paired against themself")


def _already_placed(rnd: Round, rank: int, board: tuple[int, int] | None) -> str | None:
    if rank in rnd.byes:
        return f"has a bye ({rnd.byes[rank].value})"
    other = rnd.opponent_board(rank)
    if other is not None and other != board:
        return f"is already paired on board {other[0]}-{other[1]}"
    return None


def _pair(state: TournamentState, e: ev.Pairing) -> TournamentState:
    _check_players(state, e.round, white=e.white, black=e.black)
    rnd = state.round(e.round)
    board = (e.white, e.black)
    if board in rnd.boards:
        rated = _rated(rnd, e, correction=False)
        return state if rated is rnd else state.with_round(e.round, rated)
    _not_finished(state, rnd, e.round)
    for field, rank in (("white", e.white), ("black", e.black)):
        clash = _already_placed(rnd, rank, board)
        if clash:
            raise Rejected(field, f"player {rank} {clash} in round {e.round}")
    boards = _with(rnd.boards, board, None)
    rated = _rated(rnd, e, correction=False)
    return state.with_round(e.round, rated.replaced(boards=boards))


def _rated(
    rnd: Round, e: ev.Pairing | ev.GameResult | ev.ResultCorrected, correction: bool
) -> Round:
    """The round with the game-date ratings the event gives (1.1.4 of 2024). A rating
    already recorded for the round changes only by a ``result_corrected``."""
    if e.white_rating is None and e.black_rating is None:
        return rnd
    ratings = dict(rnd.ratings)
    for field, rank, rating in (
        ("white_rating", e.white, e.white_rating),
        ("black_rating", e.black, e.black_rating),
    ):
        if rating is None:
            continue
        known = ratings.get(rank)
        if known is not None and known != rating and not correction:
            raise Rejected(
                field,
                f"player {rank} is already rated {known} on the day of round {e.round}; "
                "send result_corrected to change it",
            )
        ratings[rank] = rating
    if ratings == rnd.ratings:
        return rnd
    return rnd.replaced(ratings=MappingProxyType(ratings))


def _bye(state: TournamentState, e: ev.Bye) -> TournamentState:
    _check_players(state, e.round, player=e.player)
    rnd = state.round(e.round)
    code = Code.parse(e.kind)
    if rnd.byes.get(e.player) is code:
        return state
    _not_finished(state, rnd, e.round)
    clash = _already_placed(rnd, e.player, None)
    if clash:
        raise Rejected("player", f"player {e.player} {clash} in round {e.round}")
    return state.with_round(e.round, rnd.replaced(byes=_with(rnd.byes, e.player, code)))


def _result(
    state: TournamentState, e: ev.GameResult | ev.ResultCorrected, correction: bool
) -> TournamentState:
    codes = parse_result(e.result)
    rnd, board = _board(state, e)
    if board not in rnd.boards:
        _not_finished(state, rnd, e.round, f" and has no board {e.white}-{e.black}")
        for field, rank in (("white", e.white), ("black", e.black)):
            clash = _already_placed(rnd, rank, board)
            if clash:
                raise Rejected(field, f"player {rank} {clash} in round {e.round}")
    known = rnd.boards.get(board)
    if known is not None and known != codes and not correction:
        raise Rejected(
            "result",
            f"round {e.round} board {e.white}-{e.black} already has the "
            f"result {format_result(*known)}; send result_corrected to change it",
        )
    rated = _rated(rnd, e, correction)
    if known == codes:
        return state if rated is rnd else state.with_round(e.round, rated)
    boards = _with(rnd.boards, board, codes)
    # a board first known by its result: the input does not send this round's pairings
    implied = True if board not in rnd.boards else None
    return state.with_round(e.round, rated.replaced(boards=boards, implied=implied))


def _close(state: TournamentState, e: ev.RoundClosed) -> TournamentState:
    _check_players(state, e.round)
    rnd = state.round(e.round)
    if rnd.closed:
        return state
    return state.with_round(e.round, rnd.replaced(closed=True, reopened=False))


def _not_finished(state: TournamentState, rnd: Round, number: int, detail: str = "") -> None:
    """A new board or bye is refused in a finished round, unless a correction opened its
    line-up (``round_reopened``, ``pairing_removed``, ``bye_removed``)."""
    if number <= state.announced and not rnd.amended:
        raise Rejected(
            "round",
            f"round {number} has already finished{detail} "
            "(send round_reopened first to change its pairings or byes)",
        )


def _unpair(state: TournamentState, e: ev.PairingRemoved) -> TournamentState:
    """The board taken back, with its result and the game-date ratings it carried; the
    round's line-up stays open for the right board, even once the round has finished
    (:attr:`Round.amended`). A board not there (taken back already) changes nothing."""
    rnd, board = _board(state, e)
    if board not in rnd.boards:
        return state
    ratings = rnd.ratings
    if e.white in ratings or e.black in ratings:
        ratings = MappingProxyType({rank: r for rank, r in ratings.items() if rank not in board})
    return state.with_round(
        e.round,
        rnd.replaced(
            boards=_without(rnd.boards, board),
            ratings=ratings,
            amended=True,
        ),
    )


def _unbye(state: TournamentState, e: ev.ByeRemoved) -> TournamentState:
    """The player's bye taken back (a finished round's line-up is open for what replaces
    it); no bye there changes nothing."""
    _check_players(state, e.round, player=e.player)
    rnd = state.round(e.round)
    if e.player not in rnd.byes:
        return state
    return state.with_round(
        e.round,
        rnd.replaced(
            byes=_without(rnd.byes, e.player),
            amended=True,
        ),
    )


def _reopen(state: TournamentState, e: ev.RoundReopened) -> TournamentState:
    """The round no longer closed, its line-up open for changes; it finishes again when it
    is complete (or closed)."""
    _check_players(state, e.round)
    rnd = state.round(e.round)
    if not rnd.closed and rnd.reopened:
        return state
    return state.with_round(e.round, rnd.replaced(closed=False, amended=True, reopened=True))


def _record_result(state: TournamentState, e: ev.GameResult) -> TournamentState:
    return _result(state, e, correction=False)


def _correct_result(state: TournamentState, e: ev.ResultCorrected) -> TournamentState:
    return _result(state, e, correction=True)


RECORDERS: dict[type[ev.InputEvent], Callable[[TournamentState, Any], TournamentState]] = {
    ev.PlayerRegistered: _register_player,
    ev.PlayerCorrected: _correct_player,
    ev.PlayerRemoved: _remove_player,
    ev.SystemCorrected: _correct_system,
    ev.Pairing: _pair,
    ev.Bye: _bye,
    ev.GameResult: _record_result,
    ev.ResultCorrected: _correct_result,
    ev.PairingRemoved: _unpair,
    ev.ByeRemoved: _unbye,
    ev.RoundReopened: _reopen,
    ev.RoundClosed: _close,
}
"""How each fact of a known tournament changes its state (:func:`record`), one function per
input event type (the registration, which may come first, is :func:`record`'s own)."""


def _with(mapping: Mapping[K, V], key: K, value: V) -> Mapping[K, V]:
    copy = dict(mapping)
    copy[key] = value
    return MappingProxyType(copy)


def _without(mapping: Mapping[K, V], key: K) -> Mapping[K, V]:
    copy = dict(mapping)
    del copy[key]
    return MappingProxyType(copy)
