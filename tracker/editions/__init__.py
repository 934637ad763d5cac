"""Regulation editions as values, and how a tournament's edition is chosen.

A title result is judged under the regulations in force when the tournament was played
(1.53 of 2009), so the edition is chosen by the tournament's start date unless the
organiser names one.

>>> from datetime import date
>>> title_rules_in_force(date(2009, 6, 30)).name, title_rules_in_force(date(2009, 7, 1)).name
('fide-pre-2009', 'fide-2009')
>>> title_rules_in_force(date(2023, 12, 31)).name, title_rules_in_force(date(2024, 1, 1)).name
('fide-2009', 'fide-2024')
"""

from __future__ import annotations

from datetime import date

from tracker.editions.titles_2009 import FIDE_2009, TitleRules2009
from tracker.editions.titles_2024 import FIDE_2024
from tracker.editions.titles_pre2009 import FIDE_PRE_2009

TitleRules = TitleRules2009
"""Every title edition is a :class:`TitleRules2009` value or a variation of it."""

TITLE_EDITIONS: tuple[TitleRules, ...] = (FIDE_PRE_2009, FIDE_2009, FIDE_2024)
"""Known title editions, oldest first."""


def title_rules_in_force(on: date) -> TitleRules:
    """The newest known edition in force on ``on``."""
    chosen = TITLE_EDITIONS[0]
    for edition in TITLE_EDITIONS:
        if edition.in_force_from <= on:
            chosen = edition
    return chosen


def title_rules_named(name: str) -> TitleRules:
    for edition in TITLE_EDITIONS:
        if edition.name == name:
            return edition
    known = ", ".join(e.name for e in TITLE_EDITIONS)
    raise ValueError(f"unknown edition {name!r}; known editions: {known}")


def why_chosen(edition: TitleRules, on: date, forced: bool) -> str:
    """A sentence for the CLI: which edition and why."""
    if forced:
        return f"{edition.name} ({edition.description}), chosen by name"
    newer = [e for e in TITLE_EDITIONS if e.in_force_from > edition.in_force_from]
    note = "" if newer else "; it is the newest edition this tracker knows"
    return (
        f"{edition.name} ({edition.description}): in force on the start date {on.isoformat()}{note}"
    )


__all__ = [
    "TITLE_EDITIONS",
    "TitleRules",
    "title_rules_in_force",
    "title_rules_named",
    "why_chosen",
]
