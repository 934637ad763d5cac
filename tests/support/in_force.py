"""What a subscriber holds after reading alerts: the alerts in force, each under its subject.

A subscriber drops an alert whose id it has seen (the transport may deliver it again), keeps
the latest ``norm_achieved``, ``title_rating_reached`` and ``norm_prospect`` entry of a
player and title, and the latest summary of each round, and lets the revocations take them
back. :class:`Subscriber` checks on the way that the same id never carries two different
alerts and that every revocation names the alert in force it takes back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tracker import contract as ev

Subject = tuple[Any, ...]


class Subscriber:
    """``apart``: the alerts come from one output topic each (the order holds within a
    topic only), so an ``ignorable_games`` is not checked against its norm, which another
    topic carries; :func:`view` keeps the ignorable games of the norms in force."""

    def __init__(self, apart: bool = False) -> None:
        self.seen: dict[str, str] = {}
        self.in_force: dict[Subject, ev.OutputEvent] = {}
        self.dropped = 0
        self.apart = apart

    def take(self, alerts: Iterable[ev.OutputEvent]) -> Subscriber:
        for alert in alerts:
            body = alert.model_dump_json()
            known = self.seen.get(alert.alert_id)
            if known is not None:
                assert known == body, f"two different alerts under {alert.alert_id}"
                self.dropped += 1
                continue
            self.seen[alert.alert_id] = body
            self._apply(alert)
        return self

    def _apply(self, a: ev.OutputEvent) -> None:
        force = self.in_force
        if isinstance(a, ev.RoundFinished):
            force[("round", a.round)] = a
        elif isinstance(a, ev.StandingsCorrected):
            assert force[("round", a.round)].alert_id == a.revises
            force[("round", a.round)] = a
        elif isinstance(a, ev.RoundReopenedAlert):
            assert force.pop(("round", a.round)).alert_id == a.revokes
        elif isinstance(a, ev.NormAchieved):
            force[("norm", a.player.rank, a.title)] = a
            force.pop(("ignorable", a.player.rank, a.title), None)
        elif isinstance(a, ev.IgnorableGames):
            if not self.apart:
                norm = force[("norm", a.player.rank, a.title)]
                assert norm.round == a.round
            force[("ignorable", a.player.rank, a.title)] = a
        elif isinstance(a, ev.NormRevoked):
            norm = force.pop(("norm", a.player.rank, a.title))
            assert norm.alert_id in a.reason
            force.pop(("ignorable", a.player.rank, a.title), None)
        elif isinstance(a, ev.TitleRatingReached):
            force[("rating", a.player.rank, a.title)] = a
        elif isinstance(a, ev.TitleRatingRevoked):
            assert force.pop(("rating", a.player.rank, a.title)).alert_id == a.revokes
        elif isinstance(a, ev.NormProspect) and a.status == "entered":
            force[("prospect", a.player.rank, a.title)] = a
        elif isinstance(a, ev.NormProspect | ev.NormOutOfReach):
            assert ("prospect", a.player.rank, a.title) in force, a
            del force[("prospect", a.player.rank, a.title)]
        else:
            assert isinstance(a, ev.NormProspectRevoked), a
            assert force.pop(("prospect", a.player.rank, a.title)).alert_id == a.revokes

    def view(self) -> dict[Subject, object]:
        return view(self.in_force)


def view(force: dict[Subject, ev.OutputEvent]) -> dict[Subject, object]:
    """The alerts in force as they can be compared between two histories of the same
    facts: without ids (an alert made again has a new one) and what rests on them; a
    round's summary by its fields (a ``standings_corrected`` stands for the round's
    ``round_finished``); a contention by who is in it (the entry keeps the round and the
    prospect of the moment the player entered, so it depends on the history); the
    ignorable games of the norms in force (a revocation takes them back with the norm)."""
    out: dict[Subject, object] = {}
    for subject, alert in force.items():
        if subject[0] == "prospect":
            out[subject] = True
            continue
        if isinstance(alert, ev.IgnorableGames):
            norm = force.get(("norm", *subject[1:]))
            if not isinstance(norm, ev.NormAchieved) or (norm.round, norm.evidence.ignored) != (
                alert.round,
                alert.games,
            ):
                continue
        out[subject] = alert.model_dump(exclude={"alert_id", "revises", "reason", "type"})
    return out


def in_force(alerts: Iterable[ev.OutputEvent]) -> dict[Subject, object]:
    return Subscriber().take(alerts).view()
