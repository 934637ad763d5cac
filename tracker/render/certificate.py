"""The arbiter's norm certificate: the data of FIDE's IT1 form (Certificate of Title Result)
for a norm achieved, built from a tournament's state.

Pure: a state in, a :class:`NormCertificate` out. :mod:`tracker.render.certificate_html` and
:mod:`tracker.render.certificate_pdf` render it; ``tracker certificate`` and the worker's web view
serve it.

IT1 asks, in this order, for the norm (title), the event (name, venue, dates, host
federation, chief arbiter, rate of play, type and system, rounds, and its players: how many,
how many rated, foreign and title-holders), the player (name, FIDE id, federation, title,
birth date, rating), each opponent with title, name, FIDE id, federation, rating and result,
then the number of games, the score, Ra and Rp, and the signatures. Venue, chief arbiter,
rate of play, type and round dates come from the input (TRF ``022``, ``102``, ``122``,
``092``, ``132``, as optional fields of ``tournament_registered``); what it does not carry
stays blank on the form for the arbiter, as do the signatures and the organiser.

A certificate is the evidence of one alert. After a norm secured before the last round, a
later round may give a different best attempt, with the tail of rounds after the norm left
out (1.42f) or not; both are norms. By default the certificate is that of the alert in force
(the secured norm, with its round, games, numbers and id); ``--round`` asks for the best
attempt after a given round, which quotes the alert's id only if the alert was made then.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

from pydantic import BaseModel, ConfigDict

from tracker import contract as ev
from tracker.domain.titles import Title
from tracker.engine.alerts import evidence, player_ref
from tracker.engine.evaluation import flags, norm_event, standings, verdict_for
from tracker.engine.norm_in_force import alert_in_force, norm_alert_id_at
from tracker.engine.round_alerts import norm_flags
from tracker.engine.secured import pending
from tracker.engine.state import TournamentState
from tracker.norms.search import Verdict
from tracker.render.views import TournamentSummary, summary

FORM = "FIDE IT1 - Certificate of Title Result"


class NoNorm(ValueError):
    """The player has no norm to certify; the message says what is missing."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class CertificateGame(_Model):
    round: int
    date: date | None
    """The round's date (TRF ``132``), when the input gives it."""
    opponent: ev.PlayerRef
    """As registered: name, FIDE id, federation, title, rating (``None`` = unrated)."""
    rating_used: int
    """The rating the norm counts the opponent at (unrated value or raised floor applied)."""
    points: float
    """The player's points in the game: 1, 0.5 or 0."""
    result: str
    """For display: ``1``, ``½``, ``0``; ``0 (forfeit)`` for a last-round forfeit counted
    under 1.42c."""
    note: str


class CertificateEvent(_Model):
    """What IT1 asks of the event beyond :class:`~tracker.render.views.TournamentSummary`: the
    arbiter's file gives the first five (``None`` or empty when it does not), the players
    registered give the counts."""

    venue: str | None
    """TRF ``022`` (the city)."""
    chief_arbiter: str | None
    """TRF ``102``, as written."""
    rate_of_play: str | None
    """TRF ``122`` (or ``222``), as written."""
    event_type: str | None
    """TRF ``092``, as written."""
    round_dates: tuple[date | None, ...]
    players: int
    rated_players: int
    foreign_players: int | None
    """Players of a known federation other than the host's; ``None`` without a host
    federation."""
    federations: int
    """Federations represented (known ones)."""
    title_holders: dict[str, int]
    """Players holding each title (``GM``, ``IM``, ``WGM``, …); untitled players not counted."""


class CertificateIgnored(_Model):
    round: int
    opponent: ev.PlayerRef | None
    result: str
    """The player's TRF letter for the round."""
    article: str
    reason: str


class NormCertificate(_Model):
    form: str = FORM
    title: str
    """The norm certified: GM, IM, WGM or WIM."""
    player: ev.PlayerRef
    birth_date: date | None
    tournament: TournamentSummary
    event: CertificateEvent
    edition: str
    edition_reason: str
    rounds_considered: int
    """Rounds 1 to this one were considered."""
    secured_early: bool
    """The norm was achieved before the last round."""
    games: tuple[CertificateGame, ...]
    ignored: tuple[CertificateIgnored, ...]
    games_counted: int
    games_credited: int
    """1.41c/1.49: the number of games the norm counts as."""
    score: float
    """Points in the games counted, a number (a half point is ``.5``)."""
    score_text: str
    """The same as arbiters write it (``6½``)."""
    percentage: int
    ra: int
    """Average rating of the opponents (1.48a), after 1.46 adjustments."""
    rp: int
    """Performance rating Ra + dp (1.48)."""
    opponent_titles: dict[str, int]
    """Opponents by title (``untitled`` for none)."""
    opponent_federations: dict[str, int]
    foreign_opponents: int
    """Opponents of a known federation other than the player's (known too)."""
    unrated_opponents: int
    requirements: tuple[ev.Requirement, ...]
    alert_id: str | None
    """The ``norm_achieved`` alert this certificate is the evidence of (same round, games and
    numbers); ``None`` when no alert was made from these facts."""
    flags: ev.NormFlags | None = None
    """The facts of the event a title application asks about beside the norm (the norm
    alert's ``flags`` after the same round): the federation exemption per round, the event
    type of 1.5.6, the rounds a day and the days with one round (1.1.3a). ``None`` in
    certificates written before they were added."""


