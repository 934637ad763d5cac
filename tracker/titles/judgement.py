"""Is a player's title application complete? The judgement of one title from the player's
norms and ratings, under the application rules of an edition (1.5 of 2024, 1.50-1.53 of
2009, 1 and 2.2 of the older summary).

Each norm counts as its own edition judged it (1.5.4 / 1.53): its games credited, its
exemption, whether it is an 8-game norm. The application's edition adds what an application
asks of the norms together, each condition a :class:`Condition` citing its article:

* norms covering at least 27 games, two or more (1.5.1 / 1.50);
* at least one norm under the normal foreigner requirement (1.4.3e / 1.43f / 2.2);
* for GM and WGM, one norm from an event with one round a day on three days (1.1.3a);
* at most one 8-game norm of 1.4.1c;
* with a norm of an event that started after 30 June 2022, one norm from an event of 1.5.6;
* and, beside the norms, the title's rating reached at some time (1.5.3 / 1.52), published
  or interim (1.5.3a / 1.52a: the federation carries the proof).

**Which norms.** The reading of :func:`choose` says which set an application uses. It finds the
earliest date at which the norms achieved by then can meet the conditions (:func:`feasible`,
which needs no search: every condition but two holds for a set as soon as for a smaller one),
and only then tries the sets of those norms by size. ``tests/unit/test_titles_choice.py`` checks
it against every subset.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Sequence
from datetime import date

from tracker import contract as ev
from tracker.domain.titles import Title
from tracker.rules import TitleRules

Norms = Sequence[ev.TitleNorm]

QC_LETTER = (
    "the tracker judges the norms by their evidence; FIDE's Qualification Commission "
    "confirms a norm only when it judges the application (its letter of 25 June 2025), and "
    "only once FIDE has rated the event"
)


@dataclasses.dataclass(frozen=True, slots=True)
class Condition:
    """One thing an application asks of its norms together."""

    article: str
    name: str
    needed: str
    met: Callable[[Norms], bool]
    actual: Callable[[Norms], str]
    missing: Callable[[Norms], str]
    """The sentence saying what a set that fails it lacks."""
    kind: str = ""
    """``short_norms`` and ``event_types`` are the two conditions that may fail for a set
    that holds a smaller one that meets them (:func:`_bases` deals with them); the others
    hold for every larger set once they hold for a set."""
    limit: int = 0
    """``short_norms``: how many 8-game norms an application may use."""

    def requirement(self, norms: Norms) -> ev.Requirement:
        return ev.Requirement(
            article=self.article,
            name=self.name,
            needed=self.needed,
            actual=self.actual(norms),
            met=self.met(norms),
        )


def _events(norms: Iterable[ev.TitleNorm]) -> str:
    return ", ".join(n.event for n in norms) or "none"


def games(norms: Norms) -> int:
    return sum(n.games_credited for n in norms)


def conditions(title: Title, rules: TitleRules) -> list[Condition]:
    """What ``rules`` ask of the norms of an application for ``title``."""
    arts = rules.application_articles
    need_games, need_norms = rules.application_games, rules.application_min_norms
    found: list[Condition] = [
        Condition(
            arts["games"],
            "games of norms",
            f"≥ {need_games}",
            lambda s: games(s) >= need_games,
            lambda s: str(games(s)),
            lambda s: (
                f"{need_games - games(s)} more games of norms ({games(s)} of "
                f"{need_games}: {arts['games']})"
            ),
        ),
        Condition(
            arts["games"],
            "norms",
            f"≥ {need_norms}",
            lambda s: len(s) >= need_norms,
            lambda s: str(len(s)),
            lambda s: (
                f"{need_norms - len(s)} more norm{'s' if need_norms - len(s) > 1 else ''}"
                f" ({arts['games']}: {need_norms} or more)"
            ),
        ),
    ]
    one_round = rules.one_round_days
    if one_round is not None and title in one_round[1]:
        days, _, article = one_round
        found.append(_one_round(days, article))
    found.append(_normal_foreigners(arts["normal_foreigners"]))
    limit = rules.short_norms_per_application
    if limit is not None:
        found.append(_short_norms(limit, arts["short_norms"]))
    after = rules.event_type_norms_after
    if after is not None:
        found.append(_event_types(after, arts["event_types"]))
    return found


def _one_round(days: int, article: str) -> Condition:
    """1.1.3a: one norm from an event with one round a day on at least ``days`` days.

    Reading [titles 30] 1.1.3a: asked of every GM or WGM application judged under 2024,
    whatever the editions of its norms: it is a rule of the application. A norm meets it when
    its event had at least three days with a single round, read from the round dates (TRF 132)
    whatever its edition; a norm without round dates does not, and the judgement names it
    (never guessed)."""

    def has(n: ev.TitleNorm) -> bool:
        return n.one_round_days is not None and n.one_round_days >= days

    def missing(s: Norms) -> str:
        unknown = [n for n in s if n.one_round_days is None]
        text = f"a norm from an event with one round a day on at least {days} days ({article})"
        if unknown:
            text += f"; the days of the rounds are not known for: {_events(unknown)}"
        return text

    return Condition(
        article,
        f"a norm with one round a day on {days} days",
        "≥ 1 norm",
        lambda s: any(has(n) for n in s),
        lambda s: _events(n for n in s if has(n)),
        missing,
    )


def _normal_foreigners(article: str) -> Condition:
    def missing(s: Norms) -> str:
        exempt = ", ".join(
            f"{n.event} ({n.federation_exemption})" for n in s if n.normal_foreigners is False
        )
        unknown = _events(n for n in s if n.normal_foreigners is None)
        return (
            f"a norm that meets the normal foreigner requirement ({article})"
            + (f"; the norms so far needed their exemption: {exempt}" if exempt else "")
            + (
                f"; not known for (opponents of unknown federation): {unknown}"
                if unknown != "none"
                else ""
            )
        )

    return Condition(
        article,
        "a norm under the normal foreigner requirement",
        "≥ 1 norm",
        lambda s: any(n.normal_foreigners for n in s),
        lambda s: _events(n for n in s if n.normal_foreigners),
        missing,
    )


def _short_norms(limit: int, article: str) -> Condition:
    def short(s: Norms) -> list[ev.TitleNorm]:
        return [n for n in s if n.short_norm]

    return Condition(
        article,
        "8-game norms counted as 9",
        f"≤ {limit}",
        lambda s: len(short(s)) <= limit,
        lambda s: str(len(short(s))),
        lambda s: f"only {limit} 8-game norm may be used ({article}): {_events(short(s))}",
        kind="short_norms",
        limit=limit,
    )


def _event_types(after: date, article: str) -> Condition:
    def recent(s: Norms) -> list[ev.TitleNorm]:
        return [n for n in s if n.start_date > after]

    def met(s: Norms) -> bool:
        return not recent(s) or any(n.event_type_1_5_6 for n in s)

    def actual(s: Norms) -> str:
        if not recent(s):
            return f"no norm after {after.isoformat()}"
        return _events(n for n in s if n.event_type_1_5_6) or "none"

    def missing(s: Norms) -> str:
        text = (
            f"a norm from an event of {article} (the norms of {_events(recent(s))} are later "
            f"than {after.isoformat()})"
        )
        unknown = [n for n in s if n.event_type_1_5_6 is None]
        if unknown:
            text += f"; whether these events are of its types is not known: {_events(unknown)}"
        return text

    return Condition(
        article,
        f"a norm from an event of {article} (with a norm after {after.isoformat()})",
        "≥ 1 norm",
        met,
        actual,
        missing,
        kind="event_types",
    )


# --------------------------------------------------------------------------- the choice


def valid(norms: Norms, conds: Sequence[Condition]) -> bool:
    return all(c.met(norms) for c in conds)


def _bases(norms: Norms, conds: Sequence[Condition]) -> list[list[ev.TitleNorm]]:
    """The largest sets worth trying: every norm that is not an 8-game one, with each
    allowed choice of 8-game norms (1.4.1c); and where such a set has no norm of 1.5.6, the
    same without the norms that would ask for one. Every set that meets the conditions lies
    inside one of them that meets them too: the other conditions (games, norms, the norm each
    asks for) hold for a set as soon as for a smaller one."""
    kinds = {c.kind: c for c in conds}
    short = [n for n in norms if n.short_norm]
    rest = [n for n in norms if not n.short_norm]
    limited = kinds.get("short_norms")
    if limited is None:
        choices: list[tuple[ev.TitleNorm, ...]] = [tuple(short)]
    else:
        most = min(len(short), limited.limit)
        choices = [c for k in range(most + 1) for c in itertools.combinations(short, k)]
    typed = kinds.get("event_types")
    out = []
    for chosen in choices:
        base = [*rest, *chosen]
        out.append(base)
        if typed is not None and not any(n.event_type_1_5_6 for n in base):
            out.append([n for n in base if typed.met([n])])  # the norms that ask for none
    return out


def feasible(norms: Norms, conds: Sequence[Condition]) -> bool:
    """Whether some set of ``norms`` meets every condition (no search: see :func:`_bases`)."""
    return any(valid(base, conds) for base in _bases(norms, conds))


def _key(s: Norms) -> tuple[int, int, tuple[str, ...]]:
    return (len(s), -games(s), tuple(sorted(n.key for n in s)))


@dataclasses.dataclass(frozen=True, slots=True)
class Choice:
    norms: tuple[ev.TitleNorm, ...]
    on: date
    why: str


def choose(norms: Norms, conds: Sequence[Condition]) -> Choice | None:
    """The set an application uses, or ``None`` when none meets every condition.

    Reading [titles 80] Which norms: of the sets that meet every condition, the one complete
    earliest (its last norm's date: the title's date is when the last requirement is met), then
    the fewest norms, then the most games, then the first by the norms' keys. A norm's date is
    that of the last round it counts (its round date, else the event's end date, else its start
    date). The application is complete on the later of that date and the rating's."""
    for day in sorted({n.achieved_on for n in norms}):
        pool = sorted((n for n in norms if n.achieved_on <= day), key=lambda n: n.key)
        if not feasible(pool, conds):
            continue
        for size in range(1, len(pool) + 1):
            found = [s for s in itertools.combinations(pool, size) if valid(s, conds)]
            if found:
                best = min(found, key=_key)
                return Choice(best, day, _why(best, day, found, pool))
    return None


