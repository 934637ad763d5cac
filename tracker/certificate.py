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

The certificate is for the best attempt after a finished round (the last, unless asked):
after a norm secured before the last round, a later round may give a different best
attempt, with the tail of rounds after the norm left out (1.42f) or not; both are norms,
and ``--round`` picks the round the alert was sent after.
"""

from __future__ import annotations

from collections import Counter
from datetime import date

from pydantic import BaseModel, ConfigDict

from tracker import events as ev
from tracker.alerts import evidence, player_ref
from tracker.evaluation import norm_titles, verdict_for
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
    """The ``norm_achieved`` alert in force for this norm, if one was sent."""


_RESULT = {"1": "1", "=": "½", "0": "0", "-": "0 (forfeit)"}


def certificate(
    state: TournamentState, rank: int, title: Title | None = None, up_to: int | None = None
) -> NormCertificate:
    """The certificate of the player's norm in ``title`` (default: the strongest norm they
    achieved) after round ``up_to`` (default: the last finished). Raises :exc:`NoNorm`."""
    player = state.players[rank]
    up_to = state.announced if up_to is None else up_to
    if not 1 <= up_to <= state.announced:
        raise NoNorm(f"round: {up_to} is not a finished round (finished: {state.announced})")
    titles = [title] if title else norm_titles(player)
    if not titles:
        raise NoNorm(f"{player.label()} holds every norm title they could gain")
    misses = []
    for t in titles:
        if not player.lacks(t):
            raise NoNorm(f"title: {player.label()} cannot gain a {t.value} norm")
        verdict = verdict_for(state, rank, t, up_to)
        if verdict.achieved:
            break
        failed = ", ".join(f"{c.article} {c.name}" for c in verdict.checks if not c.met)
        misses.append(f"{t.value} ({failed or 'no games'})")
    else:
        raise NoNorm(f"{player.label()} has no norm after round {up_to}: " + "; ".join(misses))
    last = up_to == state.tournament.planned_rounds
    if not last and not state.title_rules.may_ignore_after_norm(state.tournament):
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
        alert_id=state.sent.get(f"norm:{rank}:{t.value}"),
    )


__all__ = [
    "FORM",
    "CertificateGame",
    "CertificateIgnored",
    "NoNorm",
    "NormCertificate",
    "certificate",
]
