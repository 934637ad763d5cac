"""Wire encodings, settings and the JSON Schemas (no broker)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from streams.records import (
    AUDIENCE_OF,
    DeadLetter,
    FactBatch,
    Released,
    StoredFact,
    decode_alert,
    decode_stored,
    encode_alert,
    encode_input,
    key_partition,
    schemas,
    write_schemas,
)
from streams.settings import Settings
from streams.synthetic import round_robin
from tracker import contract as ev
from tracker.host.replay import Replay, Sourced


def test_every_alert_type_has_an_audience() -> None:
    union = ev.OUTPUT_ADAPTER.json_schema()
    types = {
        m["properties"]["type"]["const"]
        for m in union["$defs"].values()
        if "type" in m.get("properties", {}) and "const" in m["properties"]["type"]
    }
    assert types == set(AUDIENCE_OF)


def test_input_events_round_trip_in_their_compact_form() -> None:
    for e in round_robin("rt", 4, seed=0):
        assert ev.parse_input(encode_input(e)) == e


def test_alerts_round_trip_in_the_replay_jsonl_form() -> None:
    run = Replay()
    alerts = [a for e in round_robin("rt", 6, seed=3) for a in run.feed(Sourced(e, "t"))]
    assert alerts
    for a in alerts:
        assert encode_alert(a).decode() == a.model_dump_json()
        assert decode_alert(encode_alert(a)) == a


def _dumps(body: object) -> bytes:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


def _body(fact: StoredFact) -> dict[str, object]:
    """The table form of a stored fact, built the plain way."""
    body: dict[str, object] = {
        "p": fact.partition,
        "o": fact.offset,
        "prev": fact.prev,
        "s": fact.seq,
        "e": fact.event.model_dump(mode="json", exclude_none=True),
    }
    if fact.alerts:
        body["a"] = fact.alerts
    return body


def test_stored_facts_are_the_compact_json_of_their_body() -> None:
    facts = [
        StoredFact(partition=3, offset=i, prev=i - 1, seq=i, event=e, alerts=i % 3)
        for i, e in enumerate(round_robin("rt", 4, seed=0))
    ]
    for fact in facts:
        assert fact.encode() == _dumps(_body(fact))
        assert decode_stored(fact.encode()) == fact
    batch = FactBatch(tuple(facts))
    assert batch.encode() == _dumps({"p": 3, "facts": [_body(f) for f in facts]})
    assert decode_stored(batch.encode()) == batch


def test_a_release_record_reads_back_and_names_its_partition() -> None:
    record = Released(partition=4, tournament_id="open/2026", first=12, end=907, seq=311)
    assert decode_stored(record.encode()) == record
    assert key_partition(record.key()) == 4


# any text the contract accepts (no control characters: tracker.contract._printable)
_TEXT = st.characters(
    codec="utf-8", exclude_characters=[*map(chr, range(32)), "\x7f", *ev.BIDI_CONTROLS]
)


@given(
    tid=st.text(_TEXT, min_size=1, max_size=8),
    name=st.text(_TEXT, min_size=1, max_size=8),
    rating=st.one_of(st.none(), st.integers(1, 3500)),
)
def test_any_text_in_a_stored_fact_is_written_as_json_dumps_writes_it(
    tid: str, name: str, rating: int | None
) -> None:
    events: list[ev.InputEvent] = [
        ev.PlayerRegistered(tournament_id=tid, rank=1, name=name, federation="GER", rating=rating),
        ev.GameResult(
            tournament_id=tid, round=1, white=1, black=2, result="1-0", black_rating=rating
        ),
    ]
    for e in events:
        fact = StoredFact(partition=0, offset=7, prev=-1, seq=0, event=e)
        assert fact.encode() == _dumps(_body(fact))


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACKER_BROKER", "kafka://k1:9093;kafka://k2:9093")
    monkeypatch.setenv("TRACKER_PARTITIONS", "12")
    monkeypatch.setenv("TRACKER_TOPIC_PREFIX", "prod-")
    monkeypatch.setenv("TRACKER_PROCESSING_GUARANTEE", "exactly_once")
    s = Settings()
    assert s.bootstrap_servers == ["k1:9093", "k2:9093"]
    assert s.faust_broker == ["kafka://k1:9093", "kafka://k2:9093"]
    assert s.partitions == 12
    assert s.topic("dead_letters") == "prod-tournament-events-dead-letters"
    assert set(s.output_topics.values()) == {
        "prod-norm-alerts",
        "prod-title-alerts",
        "prod-ignorable-games",
        "prod-round-summaries",
    }
    assert s.processing_guarantee == "exactly_once"
    assert s.with_broker(None) is s
    assert s.with_broker("kafka://x:1").bootstrap_servers == ["x:1"]


def test_sasl_settings_reach_both_kinds_of_client() -> None:
    s = Settings(
        security_protocol="SASL_PLAINTEXT",
        sasl_mechanism="SCRAM-SHA-256",
        sasl_username="tracker",
        sasl_password="pa55-w0rd",
    )  # type: ignore[arg-type]
    kwargs = s.client_kwargs()
    assert kwargs["sasl_mechanism"] == "SCRAM-SHA-256"
    assert kwargs["sasl_plain_password"] == "pa55-w0rd"
    creds = s.faust_credentials()
    assert creds.username == "tracker"
    assert creds.mechanism.value == "SCRAM-SHA-256"
    assert "pa55-w0rd" not in repr(s)


def test_schemas_describe_the_messages(tmp_path: Path) -> None:
    written = write_schemas(tmp_path)
    assert {p.name for p in written} == set(schemas())
    for path in written:
        schema = json.loads(path.read_text())
        assert schema["$schema"].startswith("https://json-schema.org/")
    inputs = json.loads((tmp_path / "input-event.schema.json").read_text())
    kinds = {
        d["properties"]["type"]["const"]
        for d in inputs["$defs"].values()
        if "type" in d.get("properties", {})
    }
    assert {"tournament_registered", "game_result", "result_corrected"} <= kinds
    letter = DeadLetter(reason="r", field=None, raw="x", key=None, topic="t", partition=0, offset=1)
    assert json.loads(letter.encode())["offset"] == 1


def test_the_alert_schema_has_its_version_and_numbers_for_scores(tmp_path: Path) -> None:
    """Contract version 3 (README, "The event contract"): every alert carries
    ``schema_version`` 3, and every score is a JSON number, the display text beside it (since
    version 2)."""
    write_schemas(tmp_path)
    alerts = json.loads((tmp_path / "output-event.schema.json").read_text())
    defs = alerts["$defs"]
    kinds = [d for d in defs.values() if "const" in d.get("properties", {}).get("type", {})]
    assert len(kinds) == len(AUDIENCE_OF)
    for kind in kinds:
        assert kind["properties"]["schema_version"]["const"] == ev.SCHEMA_VERSION == 3
    scored = {name: d["properties"] for name, d in defs.items() if "score" in d["properties"]}
    assert set(scored) == {"NormEvidence", "ProspectNeed", "ProspectWay", "Standing", "TitleNorm"}
    for name, props in scored.items():
        kinds_of = [props["score"], *props["score"].get("anyOf", ())]  # a held norm has none
        assert {"type": "number"} in kinds_of or props["score"].get("type") == "number", name
    assert props_text(scored) == {"NormEvidence", "Standing", "TitleNorm"}


def props_text(scored: dict[str, dict[str, object]]) -> set[str]:
    """The models whose score has a display text beside it."""
    return {name for name, props in scored.items() if "score_text" in props}


def test_a_round_closed_event_is_tiny() -> None:
    e = ev.RoundClosed(tournament_id="t", round=1)
    assert encode_input(e) == b'{"type":"round_closed","tournament_id":"t","round":1}'
    assert (
        ev.TournamentRegistered(
            tournament_id="t", start_date=date(2011, 1, 1), planned_rounds=9
        ).type
        == "tournament_registered"
    )


def test_doctests_of_the_streams_modules() -> None:
    import doctest

    import streams.records
    import streams.settings

    for module in (streams.settings, streams.records):
        failed, tried = doctest.testmod(module)
        assert tried
        assert not failed