_RESULT = {"1": "1", "=": "½", "0": "0", "-": "0 (forfeit)"}
_POINTS = {"1": 1.0, "=": 0.5}


def certificate(
    state: TournamentState, rank: int, title: Title | None = None, up_to: int | None = None
) -> NormCertificate:
    """The certificate of the player's norm in ``title`` (default: the strongest norm title
    she can gain with a norm). Raises :exc:`NoNorm`, naming the edition's reason when the
    player cannot gain ``title`` (:meth:`~tracker.rules.TitleRules.why_not_eligible`).

    A certificate is the evidence of one alert: without ``up_to`` it certifies the
    ``norm_achieved`` alert in force (its round, games and numbers, and its id), e.g. the
    norm secured after round 9 of 11 even when the best attempt after round 11 is another;
    with no alert in force, the best attempt after the last finished round. With ``up_to``
    it certifies the best attempt after that round, and quotes an alert's id only when that
    alert was made after that round from the same facts (:func:`alert_in_force`)."""
    player = state.players[rank]
    rules = state.title_rules
    if up_to is not None and not 1 <= up_to <= state.announced:
        raise NoNorm(f"round: {up_to} is not a finished round (finished: {state.announced})")
    if state.announced == 0:
        raise NoNorm("no round has finished yet")
    if title is not None:
        why = rules.why_not_eligible(player, title)
        if why is not None:
            raise NoNorm(f"title: {why}")
        titles: tuple[Title, ...] = (title,)
    else:
        titles = rules.eligible_norm_titles(player)
        if not titles:
            raise NoNorm(f"{player.label()} can gain no norm title")
    misses = []
    for t in titles:
        number, verdict, alert = _attempt(state, rank, t, up_to)
        if verdict.achieved:
            break
        failed = ", ".join(f"{c.article} {c.name}" for c in verdict.checks if not c.met)
        misses.append(f"{t.value} ({failed or 'no games'})")
    else:
        raise NoNorm(f"{player.label()} has no norm after round {number}: " + "; ".join(misses))
    last = state.tournament.is_last(number)
    if not last and not rules.may_ignore_after_norm(state.tournament):
        raise NoNorm(f"the {t.value} norm is not secured before the last round in this edition")
    open_conditions = pending(state, rank, t, number)
    if open_conditions:
        raise NoNorm(
            f"the {t.value} norm after round {number} is not secured before the last round: "
            + "; ".join(f"{c.article}: {c.text}" for c in open_conditions)
        )
    proof = evidence(verdict, verdict.raised, state.title_rules.rating_floor[t])
    assert proof.average_rating is not None
    assert proof.performance is not None
    opponents = [g.opponent for g in proof.counted]
    dates = state.tournament.round_dates
    return NormCertificate(
        title=t.value,
        player=player_ref(player),
        birth_date=player.birth_date,
        tournament=summary(state),
        event=event_facts(state),
        edition=state.title_rules.name,
        edition_reason=state.edition_reason,
        rounds_considered=proof.rounds_considered,
        secured_early=not state.tournament.is_last(proof.rounds_considered),
        games=tuple(
            CertificateGame(
                round=g.round,
                date=dates[g.round - 1] if g.round <= len(dates) else None,
                opponent=g.opponent,
                rating_used=g.rating_used,
                points=_POINTS.get(g.result, 0.0),
                result=_RESULT.get(g.result, g.result),
                note=g.note,
            )
            for g in proof.counted
        ),
        ignored=tuple(
            CertificateIgnored(
                round=i.round,
                opponent=i.opponent,
                result=i.result,
                article=i.article,
                reason=i.reason,
            )
            for i in proof.ignored
        ),
        games_counted=proof.games,
        games_credited=proof.games_credited,
        score=proof.score,
        score_text=proof.score_text,
        percentage=proof.percentage,
        ra=proof.average_rating,
        rp=proof.performance,
        opponent_titles=dict(sorted(Counter(o.title or "untitled" for o in opponents).items())),
        opponent_federations=dict(
            sorted(Counter(o.federation or "unknown" for o in opponents).items())
        ),
        foreign_opponents=sum(
            o.federation is not None
            and player.federation is not None
            and o.federation != player.federation
            for o in opponents
        ),
        unrated_opponents=sum(o.rating is None for o in opponents),
        requirements=proof.requirements,
        alert_id=alert,
        flags=norm_flags(
            state,
            norm_event(state),
            player,
            t,
            flags(state, number, standings(state, number)),
        ),
    )


Field = tuple[str, str | None]
"""A labelled line of the form; ``None`` leaves it blank for the arbiter to complete."""


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in counts.items())


