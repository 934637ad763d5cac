"""The one pure transition: ``apply(state, event) -> (state, emitted events)``.

Facts are stored; everything else is derived when a round finishes or a result is
corrected, and compared with the alerts already in force so that only changes are emitted.
Applying the same fact twice changes nothing and emits nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Literal, TypeVar

from tracker import events as ev
from tracker.alerts import (
    alert_id,
    evidence,
    facts_digest,
    norm_alert_id,
    player_fields,
    player_ref,
    prospect_detail,
    requirements,
    score_text,
)
from tracker.editions import title_rules_in_force, title_rules_named, why_chosen
from tracker.editions.rating import rating_rules_in_force
from tracker.evaluation import (
    PlayerRound,
    achieved_norms,
    context,
    flags,
    norm_event,
    standings,
)
from tracker.event_flags import TournamentFlags
from tracker.norms import Cell, Context
from tracker.players import Player, Sex
from tracker.prospects import Outlook, Prospect, Status
from tracker.results import Code, format_result, parse_result
from tracker.secured import conditions
from tracker.state import Round, TournamentState
from tracker.titles import Title
from tracker.tournaments import Tournament

K = TypeVar("K")
V = TypeVar("V")


class Rejected(ValueError):
    """An input event the tracker refuses; ``field`` names the offending field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


Emitted = list[ev.OutputEvent]


def apply(state: TournamentState | None, event: ev.InputEvent) -> tuple[TournamentState, Emitted]:
    """Apply one input event. Raises :exc:`Rejected` for input that must not change state."""
    after = record(state, event)
    if after is state or isinstance(event, ev.TournamentRegistered | ev.PlayerRegistered):
        return after, []  # a repeated fact derives nothing again; registrations derive nothing
    return _advance(after, event.round)


def record(state: TournamentState | None, event: ev.InputEvent) -> TournamentState:
    """The first half of :func:`apply`: the state with the event's fact recorded and nothing
    derived (no round announced, no alert). The same state object when the fact is already
    known. Raises :exc:`Rejected` exactly where :func:`apply` does, so that a publisher (the
    follower, ``follow/``) can check a fact against the facts already sent without the cost of
    evaluating rounds."""
    if isinstance(event, ev.TournamentRegistered):
        return _register_tournament(state, event)
    if state is None:
        raise Rejected("tournament_id", f"unknown tournament {event.tournament_id!r}")
    if event.tournament_id != state.tournament.id:
        raise Rejected(
            "tournament_id", f"event for {event.tournament_id!r} given to {state.tournament.id!r}"
        )
    if isinstance(event, ev.PlayerRegistered):
        return _register_player(state, event)
    if isinstance(event, ev.Pairing):
        return _pair(state, event)
    if isinstance(event, ev.Bye):
        return _bye(state, event)
    if isinstance(event, ev.GameResult):
        return _result(state, event, correction=False)
    if isinstance(event, ev.ResultCorrected):
        return _result(state, event, correction=True)
    return _close(state, event)


def settle(state: TournamentState) -> TournamentState:
    """The state with every round that has finished marked announced, without evaluating
    anything: what :func:`apply` would have announced after the same facts. With
    :func:`record` it keeps a facts-only copy of a tournament that refuses exactly what the
    core refuses (a pairing in a finished round, …)."""
    finished = state.finished_after(state.announced)
    return state if finished == state.announced else dataclasses.replace(state, announced=finished)


# ----------------------------------------------------------------------------- facts


