"""FIDE Tournament Report Files (TRF16, and the TRF26 records) in, input events out.

:func:`parse_trf` reads the text of a file into a :class:`TrfFile`; :func:`to_events` turns
it into the stream of input events (:mod:`tracker.contract`) that the tournament would have
produced live; :func:`format_trf` writes a :class:`TrfFile` back as TRF16 text.

What is read
============

Columns are 1-based, as in the FIDE text (C.04 Annex 2, "TRF16"; TRF26 keeps the same player
record). Lines may end in CR LF, LF or CR alone; trailing blanks may be trimmed, so a line may
be shorter than the full width. Lines beginning with ``###`` are comments. Records of a type
not listed below (team records ``013`` and ``3xx``, JaVaFo's ``XX?``, the column rulers some
programs print) are kept in :attr:`TrfFile.records` and otherwise ignored. The text comes from
the file's bytes through :func:`tracker.formats.decoding.decode` (UTF-8, Windows-1250/1252 or
Latin-1, detected).

* ``012`` name, ``022`` city, ``032`` federation, ``042`` start date, ``052`` end date,
  ``062``/``072``/``082`` numbers of players, rated players and teams (a note in brackets
  after the number is dropped: ``062 129 (88)``), ``092`` type of tournament, ``102`` chief
  arbiter, ``112`` deputy arbiter (one line each), ``122`` time control, ``132`` round dates
  (at columns 92-99, 102-109, …). The value of a record starts at column 5.
* Dates (``042``, ``052``, ``132``, birth dates) in every form exporters write
  (:mod:`tracker.formats.dates`): ``YYYY/MM/DD``, ``YYYY.MM.DD``, ``YYYY-MM-DD``,
  ``DD.MM.YYYY``, ``DD. MM. YYYY``, ``DD/MM/YYYY``, ``May 29, 2020``, ``29. Mai 2020``; in
  ``132`` two-digit years as ``YY/MM/DD`` or ``DD.MM.YY``, one order for the whole line
  (the one that fits the start date).
* TRF26: ``142`` number of rounds, ``152`` initial colour (``W``/``B``), ``162`` scoring
  system, ``172`` starting-rank method, ``182`` pairing controller, ``192`` encoded type of
  tournament, ``202``/``212`` tie-breaks, ``222`` encoded time control. All but ``142`` and
  ``152`` are kept as text.
* ``001`` player: start rank 5-8, sex 10 (``m``; ``w`` or ``f`` for a woman), title 11-13,
  name 15-47, rating 49-52 (blank or ``0`` for unrated), federation 54-56 (blank, or three
  letters that are not a code on FIDE's list such as an anonymised ``ZZZ``: unknown, ``null``
  on ``player_registered``), FIDE id 58-68 (blank, ``0`` or dashes for none), birth
  date 70-79 (a date, a year alone, ``YYYY/00/00``; blank, zeros or ``    /  /`` for
  none), points 81-84, rank 86-89; then one cell per round, ten columns apart from column 92:
  opponent 92-95 (``0000``, ``0`` or blank for none), colour 97 (``w``, ``b``, ``-``; blank
  is ``-``), result 99 (``1 = 0 + - W D L H F U Z``, any case; blank is ``Z``; ``=`` without
  an opponent is a half-point bye, as Swiss Master writes it). A cell with an opponent and a
  blank result is a game paired but not yet finished.

Project extension records
=========================

The FIDE formats cannot say everything the norm rules need, so the project adds records in
the style of JaVaFo's ``XX?`` records (which start with ``X`` so that FIDE tools skip them).
Each is the code, a blank, then the value from column 5:

* ``XXR n``: planned number of rounds (as in JaVaFo). Without it, ``142``; without that, the
  number of round dates in ``132``; without that, for a round robin, the rounds its players
  need; else the number is unknown (:attr:`TrfFile.planned_rounds`).
* ``XNS system``: pairing system, ``swiss``, ``round_robin``, ``double_round_robin`` or
  ``unknown`` (:class:`~tracker.domain.tournaments.System`). Without it the system is read
  from ``092``, ``192``, the field against the planned rounds and the pairings
  (:mod:`tracker.formats.pairing_system`), and is ``unknown`` where they are missing or
  disagree.
* ``XNK kind kind …``: kinds of event the regulations treat specially, as the values of
  :class:`~tracker.domain.tournaments.EventKind` (``zonal``, ``national_championship_final``, …).
* ``XNH FED``: host federation. Without it, the ``032`` record.
* ``XNI id``: tournament id for the events. Without it, a slug of the ``012`` name, Greek
  and Cyrillic letters transliterated (:attr:`TrfFile.tournament_id`).

Errors
======

A malformed line raises :exc:`TrfError`, whose message names the line and column (1-based)
and the field:

>>> parse_trf("001    1      Kovacs, Adam                      ab12 HUN")
Traceback (most recent call last):
...
tracker.formats.trf.TrfError: line 1, column 49: rating 'ab12' is not a number
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import unicodedata
from collections.abc import Callable, Iterator
from datetime import date
from fractions import Fraction
from typing import Literal

import pydantic

from tracker.contract import (
    Bye,
    GameResult,
    InputEvent,
    Pairing,
    PlayerRegistered,
    RoundClosed,
    TournamentRegistered,
)
from tracker.domain.federations import is_federation
from tracker.domain.results import Code, format_result
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System, round_robin_rounds
from tracker.formats.dates import parse_date, parse_round_dates
from tracker.formats.pairing_system import SystemReading, read_system
from tracker.formats.transliterate import to_latin

Colour = Literal["w", "b", "-"]
ByeKind = Literal["H", "F", "U", "Z"]

FIRST_CELL_COLUMN = 92
"""Column of round 1's opponent id; each further round is ten columns to the right."""
CELL_WIDTH = 10


