"""A :class:`~tracker.formats.trf.model.TrfFile` written back as TRF16 text: the header
records, the player records with their round cells in the columns the format fixes."""

from __future__ import annotations

from datetime import date

from tracker.formats.trf.model import (
    CELL_WIDTH,
    FIRST_CELL_COLUMN,
    Cell,
    TrfFile,
    TrfPlayer,
    format_points,
)


def format_cell(cell: Cell | None) -> str:
    """A round cell, ten columns wide.

    >>> from tracker.domain.results import Code
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
