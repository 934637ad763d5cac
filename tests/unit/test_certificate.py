"""The arbiter's norm certificate (IT1 data) as JSON, HTML and PDF, and ``tracker
certificate``, on the seed tournaments (expected values from seeds/README.md)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pypdf
import pytest

from cli.main import main
from tests.support.paths import SEEDS
from tests.support.seeds import replayed
from tracker import contract as ev
from tracker.domain.titles import Title
from tracker.host.replay import Replay, read_events
from tracker.render import certificate_pdf
from tracker.render.certificate import NoNorm, NormCertificate, certificate
from tracker.render.certificate_html import render as html
from tracker.render.certificate_pdf import render as pdf

SECURED = str(SEEDS / "swiss-11r-secured-2013.trf")


def test_certificate_after_the_round_the_norm_was_secured() -> None:
    state, alerts = replayed("swiss-11r-secured-2013.trf")
    (norm,) = [a for a in alerts if isinstance(a, ev.NormAchieved)]
    cert = certificate(state, 14, Title.GM, up_to=9)
    # seeds/README.md c): 6½/9, Ra 2536, 72 % -> 166, Rp 2702, after round 9
    assert (cert.title, cert.player.name, cert.player.federation) == (
        "GM",
        "Dumitrescu, Radu",
        "ROU",
    )
    assert (cert.score, cert.games_counted, cert.ra, cert.rp, cert.percentage) == (
        6.5,
        9,
        2536,
        2702,
        72,
    )
    assert cert.rounds_considered == 9
    assert cert.secured_early
    assert cert.alert_id == norm.alert_id
    assert cert.games_credited == norm.evidence.games_credited
    assert [g.round for g in cert.games] == list(range(1, 10))
    for game, counted in zip(cert.games, norm.evidence.counted, strict=True):
        assert game.opponent == counted.opponent
        assert game.result == {"1": "1", "=": "½", "0": "0"}[counted.result]
        assert game.points == {"1": 1, "=": 0.5, "0": 0}[counted.result]
    assert cert.score_text == "6½"
    assert cert.score == sum(g.points for g in cert.games)
    assert sum(cert.opponent_titles.values()) == 9
    assert sum(cert.opponent_federations.values()) == 9
    assert "ROU" not in cert.opponent_federations or cert.opponent_federations["ROU"] <= 5
    assert all(r.met for r in cert.requirements)
    assert cert.tournament.name == "Danube Masters 2013"


def test_the_event_block_comes_from_the_arbiters_file() -> None:
    """seeds/swiss-11r-secured-2013.trf: 022 Novi Sad, 102 IA Jovanovic, Dragan, 122 the rate
    of play, 092 Swiss system, 132 the round dates; 32 players, all rated, 14 of them of the
    host federation SRB, from 13 federations."""
    state, _ = replayed("swiss-11r-secured-2013.trf")
    cert = certificate(state, 14, Title.GM, up_to=9)
    e = cert.event
    assert (e.venue, e.chief_arbiter, e.event_type) == (
        "Novi Sad",
        "IA Jovanovic, Dragan",
        "Swiss system",
    )
    assert e.rate_of_play == "90 min/40 moves + 30 min + 30 sec/move"
    assert (e.players, e.rated_players, e.federations) == (32, 32, 13)
    srb = sum(p.federation == "SRB" for p in state.players.values())
    assert e.foreign_players == 32 - srb
    assert sum(e.title_holders.values()) == sum(p.title is not None for p in state.players.values())
    assert [g.date.isoformat() if g.date else None for g in cert.games[:4]] == [
        "2013-08-03",
        "2013-08-04",
        "2013-08-05",
        "2013-08-05",
    ]
    # the player is ROU: every opponent is foreign
    assert cert.foreign_opponents == 9
    assert cert.unrated_opponents == 0


def test_html_and_pdf_follow_the_it1_order_and_leave_blanks_for_the_arbiter() -> None:
    """IT1: the norm, the event (venue, dates, federation, chief arbiter, rate of play,
    players), the player, the opponents, the totals (games, score, Ra, Rp), signatures. A
    file without 022/102/122 leaves venue, chief arbiter and rate of play blank to fill in."""
    state, _ = replayed("swiss-11r-secured-2013.trf")
    cert = certificate(state, 14, Title.GM, up_to=9)
    order = [
        "Norm for the title of: GM",
        "Venue",
        "Novi Sad",
        "Dates",
        "Host federation",
        "Chief arbiter",
        "IA Jovanovic, Dragan",
        "Rate of play",
        "90 min/40 moves",
        "Players",
        "Title-holders",
        "Dumitrescu, Radu",
        "90000314",
        "Balogh, Bence",
        "Number of games",
        "Score",
        "6½ (72 %)",
        "Ra (average rating of the opponents)",
        "Rp (rating performance)",
        "2702",
        "Chief arbiter: IA Jovanovic, Dragan",
        "signature",
    ]
    for text in (html(cert).partition("<body>")[2], pdf_text(pdf(cert))):
        at = 0
        for item in order:  # each after the one before
            at = text.find(item, at)
            assert at >= 0, (item, text)
    bare = cert.model_copy(
        update={
            "event": cert.event.model_copy(
                update={"venue": None, "chief_arbiter": None, "rate_of_play": None}
            )
        }
    )
    page = html(bare)
    for label in ("Venue", "Chief arbiter", "Rate of play"):
        assert f'<dt>{label}</dt><dd><span class="blank"></span></dd>' in page
    assert "Novi Sad" not in page


def test_the_final_certificate_is_that_of_the_alert_in_force() -> None:
    """Issue 12, 9: without ``--round`` the certificate is the evidence of the alert in
    force, the GM norm secured after round 9 (1.42f): its games, numbers and id, not the
    best attempt after round 11 (rounds 1-10, 6½/10, Rp 2650) under the round-9 id."""
    state, alerts = replayed("swiss-11r-secured-2013.trf")
    (norm,) = [a for a in alerts if isinstance(a, ev.NormAchieved)]
    cert = certificate(state, 14)
    assert cert.alert_id == norm.alert_id
    assert cert.rounds_considered == norm.evidence.rounds_considered == 9
    assert (cert.score, cert.games_counted, cert.ra, cert.rp) == (
        norm.evidence.score,
        norm.evidence.games,
        norm.evidence.average_rating,
        norm.evidence.performance,
    )
    assert [g.round for g in cert.games] == [g.round for g in norm.evidence.counted]
    assert cert.secured_early


def test_a_certificate_after_a_later_round_names_no_alert_it_is_not_the_evidence_of() -> None:
    """``--round 11``: the best attempt after the last round leaves round 11 out (1.42f) and
    is a norm too, but no alert was made from it, so it quotes no alert id."""
    state, _ = replayed("swiss-11r-secured-2013.trf")
    cert = certificate(state, 14, up_to=11)
    assert cert.title == "GM"
    assert (cert.rounds_considered, cert.score, cert.games_counted, cert.rp) == (10, 6.5, 10, 2650)
    assert {(i.round, i.article) for i in cert.ignored} == {(11, "1.42f")}
    assert cert.rp >= 2600
    assert cert.ra >= 2380
    assert cert.alert_id is None


def test_no_certificate_without_a_norm() -> None:
    state, _ = replayed("federation-fail-2011.trf")
    with pytest.raises(NoNorm, match=r"no norm after round 9: GM \(.*1\.4"):
        certificate(state, 4)
    with pytest.raises(NoNorm, match="can gain no norm title"):
        certificate(state, next(r for r, p in state.players.items() if p.title is Title.GM))
    with pytest.raises(NoNorm, match="not a finished round"):
        certificate(state, 4, up_to=12)


def test_html_names_every_opponent_and_escapes() -> None:
    state, _ = replayed("swiss-11r-secured-2013.trf")
    cert = certificate(state, 14, up_to=9)
    page = html(cert)
    assert page.startswith("<!DOCTYPE html>")
    for g in cert.games:
        assert f"<td>{g.opponent.name}</td>" in page
    assert "Ra 2536" in page
    assert "2702" in page
    odd = cert.model_copy(update={"player": cert.player.model_copy(update={"name": "<b>&"})})
    assert "&lt;b&gt;&amp;" in html(odd)
    assert "<b>&" not in html(odd)


def pdf_text(data: bytes) -> str:
    """The text of a PDF as a reader extracts it (pypdf, through the fonts' Unicode maps)."""
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)


