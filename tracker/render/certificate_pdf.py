"""A PDF of a :class:`~tracker.render.certificate.NormCertificate`, made with fpdf2 (pure Python, no
browser), in the order of FIDE's IT1 form. Returns bytes; writing them is the caller's job.

Every name must be spelled as registered on a document an arbiter signs, so the text is set
in a Unicode font embedded in the PDF: Source Sans Pro (Latin, Greek, Cyrillic), which the
``font-source-sans-pro`` dependency ships; letters it lacks are drawn from DejaVu Sans when
Debian's ``fonts-dejavu-core`` is installed. Should no Unicode font be found, or a letter be
in neither, the PDF says at its top which letters it could not draw (and
:func:`render_noting_gaps` returns them) rather than drop an accent silently; the JSON and
HTML forms keep every letter.
"""

from __future__ import annotations

import functools
import unicodedata
from importlib.resources import files
from importlib.util import find_spec
from pathlib import Path

from fpdf import FPDF
from fpdf.fonts import FontFace

from tracker.render.certificate import (
    Field,
    NormCertificate,
    event_fields,
    player_fields,
    result_fields,
    tracker_fields,
)

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
"""Debian's ``fonts-dejavu-core``."""


@functools.cache
def unicode_fonts() -> tuple[tuple[str, Path, Path], ...]:
    """The Unicode fonts found, best first: (family, regular, bold) TrueType files."""
    found = []
    if find_spec("font_source_sans_pro") is not None:
        folder = Path(str(files("font_source_sans_pro").joinpath("files")))
        regular, bold = folder / "SourceSansPro-Regular.ttf", folder / "SourceSansPro-Bold.ttf"
        if regular.is_file() and bold.is_file():
            found.append(("sourcesans", regular, bold))
    regular, bold = DEJAVU / "DejaVuSans.ttf", DEJAVU / "DejaVuSans-Bold.ttf"
    if regular.is_file() and bold.is_file():
        found.append(("dejavu", regular, bold))
    return tuple(found)


def latin1(text: object) -> str:
    """Text the core fonts (Helvetica) can draw, for a machine without a Unicode font:
    Latin-1 kept, a few signs spelled out, other letters stripped of their accents (which
    :func:`render_noting_gaps` then reports).

    >>> latin1("Dvořák, Łukasz ½ ≥ 9")
    'Dvorák, Lukasz ½ >= 9'
    """
    out = []
    for ch in "-" if text is None or text == "" else str(text):
        if ord(ch) < 256:
            out.append(ch)
        elif ch in _SPELLED:
            out.append(_SPELLED[ch])
        else:
            base = unicodedata.normalize("NFKD", ch).encode("latin-1", "ignore")
            out.append(base.decode("latin-1") or "?")
    return "".join(out)


_SIGNS = {"≥": ">=", "≤": "<=", "–": "-", "—": "-", "’": "'", "…": "..."}
"""Signs Helvetica lacks, spelled out without loss."""
_SPELLED = {**_SIGNS, "Ł": "L", "ł": "l"}


def _letters(c: NormCertificate) -> set[str]:
    return {ch for ch in c.model_dump_json() if not ch.isspace()}


def _undrawn(pdf: FPDF, letters: set[str]) -> list[str]:
    """The letters that the fonts added to ``pdf`` cannot draw as they are (``Ř U+0158``)."""
    fonts = [f for f in pdf.fonts.values() if hasattr(f, "cmap")]
    if fonts:
        missing = {ch for ch in letters if not any(ord(ch) in f.cmap for f in fonts)}
    else:
        missing = {ch for ch in letters if ord(ch) >= 256 and ch not in _SIGNS}
    return [f"{ch} U+{ord(ch):04X}" for ch in sorted(missing)]


def _add_fonts(pdf: FPDF, letters: set[str]) -> str | None:
    """Add the Unicode font and, if it lacks some letters, the next one as a fallback;
    returns the family to write in (``None``: only Helvetica)."""
    family = None
    for name, regular, bold in unicode_fonts():
        pdf.add_font(name, "", str(regular))
        pdf.add_font(name, "B", str(bold))
        if family is None:
            family = name
            cmap = pdf.fonts[name].cmap  # type: ignore[union-attr]
            if all(ord(ch) in cmap for ch in letters):
                break
        else:
            pdf.set_fallback_fonts([name])
            break
    return family


def render(c: NormCertificate) -> bytes:
    return render_noting_gaps(c)[0]


