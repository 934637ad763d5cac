"""The arbiter's norm certificate: the data of FIDE's IT1 form (Certificate of Title Result)
for a norm achieved, built from a tournament's state.

Pure: a state in, a :class:`NormCertificate` out. :mod:`tracker.certificate_html` and
:mod:`tracker.certificate_pdf` render it; ``tracker certificate`` and the worker's web view
serve it.

IT1 asks for the event (name, dates, host federation, system, rounds), the player (name,
FIDE id, federation, title, birth date), each opponent with title, rating, federation and
result, the games left out and why, Ra, Rp, the score and the number of games. What the
events do not carry (venue, rate of play, the chief arbiter's name and signature) is left
for the arbiter to fill in on the printed form.

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

from tracker import events as ev
from tracker.alerts import evidence, facts_digest, norm_alert_id, player_ref
from tracker.evaluation import verdict_for
from tracker.norms import Verdict
from tracker.state import TournamentState
from tracker.titles import Title
from tracker.views import TournamentSummary, summary

FORM = "FIDE IT1 - Certificate of Title Result"


class NoNorm(ValueError):
    """The player has no norm to certify; the message says what is missing."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True)


class CertificateGame(_Model):
    round: int
    opponent: ev.PlayerRef
    """As registered: name, FIDE id, federation, title, rating (``None`` = unrated)."""
    rating_used: int
    """The rating the norm counts the opponent at (unrated value or raised floor applied)."""
    result: str
    """``1``, ``½``, ``0``; ``0 (forfeit)`` for a last-round forfeit counted under 1.42c."""
    note: str


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
    score: str
    percentage: int
    ra: int
    """Average rating of the opponents (1.48a), after 1.46 adjustments."""
    rp: int
    """Performance rating Ra + dp (1.48)."""
    opponent_titles: dict[str, int]
    """Opponents by title (``untitled`` for none)."""
    opponent_federations: dict[str, int]
    requirements: tuple[ev.Requirement, ...]
    alert_id: str | None
    """The ``norm_achieved`` alert this certificate is the evidence of (same round, games and
    numbers); ``None`` when no alert was made from these facts."""


_RESULT = {"1": "1", "=": "½", "0": "0", "-": "0 (forfeit)"}


def certificate(
    state: TournamentState, rank: int, title: Title | None = None, up_to: int | None = None
) -> NormCertificate:
    """The certificate of the player's norm in ``title`` (default: the strongest norm title
    she can gain with a norm). Raises :exc:`NoNorm`, naming the edition's reason when the
    player cannot gain ``title`` (:meth:`~tracker.editions.TitleRules.why_not_eligible`).

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
    last = number == state.tournament.planned_rounds
    if not last and not rules.may_ignore_after_norm(state.tournament):
        raise NoNorm(f"the {t.value} norm is not secured before the last round in this edition")
    proof = evidence(verdict, verdict.raised, state.title_rules.rating_floor[t])
    assert proof.average_rating is not None
    assert proof.performance is not None
    opponents = [g.opponent for g in proof.counted]
    return NormCertificate(
        title=t.value,
        player=player_ref(player),
        birth_date=player.birth_date,
        tournament=summary(state),
        edition=state.title_rules.name,
        edition_reason=state.edition_reason,
        rounds_considered=proof.rounds_considered,
        secured_early=proof.rounds_considered < state.tournament.planned_rounds,
        games=tuple(
            CertificateGame(
                round=g.round,
                opponent=g.opponent,
                rating_used=g.rating_used,
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
        percentage=proof.percentage,
        ra=proof.average_rating,
        rp=proof.performance,
        opponent_titles=dict(sorted(Counter(o.title or "untitled" for o in opponents).items())),
        opponent_federations=dict(
            sorted(Counter(o.federation or "unknown" for o in opponents).items())
        ),
        requirements=proof.requirements,
        alert_id=alert,
    )


def _attempt(
    state: TournamentState, rank: int, title: Title, up_to: int | None
) -> tuple[int, Verdict, str | None]:
    """(round, verdict, alert id) of what :func:`certificate` certifies for ``title``."""
    if up_to is None:
        found = alert_in_force(state, rank, title)
        if found is not None:
            return found
        up_to = state.announced
    verdict = verdict_for(state, rank, title, up_to)
    alert = state.sent.get(f"norm:{rank}:{title.value}")
    if alert is not None and _alert_id(state, rank, title, up_to, verdict) != alert:
        alert = None
    return up_to, verdict, alert


def alert_in_force(
    state: TournamentState, rank: int, title: Title
) -> tuple[int, Verdict, str] | None:
    """The round, verdict and id of the ``norm_achieved`` alert in force for the player and
    title: the finished round whose verdict makes the alert's id again (the id rests on the
    round and the facts of the norm, :func:`tracker.alerts.norm_alert_id`). ``None`` when no
    alert is in force, or when the facts of the alert's games were corrected after it was
    made (the alert then stands, but no round reproduces its evidence)."""
    alert = state.sent.get(f"norm:{rank}:{title.value}")
    if alert is None:
        return None
    for number in range(state.announced, 0, -1):
        verdict = verdict_for(state, rank, title, number)
        if verdict.achieved and _alert_id(state, rank, title, number, verdict) == alert:
            return number, verdict, alert
    return None


def _alert_id(state: TournamentState, rank: int, title: Title, number: int, v: Verdict) -> str:
    previous = state.sent.get(f"revoked:norm:{rank}:{title.value}", "")
    return norm_alert_id(state.tournament.id, rank, title.value, number, facts_digest(v), previous)


__all__ = [
    "FORM",
    "CertificateGame",
    "CertificateIgnored",
    "NoNorm",
    "NormCertificate",
    "alert_in_force",
    "certificate",
]
