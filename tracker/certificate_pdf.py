"""A PDF of a :class:`~tracker.certificate.NormCertificate`, made with fpdf2 (pure Python, no
browser). Returns bytes; writing them is the caller's job.

The PDF uses the standard Helvetica font, which covers Latin-1: letters outside it are
written without their accents (``Dvořák`` -> ``Dvorak``). The JSON and HTML forms keep every
name as registered.
"""

from __future__ import annotations

import unicodedata

from fpdf import FPDF
from fpdf.fonts import FontFace

from tracker.certificate import NormCertificate


def latin1(text: object) -> str:
    """Text the core fonts can draw: Latin-1 kept, other letters stripped of accents.

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


_SPELLED = {"≥": ">=", "≤": "<=", "Ł": "L", "ł": "l", "–": "-", "—": "-", "’": "'", "…": "..."}


def render(c: NormCertificate) -> bytes:
    t = c.tournament
    pdf = FPDF(format="A4")
    pdf.set_margins(14, 10, 14)
    pdf.set_auto_page_break(True, margin=10)
    pdf.set_title(latin1(f"{c.title} norm: {c.player.name}"))
    pdf.add_page()

    def heading(text: str) -> None:
        pdf.ln(1)
        pdf.set_font("Helvetica", "B", 10.5)
        pdf.cell(0, 5.5, latin1(text), new_x="LMARGIN", new_y="NEXT", border="B")
        pdf.ln(1)
        pdf.set_font("Helvetica", "", 8.5)

    def pairs(rows: list[tuple[str, object]]) -> None:
        for label, value in rows:
            pdf.set_text_color(80, 80, 80)
            pdf.cell(42, 4.5, latin1(label))
            pdf.set_text_color(0, 0, 0)
            pdf.multi_cell(0, 4.5, latin1(value), new_x="LMARGIN", new_y="NEXT", align="L")

    pdf.set_font("Helvetica", "B", 15)
    pdf.cell(0, 8, latin1(c.form), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 10)
    secured = " (secured before the last round)" if c.secured_early else ""
    pdf.cell(
        0,
        6,
        latin1(
            f"{c.title} norm - {c.edition} - rounds 1-{c.rounds_considered} of "
            f"{t.planned_rounds}{secured}"
        ),
        new_x="LMARGIN",
        new_y="NEXT",
    )

    heading("Player")
    pairs(
        [
            ("Name", c.player.name),
            ("FIDE id", c.player.fide_id),
            ("Federation", c.player.federation),
            ("Title held", c.player.title),
            ("Rating", c.player.rating if c.player.rating is not None else "unrated"),
            ("Date of birth", c.birth_date.isoformat() if c.birth_date else None),
        ]
    )
    heading("Event")
    dates = t.start_date.isoformat() + (f" to {t.end_date.isoformat()}" if t.end_date else "")
    pairs(
        [
            ("Name", t.name),
            ("Tournament id", t.tournament_id),
            ("Dates", dates),
            ("Host federation", t.host_federation),
            (
                "System",
                f"{t.system.replace('_', ' ')}, {t.planned_rounds} rounds, {t.players} players",
            ),
            ("Regulations", c.edition_reason),
            ("Venue, rate of play", " "),
        ]
    )

    heading("Games counted")
    head = FontFace(emphasis="BOLD", fill_color=(235, 235, 235))
    widths = (8, 56, 12, 22, 12, 15, 18, 20)
    with pdf.table(
        col_widths=widths, headings_style=head, line_height=4.2, padding=(0.4, 1)
    ) as table:
        table.row(["Rd", "Opponent", "Title", "FIDE id", "Fed", "Rating", "Counted", "Result"])
        for g in c.games:
            o = g.opponent
            table.row(
                [
                    str(g.round),
                    latin1(o.name),
                    latin1(o.title),
                    latin1(o.fide_id),
                    o.federation or "?",
                    latin1(o.rating),
                    str(g.rating_used),
                    latin1(g.result),
                ]
            )
        table.row(
            [
                "",
                latin1(f"{c.games_counted} games, counted as {c.games_credited}"),
                "",
                "",
                "",
                "",
                f"Ra {c.ra}",
                latin1(c.score),
            ]
        )
    for g in c.games:
        if g.note:
            pdf.multi_cell(
                0, 4.5, latin1(f"round {g.round}: {g.note}"), new_x="LMARGIN", new_y="NEXT"
            )

    heading("Games left out")
    if c.ignored:
        with pdf.table(
            col_widths=(8, 48, 14, 18, 92), headings_style=head, line_height=4.2, padding=(0.4, 1)
        ) as table:
            table.row(["Rd", "Opponent", "Result", "Article", "Why"])
            for i in c.ignored:
                table.row(
                    [
                        str(i.round),
                        latin1(i.opponent.name if i.opponent else None),
                        latin1(i.result),
                        latin1(i.article),
                        latin1(i.reason),
                    ]
                )
    else:
        pdf.cell(0, 5, "None.", new_x="LMARGIN", new_y="NEXT")

    heading("Result")
    pairs(
        [
            (
                "Score, Ra, Rp",
                f"{c.score} of {c.games_counted} ({c.percentage} %), Ra {c.ra} (average of "
                f"the opponents), Rp {c.rp} (performance)",
            ),
            ("Opponents' titles", ", ".join(f"{k} {v}" for k, v in c.opponent_titles.items())),
            (
                "Opponents' federations",
                ", ".join(f"{k} {v}" for k, v in c.opponent_federations.items()),
            ),
            ("Alert", c.alert_id),
        ]
    )

    heading("Requirements")
    with pdf.table(
        col_widths=(16, 60, 46, 46, 14), headings_style=head, line_height=4.2, padding=(0.4, 1)
    ) as table:
        table.row(["Article", "Requirement", "Needed", "Has", ""])
        for r in c.requirements:
            table.row(
                [
                    latin1(r.article),
                    latin1(r.name),
                    latin1(r.needed),
                    latin1(r.actual),
                    "met" if r.met else "NOT MET",
                ]
            )

    pdf.ln(6)
    y = pdf.get_y()
    pdf.set_draw_color(90, 90, 90)
    pdf.line(14, y, 98, y)
    pdf.line(112, y, 196, y)
    pdf.set_font("Helvetica", "", 8)
    pdf.cell(98, 4, "Chief arbiter (name, signature, date)")
    pdf.cell(0, 4, "Organiser / federation (stamp)", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


__all__ = ["latin1", "render"]
