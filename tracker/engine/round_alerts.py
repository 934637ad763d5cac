"""The alerts a finished round gives, against the alerts in force (``sent``).

:func:`tracker.engine.round_view.view_after` works out once what a round's evaluation needs
(standings, context, norms, what each norm still depends on); :func:`norm_alerts`,
:func:`rating_alerts` and :func:`prospect_alerts` (the changes of the round's norm watch,
:mod:`tracker.engine.watch`) compare it with the alerts in force and say what changed, and
:func:`summary_fields` is the round's summary. The transition uses them when a round
finishes (:mod:`tracker.engine.transition`), the corrections when facts of finished rounds change
(:mod:`tracker.engine.corrections`).

``sent`` maps a subject to the id its alert was sent under: ``norm:<rank>:<title>``,
``rating:<rank>:<title>``, ``prospect:<rank>:<title>`` while the alert is in force;
``revoked:<subject>`` and ``prospect-left:<rank>:<title>``, the last alert that took one
back, so that an alert made again gets a new id (a subscriber drops ids it has seen);
``conditional:norm:…`` and ``previous:norm:…`` for norms announced with conditions and the
id a norm's id rests on, ``corrected:norm:…`` once a correction revoked or changed the norm;
``round:<n>``, the last summary or reopening of round ``n`` once a correction touched it.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Literal

from tracker import contract as ev
from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.engine.alerts import (
    Shared,
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
from tracker.engine.evaluation import NormEvent, PlayerRound, flags
from tracker.engine.event_flags import TournamentFlags
from tracker.engine.round_view import RoundView
from tracker.engine.secured import Condition
from tracker.engine.state import TournamentState
from tracker.engine.watch import Entry, Stage, Watch
from tracker.norms.live_rating import InterimRating
from tracker.norms.search import Verdict

Emitted = list[ev.OutputEvent]


# ----------------------------------------------------------------------------- norms


@dataclasses.dataclass(frozen=True, slots=True)
class MadeNorm:
    """A ``norm_achieved`` as made, with what its id rests on."""

    alert: ev.NormAchieved
    ignorable: ev.IgnorableGames | None
    digest: str


def norm_alerts(
    state: TournamentState,
    view: RoundView,
    sent: dict[str, str],
    made: dict[str, MadeNorm] | None = None,
) -> Emitted:
    """The norms of the round not yet in force (and those announced with conditions that
    no longer matter, again without them), then the revocation of norms in force that no
    longer hold. ``made``: filled with each norm alert made, by subject."""
    number = view.number
    out: Emitted = []
    event_flags: TournamentFlags | None = None  # made for the first norm announced
    by_rank = {row.player.rank: row for row in view.rows}
    for rank, title in sorted(view.norms, key=lambda key: (key[0], -key[1].level)):
        if not view.announces((rank, title)):
            continue  # not secured: later games will count
        key = f"norm:{rank}:{title.value}"
        conditional = f"conditional:{key}"
        open_conditions = view.pending.get((rank, title), ())
        if key in sent:
            if conditional not in sent or open_conditions:
                continue
            # announced with conditions that no longer matter: announced again, secured
            previous = sent.pop(conditional)
        else:
            # after a revocation the same facts may give the norm again: the id then also
            # rests on the revocation, so that subscribers dropping seen ids do not drop it
            previous = sent.get(f"revoked:{key}", "")
        if event_flags is None:
            event_flags = flags(state, number, view.rows)
        verdict = view.norms[(rank, title)]  # made here, for the norms announced
        norm = make_norm(
            state, view, by_rank[rank].player, title, verdict, event_flags, open_conditions
        )
        # a norm a correction took back or made again may come back at the same round with
        # the same games: its ignorable games then rest on what it follows too
        chain = previous if f"corrected:{key}" in sent else ""
        norm, alerts = issue_norm(state, norm, sent, previous, chain, bool(open_conditions))
        out.extend(alerts)
        if made is not None:
            made[key] = norm
    for key in sorted(k for k in sent if k.startswith("norm:")):
        _, rank_text, title_text = key.split(":")
        if (int(rank_text), Title(title_text)) in view.norms:
            continue
        if f"conditional:{key}" in sent:
            reason = (
                f"after round {number} the {{title}} norm announced as {{id}} no longer holds: "
                "the conditions announced with it failed"
            )
        else:
            reason = "after the correction the {title} norm announced as {id} no longer holds"
        out.append(revoke_norm(state, number, key, sent, reason, state.players[int(rank_text)]))
    return out


def make_norm(
    state: TournamentState,
    view: RoundView,
    player: Player,
    title: Title,
    verdict: Verdict,
    event_flags: TournamentFlags,
    open_conditions: Sequence[Condition],
) -> MadeNorm:
    """The ``norm_achieved`` (and ``ignorable_games``) of a verdict, ids still empty."""
    t = state.tournament
    proof = evidence(verdict, verdict.raised, state.title_rules.rating_floor[title])
    alert = ev.NormAchieved(
        alert_id="",
        tournament_id=t.id,
        round=view.number,
        edition=state.title_rules.name,
        player=player_ref(player),
        title=title.value,
        secured_early=not view.last and not open_conditions,
        secured_because=_because(view, player, title),
        evidence=proof,
        flags=norm_flags(state, view.gate, player, title, event_flags),
        conditions=tuple(ev.NormCondition(article=c.article, text=c.text) for c in open_conditions),
    )
    ignorable = None
    if verdict.ignored:
        ignorable = ev.IgnorableGames(
            alert_id="",
            tournament_id=t.id,
            round=view.number,
            edition=state.title_rules.name,
            player=alert.player,
            title=title.value,
            games=proof.ignored,
        )
    return MadeNorm(alert, ignorable, facts_digest(verdict))


def issue_norm(
    state: TournamentState,
    norm: MadeNorm,
    sent: dict[str, str],
    previous: str,
    chain: str,
    conditional: bool,
) -> tuple[MadeNorm, Emitted]:
    """The norm made into alerts and put in force. Its id rests on the round and the facts
    of the norm and on ``previous`` (the alert it replaces or the revocation it follows, so
    that subscribers dropping seen ids do not drop it); its ``ignorable_games`` id on the
    same and on ``chain`` (a correction's), so that it is new too. In force under
    ``norm:<rank>:<title>`` with what the id rests on (``previous:``, for the certificate)
    and whether it carries conditions (``conditional:``)."""
    a = norm.alert
    t, rank = state.tournament, a.player.rank
    ident = norm_alert_id(t.id, rank, a.title, a.round, norm.digest, previous)
    alert = a.model_copy(update={"alert_id": ident})
    out: Emitted = [alert]
    ignorable = norm.ignorable
    if ignorable is not None:
        parts = (t.id, "ignorable_games", rank, a.title, a.round)
        ident_i = alert_id(*parts, norm.digest, chain) if chain else alert_id(*parts, norm.digest)
        ignorable = ignorable.model_copy(update={"alert_id": ident_i})
        out.append(ignorable)
    key = f"norm:{rank}:{a.title}"
    sent[key] = ident
    if previous:
        sent[f"previous:{key}"] = previous
    else:
        sent.pop(f"previous:{key}", None)
    if conditional:
        sent[f"conditional:{key}"] = ident
    else:
        sent.pop(f"conditional:{key}", None)
    return MadeNorm(alert, ignorable, norm.digest), out


def revoke_norm(
    state: TournamentState,
    number: int,
    key: str,
    sent: dict[str, str],
    reason: str,
    player: Player,
) -> ev.NormRevoked:
    """``norm_revoked`` for the norm in force under ``key``; ``reason`` with ``{title}``
    and ``{id}`` (the id of the alert revoked) to fill in."""
    _, _, title_text = key.split(":")
    revoked = sent.pop(key)
    sent.pop(f"conditional:{key}", None)
    revocation = alert_id(state.tournament.id, "norm_revoked", key, revoked)
    sent[f"revoked:{key}"] = revocation
    return ev.NormRevoked(
        alert_id=revocation,
        tournament_id=state.tournament.id,
        round=number,
        edition=state.title_rules.name,
        player=player_ref(player),
        title=title_text,
        reason=reason.format(title=title_text, id=revoked),
    )


def _because(view: RoundView, player: Player, title: Title) -> str:
    """Why a norm announced before the last round is secured; empty after the last round
    and while conditions are open."""
    sure = view.secured.get((player.rank, title))
    return sure.because if sure is not None and not view.last else ""


def norm_flags(
    state: TournamentState,
    gate: NormEvent,
    player: Player,
    title: Title,
    event_flags: TournamentFlags,
) -> ev.NormFlags:
    """The tournament facts a norm alert (and its certificate) carries for the application."""
    t = state.tournament
    # as known now: a last-round bye is often announced rounds ahead
    half_bye_last = (
        t.planned_rounds is not None
        and state.round(t.planned_rounds).byes.get(player.rank) is Code.HALF_BYE
    )
    return ev.NormFlags(
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
    )


def _one_round_days(state: TournamentState, title: Title, flags: TournamentFlags) -> bool | None:
    """1.1.3a (2024): for a GM or WGM norm, whether the event has the days with a single
    round the edition asks; ``None`` for other titles, editions without the rule, or
    without round dates."""
    rule = state.title_rules.one_round_days
    if rule is None or title not in rule[1] or flags.one_round_days is None:
        return None
    return flags.one_round_days >= rule[0]


# ----------------------------------------------------------------------------- title levels


def rating_content(state: TournamentState, view: RoundView) -> dict[str, ev.TitleRatingReached]:
    """The title levels reached by the round, by subject, each with the id of its first
    announcement (the round and the rating it was first reached with)."""
    if not view.gate.title_ratings:
        return {}
    found: dict[str, ev.TitleRatingReached] = {}
    for row in sorted((r for r in view.rows if r.reached), key=lambda r: r.player.rank):
        for title, interim in sorted(row.reached.items(), key=lambda kv: -kv[0].level):
            found[f"rating:{row.player.rank}:{title.value}"] = rating_alert(
                state, row.player, title, interim
            )
    return found


def rating_alert(
    state: TournamentState, player: Player, title: Title, interim: InterimRating
) -> ev.TitleRatingReached:
    """``title_rating_reached`` under its first id (:func:`rechained` when it is made
    again)."""
    t = state.tournament
    return ev.TitleRatingReached(
        alert_id=_rating_id(t.id, player.rank, title.value, interim.round, interim.rating),
        tournament_id=t.id,
        round=interim.round,
        edition=state.title_rules.name,
        player=player_ref(player),
        title=title.value,
        level=title.level,
        live_rating=interim.rating,
        rating_change=interim.change,
        rated_games=interim.rated_games,
    )


def rating_alerts(state: TournamentState, view: RoundView, sent: dict[str, str]) -> Emitted:
    """The title levels first reached (announced once), and the revocation of levels in
    force the live rating no longer reaches (a late fact that changed the field)."""
    out: Emitted = []
    found = rating_content(state, view)
    for key, alert in found.items():
        if key in sent:
            continue
        previous = sent.get(f"revoked:{key}")
        if previous:
            alert = rechained(alert, previous)
        out.append(alert)
        sent[key] = alert.alert_id
    for key in sorted(k for k in sent if k.startswith("rating:") and k not in found):
        reason = "the live rating no longer reaches the {title} level (announced as {id})"
        out.append(revoke_alert(state, view.number, key, sent, reason, state.players))
    return out


def rechained(alert: ev.TitleRatingReached, chain: str) -> ev.TitleRatingReached:
    """The title level under an id that also rests on ``chain``: the id of the alert it
    replaces or follows (a revocation), when it is made again."""
    a = alert
    ident = _rating_id(a.tournament_id, a.player.rank, a.title, a.round, a.live_rating, chain)
    return alert.model_copy(update={"alert_id": ident})


def _rating_id(tid: str, rank: int, title: str, number: int, rating: int, chain: str = "") -> str:
    """The id of a ``title_rating_reached``: the round and the rating it was reached with."""
    parts = (tid, "title_rating_reached", rank, title, number, rating)
    return alert_id(*parts, chain) if chain else alert_id(*parts)


def revoke_alert(
    state: TournamentState,
    number: int,
    key: str,
    sent: dict[str, str],
    reason: str,
    players: Mapping[int, Player],
) -> ev.TitleRatingRevoked | ev.NormProspectRevoked:
    """The revocation of the title level or contention in force under ``key``
    (``rating:…`` or ``prospect:…``); ``reason`` with ``{title}`` and ``{id}``."""
    kind, rank_text, title_text = key.split(":")
    revoked = sent.pop(key)
    player = player_ref(players[int(rank_text)])
    t = state.tournament
    fields = {
        "tournament_id": t.id,
        "round": number,
        "edition": state.title_rules.name,
        "revokes": revoked,
        "player": player,
        "title": title_text,
        "reason": reason.format(title=title_text, id=revoked),
    }
    if kind == "rating":
        ident = alert_id(t.id, "title_rating_revoked", key, revoked)
        sent[f"revoked:{key}"] = ident
        return ev.TitleRatingRevoked(alert_id=ident, level=Title(title_text).level, **fields)
    ident = alert_id(t.id, "norm_prospect_revoked", key, revoked)
    sent[f"prospect-left:{rank_text}:{title_text}"] = ident
    return ev.NormProspectRevoked(alert_id=ident, **fields)


# ----------------------------------------------------------------------------- prospects


def prospect_alerts(
    state: TournamentState,
    view: RoundView,
    sent: dict[str, str],
    reason: str = "no longer evaluated for the {title} norm (contention announced as {id})",
    players: Mapping[int, Player] | None = None,
    watch: Watch | None = None,
) -> Emitted:
    """The changes of contention in the round's norm watch (:mod:`tracker.engine.watch`)
    against the contention in force: ``norm_prospect`` when a player enters contention for
    a norm (it is still possible) or leaves it with the norm achieved, ``norm_out_of_reach``
    when it becomes impossible. ``prospect:<rank>:<title>`` holds the id of the entry while
    the player is in contention; ``prospect-left:…`` the id of the last exit, so that a
    re-entry gets a new id. A contention in force for a title the player is no longer
    evaluated for (a corrected registration, a player taken off) is revoked
    (``norm_prospect_revoked``, with ``reason``; ``players``: where to find a player no
    longer registered). ``watch``: the round's watch when the caller made it already."""
    t = state.tournament
    number = view.number
    if watch is None:
        watch = Watch(state, view)
    out: Emitted = []
    found = watch.stages()
    shared = Shared()  # the wire forms the round's alerts share
    in_force: dict[tuple[int, Title], str] = {}  # the contentions in force, by pair
    for key in sent:
        if key.startswith("prospect:"):
            _, rank_text, title_text = key.split(":")
            in_force[(int(rank_text), Title(title_text))] = key
    # only the pairs whose contention changes, in the order of their alerts
    changed = sorted(
        ((pair, e) for pair, e in found.items() if e.in_contention != (pair in in_force)),
        key=lambda kv: (kv[0][0], -kv[0][1].level),
    )
    for (rank, title), entry in changed:
        key = f"prospect:{rank}:{title.value}"
        left_key = f"prospect-left:{rank}:{title.value}"
        if entry.in_contention:
            ident = alert_id(
                t.id, "norm_prospect", rank, title.value, number, "entered", sent.get(left_key, "")
            )
            entered = watch.entry(rank, title).prospect
            assert entered is not None
            out.append(
                _prospect_event(
                    state, number, entry, ident, "entered", prospect_detail(entered, shared)
                )
            )
            sent[key] = ident
            continue
        alert: ev.NormProspect | ev.NormOutOfReach
        if entry.stage in (Stage.ACHIEVED, Stage.SECURED):
            ident = alert_id(t.id, "norm_prospect", rank, title.value, number, "left", sent[key])
            sure = view.secured.get((rank, title))
            why = "norm certain whatever the remaining games bring" if sure and sure.certain else ""
            alert = _prospect_event(state, number, entry, ident, "left", None, why)
        else:
            detail = watch.entry(rank, title)
            assert detail.prospect is not None
            ident = alert_id(t.id, "norm_out_of_reach", rank, title.value, number, sent[key])
            alert = ev.NormOutOfReach(
                alert_id=ident,
                tournament_id=t.id,
                round=number,
                edition=state.title_rules.name,
                player=player_ref(entry.player),
                title=title.value,
                reason=detail.reason,
                open_requirements=requirements(detail.prospect.open, shared),
            )
        out.append(alert)
        sent[left_key] = ident
        del sent[key]
    # in force for a pair no longer evaluated (the loop above touched only pairs in ``found``)
    for key in sorted(k for pair, k in in_force.items() if pair not in found):
        who = state.players if players is None else players
        out.append(revoke_alert(state, number, key, sent, reason, who))
    return out


def _prospect_event(
    state: TournamentState,
    number: int,
    p: Entry,
    ident: str,
    status: Literal["entered", "left"],
    detail: ev.Prospect | None,
    why: str = "",
) -> ev.NormProspect:
    """A player entering contention (with the prospect) or leaving it with the norm
    (achieved, or ``why`` it is secured before it is)."""
    return ev.NormProspect(
        alert_id=ident,
        tournament_id=state.tournament.id,
        round=number,
        edition=state.title_rules.name,
        player=player_ref(p.player),
        title=p.title.value,
        status=status,
        in_contention=status == "entered",
        reason="the norm is still possible" if status == "entered" else why or "norm achieved",
        prospect=detail,
    )


# ----------------------------------------------------------------------------- summaries


def summary_fields(
    state: TournamentState,
    number: int,
    rows: Sequence[PlayerRound],
    not_a_norm_event: str | None = None,
    ref: Callable[[Player], ev.PlayerRef] | None = None,
) -> dict[str, object]:
    """A round summary's fields but its id and type: every player's score and live
    rating, and why the event gives no norm alerts where it cannot. ``ref``: how the
    alerts name a player (:meth:`RoundView.ref`, made once a tournament), else the player's
    fields, validated with the summary."""
    t = state.tournament
    extra = {"not_a_norm_event": not_a_norm_event} if not_a_norm_event else {}
    name: Callable[[Player], object] = player_fields if ref is None else ref
    return {
        **extra,
        "tournament_id": t.id,
        "round": number,
        "edition": state.title_rules.name,
        "last_round": t.is_last(number),
        "standings": [
            {
                "player": name(r.player),
                **_score(r.half_points),
                "live_rating": r.live.rating if r.live else None,
                "rating_change": r.live.change if r.live else None,
                **({"note": _live_only(state, r)} if r.live_only else {}),
            }
            for r in rows
        ],
    }


@functools.cache
def _score(half_points: int) -> dict[str, object]:
    """A standing's score and how arbiters write it (one value per score, shared)."""
    return {"score": half_points / 2, "score_text": score_text(Fraction(half_points, 2))}


def _live_only(state: TournamentState, row: PlayerRound) -> str:
    """The title levels a player reached live that the edition counts only on a published
    list (2009 1.3): what the summary says instead of ``title_rating_reached``."""
    article = state.title_rules.rating_title_article
    return "; ".join(
        f"{t.value} level {t.level} reached live in round {r.round} ({r.rating}): the "
        f"{t.value} title needs it on a published rating list ({article})"
        for t, r in sorted(row.live_only.items(), key=lambda kv: -kv[0].level)
    )


def summary_id(state: TournamentState, sent: Mapping[str, str], number: int) -> str:
    """The id of round ``number``'s summary in force (or of its last reopening): the
    round's own id until a correction touched the round."""
    return sent.get(f"round:{number}") or alert_id(state.tournament.id, "round_finished", number)


__all__ = [
    "Emitted",
    "MadeNorm",
    "issue_norm",
    "make_norm",
    "norm_alerts",
    "norm_flags",
    "prospect_alerts",
    "rating_alert",
    "rating_alerts",
    "rating_content",
    "rechained",
    "revoke_alert",
    "revoke_norm",
    "summary_fields",
    "summary_id",
]
