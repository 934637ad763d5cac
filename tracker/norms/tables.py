"""The Annex tables (1.49a of 2009): for a number of games, the range of opponents' average
rating in which each score is the minimum for a norm. Generated from the rules, never typed
in: the tests compare them cell by cell with the printed tables.

>>> rows = score_table(title_rules_named("fide-2009"), Title.GM, 9)
>>> [(str(r.score), r.low, r.high) for r in rows[:2]]
[('7', 2380, 2433), ('13/2', 2434, 2474)]
>>> str(rows[-1].score), rows[-1].low, rows[-1].high
('7/2', 2680, None)
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from tracker.domain.fide_tables import dp, percentage
from tracker.domain.titles import Title
from tracker.rules import TitleRules, title_rules_named


@dataclasses.dataclass(frozen=True, slots=True)
class TableRow:
    score: Fraction
    low: int
    high: int | None
    """``None`` for the last row, printed "≥ low"."""


def needed_average(rules: TitleRules, title: Title, score: Fraction, games: int) -> int | None:
    """The lowest rounded average Ra with which ``score`` out of ``games`` makes the title's
    performance (1.48: Ra + dp ≥ 2600 …) and minimum average (1.48a); ``None`` below the
    minimum score (1.49)."""
    if rules.min_score is not None and score < rules.min_score * games:
        return None
    return max(
        rules.average_min[title], rules.performance_min[title] - dp(percentage(score, games))
    )


def score_table(rules: TitleRules, title: Title, games: int) -> list[TableRow]:
    """Rows from the lowest score that needs only the minimum average down to the lowest
    score allowed."""
    needs: list[tuple[Fraction, int]] = []
    half = 2 * games
    while half >= 0:
        score = Fraction(half, 2)
        need = needed_average(rules, title, score, games)
        if need is None:
            break
        needs.append((score, need))
        half -= 1
    floor_rows = [i for i, (_, need) in enumerate(needs) if need == rules.average_min[title]]
    start = floor_rows[-1] if floor_rows else 0
    rows = []
    for i in range(start, len(needs)):
        score, low = needs[i]
        high = needs[i + 1][1] - 1 if i + 1 < len(needs) else None
        rows.append(TableRow(score, low, high))
    return rows


__all__ = ["TableRow", "needed_average", "score_table", "title_rules_named"]