class TrfError(ValueError):
    """A TRF file that cannot be read or converted; the message says where and why."""


def _error(line: int, column: int, message: str) -> TrfError:
    return TrfError(f"line {line}, column {column}: {message}")


# --------------------------------------------------------------------------- data


@dataclasses.dataclass(frozen=True, slots=True)
class Cell:
    """One round of a player line.

    >>> Cell(opponent=12, colour="w", code=Code.WIN).points
    Fraction(1, 1)
    """

    opponent: int | None
    """Start rank of the scheduled opponent; ``None`` for ``0000`` or blank (a bye)."""
    colour: Colour
    code: Code | None
    """The result letter; ``None`` for a game paired whose result is not yet known."""

    @property
    def points(self) -> Fraction:
        """Points under the usual scoring (H ½, F/U 1, Z 0, + 1); a pending game scores 0."""
        return self.code.points if self.code is not None else Fraction(0)

    @property
    def is_game(self) -> bool:
        """Whether the cell is a board against an opponent (played, forfeited or pending)."""
        return self.opponent is not None


@dataclasses.dataclass(frozen=True, slots=True)
class TrfPlayer:
    """A ``001`` record."""

    rank: int
    """Starting rank, the id in round cells."""
    name: str
    federation: str = ""
    """Three letters; empty when the file leaves it blank."""
    sex: Literal["m", "w"] | None = None
    title: Title | None = None
    rating: int | None = None
    """``None`` for unrated (blank or ``0`` in the file)."""
    fide_id: int | None = None
    birth_date: date | None = None
    birth_year: int | None = None
    """Set with :attr:`birth_date`, or alone when the file gives only a year."""
    points: Fraction | None = None
    """Columns 81-84 as written; not checked against the cells (scoring systems differ)."""
    final_rank: int | None = None
    cells: tuple[Cell | None, ...] = ()
    """Round 1 first; ``None`` for a blank cell. Trailing blank cells are dropped."""
    line: int = dataclasses.field(default=0, compare=False, repr=False)
    """Line of the file the record was read from (0 when built in code)."""

    def cell(self, round_: int) -> Cell | None:
        """The cell of a round (1-based); ``None`` when blank or beyond the line."""
        if 1 <= round_ <= len(self.cells):
            return self.cells[round_ - 1]
        return None

    @property
    def score(self) -> Fraction:
        """Points from the cells under the usual scoring (H ½, F/U 1, Z 0, + 1)."""
        return sum((c.points for c in self.cells if c is not None), Fraction(0))


@dataclasses.dataclass(frozen=True, slots=True)
class TrfRecord:
    """A record kept but not interpreted (unknown type, team records, JaVaFo extras…)."""

    code: str
    text: str
    """The whole line, trailing blanks removed."""


@dataclasses.dataclass(frozen=True, slots=True)
class TrfHeader:
    """The tournament records. Text fields are ``""`` when absent."""

    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: date | None = None
    end_date: date | None = None
    player_count: int | None = None
    rated_count: int | None = None
    team_count: int | None = None
    tournament_type: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: tuple[str, ...] = ()
    time_control: str = ""
    round_dates: tuple[date | None, ...] = ()
    rounds: int | None = None
    """TRF26 ``142``."""
    initial_colour: Literal["W", "B"] | None = None
    scoring: str = ""
    starting_rank_method: str = ""
    pairing_controller: str = ""
    encoded_type: str = ""
    tiebreaks: str = ""
    standings_tiebreaks: str = ""
    encoded_time_control: str = ""
    planned_rounds: int | None = None
    """``XXR``."""
    system: System | None = None
    """``XNS``; see :attr:`TrfFile.system` for the inferred value."""
    kinds: tuple[EventKind, ...] = ()
    """``XNK``."""
    host_federation: str | None = None
    """``XNH``; see :attr:`TrfFile.host_federation` for the default."""
    tournament_id: str | None = None
    """``XNI``."""


