"""The ``norm_achieved`` alert in force for a player and title, made again from the facts.

The state keeps only the ids of the alerts it sent (``norm:<rank>:<title>``); an alert's id
rests on its round and the facts of its norm (:func:`tracker.engine.alerts.norm_alert_id`), so the
finished round whose verdict makes the id again is the alert's round, and its verdict the
alert's evidence (for a norm announced as certain before it was achieved, the worst case
:func:`~tracker.engine.secured.secured_norm` gives). The certificate and the player card use
it, so that what they show beside an alert id is that alert's evidence.
"""

from __future__ import annotations

from tracker.domain.titles import Title
from tracker.engine.alerts import facts_digest, norm_alert_id
from tracker.engine.evaluation import verdict_for
from tracker.engine.secured import secured_norm
from tracker.engine.state import TournamentState
from tracker.norms.search import Verdict


def alert_in_force(
    state: TournamentState, rank: int, title: Title
) -> tuple[int, Verdict, str] | None:
    """The round, verdict and id of the ``norm_achieved`` alert in force for the player and
    title: the finished round whose verdict makes the alert's id again (the id rests on the
    round and the facts of the norm, :func:`tracker.engine.alerts.norm_alert_id`). ``None`` when no
    alert is in force, or when the facts of the alert's games were corrected after it was
    made (the alert then stands, but no round reproduces its evidence)."""
    alert = state.sent.get(f"norm:{rank}:{title.value}")
    if alert is None:
        return None
    for number in range(state.announced, 0, -1):
        verdict = verdict_for(state, rank, title, number)
        if not verdict.achieved:
            # a round robin's norm announced as certain before it was achieved: its
            # evidence is the worst case of the rounds still to come then
            sure = secured_norm(state, rank, title, verdict, number)
            if sure is None or sure.verdict is None:
                continue
            verdict = sure.verdict
        if norm_alert_id_at(state, rank, title, number, verdict) == alert:
            return number, verdict, alert
    return None


def norm_alert_id_at(
    state: TournamentState, rank: int, title: Title, number: int, v: Verdict
) -> str:
    """The id a ``norm_achieved`` alert of verdict ``v`` after round ``number`` has: its
    round, its facts and what the id rests on (``previous:norm:…``, after a correction)."""
    previous = state.sent.get(f"previous:norm:{rank}:{title.value}", "")
    return norm_alert_id(state.tournament.id, rank, title.value, number, facts_digest(v), previous)


__all__ = ["alert_in_force", "norm_alert_id_at"]