def test_pdf_is_one_page_with_the_figures() -> None:
    state, _ = replayed("swiss-11r-secured-2013.trf")
    cert = certificate(state, 14, up_to=9)
    data = pdf(cert)
    assert data.startswith(b"%PDF-")
    assert len(re.findall(rb"/Type /Page\b", data)) == 1
    text = pdf_text(data)
    assert "Dumitrescu, Radu" in text
    assert "Ra 2536" in text
    for g in cert.games:
        assert g.opponent.name in text


NAMES = {
    "Kovacevic, Mario": "Kovačević, Mario",  # Serbian / Croatian
    "Dumitrescu, Radu": "Dumitrescu, Răzvan",  # Romanian
    "Balogh, Bence": "Παπαδόπουλος, Γιώργος",  # Greek
    "Orlov, Kirill": "Орлов, Кирилл",  # Russian, in Cyrillic
}


def renamed_certificate(names: dict[str, str]) -> NormCertificate:
    """The secured GM norm of the Danube Masters seed, with players renamed in the TRF (the
    name field, columns 15-47 of each 001 line)."""
    lines = []
    for line in (SEEDS / "swiss-11r-secured-2013.trf").read_text().splitlines():
        if line.startswith("001 "):
            name = line[14:47].strip()
            line = line[:14] + names.get(name, name).ljust(33) + line[47:]
        lines.append(line)
    run = Replay()
    for item in read_events("\n".join(lines) + "\n", "renamed.trf"):
        run.feed(item)
    (state,) = run.states.values()
    return certificate(state, 14, Title.GM, up_to=9)


