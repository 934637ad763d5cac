"""A printable HTML page of a :class:`~tracker.render.certificate.NormCertificate` (A4, one page for
up to 13 games), in the order of FIDE's IT1 form, with blank lines where the input does not
say (and for the signatures, and an unknown round date) for the chief arbiter to complete; what
the tracker adds (tournament id, alert id, why these regulations) in a footer, apart."""

from __future__ import annotations

from html import escape
from string import Template

from tracker.render.certificate import (
    Field,
    NormCertificate,
    event_fields,
    player_fields,
    result_fields,
    tracker_fields,
)

STYLE = """@page { size: A4; margin: 14mm; }
body { font: 10.5pt/1.35 "Source Sans Pro", "DejaVu Sans", Arial, sans-serif; color: #111;
       max-width: 190mm; margin: 0 auto; padding: 8px; }
h1 { font-size: 15pt; margin: 0 0 2px; }
h2 { font-size: 11pt; margin: 12px 0 4px; border-bottom: 1px solid #999; }
.sub { color: #444; margin: 0 0 8px; }
.norm { font-size: 12pt; font-weight: bold; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #bbb; padding: 2px 5px; text-align: left; vertical-align: top; }
th { background: #eee; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 1px 12px; margin: 0; }
dt { color: #444; }
dd { margin: 0; }
.blank { display: inline-block; min-width: 70mm; border-bottom: 1px solid #555; }
.totals td { font-weight: bold; }
.no { color: #a00; }
.sign { display: grid; grid-template-columns: 1fr 1fr; gap: 24px; margin-top: 30px; }
.sign div { border-top: 1px solid #555; padding-top: 3px; color: #444; }
footer { margin-top: 18px; font-size: 8pt; color: #666; border-top: 1px solid #ddd; }
footer dl { gap: 0 8px; }
"""
"""The certificate's CSS (A4, the IT1 form's layout); the application bundle uses it too."""

_PAGE = Template("""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$page_title</title>
<style>
$style</style>
</head>
<body>
$body</body>
</html>
""")

_BODY = Template("""<h1>$form</h1>
<p class="norm">Norm for the title of: $title</p>
<p class="sub">Regulations $edition &middot; rounds 1&ndash;$rounds of $planned$secured</p>
<h2>Event</h2>
$event
<h2>Player</h2>
$player
<h2>Opponents</h2>
<table>
<thead><tr><th>Rd</th><th>Date</th><th>Title</th><th>Name</th><th>FIDE id</th><th>Fed</th>
<th>Rating</th><th>Counted at</th><th>Result</th></tr></thead>
<tbody>
$games
<tr class="totals"><td colspan="7">$games_counted games</td>
<td class="n">Ra $ra</td><td>$score</td></tr>
</tbody>
</table>
$notes
<h2>Result</h2>
$result
<h2>Games left out</h2>
$ignored
<h2>Requirements checked</h2>
<table>
<thead><tr><th>Article</th><th>Requirement</th><th>Needed</th><th>Has</th><th></th></tr></thead>
<tbody>
$requirements
</tbody>
</table>
<div class="sign"><div>Chief arbiter: $arbiter<br>signature, date</div>
<div>Organiser / federation: name, signature, stamp, date</div></div>
<footer>$footer</footer>
""")


def _e(value: object) -> str:
    return escape("-" if value is None or value == "" else str(value))


def field_list(fields: list[Field]) -> str:
    return (
        "<dl>\n"
        + "\n".join(
            f"<dt>{escape(label)}</dt><dd>"
            + ('<span class="blank"></span>' if value is None else escape(value))
            + "</dd>"
            for label, value in fields
        )
        + "\n</dl>"
    )


def page(title: str, body: str, style: str = STYLE) -> str:
    """A whole HTML page: ``body`` (HTML) under ``title`` (text, escaped here)."""
    return _PAGE.substitute(page_title=escape(title), style=style, body=body)


def render(c: NormCertificate) -> str:
    return page(f"{c.title} norm: {c.player.name}", body(c))


def body(c: NormCertificate) -> str:
    """The certificate's content, for a page of its own or in the application bundle."""
    t = c.tournament
    games = "\n".join(
        "<tr>"
        f'<td class="n">{g.round}</td><td>{g.date.isoformat() if g.date else ""}</td>'
        f"<td>{_e(g.opponent.title)}</td><td>{_e(g.opponent.name)}</td>"
        f'<td class="n">{_e(g.opponent.fide_id)}</td><td>{_e(g.opponent.federation)}</td>'
        f'<td class="n">{_e(g.opponent.rating)}</td><td class="n">{g.rating_used}</td>'
        f"<td>{_e(g.result)}</td></tr>"
        for g in c.games
    )
    notes = "".join(f"<li>round {g.round}: {_e(g.note)}</li>" for g in c.games if g.note)
    ignored = (
        "<table><thead><tr><th>Rd</th><th>Opponent</th><th>Result</th><th>Article</th>"
        "<th>Why</th></tr></thead><tbody>"
        + "".join(
            f'<tr><td class="n">{i.round}</td>'
            f"<td>{_e(i.opponent.name if i.opponent else None)}</td><td>{_e(i.result)}</td>"
            f"<td>{_e(i.article)}</td><td>{_e(i.reason)}</td></tr>"
            for i in c.ignored
        )
        + "</tbody></table>"
        if c.ignored
        else "<p>None.</p>"
    )
    requirements = "\n".join(
        f"<tr><td>{_e(r.article)}</td><td>{_e(r.name)}</td><td>{_e(r.needed)}</td>"
        f"<td>{_e(r.actual)}</td><td{'' if r.met else ' class=no'}>"
        f"{'met' if r.met else 'NOT MET'}</td></tr>"
        for r in c.requirements
    )
    arbiter = c.event.chief_arbiter
    return _BODY.substitute(
        form=_e(c.form),
        title=_e(c.title),
        edition=_e(c.edition),
        rounds=c.rounds_considered,
        planned=t.planned_rounds or "?",
        secured=" (secured before the last round)" if c.secured_early else "",
        event=field_list(event_fields(c)),
        player=field_list(player_fields(c)),
        games=games,
        games_counted=c.games_counted,
        ra=c.ra,
        score=_e(c.score_text),
        notes=f"<ul>{notes}</ul>" if notes else "",
        result=field_list(result_fields(c)),
        ignored=ignored,
        requirements=requirements,
        arbiter=escape(arbiter) if arbiter else '<span class="blank"></span>',
        footer=field_list(tracker_fields(c)),
    )


__all__ = ["STYLE", "body", "field_list", "page", "render"]
