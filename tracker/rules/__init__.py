"""Regulation editions as values, and how a tournament's edition is chosen.

A title result is judged under the regulations in force when the tournament was played
(1.53 of 2009), so the edition is chosen by the tournament's start date unless the
organiser names one.

>>> from datetime import date
>>> title_rules_in_force(date(2009, 6, 30)).name, title_rules_in_force(date(2009, 7, 1)).name
('fide-pre-2009', 'fide-2009')
>>> title_rules_in_force(date(2012, 6, 30)).name, title_rules_in_force(date(2012, 7, 1)).name
('fide-2009', 'fide-2009r2012')
>>> title_rules_in_force(date(2017, 7, 1)).name, title_rules_in_force(date(2022, 6, 30)).name
('fide-2009r2017', 'fide-2009r2017')
>>> title_rules_in_force(date(2022, 7, 1)).name, title_rules_in_force(date(2023, 12, 31)).name
('fide-2009r2022', 'fide-2009r2022')
>>> title_rules_in_force(date(2024, 1, 1)).name
'fide-2024'

Between 2009 and 2024 the amendments that can be sourced are dated revisions of the 2009
edition (``fide-2009r2012``, ``fide-2009r2017``, ``fide-2009r2022``; see
:mod:`tracker.rules.titles_2009`); each is selectable by name like the editions, and
``fide-2009`` stays the 2009 text as published.
"""

from __future__ import annotations

from datetime import date

from tracker.rules.titles_2009 import (
    FIDE_2009,
    FIDE_2009R2012,
    FIDE_2009R2017,
    FIDE_2009R2022,
    TitleRules2009,
)
from tracker.rules.titles_2024 import FIDE_2024
from tracker.rules.titles_pre2009 import FIDE_PRE_2009

TitleRules = TitleRules2009
"""Every title edition is a :class:`TitleRules2009` value or a variation of it."""

TITLE_EDITIONS: tuple[TitleRules, ...] = (
    FIDE_PRE_2009,
    FIDE_2009,
    FIDE_2009R2012,
    FIDE_2009R2017,
    FIDE_2009R2022,
    FIDE_2024,
)
"""Known title editions and dated revisions, oldest first."""


def title_rules_in_force(on: date) -> TitleRules:
    """The newest known edition in force on ``on``."""
    chosen = TITLE_EDITIONS[0]
    for edition in TITLE_EDITIONS:
        if edition.in_force_from <= on:
            chosen = edition
    return chosen


def describe_editions() -> str:
    """The known editions and when each applies, for ``--edition``'s help.

    >>> describe_editions()  # doctest: +NORMALIZE_WHITESPACE
    'fide-pre-2009 (before 2009-07-01), fide-2009 (from 2009-07-01),
     fide-2009r2012 (from 2012-07-01: unrated opponents at 1000), fide-2009r2017 (from
     2017-07-01: unrated opponents at 1000, 30 rated games for titles by rating),
     fide-2009r2022 (from 2022-07-01: unrated opponents at 1000, 30 rated games for titles
     by rating, 1.5.6 event types), fide-2024 (from 2024-01-01)'
    """
    first, *later = TITLE_EDITIONS
    parts = [f"{first.name} (before {later[0].in_force_from.isoformat()})"]
    for e in later:
        what = f": {e.amendments}" if e.amendments else ""
        parts.append(f"{e.name} (from {e.in_force_from.isoformat()}{what})")
    return ", ".join(parts)


def title_rules_named(name: str) -> TitleRules:
    for edition in TITLE_EDITIONS:
        if edition.name == name:
            return edition
    known = ", ".join(e.name for e in TITLE_EDITIONS)
    raise ValueError(f"unknown edition {name!r}; known editions: {known}")


UNMODELLED = (date(2014, 7, 1), date(2024, 1, 1))
"""The Title Regulations of 2014, 2017, 2022 and 2023 were in force between these dates; they
are not modelled, so the 2009 edition, with the dated amendments its revisions carry, stands
in for them (and says so)."""


MIX_NOTE = (
    ", its weighted title mix (1.45b–e) too: published paraphrases of the 2014 and 2017 "
    "texts give the mix without weights and without FMs (IMs or GMs; WGMs, IMs or GMs), but "
    "no verbatim copy of those texts was found, so a norm whose mix holds only by a weight "
    "may not hold under them"
)
"""Reading [issue-19 40] 1.45 (2014–2023): published paraphrases drop the weights and FMs; no
verbatim copy was found in public copies of the handbook (issue 19's search for the verbatim
1.45 of 2014 and 2017 found the openings of the pages only:
handbook.fide.com/chapter/B01Regulations2014, a 2017 copy), so the 2009 weighted mix stands in,
it is not modelled as a dated revision, and ``why_chosen`` says so
(with this note, ``MIX_NOTE``)."""


def why_chosen(edition: TitleRules, on: date, forced: bool) -> str:
    """A sentence for the CLI: which edition and why.

    >>> why_chosen(FIDE_2024, date(2026, 3, 1), forced=False)  # doctest: +ELLIPSIS
    'fide-2024 (...): in force on the start date 2026-03-01; it is the newest edition ...'
    >>> chosen = why_chosen(FIDE_2009R2017, date(2018, 3, 1), forced=False)
    >>> chosen  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
    '...; the 2014 to 2023 texts in force then are not modelled beyond the dated amendments
    named: the 2009 text stands in for the rest, its weighted title mix (1.45b–e) too...'
    """
    if forced:
        return f"{edition.name} ({edition.description}), chosen by name"
    newer = [e for e in TITLE_EDITIONS if e.in_force_from > edition.in_force_from]
    note = "" if newer else "; it is the newest edition this tracker knows"
    if UNMODELLED[0] <= on < UNMODELLED[1]:
        note = (
            "; the 2014 to 2023 texts in force then are not modelled beyond the dated "
            "amendments named: the 2009 text stands in for the rest"
            if edition.amendments
            else "; the 2014 to 2023 texts in force then are not modelled: "
            f"{edition.name} stands in for them"
        ) + MIX_NOTE
    return (
        f"{edition.name} ({edition.description}): in force on the start date {on.isoformat()}{note}"
    )


__all__ = [
    "TITLE_EDITIONS",
    "UNMODELLED",
    "TitleRules",
    "describe_editions",
    "title_rules_in_force",
    "title_rules_named",
    "why_chosen",
]
