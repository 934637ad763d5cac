"""``tracker titles``: the embedded store of title applications (docs/titles.md). The seeds of
``seeds/titles/`` are three tournaments in which the same player makes a GM norm each."""

from __future__ import annotations

import io
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from tests.support.cli import run
from tests.support.paths import SEEDS
from tests.support.pipeline import write_jsonl
from tests.support.titles import CANDIDATE, norm_tournament, seed_events
from tracker import contract as ev

TITLES = SEEDS / "titles"
FILES = [TITLES / f"{name}.jsonl" for name in seed_events()]
AS_OF = ("--as-of", "2026-01-01")


def test_the_seed_files_are_the_builder_s(tmp_path: Path) -> None:
    for name, events in seed_events().items():
        made = write_jsonl(tmp_path / f"{name}.jsonl", events)
        assert made.read_text("utf-8") == (TITLES / f"{name}.jsonl").read_text("utf-8")


def add(capsys: pytest.CaptureFixture[str], store: Path, file: Path) -> list[ev.OutputEvent]:
    code, out, err = run(
        capsys, "titles", "add", str(file), "--store", str(store), "--format", "jsonl", *AS_OF
    )
    assert code == 0, err
    return [ev.OUTPUT_ADAPTER.validate_json(line) for line in out.splitlines()]


def judged(capsys: pytest.CaptureFixture[str], store: Path) -> dict[str, Any]:
    """The candidate's one application, as ``tracker titles player --format json`` gives it."""
    code, out, err = run(
        capsys,
        "titles",
        "player",
        str(CANDIDATE),
        "--store",
        str(store),
        "--format",
        "json",
        *AS_OF,
    )
    assert code == 0, err
    (app,) = json.loads(out)
    return dict(app)