def test_pdf_spells_serbian_romanian_greek_and_cyrillic_names() -> None:
    """The PDF embeds a Unicode font: a reader extracts every name as registered."""
    cert = renamed_certificate(NAMES)
    assert {g.opponent.name for g in cert.games} >= {NAMES[n] for n in NAMES if "Dumi" not in n}
    data, undrawn = certificate_pdf.render_noting_gaps(cert)
    assert undrawn == []
    text = pdf_text(data)
    for name in NAMES.values():
        assert name in text
    assert "Letters this PDF could not draw" not in text
    assert len(pypdf.PdfReader(io.BytesIO(data)).pages) == 1


def test_without_a_unicode_font_the_pdf_names_the_letters_it_could_not_draw(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a machine with neither font the PDF falls back to Helvetica (Latin-1) and says, at
    its top and on stderr, which letters it could not draw: never a silent Kovacevic."""
    monkeypatch.setattr(certificate_pdf, "unicode_fonts", lambda: ())
    cert = renamed_certificate({"Kovacevic, Mario": "Kovačević, Mario"})
    data, undrawn = certificate_pdf.render_noting_gaps(cert)
    assert undrawn == ["ć U+0107", "č U+010D"]
    text = " ".join(pdf_text(data).split())
    assert "Letters this PDF could not draw" in text
    assert "U+0107" in text
    assert "U+010D" in text
    # the seed's own names are all Latin-1: nothing to report
    state, _ = replayed("swiss-11r-secured-2013.trf")
    assert certificate_pdf.render_noting_gaps(certificate(state, 14, up_to=9))[1] == []
    trf = tmp_path / "renamed.trf"
    trf.write_text(
        (SEEDS / "swiss-11r-secured-2013.trf")
        .read_text()
        .replace("Kovacevic, Mario", "Kovačević, Mario"),
        encoding="utf-8",
    )
    out = tmp_path / "cert.pdf"
    assert main(["certificate", str(trf), "--player", "14", "--round", "9", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "tracker: warning: the PDF could not draw these letters" in err
    assert "č U+010D" in err


def test_cli_writes_json_html_and_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["certificate", SECURED, "--player", "90000314", "--round", "9"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert (body["ra"], body["rp"], body["player"]["rank"]) == (2536, 2702, 14)
    for suffix, head in ((".html", b"<!DOCTYPE html>"), (".pdf", b"%PDF-")):
        out = tmp_path / f"cert{suffix}"
        assert main(["certificate", SECURED, "--player", "14", "--out", str(out)]) == 0
        assert out.read_bytes().startswith(head)
        # issue 12, 9: the certificate of the alert in force, rounds 1-9 (not 1-10)
        assert f"{out}: GM norm of Dumitrescu, Radu, rounds 1-9\n" in capsys.readouterr().err
    assert main(["certificate", SECURED, "--player", "14"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert (body["rounds_considered"], body["score"], body["rp"]) == (9, 6.5, 2702)


def test_cli_names_the_file_when_there_is_no_norm(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SEEDS / "federation-fail-2011.trf")
    assert main(["certificate", path, "--player", "4"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tracker: error: {path}: ")
    assert "no norm after round 9" in err
    assert main(["certificate", path, "--player", "77"]) == 2
    assert "--player: no player with start rank or FIDE id 77" in capsys.readouterr().err


# ----------------------------------------------------------------------------- issue 20, item 4


def _cut_dates(text: str, rounds: int) -> str:
    """The seed's 132 record with only its first ``rounds`` dates."""
    out = []
    for line in text.splitlines():
        if line.startswith("132"):
            line = line[: 91 + 10 * rounds].rstrip()
        out.append(line)
    return "\n".join(out) + "\n"


def test_the_it1_form_keeps_the_tracker_s_own_fields_apart_from_fide_s() -> None:
    """The tournament id, the alert id and the paragraph on editions stood among FIDE's
    fields; they are in a footer (and in the JSON, as before). The foreign-opponent
    breakdown listed the player's own federation; an unknown round date is left blank for
    the arbiter, not ``-``."""
    seed = (SEEDS / "gm-roundrobin-2011.trf").read_text(encoding="utf-8")
    run = Replay()
    for item in read_events(_cut_dates(seed, 4), "rr.trf"):
        run.feed(item)
    (state,) = run.states.values()
    cert = certificate(state, 6, Title.GM)
    assert cert.player.federation == "ESP"
    assert cert.opponent_federations["ESP"] == 1  # Castellanos Vidal: met, not foreign
    page = html(cert)
    form, footer = page.split("<footer>")
    for internal in (
        "Tournament id",
        "<dt>Regulations</dt>",
        "<dt>Alert</dt>",
        cert.edition_reason,
    ):
        assert internal not in form, internal
        assert internal in footer, internal
    assert cert.alert_id is not None
    assert cert.alert_id in footer
    foreign = re.search(r"<dt>Foreign opponents</dt><dd>([^<]*)</dd>", form)
    assert foreign is not None
    assert foreign.group(1).startswith("8 of 9 (")
    assert "ESP" not in foreign.group(1)
    rows = re.findall(r'<tr><td class="n">(\d)</td><td>([^<]*)</td>', form)
    assert [d for _, d in rows] == [
        *(cert.games[i].date.isoformat() for i in range(4)),  # type: ignore[union-attr]
        "",
        "",
        "",
        "",
        "",
    ]
    text = "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf(cert))).pages)
    form_text, _, footer_text = text.partition("signature, stamp, date")
    assert "Tournament id" not in form_text
    assert f"Alert: {cert.alert_id}" in footer_text
    assert "Regulations: " in footer_text
