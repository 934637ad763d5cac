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

import dataclasses
import functools
import unicodedata
from collections.abc import Callable, Iterable
from importlib.resources import files
from importlib.util import find_spec
from pathlib import Path

from fpdf import FPDF
from fpdf.fonts import FontFace
from pydantic import BaseModel

from tracker import contract as ev
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


def letters(model: BaseModel) -> set[str]:
    """The letters a document of ``model`` (a certificate, a bundle) may have to draw."""
    return {ch for ch in model.model_dump_json() if not ch.isspace()}


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
    pen = Pen.start(letters(c), f"{c.title} norm: {c.player.name}")
    draw(pen, c)
    return bytes(pen.pdf.output()), pen.missing


@dataclasses.dataclass
class Pen:
    """An A4 document with the fonts its letters need, and the helpers every page uses."""

    pdf: FPDF
    font: str
    draw: Callable[[str], str]
    missing: list[str]
    """The letters no font here has (``Ř U+0158``)."""

    @classmethod
    def start(cls, letters: set[str], title: str) -> Pen:
        pdf = FPDF(format="A4")
        family = _add_fonts(pdf, letters)
        pen = cls(pdf, family or "Helvetica", str if family else latin1, _undrawn(pdf, letters))
        pdf.set_margins(14, 10, 14)
        pdf.set_auto_page_break(True, margin=10)
        pdf.set_title(pen.text(title))
        return pen

    def text(self, value: object) -> str:
        return self.draw("-" if value is None or value == "" else str(value))

    def heading(self, title: str, x: float = 14, width: float = 0) -> None:
        pdf = self.pdf
        pdf.set_x(x)
        pdf.set_font(self.font, "B", 10)
        pdf.cell(width, 5.5, title, new_x="LMARGIN", new_y="NEXT", border="B")
        pdf.ln(0.8)
        pdf.set_font(self.font, "", 8.5)

    def fields(
        self, rows: list[Field], x: float = 14, width: float = 182, label: float = 52
    ) -> None:
        pdf = self.pdf
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
                    width - label, 4.2, self.text(value), new_x="LMARGIN", new_y="NEXT", align="L"
                )

    def header(self, form: str, heading: str, sub: str) -> None:
        """A new page with the form's name, what it is for and a line under them, then the
        letters that could not be drawn (:meth:`gaps`)."""
        pdf = self.pdf
        pdf.add_page()
        lines = ((15, "B", 8, form), (12, "B", 6, heading), (9.5, "", 5, sub))
        for size, style, height, line in lines:
            pdf.set_font(self.font, style, size)
            pdf.cell(0, height, self.text(line), new_x="LMARGIN", new_y="NEXT")
        self.gaps()

    def gaps(self) -> None:
        """Say at the top of the page which letters could not be drawn."""
        if not self.missing:
            return
        pdf = self.pdf
        pdf.set_text_color(160, 0, 0)
        pdf.multi_cell(
            0,
            4.5,
            self.text(
                "Letters this PDF could not draw (no font on this machine has them; the HTML "
                "and JSON forms keep them): " + ", ".join(self.missing)
            ),
            new_x="LMARGIN",
            new_y="NEXT",
        )
        pdf.set_text_color(0, 0, 0)

    def table(self, widths: tuple[float, ...], rows: list[list[str]]) -> None:
        """A table whose first row is its heading."""
        head = FontFace(emphasis="BOLD", fill_color=(235, 235, 235))
        with self.pdf.table(
            col_widths=widths, headings_style=head, line_height=3.9, padding=(0.3, 1)
        ) as table:
            for row in rows:
                table.row(row)


def draw(pen: Pen, c: NormCertificate) -> None:
    """The certificate on a new page of ``pen``'s document."""
    pdf, font, text = pen.pdf, pen.font, pen.text
    t = c.tournament
    secured = " (secured before the last round)" if c.secured_early else ""
    pen.header(
        c.form,
        f"Norm for the title of: {c.title}",
        f"Regulations {c.edition} - rounds 1-{c.rounds_considered} of {t.planned_rounds or '?'}"
        + secured,
    )

    # the event on the left, the player beside it
    pdf.ln(1)
    top = pdf.get_y()
    pen.heading("Event", 14, 112)
    pen.fields(event_fields(c), 14, 112, 27)
    bottom = pdf.get_y()
    pdf.set_y(top)
    pen.heading("Player", 132, 64)
    pen.fields(player_fields(c), 132, 64, 24)
    pdf.set_y(max(bottom, pdf.get_y()))

    pen.heading("Opponents")
    rows = [["Rd", "Date", "Title", "Name", "FIDE id", "Fed", "Rating", "Counted", "Result"]]
    for g in c.games:
        o = g.opponent
        rows.append(
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
    rows.append(
        ["", "", "", f"{c.games_counted} games", "", "", "", f"Ra {c.ra}", text(c.score_text)]
    )
    pen.table((7, 17, 10, 56, 18, 10, 13, 15, 22), rows)
    for g in c.games:
        if g.note:
            pdf.multi_cell(
                0, 4.5, text(f"round {g.round}: {g.note}"), new_x="LMARGIN", new_y="NEXT"
            )

    pen.heading("Result")
    pen.fields(result_fields(c), label=56)

    pen.heading("Games left out")
    if c.ignored:
        rows = [["Rd", "Opponent", "Result", "Article", "Why"]]
        rows += [
            [
                str(i.round),
                text(i.opponent.name if i.opponent else None),
                text(i.result),
                text(i.article),
                text(i.reason),
            ]
            for i in c.ignored
        ]
        pen.table((8, 48, 14, 18, 94), rows)
    else:
        pdf.cell(0, 5, "None.", new_x="LMARGIN", new_y="NEXT")

    pen.heading("Requirements checked")
    requirements(pen, c.requirements)

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


def requirements(pen: Pen, found: Iterable[ev.Requirement]) -> None:
    """A table of requirements (or an application's conditions) with their articles."""
    rows = [["Article", "Requirement", "Needed", "Has", ""]]
    rows += [
        [
            pen.text(r.article),
            pen.text(r.name),
            pen.text(r.needed),
            pen.text(r.actual),
            "met" if r.met else "NOT MET",
        ]
        for r in found
    ]
    pen.table((16, 60, 46, 46, 14), rows)


__all__ = [
    "Pen",
    "draw",
    "latin1",
    "letters",
    "render",
    "render_noting_gaps",
    "requirements",
    "unicode_fonts",
]