def test_three_events_in_turn_complete_the_gm_application_after_the_third(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = tmp_path / "store"
    seen = [add(capsys, store, f) for f in FILES]
    assert [[a.type for a in found] for found in seen] == [
        ["title_application_progress"],
        ["title_application_progress"],
        ["title_application_complete"],
    ]
    (done,) = seen[2]
    assert isinstance(done, ev.TitleApplicationComplete)
    app = done.application
    assert (app.fide_id, app.title, app.complete, app.games_credited) == (CANDIDATE, "GM", True, 30)
    assert [n.event for n in app.norms] == [
        "Spring Masters 2025",
        "Summer Masters 2025",
        "Autumn Masters 2025",
    ]
    assert app.rating is not None
    assert (app.rating.kind, app.rating.rating) == ("interim", 2504)
    assert {r.article: r.actual for r in app.requirements}["1.1.3a"] == (
        "Spring Masters 2025, Autumn Masters 2025"
    )
    progress = seen[1][0]
    assert isinstance(progress, ev.TitleApplicationProgress)
    assert progress.application.missing == ("7 more games of norms (20 of 27: 1.5.1)",)
    # the same file again: nothing changes, nothing is said
    assert add(capsys, store, FILES[2]) == []


def test_status_and_player(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    store = tmp_path / "store"
    for f in FILES[:2]:
        add(capsys, store, f)
    code, out, _ = run(
        capsys, "titles", "status", "--federation", "ger", "--store", str(store), *AS_OF
    )
    assert code == 0
    assert out == (
        "GM  Candidate, Carl (GER, 4100001): 2 norms, 20 games, rating 2504: missing 7 more "
        "games of norms (20 of 27: 1.5.1)\n"
    )
    code, out, _ = run(capsys, "titles", "status", "--federation", "FRA", "--store", str(store))
    assert (code, out) == (0, "")
    app = judged(capsys, store)
    assert app["complete"] is False
    assert app["edition"] == "fide-2024"
    code, out, _ = run(capsys, "titles", "player", str(CANDIDATE), "--store", str(store), *AS_OF)
    assert "NO  1.5.1   games of norms: needs ≥ 27, has 20" in out


def test_the_bundle_holds_the_summary_sheet_and_the_three_certificates(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = tmp_path / "store"
    for f in FILES:
        add(capsys, store, f)
    base = ("titles", "bundle", str(CANDIDATE), "--title", "gm", "--store", str(store), *AS_OF)
    code, out, _ = run(capsys, *base)
    bundle = json.loads(out)
    assert [c["tournament"]["name"] for c in bundle["certificates"]] == [
        "Spring Masters 2025",
        "Summer Masters 2025",
        "Autumn Masters 2025",
    ]
    assert bundle["missing_certificates"] == []
    code, _, err = run(capsys, *base, "--out", str(tmp_path / "b.html"))
    html = (tmp_path / "b.html").read_text("utf-8")
    assert html.count("FIDE IT1 - Certificate of Title Result") == 3
    assert "Application for the title of: GM" in html
    assert "Place of birth" in html
    code, _, err = run(capsys, *base, "--out", str(tmp_path / "b.pdf"))
    assert code == 0, err
    pages = PdfReader(io.BytesIO((tmp_path / "b.pdf").read_bytes())).pages
    text = "\n".join(p.extract_text() for p in pages)
    assert text.count("Certificate of Title Result") == 3
    assert "Application for the title of: GM" in text


def test_no_bundle_for_an_incomplete_application(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = tmp_path / "store"
    add(capsys, store, FILES[0])
    code, _, err = run(
        capsys, "titles", "bundle", str(CANDIDATE), "--title", "GM", "--store", str(store)
    )
    assert code == 2
    assert "the GM application of Candidate, Carl is not complete: 17 more games" in err


def test_a_certificate_and_an_import_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The certificate the tracker writes, and a federation's import file (held norms in the
    minimal form, ratings), give the same application as the tournaments."""
    certificate = tmp_path / "cert.json"
    code, _, err = run(
        capsys, "certificate", str(FILES[0]), "--player", str(CANDIDATE), "--out", str(certificate)
    )
    assert code == 0, err
    held = {
        "norms": [
            {
                "fide_id": CANDIDATE,
                "title": "GM",
                "event": "Rhine Open 2019",
                "start_date": "2019-05-01",
                "end_date": "2019-05-09",
                "rounds": 9,
                "games": 9,
                "points_above_norm": 1,
                "normal_foreigners": True,
                "one_round_days": 9,
            },
            {
                "fide_id": CANDIDATE,
                "title": "GM",
                "event": "Bonn League 2020",
                "start_date": "2020-01-10",
                "end_date": "2020-04-20",
                "rounds": 9,
                "games": 9,
                "federation_exemption": "1.43b",
                "normal_foreigners": False,
            },
        ],
        "ratings": [
            {
                "fide_id": CANDIDATE,
                "rating": 2503,
                "on": "2020-05-01",
                "kind": "published",
                "source": "FIDE list of May 2020",
            }
        ],
    }
    imported = tmp_path / "held.json"
    imported.write_text(json.dumps(held), "utf-8")
    store = tmp_path / "store"
    assert [a.type for a in add(capsys, store, certificate)] == ["title_application_progress"]
    (done,) = add(capsys, store, imported)
    assert isinstance(done, ev.TitleApplicationComplete)
    app = done.application
    assert [n.games_credited for n in app.norms] == [10, 9, 10]
    assert app.rating is not None
    assert app.rating.source == "FIDE list of May 2020"
    assert [n.source.split()[0] for n in app.norms] == ["import", "import", "certificate"]
    assert any(note.startswith("1.5.4: each norm counts") for note in app.notes)


def test_an_import_names_the_record_and_the_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"norms": [{"fide_id": CANDIDATE, "title": "GM"}]}), "utf-8")
    code, _, err = run(capsys, "titles", "add", str(bad), "--store", str(tmp_path / "s"))
    assert code == 2
    assert err.startswith("tracker: error: bad.json: norms[0]: event: Field required")
    bad.write_text(json.dumps({"norms": [], "rating": []}), "utf-8")
    code, _, err = run(capsys, "titles", "add", str(bad), "--store", str(tmp_path / "s"))
    assert "bad.json: rating: not a field of an import file" in err


def test_a_rating_list_gives_published_ratings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = tmp_path / "store"
    add(capsys, store, FILES[0])
    header = (
        "ID Number".ljust(15)
        + "Name".ljust(61)
        + ("Fed Sex Tit  WTit OTit           FOA OCT25 Gms K  B-day Flag")
    )
    line = (
        str(CANDIDATE).ljust(15)
        + "Candidate, Carl".ljust(61)
        + "GER M   IM".ljust(37)
        + ("2511  9   10 1999")
    )
    listed = tmp_path / "standard_oct25frl.txt"
    listed.write_text(header + "\n" + line + "\n", "utf-8")
    code, _, err = run(
        capsys, "titles", "add", str(listed), "--store", str(store), "--federation", "GER", *AS_OF
    )
    assert code == 0, err
    assert "rating list of 2025-10-01: 1 facts" in err
    app = judged(capsys, store)
    assert app["rating"]["rating"] == 2504  # the interim one came first
    unnamed = tmp_path / "list.txt"
    unnamed.write_text((header + "\n" + line + "\n").replace("OCT25", "SRtng"), "utf-8")
    code, _, err = run(capsys, "titles", "add", str(unnamed), "--store", str(store))
    assert code == 2
    assert "give it with --list-date" in err


def test_a_tournament_added_again_replaces_what_the_store_had_of_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The third event's file corrected (he drew every game: no norm) and added again: its
    norm goes, and the complete application is taken back."""
    store = tmp_path / "store"
    *_, (done,) = [add(capsys, store, f) for f in FILES]
    name = FILES[2].stem
    corrected = write_jsonl(
        tmp_path / f"{name}.jsonl",
        norm_tournament(name, date(2025, 9, 1), rating=2490, wins=0, name="Autumn Masters 2025"),
    )
    (back,) = add(capsys, store, corrected)
    assert isinstance(back, ev.TitleApplicationProgress)
    assert back.revokes == done.alert_id
    assert back.application.missing == ("7 more games of norms (20 of 27: 1.5.1)",)