def _why(best: Norms, day: date, found: Sequence[Norms], pool: Norms) -> str:
    text = f"complete on {day.isoformat()}: no set of these norms meets every condition earlier"
    if len(found) > 1:
        most = games(best)
        ties = sum(1 for s in found if games(s) == most)
        text += (
            f"; {len(found)} sets of {len(best)} norms do by then, this one has the most games "
            f"({most})"
        )
        if ties > 1:
            text += ", and comes first by the norms' keys among those with as many"
    elif len(pool) > len(best):
        text += f"; the only set of {len(best)} norms that does"
    return text


# --------------------------------------------------------------------------- the judgement


def rating_evidence(
    ratings: Iterable[ev.TitleRating], level: int
) -> tuple[ev.TitleRating | None, ev.TitleRating | None]:
    """(the first rating that reaches ``level``, published preferred on the same day; the
    highest rating known, the earliest of equals).

    Reading [titles 70] The rating (1.5.3, 1.5.3a; 1.52, 1.52a): reached "at some time": the
    first rating that reaches the level dates the application (on the same day a published one
    is preferred); an interim one is the live rating of ``title_rating_reached``, dated by its
    round's date (else the event's end or start), with a note that the federation carries the
    proof. The rating an event took from the list in force at its start counts as published on
    the start date."""
    known = list(ratings)
    reaching = [r for r in known if r.rating >= level]
    first = min(reaching, key=lambda r: (r.on, r.kind != "published", r.key), default=None)
    highest = min(known, key=lambda r: (-r.rating, r.on, r.key), default=None)
    return first, highest


