"""A printable HTML page of a :class:`~tracker.certificate.NormCertificate` (A4, one page for
up to 13 games), with the blanks IT1 leaves to the chief arbiter."""

from __future__ import annotations

from html import escape
from string import Template

from tracker.certificate import NormCertificate

_PAGE = Template("""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title norm: $player_name</title>
<style>
@page { size: A4; margin: 14mm; }
body { font: 11pt/1.35 "DejaVu Sans", Arial, sans-serif; color: #111; max-width: 190mm;
       margin: 0 auto; padding: 8px; }
h1 { font-size: 15pt; margin: 0 0 2px; }
h2 { font-size: 11pt; margin: 14px 0 4px; border-bottom: 1px solid #999; }
.sub { color: #444; margin: 0 0 10px; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #bbb; padding: 2px 5px; text-align: left; vertical-align: top; }
th { background: #eee; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 1px 12px; margin: 0; }
dt { color: #444; }
dd { margin: 0; }
.totals td { font-weight: bold; }
.no { color: #a00; }
.sign { display: grid; grid-template-columns: 1fr 1fr; gap: 24px; margin-top: 26px; }
.sign div { border-top: 1px solid #555; padding-top: 3px; color: #444; }
</style>
</head>
<body>
<h1>$form</h1>
<p class="sub">$title norm &middot; $edition &middot; rounds 1&ndash;$rounds of $planned$secured</p>
<h2>Player</h2>
<dl>
<dt>Name</dt><dd>$player_name</dd>
<dt>FIDE id</dt><dd>$player_fide_id</dd>
<dt>Federation</dt><dd>$player_fed</dd>
<dt>Title held</dt><dd>$player_title</dd>
<dt>Rating</dt><dd>$player_rating</dd>
<dt>Date of birth</dt><dd>$birth</dd>
</dl>
<h2>Event</h2>
<dl>
<dt>Name</dt><dd>$event_name</dd>
<dt>Tournament id</dt><dd>$event_id</dd>
<dt>Dates</dt><dd>$dates</dd>
<dt>Host federation</dt><dd>$host</dd>
<dt>System</dt><dd>$system, $planned rounds, $players players</dd>
<dt>Regulations</dt><dd>$edition_reason</dd>
<dt>Venue, rate of play</dt><dd>&nbsp;</dd>
</dl>
<h2>Games counted</h2>
<table>
<thead><tr><th>Rd</th><th>Opponent</th><th>Title</th><th>FIDE id</th><th>Fed</th>
<th>Rating</th><th>Counted at</th><th>Result</th></tr></thead>
<tbody>
$games
<tr class="totals"><td colspan="6">$games_counted games, counted as $games_credited</td>
<td class="n">Ra $ra</td><td>$score</td></tr>
</tbody>
</table>
$notes
<h2>Games left out</h2>
$ignored
<h2>Result</h2>
<dl>
<dt>Score</dt><dd>$score of $games_counted ($percentage&nbsp;%)</dd>
<dt>Ra (average of opponents)</dt><dd>$ra</dd>
<dt>Rp (performance)</dt><dd>$rp</dd>
<dt>Opponents' titles</dt><dd>$opp_titles</dd>
<dt>Opponents' federations</dt><dd>$opp_feds</dd>
<dt>Alert</dt><dd>$alert</dd>
</dl>
<h2>Requirements</h2>
<table>
<thead><tr><th>Article</th><th>Requirement</th><th>Needed</th><th>Has</th><th></th></tr></thead>
<tbody>
$requirements
</tbody>
</table>
<div class="sign"><div>Chief arbiter (name, signature, date)</div>
<div>Organiser / federation (stamp)</div></div>
</body>
</html>
""")


def _e(value: object) -> str:
    return escape("-" if value is None or value == "" else str(value))


def render(c: NormCertificate) -> str:
    t = c.tournament
    games = "\n".join(
        "<tr>"
        f'<td class="n">{g.round}</td><td>{_e(g.opponent.name)}</td><td>{_e(g.opponent.title)}</td>'
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
    dates = t.start_date.isoformat() + (f" to {t.end_date.isoformat()}" if t.end_date else "")
    return _PAGE.substitute(
        form=_e(c.form),
        title=_e(c.title),
        edition=_e(c.edition),
        rounds=c.rounds_considered,
        planned=t.planned_rounds or "?",
        secured=" (secured before the last round)" if c.secured_early else "",
        player_name=_e(c.player.name),
        player_fide_id=_e(c.player.fide_id),
        player_fed=_e(c.player.federation),
        player_title=_e(c.player.title),
        player_rating=_e(c.player.rating if c.player.rating is not None else "unrated"),
        birth=_e(c.birth_date.isoformat() if c.birth_date else None),
        event_name=_e(t.name),
        event_id=_e(t.tournament_id),
        dates=_e(dates),
        host=_e(t.host_federation),
        system=_e(t.system.replace("_", " ")),
        players=t.players,
        edition_reason=_e(c.edition_reason),
        games=games,
        games_counted=c.games_counted,
        games_credited=c.games_credited,
        ra=c.ra,
        rp=c.rp,
        score=_e(c.score),
        percentage=c.percentage,
        notes=f"<ul>{notes}</ul>" if notes else "",
        ignored=ignored,
        opp_titles=_e(", ".join(f"{k} {v}" for k, v in c.opponent_titles.items())),
        opp_feds=_e(", ".join(f"{k} {v}" for k, v in c.opponent_federations.items())),
        alert=_e(c.alert_id),
        requirements=requirements,
    )


__all__ = ["render"]
