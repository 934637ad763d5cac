"""The arbiter's norm certificate (IT1 data) as JSON, HTML and PDF, and ``tracker
certificate``, on the seed tournaments (expected values from seeds/README.md)."""

from __future__ import annotations

import json
import re
import zlib
from pathlib import Path

import pytest

from tests.test_views import SEEDS, replayed
from tracker import events as ev
from tracker.certificate import NoNorm, certificate
from tracker.certificate_html import render as html
from tracker.certificate_pdf import render as pdf
from tracker.cli import main
from tracker.titles import Title

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
        "6½",
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
    assert sum(cert.opponent_titles.values()) == 9
    assert sum(cert.opponent_federations.values()) == 9
    assert "ROU" not in cert.opponent_federations or cert.opponent_federations["ROU"] <= 5
    assert all(r.met for r in cert.requirements)
    assert cert.tournament.name == "Danube Masters 2013"


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
    assert (cert.rounds_considered, cert.score, cert.games_counted, cert.rp) == (10, "6½", 10, 2650)
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
    """The text drawn in a PDF made by fpdf2 (its page streams are zlib-compressed)."""
    texts = []
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", data, re.S):
        try:
            texts.append(zlib.decompress(stream).decode("latin-1"))
        except zlib.error:
            continue
    return "".join(re.findall(r"\((.*?)\) ?Tj", "".join(texts)))


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
    assert (body["rounds_considered"], body["score"], body["rp"]) == (9, "6½", 2702)


def test_cli_names_the_file_when_there_is_no_norm(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SEEDS / "federation-fail-2011.trf")
    assert main(["certificate", path, "--player", "4"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"tracker: error: {path}: ")
    assert "no norm after round 9" in err
    assert main(["certificate", path, "--player", "77"]) == 2
    assert "--player: no player with start rank or FIDE id 77" in capsys.readouterr().err
