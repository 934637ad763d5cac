"""Opponent-mix requirements as plain values, so that every edition states its numbers and
the norm search can bound them without knowing which edition it runs.

>>> mo = WeightedMO({Title.IM: Fraction(1), Title.GM: Fraction(3, 2)}, Fraction(3), "IM")
>>> mo.ok(Counter({Title.GM: 2})), mo.ok(Counter({Title.GM: 1, Title.IM: 1}))
(True, False)
>>> combo = ComboMO(((frozenset({Title.WIM}), 3), (frozenset({Title.GM, Title.IM}), 2)), "WIM")
>>> combo.ok(Counter({Title.IM: 1, Title.GM: 1})), combo.ok(Counter({Title.WIM: 2}))
(True, False)
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction

from tracker.domain.fraction_text import fraction_text
from tracker.domain.titles import Title


@dataclasses.dataclass(frozen=True, slots=True)
class WeightedMO:
    """At least ``needed`` opponents of the norm's title, higher titles counting with a weight
    (1.45b–e of 2009: "GM = 1.5 IM", …)."""

    weights: Mapping[Title, Fraction]
    needed: Fraction
    label: str
    scale: int = dataclasses.field(init=False, repr=False, compare=False)
    """The weights' common denominator: in units of ``1/scale`` every value is an integer."""
    scaled: Mapping[Title, int] = dataclasses.field(init=False, repr=False, compare=False)
    """The weights in units of ``1/scale``."""
    scaled_needed: int = dataclasses.field(init=False, repr=False, compare=False)
    """The least value in units of ``1/scale`` that is at least :attr:`needed`."""

    def __post_init__(self) -> None:
        scale = math.lcm(*(w.denominator for w in self.weights.values()))
        scaled = {t: w.numerator * (scale // w.denominator) for t, w in self.weights.items()}
        object.__setattr__(self, "scale", scale)
        object.__setattr__(self, "scaled", scaled)
        object.__setattr__(
            self, "scaled_needed", -(-self.needed.numerator * scale // self.needed.denominator)
        )

    def value(self, titles: Counter[Title]) -> Fraction:
        return Fraction(self.scaled_value(titles), self.scale)

    def scaled_value(self, titles: Mapping[Title, int]) -> int:
        """:meth:`value` in units of ``1/scale``."""
        scaled = self.scaled
        return sum(scaled.get(t, 0) * c for t, c in titles.items())

    def ok(self, titles: Counter[Title]) -> bool:
        return self.scaled_value(titles) >= self.scaled_needed

    def describe_needed(self) -> str:
        return f"{fraction_text(self.needed)} {self.label}-equivalents ({_weights(self.weights)})"

    def describe_actual(self, titles: Counter[Title]) -> str:
        return fraction_text(self.value(titles))


@dataclasses.dataclass(frozen=True, slots=True)
class ComboMO:
    """Fixed alternatives, any one of which suffices: ``((titles, count), …)`` means at least
    ``count`` opponents holding one of ``titles`` (the older edition's "3 IM, 2 IM + 1 GM or
    2 GM" style). An alternative may also be a tuple of such pairs that must all hold."""

    alternatives: tuple[tuple[frozenset[Title], int], ...]
    label: str
    all_of: tuple[tuple[tuple[frozenset[Title], int], ...], ...] = ()

    def ok(self, titles: Counter[Title]) -> bool:
        if any(_count(titles, ts) >= c for ts, c in self.alternatives):
            return True
        return any(all(_count(titles, ts) >= c for ts, c in group) for group in self.all_of)

    def describe_needed(self) -> str:
        parts = [f"{c} of {'/'.join(sorted(t.value for t in ts))}" for ts, c in self.alternatives]
        parts += [
            " + ".join(f"{c} {'/'.join(sorted(t.value for t in ts))}" for ts, c in group)
            for group in self.all_of
        ]
        return " or ".join(parts)

    def describe_actual(self, titles: Counter[Title]) -> str:
        held = sorted(titles.items(), key=lambda kv: -kv[0].level)
        return ", ".join(f"{c} {t.value}" for t, c in held if c) or "none"


MO = WeightedMO | ComboMO


@dataclasses.dataclass(frozen=True, slots=True)
class MixRule:
    """Every count a norm over ``games`` opponents needs, with the article of each."""

    games: int
    min_title_holders: int
    title_holder_titles: frozenset[Title]
    title_holder_article: str
    mo: MO
    mo_article: str
    distinct_opponents: bool
    """Double round robin: an opponent met twice counts once for the title mix (1.45f)."""
    title_holders_distinct: bool
    """Whether title-holders are counted per player rather than per game (older edition,
    2.3: "a player and his title count only once")."""
    federation_exemption: str | None
    """Article that lifts the federation rules for this event, or ``None``."""
    min_foreign_federations: int
    foreign_article: str
    max_own_federation: int | None
    max_one_federation: int | None
    caps_article: str
    min_other_federations: int | None
    """Older edition: at least this many opponents from federations other than the player's."""
    other_article: str
    max_unrated: int | None
    unrated_article: str


def _count(titles: Counter[Title], wanted: frozenset[Title]) -> int:
    return sum(c for t, c in titles.items() if t in wanted)


def _weights(weights: Mapping[Title, Fraction]) -> str:
    ordered = sorted(weights.items(), key=lambda kv: -kv[0].level)
    return ", ".join(f"{t.value}={fraction_text(w)}" for t, w in ordered)
