"""Dates as arbiters' programs write them in tournament files.

The TRF text asks for ``YYYY/MM/DD`` (``042``, ``052``) and ``YY/MM/DD`` (``132``); real
exports also write ``YYYY.MM.DD``, ``YYYY-MM-DD``, ``DD.MM.YYYY``, ``DD. MM. YYYY``,
``DD/MM/YYYY`` (``MM/DD/YYYY`` when the first number cannot be a month… the second cannot
be a day), ``May 29, 2020``, ``29 May 2020`` (English, German, French or Spanish month
names, in full or abbreviated), and two-digit years in either order.

>>> parse_date("2011/03/05"), parse_date("2011.03.05"), parse_date("2011-3-5")
(datetime.date(2011, 3, 5), datetime.date(2011, 3, 5), datetime.date(2011, 3, 5))
>>> parse_date("05.03.2011"), parse_date("28. 07. 2005"), parse_date("24/09/2010")
(datetime.date(2011, 3, 5), datetime.date(2005, 7, 28), datetime.date(2010, 9, 24))
>>> parse_date("05/29/2020"), parse_date("May 29, 2020"), parse_date("29. Mai 2020")
(datetime.date(2020, 5, 29), datetime.date(2020, 5, 29), datetime.date(2020, 5, 29))
>>> parse_date("1er juillet 2023"), parse_date("3 de febrero de 2024"), parse_date("Dec 1 2024")
(datetime.date(2023, 7, 1), datetime.date(2024, 2, 3), datetime.date(2024, 12, 1))
>>> parse_date("11/03/05"), parse_date("  ")
(datetime.date(2011, 3, 5), None)
>>> parse_date("14th May")
Traceback (most recent call last):
...
ValueError: not a date: '14th May'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Literal

Order = Literal["ymd", "dmy", "mdy"]

_SEP = r"\s*[/.\-]\s*"
_FULL_YEAR_FIRST = re.compile(rf"(\d{{4}}){_SEP}(\d{{1,2}}){_SEP}(\d{{1,2}})\.?")
_FULL_YEAR_LAST = re.compile(rf"(\d{{1,2}}){_SEP}(\d{{1,2}}){_SEP}(\d{{4}})")
_SHORT_YEAR = re.compile(rf"(\d{{1,2}}){_SEP}(\d{{1,2}}){_SEP}(\d{{1,2}})")
_DAY = r"(\d{1,2})(?:st|nd|rd|th|er|e|º|°)?\.?"
_MONTH = r"([^\W\d_]+)\.?"
_NAMED_MONTH_FIRST = re.compile(rf"{_MONTH}\s+{_DAY}\s*,?\s+(\d{{4}})")
_NAMED_DAY_FIRST = re.compile(rf"{_DAY}\s+(?:de\s+)?{_MONTH}\s+(?:de\s+)?,?\s*(\d{{4}})")

_MONTHS = {
    # English
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11,
    "nov": 11, "december": 12, "dec": 12,
    # German
    "januar": 1, "janner": 1, "jan.": 1, "februar": 2, "marz": 3, "maerz": 3, "mrz": 3,
    "mai": 5, "juni": 6, "juli": 7, "oktober": 10, "okt": 10, "dezember": 12, "dez": 12,
    # French
    "janvier": 1, "janv": 1, "fevrier": 2, "fevr": 2, "fev": 2, "mars": 3, "avril": 4,
    "avr": 4, "juin": 6, "juillet": 7, "juil": 7, "aout": 8, "septembre": 9, "octobre": 10,
    "novembre": 11, "decembre": 12,
    # Spanish
    "enero": 1, "ene": 1, "febrero": 2, "marzo": 3, "abril": 4, "abr": 4, "mayo": 5,
    "junio": 6, "julio": 7, "agosto": 8, "ago": 8, "septiembre": 9, "setiembre": 9,
    "set": 9, "octubre": 10, "noviembre": 11, "diciembre": 12, "dic": 12,
}  # fmt: skip


def parse_date(text: str) -> date | None:
    """A date in any of the forms of the module's docstring; blank gives ``None``, anything
    else raises :exc:`ValueError`. Two-digit years read ``YY/MM/DD`` first (the ``132``
    form), then ``DD/MM/YY``."""
    text = text.strip()
    if not text:
        return None
    for order in _orders(text):
        found = _parse(text, order)
        if found is not None:
            return found
    raise ValueError(f"not a date: {text!r}")


def parse_round_dates(texts: Sequence[str], start: date | None = None) -> tuple[date | None, ...]:
    """The dates of record ``132`` (one text per round, blank for none). When no order reads
    them all, :exc:`ValueError` is raised with the index of the first cell the usual order
    cannot read as ``args[1]``.

    Reading [files 50] Round dates with two-digit years: TRF16 asks ``YY/MM/DD``; exporters also
    write ``DD.MM.YY``. One order is taken for the whole 132 line: the one that reads every
    cell, and of those the one that puts every date near the start date (042), else the first.

    >>> parse_round_dates(["08.06.07", "08.06.08"])
    (datetime.date(2008, 6, 7), datetime.date(2008, 6, 8))
    >>> parse_round_dates(["07.06.08", "08.06.08"], start=date(2008, 6, 7))
    (datetime.date(2008, 6, 7), datetime.date(2008, 6, 8))
    >>> parse_round_dates(["24/11/23", "", "24/11/24"])
    (datetime.date(2024, 11, 23), None, datetime.date(2024, 11, 24))
    """
    readings: list[tuple[date | None, ...]] = []
    for order in ("ymd", "dmy", "mdy"):
        dates = [_parse(raw.strip(), order) if raw.strip() else None for raw in texts]
        if all(d is not None or not raw.strip() for d, raw in zip(dates, texts, strict=True)):
            readings.append(tuple(dates))
    if not readings:
        unreadable = [i for i, raw in enumerate(texts) if raw.strip() and _any_order(raw) is None]
        # else every cell reads in some order, but not all in the same one
        mixed = [
            i for i, raw in enumerate(texts) if raw.strip() and _parse(raw.strip(), "ymd") is None
        ]
        bad = (unreadable or mixed)[0]
        raise ValueError(f"not a date: {texts[bad].strip()!r}", bad)
    if start is not None:
        for reading in readings:
            if all(d is None or _near(d, start) for d in reading):
                return reading
    return readings[0]


def _any_order(raw: str) -> date | None:
    try:
        return parse_date(raw)
    except ValueError:
        return None


def _near(d: date, start: date) -> bool:
    return start - timedelta(days=7) <= d <= start + timedelta(days=400)


def _orders(text: str) -> tuple[Order, ...]:
    if _SHORT_YEAR.fullmatch(text):
        return ("ymd", "dmy")
    return ("ymd", "dmy", "mdy")


def _parse(text: str, order: Order) -> date | None:
    """``text`` read in ``order`` (only where the form is ambiguous), or ``None``."""
    try:
        if m := _FULL_YEAR_FIRST.fullmatch(text):
            return date(int(m[1]), int(m[2]), int(m[3])) if order == "ymd" else None
        if m := _FULL_YEAR_LAST.fullmatch(text):
            a, b, year = int(m[1]), int(m[2]), int(m[3])
            if order == "mdy":
                return date(year, a, b) if b > 12 else None
            return date(year, b, a) if order == "dmy" else None
        if m := _SHORT_YEAR.fullmatch(text):
            a, b, c = int(m[1]), int(m[2]), int(m[3])
            if order == "ymd":
                return date(_century(a), b, c)
            return date(_century(c), b, a) if order == "dmy" else None
        if order != "ymd":
            return None
        if m := _NAMED_MONTH_FIRST.fullmatch(text):
            month = _month(m[1])
            return date(int(m[3]), month, int(m[2])) if month else None
        if m := _NAMED_DAY_FIRST.fullmatch(text):
            month = _month(m[2])
            return date(int(m[3]), month, int(m[1])) if month else None
    except ValueError:  # day or month out of range
        return None
    return None


def _century(year: int) -> int:
    return 2000 + year if year < 70 else 1900 + year


def _month(name: str) -> int | None:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return _MONTHS.get(plain)
