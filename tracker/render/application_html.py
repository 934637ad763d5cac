"""A printable HTML page of an :class:`~tracker.render.application.ApplicationBundle`: the
summary sheet, then each IT1 certificate on a page of its own (the certificate's own layout),
with blank lines for what the federation completes."""

from __future__ import annotations

from html import escape

from tracker.render.application import (
    ApplicationBundle,
    norm_rows,
    player_fields,
    rating_fields,
    signature_fields,
)
from tracker.render.certificate_html import STYLE, body, field_list, page

_STYLE = STYLE + "section.cert { break-before: page; }\n"
_HEADS = ("Event", "Dates", "Games", "Score", "Ra", "Rp", "Regulations")


def render(b: ApplicationBundle) -> str:
    app = b.application
    rows = "\n".join(
        "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>"
        for row in norm_rows(b)
    )
    conditions = "\n".join(
        f"<tr><td>{escape(r.article)}</td><td>{escape(r.name)}</td><td>{escape(r.needed)}</td>"
        f"<td>{escape(r.actual)}</td><td>{'met' if r.met else 'NOT MET'}</td></tr>"
        for r in app.requirements
    )
    lacking = (
        "<p>Certificates the federation attaches itself: "
        + escape(", ".join(b.missing_certificates))
        + "</p>"
        if b.missing_certificates
        else ""
    )
    notes = "".join(f"<li>{escape(n)}</li>" for n in app.notes)
    assert app.complete_on is not None
    summary = (
        f"<h1>{escape(b.form)}</h1>\n"
        f'<p class="norm">Application for the title of: {escape(app.title)}</p>\n'
        f'<p class="sub">Application rules {escape(app.edition)} &middot; complete on '
        f"{app.complete_on.isoformat()} &middot; {app.games_credited} games of norms</p>\n"
        f"<h2>Applicant</h2>\n{field_list(player_fields(b))}\n"
        "<h2>Norms</h2>\n<table><thead><tr>"
        + "".join(f"<th>{h}</th>" for h in _HEADS)
        + f"</tr></thead><tbody>\n{rows}\n</tbody></table>\n{lacking}"
        f"<h2>Rating</h2>\n{field_list(rating_fields(b))}\n"
        "<h2>Conditions checked</h2>\n<table><thead><tr><th>Article</th><th>Condition</th>"
        "<th>Needed</th><th>Has</th><th></th></tr></thead><tbody>\n"
        f"{conditions}\n</tbody></table>\n"
        f"<p>{escape(app.why)}</p>\n<ul>{notes}</ul>\n"
        f"<h2>Federation</h2>\n{field_list(signature_fields())}\n"
    )
    certificates = "".join(f'<section class="cert">\n{body(c)}</section>\n' for c in b.certificates)
    return page(f"{app.title} application: {app.name}", summary + certificates, _STYLE)


__all__ = ["render"]