def event_fields(c: NormCertificate) -> list[Field]:
    """IT1's event block, in the form's order."""
    t, e = c.tournament, c.event
    system = t.system.replace("_", " ")
    kind = f"{e.event_type} ({system})" if e.event_type else system
    foreign = "" if e.foreign_players is None else f", {e.foreign_players} foreign"
    return [
        ("Event", t.name or None),
        ("Venue", e.venue),
        (
            "Dates",
            t.start_date.isoformat() + (f" to {t.end_date.isoformat()}" if t.end_date else ""),
        ),
        ("Host federation", t.host_federation),
        ("Chief arbiter", e.chief_arbiter),
        ("Rate of play", e.rate_of_play),
        ("Type of event", f"{kind}, {t.planned_rounds or '?'} rounds"),
        (
            "Players",
            f"{e.players}: {e.rated_players} rated{foreign}, {e.federations} federations",
        ),
        ("Title-holders", _counts(e.title_holders) or "none"),
    ]


def player_fields(c: NormCertificate) -> list[Field]:
    """IT1's block of the player."""
    p = c.player
    return [
        ("Name", p.name),
        ("FIDE id", None if p.fide_id is None else str(p.fide_id)),
        ("Federation", p.federation),
        ("Title held", p.title or "none"),
        ("Date of birth", c.birth_date.isoformat() if c.birth_date else None),
        ("Rating", "unrated" if p.rating is None else str(p.rating)),
    ]


def result_fields(c: NormCertificate) -> list[Field]:
    """IT1's totals below the opponents."""
    games = f"{c.games_counted}"
    if c.games_credited != c.games_counted:
        games += f", counted as {c.games_credited}"
    return [
        ("Number of games", games),
        ("Score", f"{c.score_text} ({c.percentage} %)"),
        ("Ra (average rating of the opponents)", str(c.ra)),
        ("Rp (rating performance)", str(c.rp)),
        ("Opponents' titles", _counts(c.opponent_titles)),
        ("Foreign opponents", _foreign(c)),
        ("Unrated opponents", str(c.unrated_opponents)),
    ]


def _foreign(c: NormCertificate) -> str:
    """``8 of 9 (ARM 1, BEL 1, …)``: the opponents of other federations than the
    player's, by federation (the player's own is not among them)."""
    own = c.player.federation
    others = {f: n for f, n in c.opponent_federations.items() if f != own}
    return f"{c.foreign_opponents} of {c.games_counted}" + (
        f" ({_counts(others)})" if others else ""
    )


def tracker_fields(c: NormCertificate) -> list[Field]:
    """What the tracker adds to FIDE's form, printed apart from it (a footer): the
    tournament's id, the alert the certificate is the evidence of, and why these
    regulations judge it."""
    return [
        ("Tournament id", c.tournament.tournament_id),
        ("Alert", c.alert_id or "none sent"),
        ("Regulations", c.edition_reason),
    ]


def event_facts(state: TournamentState) -> CertificateEvent:
    """IT1's event block from the registered tournament and its players."""
    t = state.tournament
    players = state.players.values()
    titles = Counter(p.title.value for p in players if p.title is not None)
    return CertificateEvent(
        venue=t.city,
        chief_arbiter=t.chief_arbiter,
        rate_of_play=t.time_control,
        event_type=t.event_type,
        round_dates=t.round_dates,
        players=len(state.players),
        rated_players=sum(p.rating is not None for p in players),
        foreign_players=(
            sum(p.federation not in (None, t.host_federation) for p in players)
            if t.host_federation
            else None
        ),
        federations=len({p.federation for p in players} - {None}),
        title_holders={title.value: titles[title.value] for title in Title if titles[title.value]},
    )


def _attempt(
    state: TournamentState, rank: int, title: Title, up_to: int | None
) -> tuple[int, Verdict, str | None]:
    """(round, verdict, alert id) of what :func:`certificate` certifies for ``title``."""
    if up_to is None:
        found = alert_in_force(state, rank, title)
        if found is None:
            up_to = state.announced
        elif found[1].rounds_considered <= found[0]:
            return found
        else:
            # announced as certain: its evidence counts the games to come then as lost,
            # and a certificate lists the games as played
            number, planned = found[0], state.tournament.planned_rounds
            if not state.tournament.is_last(state.announced):
                raise NoNorm(
                    f"the {title.value} norm is certain after round {number}, but rounds "
                    f"{number + 1}-{planned} are not all played yet: a certificate lists the "
                    "games as played, after the last round"
                )
            up_to = state.announced
    verdict = verdict_for(state, rank, title, up_to)
    alert = state.sent.get(f"norm:{rank}:{title.value}")
    if alert is not None and norm_alert_id_at(state, rank, title, up_to, verdict) != alert:
        alert = None
    return up_to, verdict, alert


__all__ = [
    "FORM",
    "CertificateEvent",
    "CertificateGame",
    "CertificateIgnored",
    "Field",
    "NoNorm",
    "NormCertificate",
    "certificate",
    "event_facts",
    "event_fields",
    "player_fields",
    "result_fields",
    "tracker_fields",
]