@dataclasses.dataclass(frozen=True, slots=True)
class TrfFile:
    header: TrfHeader
    players: tuple[TrfPlayer, ...]
    """In start-rank order."""
    records: tuple[TrfRecord, ...] = ()

    def without_rounds(self) -> TrfFile:
        """The file with every player's round cells emptied: its header and players alone,
        as a start list gives them."""
        players = tuple(dataclasses.replace(p, cells=()) for p in self.players)
        return dataclasses.replace(self, players=players)

    def player(self, rank: int) -> TrfPlayer:
        for p in self.players:
            if p.rank == rank:
                return p
        raise KeyError(rank)

    @property
    def rounds(self) -> int:
        """Number of round columns in the file (the longest player line)."""
        return max((len(p.cells) for p in self.players), default=0)

    @property
    def played_rounds(self) -> tuple[int, ...]:
        """Rounds in which at least one player has a non-blank cell."""
        return tuple(
            r for r in range(1, self.rounds + 1) if any(p.cell(r) is not None for p in self.players)
        )

    @property
    def planned_rounds(self) -> int | None:
        """``XXR``, else ``142``, else the number of round dates in ``132``; else, for a
        round robin, the number its players need (:func:`round_robin_rounds`); else
        ``None``: not known (the round columns of a file do not say how many rounds are to
        come)."""
        stated = self._stated_rounds
        if stated is not None:
            return stated
        if self.system.predetermined and self.players:
            return round_robin_rounds(len(self.players), self.system)
        return None

    @property
    def _stated_rounds(self) -> int | None:
        """The planned rounds the file states: ``XXR``, else ``142``, else the dates of
        ``132``."""
        h = self.header
        if h.planned_rounds is not None:
            return h.planned_rounds
        if h.rounds is not None:
            return h.rounds
        return len(h.round_dates) if h.round_dates else None

    @property
    def system(self) -> System:
        """``XNS``, else read from what the file says (:attr:`system_reading`)."""
        return self.header.system or self.system_reading.system

    @property
    def system_reading(self) -> SystemReading:
        """The system and how it was read (``XNS`` states it as a fact), else from ``092``,
        ``192``, the field against the planned rounds and the pairings
        (:func:`tracker.formats.pairing_system.read_system`); ``unknown`` where they are
        missing or disagree."""
        h = self.header
        if h.system is not None:
            return SystemReading(h.system, f"XNS {h.system.value}")
        words = [(c, t) for c, t in (("092", h.tournament_type), ("192", h.encoded_type)) if t]
        rounds = [
            frozenset(
                (p.rank, c.opponent)
                for p in self.players
                if (c := p.cell(r)) is not None and c.opponent is not None and p.rank < c.opponent
            )
            for r in range(1, self.rounds + 1)
        ]
        ranks = [p.rank for p in self.players]
        return read_system(ranks, rounds, self._stated_rounds, words)

    @property
    def host_federation(self) -> str | None:
        """``XNH``, else the ``032`` record when it is a code on FIDE's list (``032`` is often
        a country's name or left blank; an anonymised ``ZZZ`` is no federation either)."""
        if self.header.host_federation:
            return self.header.host_federation
        fed = self.header.federation.strip().upper()
        return fed if is_federation(fed) else None

    @property
    def tournament_id(self) -> str:
        """``XNI``, else a slug of the ``012`` name (Greek and Cyrillic transliterated);
        for a name with no letter that can be written in Latin ones (Chinese, Arabic…),
        ``t-`` and a hash of the name and the dates, so that it stays stable and unique.

        >>> TrfFile(TrfHeader(name="上海公开赛", start_date=date(2024, 5, 1)), ()).tournament_id
        't-4bbe438dea1a'
        """
        h = self.header
        if h.tournament_id:
            return h.tournament_id
        slug = slugify(h.name)
        if slug:
            return slug
        if not h.name.strip():
            raise TrfError("no tournament id: neither record XNI nor record 012 gives one")
        key = "|".join((h.name.strip(), str(h.start_date or ""), str(h.end_date or "")))
        return "t-" + hashlib.sha256(key.encode()).hexdigest()[:12]


# --------------------------------------------------------------------------- small helpers