def _register_tournament(
    state: TournamentState | None, e: ev.TournamentRegistered
) -> TournamentState:
    tournament = Tournament(
        id=e.tournament_id,
        name=e.name,
        start_date=e.start_date,
        end_date=e.end_date,
        system=e.system,
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
    try:
        rules = title_rules_named(e.edition) if e.edition else title_rules_in_force(e.start_date)
    except ValueError as exc:
        raise Rejected("edition", str(exc)) from None
    rating = rating_rules_in_force(e.start_date)
    reason = why_chosen(rules, e.start_date, forced=e.edition is not None)
    return TournamentState(
        tournament=tournament,
        title_rules=rules,
        rating_rules=rating,
        edition_reason=f"{reason}; live ratings by {rating.name}, in force on the start date",
    )


def _register_player(state: TournamentState, e: ev.PlayerRegistered) -> TournamentState:
    player = Player(
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
    known = state.players.get(e.rank)
    if known == player:
        return state
    if known is not None:
        raise Rejected("rank", f"start rank {e.rank} is already registered as {known.label()}")
    if len(state.players) >= ev.MAX_PLAYERS:
        raise Rejected(
            "rank",
            f"start rank {e.rank}: the tournament already has {len(state.players)} players, "
            f"the most the contract allows ({ev.MAX_PLAYERS})",
        )
    return dataclasses.replace(state, players=_with(state.players, e.rank, player))


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
    if e.round <= state.announced:
        raise Rejected("round", f"round {e.round} has already finished")
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
    if e.round <= state.announced:
        raise Rejected("round", f"round {e.round} has already finished")
    clash = _already_placed(rnd, e.player, None)
    if clash:
        raise Rejected("player", f"player {e.player} {clash} in round {e.round}")
    return state.with_round(e.round, rnd.replaced(byes=_with(rnd.byes, e.player, code)))


def _result(
    state: TournamentState, e: ev.GameResult | ev.ResultCorrected, correction: bool
) -> TournamentState:
    _check_players(state, e.round, white=e.white, black=e.black)
    codes = parse_result(e.result)
    rnd = state.round(e.round)
    board = (e.white, e.black)
    if board not in rnd.boards:
        if (e.black, e.white) in rnd.boards:
            raise Rejected(
                "white",
                f"round {e.round} pairs {e.black} with White against "
                f"{e.white}, not the other way round",
            )
        if e.round <= state.announced:
            raise Rejected(
                "round",
                f"round {e.round} has already finished and has no board {e.white}-{e.black}",
            )
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
    return state.with_round(e.round, rnd.replaced(closed=True))


# ----------------------------------------------------------------------------- derived


def _advance(state: TournamentState, touched: int) -> tuple[TournamentState, Emitted]:
    """Announce every round that has now finished, in order; if a fact changed round
    ``touched`` inside the announced rounds, re-evaluate the last announced round. A fact
    of a round still being played derives nothing until its round finishes. Emit only what
    changed."""
    out: Emitted = []
    last_finished = state.finished_after(state.announced)
    if last_finished <= state.announced:
        if touched > state.announced:
            return state, out
        # a correction (or late fact) inside announced rounds
        return _evaluate(state, state.announced, announce=False)
    for number in range(state.announced + 1, last_finished + 1):
        state, emitted = _evaluate(state, number, announce=True)
        out.extend(emitted)
    return state, out


def _evaluate(
    state: TournamentState, number: int, announce: bool
) -> tuple[TournamentState, Emitted]:
    t = state.tournament
    edition = state.title_rules.name
    last = t.is_last(number)
    gate = norm_event(state)  # rapid, blitz, online: no norms, prospects or title ratings
    rows = standings(state, number)
    cells = {row.player.rank: row.cells for row in rows}
    ctx = context(state, number, cells)  # once, for the norms and the prospects
    norms = achieved_norms(state, rows, ctx)
    sent = dict(state.sent)
    out: Emitted = []
    before_last_allowed = state.title_rules.may_ignore_after_norm(t)
    by_rank = {row.player.rank: row for row in rows}
    event_flags = flags(state, number, rows) if norms else None
    # before the last round: what each norm still depends on that later rounds can change
    pending = (
        {
            (rank, title): found
            for rank, title in norms
            if (found := conditions(state, ctx, rank, cells[rank], title, number))
        }
        if norms and not last and before_last_allowed
        else {}
    )

    for (rank, title), verdict in sorted(norms.items(), key=lambda kv: (kv[0][0], -kv[0][1].level)):
        if not last and not before_last_allowed:
            continue  # not secured: later games will count
        key = f"norm:{rank}:{title.value}"
        conditional = f"conditional:{key}"
        open_conditions = pending.get((rank, title), ())
        if key in sent:
            if conditional not in sent or open_conditions:
                continue
            # announced with conditions that no longer matter: announced again, secured
            previous = sent.pop(conditional)
        else:
            # after a revocation the same facts may give the norm again: the id then also
            # rests on the revocation, so that subscribers dropping seen ids do not drop it
            previous = sent.get(f"revoked:{key}", "")
        player = by_rank[rank].player
        digest = facts_digest(verdict)
        ident = norm_alert_id(t.id, rank, title.value, number, digest, previous)
        # what the id rests on beside the facts: the certificate makes the id again
        if previous:
            sent[f"previous:{key}"] = previous
        else:
            sent.pop(f"previous:{key}", None)
        proof = evidence(verdict, verdict.raised, state.title_rules.rating_floor[title])
        assert event_flags is not None
        # as known now: a last-round bye is often announced rounds ahead
        half_bye_last = (
            t.planned_rounds is not None
            and state.round(t.planned_rounds).byes.get(rank) is Code.HALF_BYE
        )
        out.append(
            ev.NormAchieved(
                alert_id=ident,
                tournament_id=t.id,
                round=number,
                edition=edition,
                player=player_ref(player),
                title=title.value,
                secured_early=not last and not open_conditions,
                evidence=proof,
                flags=ev.NormFlags(
                    half_point_bye_last_round=half_bye_last,
                    swiss_exemption_by_round=event_flags.swiss_exemption_by_round,
                    swiss_exemption=event_flags.swiss_exemption,
                    event_type_1_5_6=(
                        event_flags.event_type is not None if event_flags.event_type_rule else None
                    ),
                    event_type_reason=event_flags.event_type or "",
                    longer_than_30_days=event_flags.longer_than_30_days,
                    ratings_at_game_date=event_flags.game_date_ratings,
                    rate_of_play=gate.flag,
                    rate_of_play_reason=gate.reason,
                    rounds_per_day=event_flags.rounds_per_day,
                    rounds_per_day_ok=event_flags.rounds_per_day_ok,
                    one_round_a_day_3_days=_one_round_days(state, title, event_flags),
                    longer_than_90_days=event_flags.longer_than_90_days,
                ),
                conditions=tuple(
                    ev.NormCondition(article=c.article, text=c.text) for c in open_conditions
                ),
            )
        )
        sent[key] = ident
        if open_conditions:
            sent[conditional] = ident
        if verdict.ignored:
            out.append(
                ev.IgnorableGames(
                    alert_id=alert_id(t.id, "ignorable_games", rank, title.value, number, digest),
                    tournament_id=t.id,
                    round=number,
                    edition=edition,
                    player=player_ref(player),
                    title=title.value,
                    games=proof.ignored,
                )
            )
    for key in sorted(k for k in state.sent if k.startswith("norm:")):
        _, rank_text, title_text = key.split(":")
        title = Title(title_text)
        if (int(rank_text), title) in norms:
            continue
        player = state.players[int(rank_text)]
        revocation = alert_id(t.id, "norm_revoked", key, state.sent[key])
        sent[f"revoked:{key}"] = revocation
        if sent.pop(f"conditional:{key}", None) is not None:
            reason = (
                f"after round {number} the {title_text} norm announced as {state.sent[key]} "
                "no longer holds: the conditions announced with it failed"
            )
        else:
            reason = (
                f"after the correction the {title_text} norm announced as {state.sent[key]} "
                "no longer holds"
            )
        out.append(
            ev.NormRevoked(
                alert_id=revocation,
                tournament_id=t.id,
                round=number,
                edition=edition,
                player=player_ref(player),
                title=title_text,
                reason=reason,
            )
        )
        del sent[key]

    reached_now: set[str] = set()
    rated = rows if gate.title_ratings else []
    for row in sorted((r for r in rated if r.reached), key=lambda r: r.player.rank):
        for title, interim in sorted(row.reached.items(), key=lambda kv: -kv[0].level):
            key = f"rating:{row.player.rank}:{title.value}"
            reached_now.add(key)
            if key in sent:
                continue
            ident = alert_id(
                t.id,
                "title_rating_reached",
                row.player.rank,
                title.value,
                interim.round,
                interim.rating,
            )
            out.append(
                ev.TitleRatingReached(
                    alert_id=ident,
                    tournament_id=t.id,
                    round=interim.round,
                    edition=edition,
                    player=player_ref(row.player),
                    title=title.value,
                    level=title.level,
                    live_rating=interim.rating,
                    rating_change=interim.change,
                    rated_games=interim.rated_games,
                )
            )
            sent[key] = ident
    for key in [k for k in sent if k.startswith("rating:") and k not in reached_now]:
        del sent[key]  # a correction took the rating back below the level

    if gate.norms:
        secured = set(norms) - set(pending) if last or before_last_allowed else set()
        out.extend(_prospects(state, number, secured, sent, cells, ctx))

    if announce:
        why_not = None if gate.norms else gate.reason
        out.insert(0, _round_finished(state, number, rows, why_not))  # first, then its alerts
    new_state = dataclasses.replace(
        state,
        sent=MappingProxyType(sent),
        announced=max(state.announced, number) if announce else state.announced,
    )
    return new_state, out


def _round_finished(
    state: TournamentState,
    number: int,
    rows: Sequence[PlayerRound],
    not_a_norm_event: str | None = None,
) -> ev.RoundFinished:
    """The round's summary: every player's score and live rating, and why the event gives
    no norm alerts where it cannot. One validation of the whole alert: a model per standing
    costs as much again."""
    t = state.tournament
    extra = {"not_a_norm_event": not_a_norm_event} if not_a_norm_event else {}
    return ev.RoundFinished.model_validate(
        {
            **extra,
            "alert_id": alert_id(t.id, "round_finished", number),
            "tournament_id": t.id,
            "round": number,
            "edition": state.title_rules.name,
            "last_round": t.is_last(number),
            "standings": [
                {
                    "player": player_fields(r.player),
                    "score": float(r.score),
                    "score_text": score_text(r.score),
                    "live_rating": r.live.rating if r.live else None,
                    "rating_change": r.live.change if r.live else None,
                }
                for r in rows
            ],
        }
    )


def _one_round_days(state: TournamentState, title: Title, flags: TournamentFlags) -> bool | None:
    """1.1.3a (2024): for a GM or WGM norm, whether the event has the days with a single
    round the edition asks; ``None`` for other titles, editions without the rule, or
    without round dates."""
    rule = state.title_rules.one_round_days
    if rule is None or title not in rule[1] or flags.one_round_days is None:
        return None
    return flags.one_round_days >= rule[0]


def _prospects(
    state: TournamentState,
    number: int,
    secured: set[tuple[int, Title]],
    sent: dict[str, str],
    cells: Mapping[int, Sequence[Cell]],
    ctx: Context,
) -> Emitted:
    """``norm_prospect`` when a player enters contention for a norm (it is still possible)
    or leaves it with the norm achieved, ``norm_out_of_reach`` when it becomes impossible.
    ``prospect:<rank>:<title>`` holds the id of the entry while the player is in contention;
    ``prospect-left:…`` the id of the last exit, so that a re-entry gets a new id.
    ``cells`` and ``ctx``: the rounds and context the round's evaluation already built
    (see :class:`Outlook`)."""
    t = state.tournament
    edition = state.title_rules.name
    view = Outlook(state, number, cells, ctx)
    out: Emitted = []
    found = view.all(secured)
    for (rank, title), p in sorted(found.items(), key=lambda kv: (kv[0][0], -kv[0][1].level)):
        key = f"prospect:{rank}:{title.value}"
        left_key = f"prospect-left:{rank}:{title.value}"
        if p.in_contention == (key in sent):
            continue
        if p.in_contention:
            ident = alert_id(
                t.id, "norm_prospect", rank, title.value, number, "entered", sent.get(left_key, "")
            )
            detail = view.prospect(rank, title, secured=False)
            out.append(
                _prospect_event(
                    state,
                    number,
                    p,
                    ident,
                    "entered",
                    prospect_detail(detail),
                    title,
                )
            )
            sent[key] = ident
            continue
        alert: ev.NormProspect | ev.NormOutOfReach
        if p.status is Status.SECURED:
            ident = alert_id(t.id, "norm_prospect", rank, title.value, number, "left", sent[key])
            alert = _prospect_event(state, number, p, ident, "left", None, title)
        else:
            detail = view.prospect(rank, title, secured=False)
            ident = alert_id(t.id, "norm_out_of_reach", rank, title.value, number, sent[key])
            alert = ev.NormOutOfReach(
                alert_id=ident,
                tournament_id=t.id,
                round=number,
                edition=edition,
                player=player_ref(p.player),
                title=title.value,
                reason=detail.reason,
                open_requirements=requirements(detail.open),
            )
        out.append(alert)
        sent[left_key] = ident
        del sent[key]
    return out


def _prospect_event(
    state: TournamentState,
    number: int,
    p: Prospect,
    ident: str,
    status: Literal["entered", "left"],
    detail: ev.Prospect | None,
    title: Title,
) -> ev.NormProspect:
    """A player entering contention (with the prospect) or leaving it with the norm."""
    return ev.NormProspect(
        alert_id=ident,
        tournament_id=state.tournament.id,
        round=number,
        edition=state.title_rules.name,
        player=player_ref(p.player),
        title=title.value,
        status=status,
        in_contention=status == "entered",
        reason="the norm is still possible" if status == "entered" else "norm achieved",
        prospect=detail,
    )


# ----------------------------------------------------------------------------- helpers


def _with(mapping: Mapping[K, V], key: K, value: V) -> Mapping[K, V]:
    copy = dict(mapping)
    copy[key] = value
    return MappingProxyType(copy)


__all__ = ["Rejected", "apply", "record", "settle"]
