"""A fact of a finished round, or of a player, changed: what is announced is worked out again.

Arbiters correct results, take back a pairing, a bye or a result sent for the wrong board,
put a player's registration right, take off a player registered by mistake, and reopen a
round closed too early. Each is a fact like any other; :func:`correct` makes what is
announced the tracker's verdict on the facts as they are now:

* a round reopened (input ``round_reopened``) that is not complete, and every announced
  round after it, is no longer finished (``round_reopened``, latest first): their summaries
  no longer stand. A board or bye taken back leaves a finished round finished (the
  transition decides which rounds stay finished: ``last``);
* the summary of every round still finished whose standings changed is sent again
  (``standings_corrected``);
* the norms are worked out again from round 1, as a replay of the facts would announce
  them (the round each norm was first achieved in, its evidence, its conditions), and
  compared with the same work on the facts before the correction: a norm that no longer
  holds is revoked (``norm_revoked``), one that changed or is new is announced under a new
  id;
* the title levels reached and the contention for norms are judged after the last round
  still finished: a level no longer reached is revoked (``title_rating_revoked``), one
  reached at another round or rating announced again; a contention that ended gives the
  usual exit (``norm_out_of_reach`` or ``norm_prospect`` ``left``), or
  ``norm_prospect_revoked`` where no round is finished any more, the event gives no norms,
  or the player is no longer evaluated for the title.

Nothing is emitted for what the correction did not change. Every alert made again gets an
id that also rests on the id of the alert it replaces or on the revocation it follows, so
a subscriber that drops ids it has seen never drops it; the same facts in the same order
always give the same ids.
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from tracker import contract as ev
from tracker.domain.players import Player
from tracker.domain.titles import Title
from tracker.engine.alerts import alert_id
from tracker.engine.round_alerts import (
    Emitted,
    MadeNorm,
    issue_norm,
    norm_alerts,
    prospect_alerts,
    rating_content,
    rechained,
    revoke_alert,
    revoke_norm,
    summary_fields,
    summary_id,
)
from tracker.engine.round_view import RoundView, view_after
from tracker.engine.state import TournamentState


@dataclasses.dataclass(frozen=True, slots=True)
class _Derived:
    """What a replay of the facts announces up to a round: the norms in force (by
    subject, with whether they carry conditions) and each round's evaluation."""

    norms: dict[str, tuple[MadeNorm, bool]]
    views: list[RoundView]

    def view(self, number: int) -> RoundView | None:
        return self.views[number - 1] if number >= 1 else None


def _derive(state: TournamentState, up_to: int) -> _Derived:
    """The norms a replay of the state's facts announces by round ``up_to`` (no prospects:
    the contention is judged after the last round only)."""
    sent: dict[str, str] = {}
    made: dict[str, MadeNorm] = {}
    views = []
    for number in range(1, up_to + 1):
        view = view_after(state, number)
        views.append(view)
        norm_alerts(state, view, sent, made)
    norms = {
        key: (made[key], f"conditional:{key}" in sent) for key in sent if key.startswith("norm:")
    }
    return _Derived(norms, views)


def correct(
    before: TournamentState, after: TournamentState, first: int, last: int, why: str
) -> tuple[TournamentState, Emitted]:
    """The alerts that bring what is announced from ``before`` to the facts of ``after``:
    a correction changed round ``first`` (1 for a player), and rounds 1 … ``last`` are still
    finished (``last`` < ``before.announced``: the rounds after it are reopened). ``why``
    says what the correction was, for the alerts' reasons. The state returned has rounds
    1 … ``last`` announced; the caller announces the rounds that have finished since."""
    c = _Correction(
        before,
        after,
        first,
        last,
        why,
        sent=dict(after.sent),
        players={**before.players, **after.players},
        old=_derive(before, before.announced),
        new=_derive(after, last),
    )
    out = [*c.reopened(), *c.summaries(), *c.norms(), *c.ratings(), *c.prospects()]
    return dataclasses.replace(after, sent=MappingProxyType(c.sent), announced=last), out


