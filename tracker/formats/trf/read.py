"""Reading a TRF file's text into a :class:`~tracker.formats.trf.model.TrfFile`: the header
records, the player records with their round cells, the round dates (132) and the TRF26
records, each refused with the line and column that is wrong (:class:`TrfError`)."""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction
from typing import Literal

from tracker.domain.results import Code
from tracker.domain.titles import Title
from tracker.domain.tournaments import EventKind, System
from tracker.formats.dates import parse_date, parse_round_dates
from tracker.formats.trf.model import (
    CELL_WIDTH,
    FIRST_CELL_COLUMN,
    Cell,
    Colour,
    TrfError,
    TrfFile,
    TrfHeader,
    TrfPlayer,
    TrfRecord,
    error_at,
    parse_birth,
)

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
        raise error_at(number, first, f"{name} {text!r} is not a number")
    return int(text)


def _count(line: str, number: int, label: str) -> int | None:
    """A number record's value; exporters may follow it with a note in brackets
    (``062 129 (88)``: players, of whom 88 took part), which is dropped."""
    text = line[4:].strip()
    m = re.fullmatch(r"(\d+)\s*(\(.*\))?", text)
    if text and not m:
        shown = text.split("(")[0].strip() or text
        raise error_at(number, 5, f"{label} {shown!r} is not a number")
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
                raise error_at(number, 5, f"{label} {parsed} is out of range (1-99)")
            header[key] = parsed
        elif code in _HEADER_DATE:
            key, label = _HEADER_DATE[code]
            try:
                header[key] = parse_date(value)
            except ValueError:
                raise error_at(number, 5, f"{label} {value!r} is not a date") from None
        elif code == "132":
            round_dates = (line, number)
        elif code == "152":
            colour = value.upper()
            if colour not in ("W", "B", ""):
                raise error_at(number, 5, f"initial colour {value!r} is not W or B")
            header["initial_colour"] = colour or None
        elif code == "XNS":
            try:
                header["system"] = System(value.lower())
            except ValueError:
                expected = ", ".join(s.value for s in System)
                raise error_at(number, 5, f"system {value!r} is not one of {expected}") from None
        elif code == "XNK":
            header["kinds"] = _parse_kinds(line, number)
        elif code == "XNH":
            if not re.fullmatch(r"[A-Za-z]{3}", value):
                raise error_at(number, 5, f"host federation {value!r} is not a 3-letter code")
            header["host_federation"] = value.upper()
        elif code == "XNI":
            if not value:
                raise error_at(number, 5, "tournament id is empty")
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
        raise error_at(
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
            raise error_at(
                number, m.start() + 4, f"event kind {m.group()!r} is not known"
            ) from None
    return tuple(kinds)


def _parse_player(line: str, number: int) -> TrfPlayer:
    rank = _int_field(line, number, 5, 8, "start rank")
    if rank is None:
        raise error_at(number, 5, "start rank is missing")
    if not 1 <= rank <= 9999:
        raise error_at(number, 5, f"start rank {rank} is out of range (1-9999)")

    sex_text = _field(line, 10, 10).strip().lower()
    if sex_text not in ("m", "w", "f", ""):
        raise error_at(number, 10, f"sex {sex_text!r} is not m, w or f")
    # TRF16 says w; Swiss-Manager and others write f (female)
    sex: Literal["m", "w"] | None = "m" if sex_text == "m" else "w" if sex_text else None

    title_text = _field(line, 11, 13)
    try:
        title = Title.parse(title_text)
    except ValueError:
        raise error_at(number, 11, f"title {title_text.strip()!r} is not known") from None

    name = _field(line, 15, 47).strip()
    if not name:
        raise error_at(number, 15, "name is empty")

    rating = _int_field(line, number, 49, 52, "rating") or None

    federation = _field(line, 54, 56).strip()
    if federation and not re.fullmatch(r"[A-Za-z]{3}", federation):
        raise error_at(number, 54, f"federation {federation!r} is not a 3-letter code")

    fide_id = None
    if _field(line, 58, 68).strip("- "):  # some programs fill an unknown id with dashes
        fide_id = _int_field(line, number, 58, 68, "FIDE id") or None

    birth_text = _field(line, 70, 79)
    try:
        birth_date, birth_year = parse_birth(birth_text)
    except ValueError:
        raise error_at(number, 70, f"birth date {birth_text.strip()!r} is not a date") from None

    points_text = _field(line, 81, 84).strip().replace(",", ".")
    points: Fraction | None = None
    if points_text:
        if not re.fullmatch(r"\d+(\.\d+)?|\.\d+", points_text):
            raise error_at(number, 81, f"points {points_text!r} is not a number")
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
            raise error_at(
                number, column + offset, f"{where}: unexpected {raw[offset]!r} (misaligned cell?)"
            )
    opponent_text = raw[0:4].strip()
    if opponent_text and not opponent_text.isdigit():
        raise error_at(number, column, f"{where}: opponent {opponent_text!r} is not a number")
    opponent = int(opponent_text) if opponent_text else None
    if opponent == 0:
        opponent = None

    colour_text = raw[5].lower()
    if colour_text not in ("w", "b", "-", " "):
        raise error_at(number, column + 5, f"{where}: colour {raw[5]!r} is not w, b or -")
    colour: Colour = "w" if colour_text == "w" else "b" if colour_text == "b" else "-"

    letter = raw[7]
    code: Code | None
    try:
        code = Code.parse(letter)
    except ValueError:
        raise error_at(
            number, column + 7, f"{where}: result code {letter!r} is not known"
        ) from None

    if opponent is None and code is Code.DRAW:
        code = Code.HALF_BYE  # Swiss Master writes a half-point bye as "0000 - ="
    if opponent is None:
        if code in (Code.WIN, Code.DRAW, Code.LOSS) or code in (
            Code.WIN_NO_MOVE,
            Code.DRAW_NO_MOVE,
            Code.LOSS_NO_MOVE,
        ):
            raise error_at(number, column + 7, f"{where}: result {letter!r} needs an opponent")
        if colour != "-":
            raise error_at(number, column + 5, f"{where}: colour {raw[5]!r} without an opponent")
    else:
        if letter == " ":
            code = None  # paired, not yet played
        elif code.is_bye:
            raise error_at(
                number, column + 7, f"{where}: bye code {letter!r} with opponent {opponent}"
            )
    return Cell(opponent=opponent, colour=colour, code=code)


def _check_players(players: list[TrfPlayer]) -> None:
    by_rank: dict[int, TrfPlayer] = {}
    for p in players:
        if p.rank in by_rank:
            raise error_at(
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
                raise error_at(p.line, column, f"{where}: player {p.rank} is paired with itself")
            other = by_rank.get(cell.opponent)
            if other is None:
                raise error_at(p.line, column, f"{where}: opponent {cell.opponent} is not a player")
            back = other.cell(r)
            if back is None or back.opponent != p.rank:
                says = "is blank" if back is None else f"names {back.opponent or '0000'}"
                raise error_at(
                    p.line,
                    column,
                    f"{where}: player {p.rank} met {other.rank}, but the cell of {other.rank}"
                    f" (line {other.line}) {says}",
                )
            if {cell.colour, back.colour} in ({"w"}, {"b"}):
                raise error_at(
                    p.line,
                    column + 5,
                    f"{where}: players {p.rank} and {other.rank} both have colour"
                    f" {cell.colour!r} (line {other.line})",
                )
            if not _codes_agree(cell.code, back.code):
                mine = cell.code.value if cell.code else " "
                theirs = back.code.value if back.code else " "
                raise error_at(
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