def render_noting_gaps(c: NormCertificate) -> tuple[bytes, list[str]]:
    """The PDF, and the letters it could not draw (also listed at its top); none where a
    Unicode font is installed and has them."""
    t = c.tournament
    pdf = FPDF(format="A4")
    letters = _letters(c)
    family = _add_fonts(pdf, letters)
    font = family or "Helvetica"
    draw = str if family else latin1
    missing = _undrawn(pdf, letters)

    def text(value: object) -> str:
        return draw("-" if value is None or value == "" else str(value))

    pdf.set_margins(14, 10, 14)
    pdf.set_auto_page_break(True, margin=10)
    pdf.set_title(text(f"{c.title} norm: {c.player.name}"))
    pdf.add_page()

    def heading(title: str, x: float = 14, width: float = 0) -> None:
        pdf.set_x(x)
        pdf.set_font(font, "B", 10)
        pdf.cell(width, 5.5, title, new_x="LMARGIN", new_y="NEXT", border="B")
        pdf.ln(0.8)
        pdf.set_font(font, "", 8.5)

    def fields(rows: list[Field], x: float = 14, width: float = 182, label: float = 52) -> None:
        for name, value in rows:
            pdf.set_x(x)
            pdf.set_text_color(80, 80, 80)
            pdf.cell(label, 4.2, name)
            pdf.set_text_color(0, 0, 0)
            if value is None:  # for the arbiter to complete
                pdf.cell(min(60, width - label), 4.2, "", border="B")
                pdf.ln(4.2)
            else:
                pdf.multi_cell(
                    width - label, 4.2, text(value), new_x="LMARGIN", new_y="NEXT", align="L"
                )

    pdf.set_font(font, "B", 15)
    pdf.cell(0, 8, text(c.form), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(font, "B", 12)
    pdf.cell(0, 6, f"Norm for the title of: {c.title}", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(font, "", 9.5)
    secured = " (secured before the last round)" if c.secured_early else ""
    pdf.cell(
        0,
        5,
        text(
            f"Regulations {c.edition} - rounds 1-{c.rounds_considered} of {t.planned_rounds or '?'}"
        )
        + secured,
        new_x="LMARGIN",
        new_y="NEXT",
    )
    if missing:
        pdf.set_text_color(160, 0, 0)
        pdf.multi_cell(
            0,
            4.5,
            text(
                "Letters this PDF could not draw (no font on this machine has them; the HTML "
                "and JSON forms keep them): " + ", ".join(missing)
            ),
            new_x="LMARGIN",
            new_y="NEXT",
        )
        pdf.set_text_color(0, 0, 0)

    # the event on the left, the player beside it
    pdf.ln(1)
    top = pdf.get_y()
    heading("Event", 14, 112)
    fields(event_fields(c), 14, 112, 27)
    bottom = pdf.get_y()
    pdf.set_y(top)
    heading("Player", 132, 64)
    fields(player_fields(c), 132, 64, 24)
    pdf.set_y(max(bottom, pdf.get_y()))

    heading("Opponents")
    head = FontFace(emphasis="BOLD", fill_color=(235, 235, 235))
    with pdf.table(
        col_widths=(7, 17, 10, 56, 18, 10, 13, 15, 22),
        headings_style=head,
        line_height=3.9,
        padding=(0.3, 1),
    ) as table:
        table.row(["Rd", "Date", "Title", "Name", "FIDE id", "Fed", "Rating", "Counted", "Result"])
        for g in c.games:
            o = g.opponent
            table.row(
                [
                    str(g.round),
                    g.date.isoformat() if g.date else "",  # for the arbiter to complete
                    text(o.title),
                    text(o.name),
                    text(o.fide_id),
                    text(o.federation or "?"),
                    text(o.rating),
                    str(g.rating_used),
                    text(g.result),
                ]
            )
        table.row(
            ["", "", "", f"{c.games_counted} games", "", "", "", f"Ra {c.ra}", text(c.score_text)]
        )
    for g in c.games:
        if g.note:
            pdf.multi_cell(
                0, 4.5, text(f"round {g.round}: {g.note}"), new_x="LMARGIN", new_y="NEXT"
            )

    heading("Result")
    fields(result_fields(c), label=56)

    heading("Games left out")
    if c.ignored:
        with pdf.table(
            col_widths=(8, 48, 14, 18, 94), headings_style=head, line_height=3.9, padding=(0.3, 1)
        ) as table:
            table.row(["Rd", "Opponent", "Result", "Article", "Why"])
            for i in c.ignored:
                table.row(
                    [
                        str(i.round),
                        text(i.opponent.name if i.opponent else None),
                        text(i.result),
                        text(i.article),
                        text(i.reason),
                    ]
                )
    else:
        pdf.cell(0, 5, "None.", new_x="LMARGIN", new_y="NEXT")

    heading("Requirements checked")
    with pdf.table(
        col_widths=(16, 60, 46, 46, 14), headings_style=head, line_height=3.9, padding=(0.3, 1)
    ) as table:
        table.row(["Article", "Requirement", "Needed", "Has", ""])
        for r in c.requirements:
            table.row(
                [
                    text(r.article),
                    text(r.name),
                    text(r.needed),
                    text(r.actual),
                    "met" if r.met else "NOT MET",
                ]
            )

    pdf.ln(9)
    y = pdf.get_y()
    pdf.set_draw_color(90, 90, 90)
    pdf.line(14, y, 98, y)
    pdf.line(112, y, 196, y)
    pdf.set_font(font, "", 8)
    arbiter = c.event.chief_arbiter
    pdf.cell(98, 4, text(f"Chief arbiter: {arbiter}") if arbiter else "Chief arbiter:")
    pdf.cell(0, 4, "Organiser / federation: name", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(98, 4, "signature, date")
    pdf.cell(0, 4, "signature, stamp, date", new_x="LMARGIN", new_y="NEXT")
    # what the tracker adds, apart from FIDE's form
    pdf.ln(5)
    pdf.set_font(font, "", 6.5)
    pdf.set_text_color(110, 110, 110)
    for name, value in tracker_fields(c):
        pdf.multi_cell(0, 3, text(f"{name}: {value}"), new_x="LMARGIN", new_y="NEXT")
    pdf.set_text_color(0, 0, 0)
    return bytes(pdf.output()), missing


__all__ = ["latin1", "render", "render_noting_gaps", "unicode_fonts"]
