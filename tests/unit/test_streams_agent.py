"""The agent's wiring, in memory (Faust's ``test_context``; no broker): a message in, the
fact written to the table, alerts sent to the topic of their audience, refusals to the
dead-letter topic."""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from unittest.mock import AsyncMock, patch

import pytest

from streams.faust.wiring import Wiring, build
from streams.records import FactBatch, SentMark, decode_stored, encode_input
from streams.settings import Settings
from streams.synthetic import round_robin
from tests.support.paths import ROOT


@pytest.fixture
def wiring() -> Iterator[Wiring]:
    w = build(Settings(broker="kafka://127.0.0.1:1", app_id="agent-test", store="memory://"))
    w.app.finalize()
    w.app.flow_control.resume()
    return w


async def test_agent_stores_facts_and_routes_alerts(wiring: Wiring) -> None:
    events = round_robin("ag", 4, seed=1)
    sent: dict[str, list[bytes]] = {}
    names = {t.get_topic_name(): n for n, t in wiring.outputs.items()}
    names[wiring.dead_letters.get_topic_name()] = "dead_letters"

    async def send(topic: object, *, key: bytes, value: bytes) -> None:
        sent.setdefault(names[topic.get_topic_name()], []).append(value)  # type: ignore[attr-defined]

    topic_class = type(wiring.dead_letters)
    with (
        patch.object(type(wiring.facts), "send_changelog"),
        patch.object(topic_class, "send", new=send),
        patch.object(topic_class, "maybe_declare", new=AsyncMock()),
    ):
        async with wiring.agent.test_context() as agent:
            for e in events:
                await agent.put(encode_input(e), key=b"ag", partition=0)  # offset = i
            await agent.put(b"{oops", key=b"ag", partition=0)

    rounds = [json.loads(v) for v in sent["rounds"]]
    assert [r["round"] for r in rounds] == [1, 2, 3]
    assert all(
        json.loads(v)["type"] in ("norm_achieved", "norm_revoked") for v in sent.get("norms", [])
    )
    [letter] = [json.loads(v) for v in sent["dead_letters"]]
    assert letter["field"] is None
    assert letter["offset"] == len(events)
    stored = [decode_stored(v) for v in wiring.facts.values()]
    # a partition's facts go to the table in batches, each closed by a fact with alerts:
    # here the three round ends, the last of which is the tournament's last fact
    batches = [b for b in stored if isinstance(b, FactBatch)]
    assert len(batches) == 3
    facts = [f for b in batches for f in b.facts]
    assert len(facts) == len(events)
    assert [f.offset for f in facts] == sorted(f.offset for f in facts)
    assert all(b.facts[-1].alerts for b in batches)
    assert sorted(f.seq for f in facts) == list(range(len(events)))
    # each round's alerts were acknowledged (the mock) before the next message: marked sent
    # (one mark per tournament: every fact up to the last is covered)
    with_alerts = {f.key() for f in facts if f.alerts}
    assert len(with_alerts) == 3
    marks = [m for m in stored if isinstance(m, SentMark)]
    assert marks == [SentMark(partition=0, tournament_id="ag", upto=len(events) - 1)]


def test_the_wiring_depends_on_the_agent_and_the_views_not_the_other_way_round() -> None:
    root = ROOT / "streams"
    for name in ("faust/agents", "faust/watch", "web", "processor", "feed"):
        tree = ast.parse((root / f"{name}.py").read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert "streams.faust.wiring" not in imported, name
