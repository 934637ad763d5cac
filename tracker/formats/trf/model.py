"""The values of a TRF file: its header, player records, round cells and other records, as
:func:`~tracker.formats.trf.read.parse_trf` reads them (the format is described in
:mod:`tracker.formats.trf`), and the small parse/format pairs they share."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import unicodedata
from datetime import date
from fractions import Fraction
from typing import Literal

from tracker.domain.federations import is_federation
from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System, round_robin_rounds
from tracker.formats.dates import parse_date
from tracker.formats.pairing_system import SystemReading, read_system
from tracker.formats.transliterate import to_latin

Colour = Literal["w", "b", "-"]
ByeKind = Literal["H", "F", "U", "Z"]

FIRST_CELL_COLUMN = 92
"""Column of round 1's opponent id; each further round is ten columns to the right."""
CELL_WIDTH = 10


class TrfError(ValueError):
    """A TRF file that cannot be read or converted; the message says where and why."""


def error_at(line: int, column: int, message: str) -> TrfError:
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


# --------------------------------------------------------------------------- events


# --------------------------------------------------------------------------- writing