def _rating_text(r: ev.TitleRating) -> str:
    return f"{r.rating} {r.kind} on {r.on.isoformat()} ({r.source})"


def judge(
    fide_id: int,
    player: ev.PlayerRef | None,
    norms: Iterable[ev.TitleNorm],
    ratings: Iterable[ev.TitleRating],
    title: Title,
    rules: TitleRules,
) -> ev.TitleApplication:
    """The application for ``title`` from the player's norms (of every title) and ratings, under
    ``rules``' application rules.

    Reading [titles 100] 1.5.2 (1.51): a norm good for two titles serves both: the GM and WGM
    norms of one event are separate norms, one in each application, and the notes say so."""
    arts = rules.application_articles
    norms = list(norms)
    mine = sorted((n for n in norms if n.title == title.value), key=lambda n: n.key)
    left_out = [
        ev.LeftOutNorm(key=n.key, event=n.event, reason="; ".join(n.problems))
        for n in mine
        if n.problems
    ]
    usable = [n for n in mine if not n.problems]
    conds = conditions(title, rules)
    choice = choose(usable, conds)
    first, highest = rating_evidence(ratings, title.level)
    rating = first or highest
    interim = arts["interim"]
    rating_req = ev.Requirement(
        article=arts["rating"] if first is None or first.kind == "published" else interim,
        name=f"rating {title.level} at some time, published or interim",
        needed=f"≥ {title.level}",
        actual=_rating_text(rating) if rating else "no rating known",
        met=first is not None,
    )
    notes = []
    if choice is not None:
        used = list(choice.norms)
        why = choice.why
        left_out += [
            ev.LeftOutNorm(key=n.key, event=n.event, reason="not needed: the set is complete")
            for n in usable
            if n not in used
        ]
    else:
        used = _best_attempt(usable, conds)
        why = "no set of the norms meets every condition"
        left_out += [
            ev.LeftOutNorm(key=n.key, event=n.event, reason=_dropped(n, used, conds))
            for n in usable
            if n not in used
        ]
    requirements = [c.requirement(used) for c in conds] + [rating_req]
    missing = [c.missing(used) for c in conds if not c.met(used)]
    if first is None:
        missing.append(
            f"rating {title.level} ({arts['rating']}): "
            + (f"highest {highest.rating} on {highest.on.isoformat()}" if highest else "none known")
        )
    complete = not missing
    if first is not None and first.kind == "interim":
        notes.append(
            f"{interim}: the rating {first.rating} is interim ({first.source}); the burden of "
            "proof rests with the federation (the chief arbiter's certificate of the rating "
            "with the date of every game), and FIDE confirms it only once every event of the "
            "period is rated"
        )
    own = arts.get("own_rules")
    editions = sorted({n.edition for n in used})
    if own and editions != [rules.name]:
        notes.append(
            f"{own}: each norm counts under the regulations in force when it was achieved "
            f"({', '.join(editions)})"
        )
    two = arts.get("two_titles")
    others = {(n.tournament_id, n.event) for n in norms if n.title != title.value}
    shared = [n for n in used if (n.tournament_id, n.event) in others]
    if two and shared:
        notes.append(f"{two}: a norm good for two titles serves both: {_events(shared)}")
    notes.append(QC_LETTER)
    name = player.name if player else ""
    return ev.TitleApplication(
        fide_id=fide_id,
        name=name,
        federation=player.federation if player else None,
        title=title.value,
        edition=rules.name,
        complete=complete,
        complete_on=(
            max(choice.on, first.on) if complete and choice is not None and first else None
        ),
        games_credited=games(used),
        norms=tuple(sorted(used, key=lambda n: (n.achieved_on, n.key))),
        rating=rating,
        requirements=tuple(requirements),
        missing=tuple(missing),
        why=why,
        left_out=tuple(left_out),
        notes=tuple(notes),
    )


def _best_attempt(norms: Norms, conds: Sequence[Condition]) -> list[ev.TitleNorm]:
    """The norms an incomplete application counts: of the largest sets worth trying
    (:func:`_bases`), the one that fails the fewest conditions, then with the most games."""
    bases = _bases(norms, conds) or [[]]
    return min(
        bases,
        key=lambda s: (sum(not c.met(s) for c in conds), -games(s), sorted(n.key for n in s)),
    )


def _dropped(n: ev.TitleNorm, used: Norms, conds: Sequence[Condition]) -> str:
    """Why the best attempt of an incomplete application leaves out a norm (:func:`_bases`)."""
    kinds = {c.kind: c for c in conds}
    short = kinds.get("short_norms")
    if n.short_norm and short is not None:
        return f"another 8-game norm is used ({short.article}: {short.needed})"
    typed = kinds["event_types"]
    return (
        f"with it the application would need a norm from an event of {typed.article}, and "
        "none of the norms is known to be one"
    )


__all__ = [
    "QC_LETTER",
    "Choice",
    "Condition",
    "choose",
    "conditions",
    "feasible",
    "games",
    "judge",
    "rating_evidence",
    "valid",
]