@dataclasses.dataclass(frozen=True, slots=True)
class _Correction:
    """One correction: the states before and after it, what a replay announces from each
    (``old``, ``new``), and the alerts in force as they change (``sent``)."""

    before: TournamentState
    after: TournamentState
    first: int
    last: int
    why: str
    sent: dict[str, str]
    players: dict[int, Player]
    """Every player of either state (a revocation may name a player taken off)."""
    old: _Derived
    new: _Derived

    def reopened(self) -> Emitted:
        """``round_reopened`` for each announced round that is no longer finished."""
        t, sent, why = self.after.tournament, self.sent, self.why
        out: Emitted = []
        for number in range(self.before.announced, self.last, -1):
            revokes = summary_id(self.after, sent, number)
            ident = alert_id(t.id, "round_reopened", number, revokes)
            reason = (
                f"{why}: round {number} is no longer finished"
                if number == self.first
                else f"{why}: round {number} waits for round {self.first} again"
            )
            out.append(
                ev.RoundReopenedAlert(
                    alert_id=ident,
                    tournament_id=t.id,
                    round=number,
                    edition=self.after.title_rules.name,
                    revokes=revokes,
                    reason=reason,
                )
            )
            sent[f"round:{number}"] = ident
        return out

    def summaries(self) -> Emitted:
        """``standings_corrected`` for each round still finished whose standings changed."""
        out: Emitted = []
        t = self.after.tournament
        for number in range(max(self.first, 1), self.last + 1):
            was, now = self.old.view(number), self.new.view(number)
            assert was is not None
            assert now is not None
            then = summary_fields(self.before, number, was.rows, was.not_a_norm_event)
            fields = summary_fields(self.after, number, now.rows, now.not_a_norm_event)
            if then == fields:
                continue
            revises = summary_id(self.after, self.sent, number)
            ident = alert_id(t.id, "standings_corrected", number, revises)
            reason = f"{self.why}: the standings after round {number} changed"
            out.append(
                ev.StandingsCorrected.model_validate(
                    {**fields, "alert_id": ident, "revises": revises, "reason": reason}
                )
            )
            self.sent[f"round:{number}"] = ident
        return out

    def norms(self) -> Emitted:
        """Norms in force that no longer hold revoked; norms that changed, or are new,
        announced (as a replay of the facts announces them, under new ids)."""
        out: Emitted = []
        sent, new = self.sent, self.new.norms
        for key in sorted({k for k in sent if k.startswith("norm:")} | set(new), key=_order):
            rank = int(key.split(":")[1])
            if key not in new:
                reason = f"{self.why}: the {{title}} norm announced as {{id}} no longer holds"
                player = self.players[rank]
                revoked = revoke_norm(self.after, self.last, key, sent, reason, player)
                out.append(revoked)
                sent[f"corrected:{key}"] = revoked.alert_id
                continue
            norm, conditional = new[key]
            was = self.old.norms.get(key)
            if key in sent and was is not None and _same_norm(was[0], norm):
                continue
            chain = sent.get(key) or sent.get(f"revoked:{key}", "")
            norm, alerts = issue_norm(self.after, norm, sent, chain, chain, conditional)
            out.extend(alerts)
            sent[f"corrected:{key}"] = norm.alert.alert_id
        return out

    def ratings(self) -> Emitted:
        """Title levels no longer reached revoked; those reached at another round or
        rating, or by a corrected player, announced again; new ones announced."""
        out: Emitted = []
        sent = self.sent
        was_view, view = self.old.view(self.before.announced), self.new.view(self.last)
        was = rating_content(self.before, was_view) if was_view is not None else {}
        now = rating_content(self.after, view) if view is not None else {}
        for key in sorted({k for k in sent if k.startswith("rating:")} | set(now), key=_order):
            alert = now.get(key)
            if alert is None:
                reason = (
                    f"{self.why}: the live rating no longer reaches the {{title}} level "
                    "(announced as {id})"
                )
                out.append(revoke_alert(self.after, self.last, key, sent, reason, self.players))
                continue
            then = was.get(key)
            if key in sent and then is not None and _content(then) == _content(alert):
                continue
            chain = sent.get(key) or sent.get(f"revoked:{key}", "")
            if chain:
                alert = rechained(alert, chain)
            out.append(alert)
            sent[key] = alert.alert_id
        return out

    def prospects(self) -> Emitted:
        """Contention judged after the last round still finished, against the contention
        in force; all of it revoked when no round is finished or the event gives no norms."""
        view, why = self.new.view(self.last), self.why
        if view is not None and view.gate.norms:
            reason = (
                f"{why}: no longer evaluated for the {{title}} norm "
                "(contention announced as {id})"
            )
            return prospect_alerts(self.after, view, self.sent, reason, self.players)
        if view is None:
            reason = f"{why}: no round is finished (contention announced as {{id}})"
        else:
            reason = f"{why}: the event gives no norms (contention announced as {{id}})"
        keys = sorted((k for k in self.sent if k.startswith("prospect:")), key=_order)
        return [
            revoke_alert(self.after, self.last, key, self.sent, reason, self.players)
            for key in keys
        ]


def _same_norm(a: MadeNorm, b: MadeNorm) -> bool:
    if _content(a.alert) != _content(b.alert):
        return False
    if a.ignorable is None or b.ignorable is None:
        return a.ignorable is b.ignorable
    return _content(a.ignorable) == _content(b.ignorable)


def _content(alert: ev.OutputEvent) -> dict[str, object]:
    return alert.model_dump(exclude={"alert_id"})


def _order(key: str) -> tuple[int, int, str]:
    """Subjects (``norm:7:GM``) by start rank, then the higher title first."""
    _, rank, title = key.split(":")
    return int(rank), -Title(title).level, title


__all__ = ["correct"]
