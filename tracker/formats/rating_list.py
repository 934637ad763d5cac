"""FIDE's monthly rating-list download, in its TXT and XML forms, read into entries.

**TXT** (``standard_sep26frl.txt`` and the like): fixed columns under a header line whose
labels are ``ID Number``, ``Name``, ``Fed``, ``Sex``, ``Tit``, ``WTit``, ``OTit``, ``FOA``, the
month's standard rating (``SEP26``), ``Gms``, ``K``, ``B-day`` and ``Flag`` (the download of
September 2026 puts them at columns 1, 16, 77, 81, 85, 90, 95, 110, 114, 120, 124, 127 and
133). Each field runs from the start of its label to the start of the next label, so the
reader follows the columns of the header it is given; the combined list's ``SRtng``, ``SGm``
and ``SK`` are read as the rating, games and K.

**XML** (``standard_sep26frl_xml.xml``): ``<playerslist><player><fideid>…<name>…<country>…
<sex>…<title>…<w_title>…<o_title>…<foa_title>…<rating>…<games>…<k>…<birthday>…<flag>…
</player>…</playerslist>``.

The player's title is the higher of ``Tit`` and ``WTit`` (by the rating level of the title);
``OTit`` (arbiter and trainer titles) and ``FOA`` are not playing titles and are kept as
text. A rating of ``0`` or blank is no rating. ``Gms`` is the games of the rating period, not
a career count, and ``B-day`` a year.

>>> header = "ID Number".ljust(15) + "Name".ljust(61) + (
...     "Fed Sex Tit  WTit OTit           FOA SEP26 Gms K  B-day Flag")
>>> line = "1503014".ljust(15) + "Carlsen, Magnus".ljust(61) + "NOR M   GM".ljust(37) + (
...     "2831  0   10 1990")
>>> e = read_rating_list(header + "\\n" + line)[0]
>>> e.fide_id, e.name, e.federation, e.sex, e.title, e.rating, e.k_factor, e.birth_year
(1503014, 'Carlsen, Magnus', 'NOR', 'm', <Title.GM: 'GM'>, 2831, 10, 1990)
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from typing import Literal

from tracker.domain.federations import is_federation
from tracker.domain.titles import Title


class RatingListError(ValueError):
    """A rating list that cannot be read; the message names the line, column and field."""


@dataclasses.dataclass(frozen=True, slots=True)
class RatingListEntry:
    fide_id: int
    name: str
    federation: str
    sex: Literal["m", "w"] | None = None
    title: Title | None = None
    """The higher of the open title (``Tit``) and the women's title (``WTit``)."""
    other_titles: str = ""
    """``OTit`` and ``FOA`` as written (arbiter, trainer, FIDE Online Arena titles)."""
    rating: int | None = None
    games: int | None = None
    """Games rated in the list's period."""
    k_factor: int | None = None
    birth_year: int | None = None
    flag: str = ""
    """``i`` inactive, ``w`` woman, ``wi`` both."""
    line: int = dataclasses.field(default=0, compare=False, repr=False)


def read_rating_list(text: str) -> list[RatingListEntry]:
    """The entries of a rating list in either form (the XML one starts with ``<``)."""
    if text.lstrip().startswith("<"):
        return _read_xml(text)
    return _read_txt(text)


# --------------------------------------------------------------------------- TXT

_LABELS = {
    "ID Number": "fide_id",
    "Name": "name",
    "Fed": "federation",
    "Sex": "sex",
    "Tit": "title",
    "WTit": "w_title",
    "OTit": "o_title",
    "FOA": "foa_title",
    "Gms": "games",
    "SGm": "games",
    "K": "k",
    "SK": "k",
    "SRtng": "rating",
    "B-day": "birthday",
    "Flag": "flag",
}
_MONTH = re.compile(r"[A-Z]{3}\d{2}")
"""The month's rating column: ``SEP26``."""