def slugify(text: str) -> str:
    """A tournament id from a name: lower case ASCII words joined by ``-``, Greek and
    Cyrillic letters written in Latin ones (:func:`tracker.formats.transliterate.to_latin`).

    >>> slugify("9. Karl-Mala-Gedenkturnier")
    '9-karl-mala-gedenkturnier'
    >>> slugify("  Šahovski turnir Novi Sad 2012 ")
    'sahovski-turnir-novi-sad-2012'
    >>> slugify("ΔΙΑΣΥΛΛΟΓΙΚΟ ΚΥΠΕΛΛΟ ΚΡΗΤΙΚΗΣ ΦΙΛΙΑΣ 2024")
    'diasyllogiko-kypello-kritikis-filias-2024'
    >>> slugify("Кубок Белграда")
    'kubok-belgrada'
    """
    ascii_text = unicodedata.normalize("NFKD", to_latin(text)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def parse_birth(text: str) -> tuple[date | None, int | None]:
    """Birth date and year from columns 70-79: a full date (any form of
    :func:`tracker.formats.dates.parse_date`), a year alone, or a date whose month and day are
    ``00`` (a year). Blank, all zeros or separators alone (``    /  /``) give
    ``(None, None)``.

    >>> parse_birth("1987/04/12"), parse_birth("12.04.1987")
    ((datetime.date(1987, 4, 12), 1987), (datetime.date(1987, 4, 12), 1987))
    >>> parse_birth("1969.00.00"), parse_birth("1975"), parse_birth("0000/00/00")
    ((None, 1969), (None, 1975), (None, None))
    >>> parse_birth("    /  /")
    (None, None)
    """
    text = text.strip()
    if not text or set(text) <= set("0/.- "):
        return None, None
    if re.fullmatch(r"\d{4}", text):
        return None, int(text)
    m = re.fullmatch(r"(\d{4})[/.-](\d{2})[/.-](\d{2})", text)
    if m and (m[2] == "00" or m[3] == "00"):
        return None, int(m[1])
    try:
        found = parse_date(text)
    except ValueError:
        raise ValueError(f"not a birth date: {text!r}") from None
    assert found is not None  # text is not blank
    return found, found.year


def format_points(points: Fraction) -> str:
    """Points as columns 81-84 write them.

    >>> format_points(Fraction(13, 2)), format_points(Fraction(0))
    ('6.5', '0.0')
    """
    tenths = points * 10
    if tenths.denominator != 1:
        raise ValueError(f"points {points} cannot be written with one decimal")
    whole, rest = divmod(int(tenths), 10)
    return f"{whole}.{rest}"


# --------------------------------------------------------------------------- parsing


_HEADER_TEXT = {
    "012": "name",
    "022": "city",
    "032": "federation",
    "092": "tournament_type",
    "102": "chief_arbiter",
    "122": "time_control",
    "162": "scoring",
    "172": "starting_rank_method",
    "182": "pairing_controller",
    "192": "encoded_type",
    "202": "tiebreaks",
    "212": "standings_tiebreaks",
    "222": "encoded_time_control",
}
_HEADER_INT = {
    "062": ("player_count", "number of players"),
    "072": ("rated_count", "number of rated players"),
    "082": ("team_count", "number of teams"),
    "142": ("rounds", "number of rounds"),
    "XXR": ("planned_rounds", "number of rounds"),
}
_HEADER_DATE = {"042": ("start_date", "start date"), "052": ("end_date", "end date")}


def _split_lines(text: str) -> list[str]:
    """Lines split at CR LF, LF or CR, with trailing blanks removed.

    >>> _split_lines("012 A\\r022 B  \\r\\n\\n001")
    ['012 A', '022 B', '', '001']
    """
    text = text.removeprefix("\ufeff")
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def _field(line: str, first: int, last: int) -> str:
    """Columns ``first`` to ``last`` (1-based, inclusive), padded with blanks."""
    return line[first - 1 : last].ljust(last - first + 1)


def _int_field(line: str, number: int, first: int, last: int, name: str) -> int | None:
    raw = _field(line, first, last)
    text = raw.strip()
    if not text:
        return None
    if not text.isdigit():
        raise _error(number, first, f"{name} {text!r} is not a number")
    return int(text)


def _count(line: str, number: int, label: str) -> int | None:
    """A number record's value; exporters may follow it with a note in brackets
    (``062 129 (88)``: players, of whom 88 took part), which is dropped."""
    text = line[4:].strip()
    m = re.fullmatch(r"(\d+)\s*(\(.*\))?", text)
    if text and not m:
        shown = text.split("(")[0].strip() or text
        raise _error(number, 5, f"{label} {shown!r} is not a number")
    return int(m[1]) if m else None


NOT_TRF = (
    "not a TRF file: no line starts with a TRF record (012 the tournament's name, 042 its "
    "start date, 001 a player)"
)


def parse_trf(text: str) -> TrfFile:
    """Read the text of a TRF16 / TRF26 file.

    >>> trf = parse_trf(
    ...     "012 Demo\\r042 2011/05/02\\r"
    ...     "001    1 m GM Alvarez, Tomas                    2551 ESP    90000001"
    ...     " 1980/01/01  1.0    1     2 w 1\\r"
    ...     "001    2 m    Berg, Ola                         2210 NOR    90000002"
    ...     " 1991        0.0    2     1 b 0\\r")
    >>> trf.player(1).title, trf.player(2).birth_year, trf.player(1).cells
    (<Title.GM: 'GM'>, 1991, (Cell(opponent=2, colour='w', code=<Code.WIN: '1'>),))
    >>> trf.system
    <System.ROUND_ROBIN: 'round_robin'>
    """
    header: dict[str, object] = {}
    deputies: list[str] = []
    round_dates: tuple[str, int] | None = None
    players: list[TrfPlayer] = []
    records: list[TrfRecord] = []
    for number, line in enumerate(_split_lines(text), start=1):
        if not line.strip() or line.startswith("###"):
            continue
        code = line[:3]
        value = line[4:].strip() if len(line) > 3 else ""
        if code == "001":
            players.append(_parse_player(line, number))
        elif code in _HEADER_TEXT:
            header[_HEADER_TEXT[code]] = value
        elif code == "112":
            deputies.append(value)
        elif code in _HEADER_INT:
            key, label = _HEADER_INT[code]
            parsed = _count(line, number, label)
            if parsed is not None and not 1 <= parsed <= 99 and key in ("rounds", "planned_rounds"):
                raise _error(number, 5, f"{label} {parsed} is out of range (1-99)")
            header[key] = parsed
        elif code in _HEADER_DATE:
            key, label = _HEADER_DATE[code]
            try:
                header[key] = parse_date(value)
            except ValueError:
                raise _error(number, 5, f"{label} {value!r} is not a date") from None
        elif code == "132":
            round_dates = (line, number)
        elif code == "152":
            colour = value.upper()
            if colour not in ("W", "B", ""):
                raise _error(number, 5, f"initial colour {value!r} is not W or B")
            header["initial_colour"] = colour or None
        elif code == "XNS":
            try:
                header["system"] = System(value.lower())
            except ValueError:
                expected = ", ".join(s.value for s in System)
                raise _error(number, 5, f"system {value!r} is not one of {expected}") from None
        elif code == "XNK":
            header["kinds"] = _parse_kinds(line, number)
        elif code == "XNH":
            if not re.fullmatch(r"[A-Za-z]{3}", value):
                raise _error(number, 5, f"host federation {value!r} is not a 3-letter code")
            header["host_federation"] = value.upper()
        elif code == "XNI":
            if not value:
                raise _error(number, 5, "tournament id is empty")
            header["tournament_id"] = value
        else:
            records.append(TrfRecord(code=code, text=line))
    if not header and not players and round_dates is None:
        raise TrfError(NOT_TRF)
    if deputies:
        header["deputy_arbiters"] = tuple(deputies)
    if round_dates is not None:
        start = header.get("start_date")
        header["round_dates"] = _parse_round_dates(
            *round_dates, start if isinstance(start, date) else None
        )
    players.sort(key=lambda p: p.rank)
    _check_players(players)
    return TrfFile(
        header=TrfHeader(**header),  # type: ignore[arg-type]
        players=tuple(players),
        records=tuple(records),
    )


def _parse_round_dates(line: str, number: int, start: date | None) -> tuple[date | None, ...]:
    texts = [
        _field(line, column, column + CELL_WIDTH - 1)
        for column in range(FIRST_CELL_COLUMN, len(line) + 1, CELL_WIDTH)
    ]
    try:
        dates = list(parse_round_dates(texts, start))
    except ValueError as exc:
        bad = int(exc.args[1])
        raise _error(
            number,
            FIRST_CELL_COLUMN + CELL_WIDTH * bad,
            f"round {bad + 1} date {texts[bad].strip()!r} is not a date",
        ) from None
    while dates and dates[-1] is None:
        dates.pop()
    return tuple(dates)


def _parse_kinds(line: str, number: int) -> tuple[EventKind, ...]:
    kinds: list[EventKind] = []
    for m in re.finditer(r"\S+", line[3:]):
        try:
            kinds.append(EventKind(m.group().lower()))
        except ValueError:
            raise _error(number, m.start() + 4, f"event kind {m.group()!r} is not known") from None
    return tuple(kinds)


def _parse_player(line: str, number: int) -> TrfPlayer:
    rank = _int_field(line, number, 5, 8, "start rank")
    if rank is None:
        raise _error(number, 5, "start rank is missing")
    if not 1 <= rank <= 9999:
        raise _error(number, 5, f"start rank {rank} is out of range (1-9999)")

    sex_text = _field(line, 10, 10).strip().lower()
    if sex_text not in ("m", "w", "f", ""):
        raise _error(number, 10, f"sex {sex_text!r} is not m, w or f")
    # TRF16 says w; Swiss-Manager and others write f (female)
    sex: Literal["m", "w"] | None = "m" if sex_text == "m" else "w" if sex_text else None

    title_text = _field(line, 11, 13)
    try:
        title = Title.parse(title_text)
    except ValueError:
        raise _error(number, 11, f"title {title_text.strip()!r} is not known") from None

    name = _field(line, 15, 47).strip()
    if not name:
        raise _error(number, 15, "name is empty")

    rating = _int_field(line, number, 49, 52, "rating") or None

    federation = _field(line, 54, 56).strip()
    if federation and not re.fullmatch(r"[A-Za-z]{3}", federation):
        raise _error(number, 54, f"federation {federation!r} is not a 3-letter code")

    fide_id = None
    if _field(line, 58, 68).strip("- "):  # some programs fill an unknown id with dashes
        fide_id = _int_field(line, number, 58, 68, "FIDE id") or None

    birth_text = _field(line, 70, 79)
    try:
        birth_date, birth_year = parse_birth(birth_text)
    except ValueError:
        raise _error(number, 70, f"birth date {birth_text.strip()!r} is not a date") from None

    points_text = _field(line, 81, 84).strip().replace(",", ".")
    points: Fraction | None = None
    if points_text:
        if not re.fullmatch(r"\d+(\.\d+)?|\.\d+", points_text):
            raise _error(number, 81, f"points {points_text!r} is not a number")
        points = Fraction(points_text)

    final_rank = _int_field(line, number, 86, 89, "rank")

    cells: list[Cell | None] = []
    column = FIRST_CELL_COLUMN
    while column <= len(line):
        cells.append(_parse_cell(line, number, column, len(cells) + 1))
        column += CELL_WIDTH
    while cells and cells[-1] is None:
        cells.pop()

    return TrfPlayer(
        rank=rank,
        name=name,
        federation=federation.upper(),
        sex=sex,
        title=title,
        rating=rating,
        fide_id=fide_id,
        birth_date=birth_date,
        birth_year=birth_year,
        points=points,
        final_rank=final_rank,
        cells=tuple(cells),
        line=number,
    )


def _parse_cell(line: str, number: int, column: int, round_: int) -> Cell | None:
    raw = _field(line, column, column + CELL_WIDTH - 1)
    if not raw.strip():
        return None
    where = f"round {round_}"
    for offset in (4, 6, 8, 9):
        if raw[offset] != " ":
            raise _error(
                number, column + offset, f"{where}: unexpected {raw[offset]!r} (misaligned cell?)"
            )
    opponent_text = raw[0:4].strip()
    if opponent_text and not opponent_text.isdigit():
        raise _error(number, column, f"{where}: opponent {opponent_text!r} is not a number")
    opponent = int(opponent_text) if opponent_text else None
    if opponent == 0:
        opponent = None

    colour_text = raw[5].lower()
    if colour_text not in ("w", "b", "-", " "):
        raise _error(number, column + 5, f"{where}: colour {raw[5]!r} is not w, b or -")
    colour: Colour = "w" if colour_text == "w" else "b" if colour_text == "b" else "-"

    letter = raw[7]
    code: Code | None
    try:
        code = Code.parse(letter)
    except ValueError:
        raise _error(number, column + 7, f"{where}: result code {letter!r} is not known") from None

    if opponent is None and code is Code.DRAW:
        code = Code.HALF_BYE  # Swiss Master writes a half-point bye as "0000 - ="
    if opponent is None:
        if code in (Code.WIN, Code.DRAW, Code.LOSS) or code in (
            Code.WIN_NO_MOVE,
            Code.DRAW_NO_MOVE,
            Code.LOSS_NO_MOVE,
        ):
            raise _error(number, column + 7, f"{where}: result {letter!r} needs an opponent")
        if colour != "-":
            raise _error(number, column + 5, f"{where}: colour {raw[5]!r} without an opponent")
    else:
        if letter == " ":
            code = None  # paired, not yet played
        elif code.is_bye:
            raise _error(
                number, column + 7, f"{where}: bye code {letter!r} with opponent {opponent}"
            )
    return Cell(opponent=opponent, colour=colour, code=code)


def _check_players(players: list[TrfPlayer]) -> None:
    by_rank: dict[int, TrfPlayer] = {}
    for p in players:
        if p.rank in by_rank:
            raise _error(
                p.line, 5, f"start rank {p.rank} is used twice (also line {by_rank[p.rank].line})"
            )
        by_rank[p.rank] = p
    for p in players:
        for r, cell in enumerate(p.cells, start=1):
            if cell is None or cell.opponent is None:
                continue
            column = FIRST_CELL_COLUMN + CELL_WIDTH * (r - 1)
            where = f"round {r}"
            if cell.opponent == p.rank:
                raise _error(p.line, column, f"{where}: player {p.rank} is paired with itself")
            other = by_rank.get(cell.opponent)
            if other is None:
                raise _error(p.line, column, f"{where}: opponent {cell.opponent} is not a player")
            back = other.cell(r)
            if back is None or back.opponent != p.rank:
                says = "is blank" if back is None else f"names {back.opponent or '0000'}"
                raise _error(
                    p.line,
                    column,
                    f"{where}: player {p.rank} met {other.rank}, but the cell of {other.rank}"
                    f" (line {other.line}) {says}",
                )
            if {cell.colour, back.colour} in ({"w"}, {"b"}):
                raise _error(
                    p.line,
                    column + 5,
                    f"{where}: players {p.rank} and {other.rank} both have colour"
                    f" {cell.colour!r} (line {other.line})",
                )
            if not _codes_agree(cell.code, back.code):
                mine = cell.code.value if cell.code else " "
                theirs = back.code.value if back.code else " "
                raise _error(
                    p.line,
                    column + 7,
                    f"{where}: result codes {mine!r} of {p.rank} and {theirs!r} of"
                    f" {other.rank} (line {other.line}) are not opposites",
                )


def _codes_agree(mine: Code | None, theirs: Code | None) -> bool:
    if mine is None or theirs is None:
        return mine is theirs
    if theirs is mine.opposite():
        return True
    # double losses: "0-0" (both lose, an arbiter's decision) and "--" (both forfeit)
    return mine is theirs and mine in (Code.LOSS, Code.FORFEIT_LOSS)


# --------------------------------------------------------------------------- events


def to_events(trf: TrfFile, tournament_id: str | None = None) -> list[InputEvent]:
    """The input events a live tournament would have produced, in order.

    One ``tournament_registered``, one ``player_registered`` per player, then for every round
    with at least one cell: a ``pairing`` per board, a ``bye`` per bye cell, a
    ``game_result`` per board with a result, and ``round_closed`` once the round has been
    played to the end. Boards are ordered by the lower start rank, byes by start rank.

    A round has been *played* (or is being played) when it has boards, or when a later round
    has: a blank cell there is an absence (a bye ``Z``: TRF reads blank as ``0000``, "not
    paired"). It is closed when every board has a result. A round without boards before
    any paired round is not played yet: its cells are byes and absences entered ahead, sent
    as they are (blank cells send nothing), and it stays open. So a file whose last paired
    round lacks results, or that holds byes for later rounds, is a tournament in progress.

    A cell ``0000 - +`` (a forfeit win with no opponent named) becomes a bye ``F``,
    ``0000 - -`` a bye ``Z``.

    In a Swiss a round is paired only once the one before has all its results, so a round
    with a board lacking its result followed by a round with results is an error; in a round
    robin it is a postponed game, and the later rounds wait for it (rounds are announced in
    order).
    """
    tid = tournament_id or trf.tournament_id
    events: list[InputEvent] = [_tournament_event(trf, tid), *player_events(trf, tid)]
    paired = [r for r in trf.played_rounds if any(_has_board(p, r) for p in trf.players)]
    last_paired = paired[-1] if paired else 0
    # every round up to the last paired one (a blank column there is a round of absences)
    rounds = sorted({*range(1, last_paired + 1), *trf.played_rounds})
    unfinished: tuple[int, int, int] | None = None
    for r in rounds:
        played = r <= last_paired
        round_events = list(_round_events(trf, r, tid, played))
        has_result = any(isinstance(e, GameResult) for e in round_events)
        if unfinished is not None and has_result and trf.system is System.SWISS:
            number, white, black = unfinished
            raise TrfError(
                f"round {number}: board {white}-{black} has no result, but round {r} has "
                "results (a Swiss round is paired after the one before it is finished)"
            )
        events.extend(round_events)
        if played and unfinished is None and not isinstance(events[-1], RoundClosed):
            decided = {(e.white, e.black) for e in round_events if isinstance(e, GameResult)}
            unfinished = next(
                (r, e.white, e.black)
                for e in round_events
                if isinstance(e, Pairing) and (e.white, e.black) not in decided
            )
    return events


def _has_board(p: TrfPlayer, r: int) -> bool:
    cell = p.cell(r)
    return cell is not None and cell.is_game


def _wrap(what: str, make: Callable[..., InputEvent], **fields: object) -> InputEvent:
    try:
        return make(**fields)
    except pydantic.ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise TrfError(f"{what}: {problems}") from None


def _tournament_event(trf: TrfFile, tid: str) -> InputEvent:
    h = trf.header
    start = h.start_date or next((d for d in h.round_dates if d is not None), None)
    if start is None:
        raise TrfError("no start date: neither record 042 nor record 132 gives one")
    planned = trf.planned_rounds
    if planned is not None and planned < trf.rounds:
        raise TrfError(
            f"the file has {trf.rounds} round columns but plans {planned} rounds (XXR, 142 or 132)"
        )
    return _wrap(
        "tournament",
        TournamentRegistered,
        tournament_id=tid,
        name=h.name,
        start_date=start,
        end_date=h.end_date,
        system=trf.system,
        system_evidence=trf.system_reading.evidence if trf.header.system is None else None,
        host_federation=trf.host_federation,
        planned_rounds=planned,
        kinds=h.kinds,
        city=h.city or None,
        chief_arbiter=h.chief_arbiter or None,
        time_control=h.time_control or h.encoded_time_control or None,
        event_type=h.tournament_type or None,
        round_dates=h.round_dates or None,
    )


def player_events(trf: TrfFile, tid: str) -> list[InputEvent]:
    """The ``player_registered`` of every player, as :func:`to_events` registers them
    (raises :exc:`TrfError` naming the line); no tournament facts are needed."""
    return [_player_event(p, tid) for p in trf.players]


def _player_event(p: TrfPlayer, tid: str) -> InputEvent:
    where = f"line {p.line}, player {p.rank}" if p.line else f"player {p.rank}"
    return _wrap(
        where,
        PlayerRegistered,
        tournament_id=tid,
        rank=p.rank,
        name=p.name,
        # blank, or a code not on FIDE's list (an anonymised ``ZZZ``): an unknown federation,
        # which no norm rule guesses (the README's readings)
        federation=p.federation if is_federation(p.federation) else None,
        fide_id=p.fide_id,
        sex=p.sex,
        title=p.title.value if p.title else None,
        rating=p.rating,
        birth_date=p.birth_date,
    )


def _round_events(trf: TrfFile, r: int, tid: str, played: bool) -> Iterator[InputEvent]:
    """Round ``r``'s facts; ``played``: the round has been paired (or a later one has), so
    a blank cell is an absence. A round that is played and has every result is closed."""
    by_rank = {p.rank: p for p in trf.players}
    boards: list[tuple[int, int, Cell, Cell]] = []  # white, black, white's cell, black's cell
    byes: list[Bye] = []
    for p in trf.players:
        cell = p.cell(r)
        if cell is None and not played:
            continue  # nothing entered yet for a round still to be paired
        if cell is None or cell.opponent is None:
            byes.append(Bye(tournament_id=tid, round=r, player=p.rank, kind=_bye_kind(cell)))
            continue
        if cell.opponent < p.rank:
            continue  # the board is listed under the lower start rank
        back = by_rank[cell.opponent].cell(r)
        assert back is not None  # checked by parse_trf
        if cell.colour == "b" or (cell.colour == "-" and back.colour == "w"):
            boards.append((cell.opponent, p.rank, back, cell))
        else:
            boards.append((p.rank, cell.opponent, cell, back))
    for white, black, _, _ in boards:
        yield Pairing(tournament_id=tid, round=r, white=white, black=black)
    yield from byes
    finished = played
    for white, black, white_cell, black_cell in boards:
        if white_cell.code is None or black_cell.code is None:
            finished = False
            continue
        result = format_result(white_cell.code, black_cell.code)
        yield GameResult(tournament_id=tid, round=r, white=white, black=black, result=result)
    if finished:
        yield RoundClosed(tournament_id=tid, round=r)


def _bye_kind(cell: Cell | None) -> ByeKind:
    if cell is None or cell.code is None:
        return "Z"
    code = cell.code
    if code is Code.FORFEIT_WIN:
        return "F"
    if code is Code.HALF_BYE:
        return "H"
    if code is Code.FULL_BYE:
        return "F"
    if code is Code.PAIRING_BYE:
        return "U"
    return "Z"


# --------------------------------------------------------------------------- writing


def format_cell(cell: Cell | None) -> str:
    """A round cell, ten columns wide.

    >>> format_cell(Cell(opponent=17, colour="b", code=Code.FORFEIT_WIN))
    '  17 b +  '
    >>> format_cell(Cell(opponent=None, colour="-", code=Code.HALF_BYE))
    '0000 - H  '
    >>> format_cell(None)
    '          '
    """
    if cell is None:
        return " " * CELL_WIDTH
    opponent = f"{cell.opponent:4d}" if cell.opponent is not None else "0000"
    code = cell.code.value if cell.code is not None else " "
    return f"{opponent} {cell.colour} {code}  "


def format_player_line(player: TrfPlayer) -> str:
    """The ``001`` record of a player, trailing blanks removed."""
    birth = ""
    if player.birth_date is not None:
        birth = player.birth_date.strftime("%Y/%m/%d")
    elif player.birth_year is not None:
        birth = f"{player.birth_year:04d}"
    if len(player.name) > 33:
        raise ValueError(f"name {player.name!r} is longer than 33 characters")
    parts = [
        "001 ",
        f"{player.rank:4d} ",
        player.sex or " ",
        f"{player.title.value if player.title else '':>3} ",
        f"{player.name:<33} ",
        f"{player.rating or '':>4} ",
        f"{player.federation:<3} ",
        f"{player.fide_id or '':>11} ",
        f"{birth:<10} ",
        f"{format_points(player.points) if player.points is not None else '':>4} ",
        f"{player.final_rank or '':>4}  ",
    ]
    parts.extend(format_cell(c) for c in player.cells)
    return "".join(parts).rstrip()


def _record(code: str, value: object) -> str:
    return f"{code} {value}".rstrip()


def format_trf(trf: TrfFile, newline: str = "\n") -> str:
    """TRF16 text for a file: header records, extension records, kept records, players.

    ``parse_trf(format_trf(x)) == x`` for any :class:`TrfFile` that parsing can produce.
    FIDE asks for ``newline="\\r"``.
    """
    h = trf.header
    lines: list[str] = []

    def text(code: str, value: str) -> None:
        if value:
            lines.append(_record(code, value))

    def number(code: str, value: int | None) -> None:
        if value is not None:
            lines.append(_record(code, value))

    def day(code: str, value: date | None) -> None:
        if value is not None:
            lines.append(_record(code, value.strftime("%Y/%m/%d")))

    text("012", h.name)
    text("022", h.city)
    text("032", h.federation)
    day("042", h.start_date)
    day("052", h.end_date)
    number("062", h.player_count)
    number("072", h.rated_count)
    number("082", h.team_count)
    text("092", h.tournament_type)
    text("102", h.chief_arbiter)
    for deputy in h.deputy_arbiters:
        text("112", deputy)
    text("122", h.time_control)
    if h.round_dates:
        cells = "".join(
            f"{d.strftime('%y/%m/%d') if d else '':<{CELL_WIDTH}}" for d in h.round_dates
        )
        lines.append(f"{'132':<{FIRST_CELL_COLUMN - 1}}{cells}".rstrip())
    number("142", h.rounds)
    text("152", h.initial_colour or "")
    text("162", h.scoring)
    text("172", h.starting_rank_method)
    text("182", h.pairing_controller)
    text("192", h.encoded_type)
    text("202", h.tiebreaks)
    text("212", h.standings_tiebreaks)
    text("222", h.encoded_time_control)
    number("XXR", h.planned_rounds)
    text("XNS", h.system.value if h.system else "")
    text("XNK", " ".join(k.value for k in h.kinds))
    text("XNH", h.host_federation or "")
    text("XNI", h.tournament_id or "")
    lines.extend(r.text for r in trf.records)
    lines.extend(format_player_line(p) for p in trf.players)
    return newline.join(lines) + newline
