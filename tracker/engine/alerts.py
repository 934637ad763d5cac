"""Building alerts (output events) from derived values, with deterministic ids."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tracker import contract as ev
from tracker.contract.outputs import alert_id
from tracker.domain.players import Player
from tracker.domain.results import Code
from tracker.engine.prospects import Need, Prospect
from tracker.norms.search import Check, NormGame, Verdict


def player_ref(p: Player) -> ev.PlayerRef:
    return ev.PlayerRef.model_validate(player_fields(p))


def player_fields(p: Player) -> dict[str, object]:
    """The fields of :func:`player_ref`, for building a whole alert in one validation."""
    return {
        "rank": p.rank,
        "fide_id": p.fide_id,
        "name": p.name,
        "federation": p.federation,
        "title": p.title.value if p.title else None,
        "rating": p.rating,
    }


def score_text(score: Fraction | float) -> str:
    """How arbiters write a score, for display (the JSON number is beside it).

    >>> [score_text(Fraction(n, 2)) for n in (0, 1, 2, 13)]
    ['0', '½', '1', '6½']
    >>> score_text(6.5)
    '6½'
    """
    halves = int(score * 2)
    whole = str(halves // 2) if halves // 2 or halves % 2 == 0 else ""
    return whole + "½" * (halves % 2)


def evidence(v: Verdict, floor_raised: tuple[int, ...], floor: int) -> ev.NormEvidence:
    def counted(g: NormGame) -> ev.CountedGame:
        raised = g.opponent.rank in floor_raised
        used = max(g.rating, floor) if raised else g.rating
        notes = [g.note] if g.note else []
        if g.opponent.rating is None:
            notes.append(f"unrated, counted as {g.rating}")
        if raised:
            notes.append(f"raised to the floor {floor}")
        return ev.CountedGame(
            round=g.round,
            opponent=player_ref(g.opponent),
            result=g.code.value,
            rating_used=used,
            note="; ".join(notes),
        )

    return ev.NormEvidence(
        title=v.title.value,
        achieved=v.achieved,
        rounds_considered=v.rounds_considered,
        games=v.games,
        score=float(v.score),
        score_text=score_text(v.score),
        percentage=v.percentage,
        average_rating=v.average,
        performance=v.performance,
        games_credited=v.credited_games,
        counted=tuple(counted(g) for g in v.counted),
        ignored=tuple(
            ev.IgnoredGame(
                round=i.round,
                opponent=player_ref(i.opponent) if i.opponent else None,
                result=i.code.value,
                article=i.article,
                reason=i.reason,
            )
            for i in v.ignored
        ),
        requirements=tuple(
            ev.Requirement(
                article=c.article, name=c.name, needed=c.needed, actual=c.actual, met=c.met
            )
            for c in v.checks
        ),
    )


def requirements(
    checks: Sequence[Check], shared: Shared | None = None
) -> tuple[ev.Requirement, ...]:
    """The wire form of ``checks``; with ``shared``, made once for the same tuple."""
    if shared is not None:
        return shared.requirements(checks)
    return tuple(
        ev.Requirement(article=c.article, name=c.name, needed=c.needed, actual=c.actual, met=c.met)
        for c in checks
    )


class Shared:
    """The wire forms a round's prospect alerts share, each made once: the core shares
    the values a round's prospects have in common (:class:`~tracker.engine.prospects.values.Made`:
    round 1 of a 500-player open has 1,058 prospects, 452 different, 7,779 different rows
    among 28,813, 18 different lists of open requirements), and each is turned into its
    wire form once. Keyed by the values' identity, which costs nothing to look up
    (hashing a table would cost about what validating it does), and sound because each
    entry holds the value it is keyed by, so that no other value can take its id while
    the memo lives; a value that is equal but not the same is only made again. Each wire
    form is validated once, as a whole, and a model shared is the same frozen value in
    every alert (the JSON is the same byte for byte)."""

    def __init__(self) -> None:
        self._prospects: dict[tuple[object, ...], tuple[Prospect, ev.Prospect]] = {}
        self._needs: dict[int, tuple[Need, ev.ProspectNeed]] = {}
        self._checks: dict[int, tuple[Sequence[Check], tuple[ev.Requirement, ...]]] = {}

    def prospect(self, p: Prospect) -> ev.Prospect:
        """:func:`prospect_detail` of ``p``, the same model for a prospect whose parts are
        the same values (the player's own fields are not part of it)."""
        key = (
            id(p.needs),
            id(p.open),
            id(p.remaining),
            id(p.ways),
            p.exact,
            p.games_left,
            p.assumption,
        )
        known = self._prospects.get(key)
        if known is not None:
            q = known[0]
            if (
                q.needs is p.needs
                and q.open is p.open
                and q.remaining is p.remaining
                and (q.ways is p.ways)
            ):
                return known[1]
        wire = _prospect_model(p, self)
        self._prospects[key] = (p, wire)
        return wire

    def requirements(self, checks: Sequence[Check]) -> tuple[ev.Requirement, ...]:
        known = self._checks.get(id(checks))
        if known is not None and known[0] is checks:
            return known[1]
        wire = requirements(checks)
        self._checks[id(checks)] = (checks, wire)
        return wire

    def needs(self, needs: Sequence[Need]) -> list[ev.ProspectNeed | dict[str, object]]:
        """Each row's model where it was made before, else its fields to validate."""
        found = self._needs
        out: list[ev.ProspectNeed | dict[str, object]] = []
        for n in needs:
            known = found.get(id(n))
            out.append(known[1] if known is not None and known[0] is n else _need_fields(n))
        return out

    def made(
        self,
        needs: Sequence[Need],
        given: Sequence[ev.ProspectNeed | dict[str, object]],
        wire: Sequence[ev.ProspectNeed],
    ) -> None:
        """Keep the models of the rows a validated prospect made (those ``given`` as
        fields)."""
        found = self._needs
        for n, was, model in zip(needs, given, wire, strict=True):
            if was.__class__ is dict:
                found[id(n)] = (n, model)


def _need_fields(n: Need) -> dict[str, object]:
    score = n.score
    return {
        "games": n.games,
        "score": score.numerator / score.denominator,  # float(), without its int() calls
        "average": n.average,
        "best_available": n.best,
        "note": n.note,
    }


def prospect_detail(p: Prospect, shared: Shared | None = None) -> ev.Prospect:
    """The wire form of a player's prospect, validated once as a whole (a model per way
    would cost several times more). A way's results are letters in the order of
    ``remaining``, which names each opponent once; the assumption names the articles of
    the edition the prospect was made under. ``shared``: the models the round's other
    prospects made, to share theirs (:class:`Shared`)."""
    if shared is not None:
        return shared.prospect(p)
    return _prospect_model(p, None)


def _prospect_model(p: Prospect, shared: Shared | None) -> ev.Prospect:
    remaining = tuple(player_ref(r.opponent) for r in p.remaining)
    needs = [_need_fields(n) for n in p.needs] if shared is None else shared.needs(p.needs)
    model = ev.Prospect.model_validate(
        {
            "exact": p.exact,
            "games_left": p.games_left,
            "remaining": remaining,
            "ways": [
                # _value_ is the member's value (Enum.value is a slower property); no
                # results when the ways are a bound (no example)
                {"score": float(w.score), "results": [code._value_ for code in w.results]}
                for w in p.ways
            ],
            "needs": needs,
            "open_requirements": requirements(p.open, shared),
            "assumption": "" if p.exact else p.assumption,
        }
    )
    if shared is not None:
        shared.made(p.needs, needs, model.needs)
    return model


def norm_alert_id(
    tournament_id: str, rank: int, title: str, number: int, digest: str, previous: str
) -> str:
    """The id of a ``norm_achieved`` alert: the player's norm after round ``number`` with the
    facts of :func:`facts_digest`; ``previous`` is the id of the revocation it follows, if
    any (so that a subscriber dropping seen ids does not drop it). The certificate finds the
    alert in force by making this id again."""
    return alert_id(tournament_id, "norm_achieved", rank, title, number, digest, previous)


def facts_digest(v: Verdict) -> str:
    """What a norm rests on: the games counted and left out, with their results."""
    counted = ",".join(f"{g.round}:{g.opponent.rank}:{g.code.value}" for g in v.counted)
    ignored = ",".join(f"{i.round}:{i.code.value}:{i.article}" for i in v.ignored)
    return f"{counted}/{ignored}"


__all__ = [
    "Code",
    "Shared",
    "alert_id",
    "evidence",
    "facts_digest",
    "norm_alert_id",
    "player_fields",
    "player_ref",
    "prospect_detail",
    "requirements",
    "score_text",
]
