"""A player's title facts (norms and ratings, by FIDE id) and the one transition over them.

``apply(player, fact, rules) -> (player, alerts)`` takes a fact (a norm recorded or
withdrawn, a rating recorded or withdrawn), judges every title the player has a norm of
before and after (:func:`tracker.titles.judgement.judge`, under ``rules``' application
rules) and emits what changed:

* ``title_application_complete`` when an application becomes complete, or stays complete
  on other norms or another date;
* ``title_application_progress`` when what an incomplete application misses changes, and,
  with ``revokes``, when a complete one no longer is.

A repeated fact changes nothing and emits nothing. Nothing derived is kept: the judgements
are made again from the facts each time, so an application is the same whatever order its
facts came in. The embedded store (``tracker titles``) and the worker's second table both
use this transition.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from tracker import contract as ev
from tracker.contract.outputs import alert_id
from tracker.domain.titles import NORM_TITLES, Title
from tracker.rules import TitleRules
from tracker.titles.judgement import judge


class _Fact(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    fide_id: int
    player: ev.PlayerRef
    """The player as the alert (or import) behind the fact names them."""
    tournament_id: str = ""
    round: int = 0


class NormRecorded(_Fact):
    type: Literal["norm_recorded"] = "norm_recorded"
    norm: ev.TitleNorm


class NormWithdrawn(_Fact):
    type: Literal["norm_withdrawn"] = "norm_withdrawn"
    key: str
    reason: str = ""


class RatingRecorded(_Fact):
    type: Literal["rating_recorded"] = "rating_recorded"
    rating: ev.TitleRating


class RatingWithdrawn(_Fact):
    type: Literal["rating_withdrawn"] = "rating_withdrawn"
    key: str


TitleFact = Annotated[
    NormRecorded | NormWithdrawn | RatingRecorded | RatingWithdrawn, Field(discriminator="type")
]
FACT_ADAPTER: TypeAdapter[TitleFact] = TypeAdapter(TitleFact)

ApplicationAlert = ev.TitleApplicationComplete | ev.TitleApplicationProgress


class PlayerFacts(BaseModel):
    """What is known of one player for title applications: facts only."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    fide_id: int
    player: ev.PlayerRef | None = None
    norms: dict[str, ev.TitleNorm] = Field(default_factory=dict)
    ratings: dict[str, ev.TitleRating] = Field(default_factory=dict)

    def with_fact(self, fact: TitleFact) -> PlayerFacts:
        norms, ratings = self.norms, self.ratings
        if isinstance(fact, NormRecorded):
            norms = {**norms, fact.norm.key: fact.norm}
        elif isinstance(fact, NormWithdrawn):
            norms = {k: v for k, v in norms.items() if k != fact.key}
        elif isinstance(fact, RatingRecorded):
            ratings = {**ratings, fact.rating.key: fact.rating}
        else:
            ratings = {k: v for k, v in ratings.items() if k != fact.key}
        # the fact and the facts held are validated already
        return PlayerFacts.model_construct(
            fide_id=self.fide_id, player=fact.player, norms=norms, ratings=ratings
        )

    def titles(self) -> tuple[Title, ...]:
        """The norm titles the player has a norm of, strongest first."""
        held = {n.title for n in self.norms.values()}
        return tuple(t for t in NORM_TITLES if t.value in held)

    def application(self, title: Title, rules: TitleRules) -> ev.TitleApplication:
        return judge(
            self.fide_id, self.player, self.norms.values(), self.ratings.values(), title, rules
        )

    def applications(self, rules: TitleRules) -> dict[Title, ev.TitleApplication]:
        return {t: self.application(t, rules) for t in self.titles()}


def complete_id(app: ev.TitleApplication) -> str:
    """The id of the ``title_application_complete`` of a complete application: the player,
    the title, the norms it uses and the day it is complete on."""
    keys = ",".join(n.key for n in app.norms)
    day = app.complete_on.isoformat() if app.complete_on else ""
    return alert_id(app.fide_id, "title_application_complete", app.title, keys, day)


def apply(
    before: PlayerFacts | None, fact: TitleFact, rules: TitleRules
) -> tuple[PlayerFacts, list[ApplicationAlert]]:
    """The player's facts after ``fact``, and the alerts the change gives (module doc)."""
    base = before or PlayerFacts(fide_id=fact.fide_id)
    after = base.with_fact(fact)
    if before is not None and after.norms == before.norms and after.ratings == before.ratings:
        return before, []
    return after, changes(base, after, fact, rules)


def changes(
    before: PlayerFacts, after: PlayerFacts, fact: TitleFact, rules: TitleRules
) -> list[ApplicationAlert]:
    titles = sorted(set(before.titles()) | set(after.titles()), key=NORM_TITLES.index)
    was = {t: before.application(t, rules) for t in titles if t in before.titles()}
    now = {t: after.application(t, rules) for t in titles}
    return list(alerts(was, now, fact, rules))


def alerts(
    was: Mapping[Title, ev.TitleApplication],
    now: Mapping[Title, ev.TitleApplication],
    fact: TitleFact,
    rules: TitleRules,
) -> Iterable[ApplicationAlert]:
    common = {
        "tournament_id": fact.tournament_id,
        "round": fact.round,
        "edition": rules.name,
        "player": fact.player,
    }
    for title, app in now.items():
        old = was.get(title)
        if app.complete:
            if old is None or not old.complete or complete_id(old) != complete_id(app):
                yield ev.TitleApplicationComplete(
                    alert_id=complete_id(app), title=title.value, application=app, **common
                )
            continue
        revokes = complete_id(old) if old is not None and old.complete else ""
        if revokes or old is None or old.missing != app.missing:
            keys = ",".join(n.key for n in app.norms)
            yield ev.TitleApplicationProgress(
                alert_id=alert_id(
                    app.fide_id,
                    "title_application_progress",
                    title.value,
                    keys,
                    "|".join(app.missing),
                    revokes,
                ),
                title=title.value,
                application=app,
                revokes=revokes,
                **common,
            )


__all__ = [
    "FACT_ADAPTER",
    "ApplicationAlert",
    "NormRecorded",
    "NormWithdrawn",
    "PlayerFacts",
    "RatingRecorded",
    "RatingWithdrawn",
    "TitleFact",
    "apply",
    "changes",
    "complete_id",
]
