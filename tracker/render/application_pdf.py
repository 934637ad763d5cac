"""A PDF of an :class:`~tracker.render.application.ApplicationBundle`, made with fpdf2 as the
certificate is: the summary sheet, then each IT1 certificate on pages of its own
(:func:`tracker.render.certificate_pdf.draw`), the names in an embedded Unicode font."""

from __future__ import annotations

from tracker.render.application import (
    ApplicationBundle,
    norm_rows,
    player_fields,
    rating_fields,
    signature_fields,
)
from tracker.render.certificate_pdf import Pen, draw, letters, requirements


def render(b: ApplicationBundle) -> bytes:
    return render_noting_gaps(b)[0]


def render_noting_gaps(b: ApplicationBundle) -> tuple[bytes, list[str]]:
    """The PDF, and the letters it could not draw (see the certificate's PDF)."""
    app = b.application
    pen = Pen.start(letters(b), f"{app.title} application: {app.name}")
    pdf, font, text = pen.pdf, pen.font, pen.text
    assert app.complete_on is not None
    pen.header(
        b.form,
        f"Application for the title of: {app.title}",
        f"Application rules {app.edition} - complete on {app.complete_on.isoformat()} - "
        f"{app.games_credited} games of norms",
    )
    pen.heading("Applicant")
    pen.fields(player_fields(b))
    pen.heading("Norms")
    heads = ["Event", "Dates", "Games", "Score", "Ra", "Rp", "Regulations"]
    pen.table((60, 36, 14, 12, 12, 12, 36), [heads, *([text(c) for c in r] for r in norm_rows(b))])
    if b.missing_certificates:
        pdf.multi_cell(
            0,
            4.5,
            text(
                "Certificates the federation attaches itself: " + ", ".join(b.missing_certificates)
            ),
            new_x="LMARGIN",
            new_y="NEXT",
        )
    pen.heading("Rating")
    pen.fields(rating_fields(b))
    pen.heading("Conditions checked")
    requirements(pen, app.requirements)
    pdf.set_font(font, "", 8)
    for line in (app.why, *app.notes):
        pdf.multi_cell(0, 4, text(line), new_x="LMARGIN", new_y="NEXT")
    pen.heading("Federation")
    pen.fields(signature_fields())
    for c in b.certificates:
        draw(pen, c)
    return bytes(pdf.output()), pen.missing


__all__ = ["render", "render_noting_gaps"]