def _columns(header: str, number: int) -> list[tuple[str, int, int | None]]:
    """(field, start, end) of each labelled column, 0-based, ``end`` exclusive (``None``
    for the last)."""
    starts: list[tuple[int, str]] = []
    for m in re.finditer(r"ID Number|\S+", header):
        label = m.group()
        field = _LABELS.get(label) or ("rating" if _MONTH.fullmatch(label) else None)
        if field is None:
            field = f"unknown:{label}"
        starts.append((m.start(), field))
    fields = {f for _, f in starts}
    for needed in ("fide_id", "name", "federation", "rating"):
        if needed not in fields:
            raise RatingListError(
                f"line {number}: the header has no {needed} column (expected a header like "
                "'ID Number      Name … Fed Sex Tit  WTit OTit … SEP26 Gms K  B-day Flag')"
            )
    return [
        (field, start, starts[i + 1][0] if i + 1 < len(starts) else None)
        for i, (start, field) in enumerate(starts)
    ]


def _read_txt(text: str) -> list[RatingListEntry]:
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("ID Number")), None)
    if at is None:
        raise RatingListError("line 1: no header line starting with 'ID Number'")
    columns = _columns(lines[at], at + 1)
    columns_of = {field: start + 1 for field, start, _ in columns}
    entries = []
    for number, line in enumerate(lines[at + 1 :], at + 2):
        if not line.strip():
            continue
        values = {}
        for field, start, end in columns:
            values[field] = (line[start:end] if end is not None else line[start:]).strip()
        entries.append(_entry(values, number, columns_of))
    return entries


# --------------------------------------------------------------------------- XML

_XML_FIELDS = {
    "fideid": "fide_id",
    "name": "name",
    "country": "federation",
    "sex": "sex",
    "title": "title",
    "w_title": "w_title",
    "o_title": "o_title",
    "foa_title": "foa_title",
    "rating": "rating",
    "games": "games",
    "k": "k",
    "birthday": "birthday",
    "flag": "flag",
}


def _read_xml(text: str) -> list[RatingListEntry]:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line, column = exc.position
        raise RatingListError(f"line {line}, column {column + 1}: not well-formed XML") from None
    if root.tag != "playerslist":
        raise RatingListError(f"the root element is <{root.tag}>, not <playerslist>")
    entries = []
    for index, player in enumerate(root.iter("player"), 1):
        values = {field: (player.findtext(tag) or "").strip() for tag, field in _XML_FIELDS.items()}
        entries.append(_entry(values, index, None))
    return entries


# --------------------------------------------------------------------------- fields


def _entry(values: dict[str, str], number: int, columns: dict[str, int] | None) -> RatingListEntry:
    def where(field: str) -> str:
        if columns is None:
            return f"player {number}"
        return f"line {number}, column {columns.get(field, 1)}"

    def integer(field: str, label: str) -> int | None:
        text = values.get(field, "")
        if not text:
            return None
        if not text.isdigit():
            raise RatingListError(f"{where(field)}: {label} {text!r} is not a number")
        return int(text)

    fide_id = integer("fide_id", "FIDE id")
    if not fide_id:
        raise RatingListError(f"{where('fide_id')}: FIDE id is missing")
    name = values.get("name", "")
    if not name:
        raise RatingListError(f"{where('name')}: name is empty")
    federation = values.get("federation", "").upper()
    if not is_federation(federation):
        raise RatingListError(f"{where('federation')}: federation {federation!r} is not a code")
    sex_text = values.get("sex", "").upper()
    sex: Literal["m", "w"] | None = "m" if sex_text == "M" else "w" if sex_text == "F" else None
    titles = []
    for field in ("title", "w_title"):
        text = values.get(field, "")
        if text:
            try:
                title = Title.parse(text)
            except ValueError:
                raise RatingListError(f"{where(field)}: title {text!r} is not known") from None
            if title is not None:
                titles.append(title)
    birth = values.get("birthday", "")
    birth_year = int(birth[:4]) if re.fullmatch(r"\d{4}(-\d\d-\d\d)?", birth) else None
    if birth and birth_year is None and set(birth) - set("0-"):
        raise RatingListError(f"{where('birthday')}: birth year {birth!r} is not a year")
    return RatingListEntry(
        fide_id=fide_id,
        name=name,
        federation=federation,
        sex=sex,
        title=max(titles, key=lambda t: t.level) if titles else None,
        other_titles=" ".join(v for v in (values.get("o_title"), values.get("foa_title")) if v),
        rating=integer("rating", "rating") or None,
        games=integer("games", "games"),
        k_factor=integer("k", "K") or None,
        birth_year=birth_year or None,
        flag=values.get("flag", ""),
        line=number,
    )


__all__ = ["RatingListEntry", "RatingListError", "read_rating_list"]
