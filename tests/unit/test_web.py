"""The worker's web views without a broker or Faust: :func:`streams.web.application` served by
aiohttp's test server from a processor fed the seed's messages (and, once, mounted in Faust's
web server by the wiring); the OpenAPI document; the alert feed behind the SSE stream."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from aiohttp import web as aioweb
from aiohttp.test_utils import TestClient, TestServer

from streams.faust.wiring import build
from streams.feed import AlertFeed
from streams.openapi import ROUTES, document
from streams.publish import load
from streams.records import encode_input
from streams.settings import Settings
from streams.web import HANDLER_ARGS, HANDLERS
from tests.support.web import SEED, TID, Served, served
from tracker.contract.alert_filter import AlertFilter
from tracker.host.replay import read_events, replay


@pytest.fixture
def wiring() -> Served:
    return served(load(SEED))


def served_paths(app: aioweb.Application) -> set[str]:
    paths = set()
    for resource in app.router.resources():
        info = resource.get_info()
        paths.add(info.get("path") or info.get("formatter"))
    return paths


def test_every_route_is_described_and_served(wiring: Served) -> None:
    doc = document()
    described = set(doc["paths"])
    assert described == {r.path for r in ROUTES}
    assert set(HANDLERS) == described
    ours = {p for p in served_paths(wiring.web_app) if p.startswith(("/api", "/live", "/openapi"))}
    assert ours == described
    schemas = doc["components"]["schemas"]
    for path, item in doc["paths"].items():
        ok = item["get"]["responses"]["200"]["content"]
        body = ok.get("application/json", {}).get("schema", {})
        if "$ref" in body:
            assert body["$ref"].rsplit("/", 1)[1] in schemas, path
        for name in [p for p in path.split("/") if p.startswith("{")]:
            params = {p["name"] for p in item["get"]["parameters"] if p["in"] == "path"}
            assert name.strip("{}") in params, path
    text = json.dumps(doc)
    for ref in {r.split('"')[0] for r in text.split('"$ref": "#/components/schemas/')[1:]}:
        assert ref in schemas, ref


def test_the_wiring_mounts_the_views_in_fausts_web_server() -> None:
    w = build(Settings(broker="kafka://127.0.0.1:9", app_id="web-unit", web_port=6999))
    faust_web = w.app.web.web_app
    assert {p for p in served_paths(faust_web) if p.startswith("/")} >= set(HANDLERS)
    assert w.feed is not None
    assert w.processor is not None
    assert w.app.conf.web_application_options == {"handler_args": HANDLER_ARGS}


async def fetch(w: Served, path: str) -> tuple[int, str, bytes]:
    async with TestClient(TestServer(w.web_app)) as client:
        answer = await client.get(path)
        return answer.status, answer.content_type, await answer.read()


async def test_rest_views_answer_from_the_processor(wiring: Served) -> None:
    cert = f"/api/tournaments/{TID}/players/14/certificate"
    status, kind, body = await fetch(wiring, f"/api/tournaments/{TID}/standings")
    assert (status, kind) == (200, "application/json")
    table = json.loads(body)
    assert table["round"] == 11
    assert len(table["rows"]) == 32
    dumitrescu = next(r for r in table["rows"] if r["player"]["rank"] == 14)
    (gm,) = [n for n in dumitrescu["norms"] if n["title"] == "GM"]
    assert (gm["stage"], gm["in_force"]) == ("achieved", True)
    assert "evidence" not in gm  # the card's
    status, _, body = await fetch(wiring, f"/api/tournaments/{TID}/players/90000314")
    assert status == 200
    card = json.loads(body)
    assert card["player"] == dumitrescu["player"]  # one shape for a player
    (card_gm,) = [n for n in card["norms"] if n["title"] == "GM"]
    assert {k: card_gm[k] for k in gm} == gm  # one shape for a norm, with more on the card
    status, kind, body = await fetch(wiring, f"{cert}?format=html&round=9")
    assert (status, kind) == (200, "text/html")
    assert b"Rp (rating performance)" in body
    assert b"2702" in body
    status, kind, _ = await fetch(
        wiring, f"/api/tournaments/{TID}/players/14/certificate?format=pdf"
    )
    assert (status, kind) == (200, "application/pdf")
    status, _, body = await fetch(wiring, f"{cert}?title=gm&round=9")  # any case, as --title
    assert status == 200
    assert (json.loads(body)["title"], json.loads(body)["rounds_considered"]) == ("GM", 9)


@pytest.mark.parametrize(
    ("path", "status", "error"),
    [
        ("/api/tournaments/nope", 404, "tournament_id: no tournament 'nope'"),
        (f"/api/tournaments/{TID}/players/77", 404, "player: no player"),
        (f"/api/tournaments/{TID}/players/14/certificate?format=doc", 400, "format"),
        (f"/api/tournaments/{TID}/players/14/certificate?title=XX", 400, "title: 'XX' is not"),
        (f"/api/tournaments/{TID}/players/14/certificate?round=x", 400, "round: 'x' is not"),
        (f"/api/tournaments/{TID}/players/14/certificate?title=im", 404, "title: "),
        (f"/api/tournaments/{TID}/players/14/certificate?round=12", 404, "not a finished"),
        (f"/api/tournaments/{TID}/players/3/certificate", 404, "can gain no norm title"),
        ("/api/alerts?since=x", 400, "since"),
    ],
)
async def test_errors_name_the_parameter(
    wiring: Served, path: str, status: int, error: str
) -> None:
    got, kind, body = await fetch(wiring, path)
    assert (got, kind) == (status, "application/json")
    assert error in json.loads(body)["error"]


async def test_the_live_page_is_one_html_file(wiring: Served) -> None:
    status, kind, body = await fetch(wiring, "/live")
    assert (status, kind) == (200, "text/html")
    assert b'name="viewport"' in body
    assert b"new EventSource(" in body
    assert b"<script src" not in body  # nothing to build or fetch besides the API


def seed_alerts() -> list[str]:
    return [
        a.model_dump_json()
        for a in replay(read_events(SEED.read_text(encoding="utf-8"), SEED.name))
    ]


async def test_the_feed_drops_repeats_and_filters() -> None:
    feed = AlertFeed(Settings(broker="kafka://127.0.0.1:9", feed_alerts=1000))
    alerts = seed_alerts()
    for raw in [*alerts, *alerts[:5]]:
        await feed.add(raw.encode())
    await feed.add(b"not json")
    assert feed.last - feed.base == len(alerts)

    async def take(wanted: AlertFilter, after: int = 0) -> list[dict[str, Any]]:
        out = []
        async for entry in feed.read(wanted, after, heartbeat=0.05):
            if entry is None:
                return out
            out.append(json.loads(entry.data))
        return out

    everything = await take(AlertFilter())
    assert [a["alert_id"] for a in everything] == [json.loads(a)["alert_id"] for a in alerts]
    rou = await take(AlertFilter.of(federations=["ROU"]))
    assert rou
    assert {a["player"]["federation"] for a in rou} == {"ROU"}
    rou_norms = await take(AlertFilter.of(federations=["ROU"], types=["norm_achieved"]))
    assert [(a["type"], a["player"]["name"]) for a in rou_norms] == [
        ("norm_achieved", "Dumitrescu, Radu")
    ]
    assert await take(AlertFilter(), after=feed.last) == []
    # an alert type the feed has never heard of passes through, and wakes a waiting reader
    reader = asyncio.create_task(take(AlertFilter.of(types=["norm_prospect"]), feed.last))
    await asyncio.sleep(0.01)
    await feed.add(b'{"alert_id": "p1", "type": "norm_prospect", "tournament_id": "t"}')
    assert [a["alert_id"] for a in await reader] == ["p1"]


async def test_the_feed_forgets_the_oldest_beyond_its_size() -> None:
    feed = AlertFeed(Settings(broker="kafka://127.0.0.1:9", feed_alerts=3))
    for i in range(5):
        await feed.add(json.dumps({"alert_id": f"a{i}", "type": "x"}).encode())
    assert list(feed.entries) == ["a2", "a3", "a4"]


def test_peek_replays_waiting_facts_into_a_copy() -> None:
    from streams.processor import Processor
    from tracker.render.views import standings

    live = Processor(topic="in")
    stored = []
    events = load(SEED)
    for offset, event in enumerate(events):
        outcome = live.handle(event.tournament_id.encode(), encode_input(event), 0, offset)
        if outcome.fact is not None:
            stored.append(outcome.fact.encode())
    taken_over = Processor(topic="in")
    taken_over.rebuild(0, len(events), stored)
    assert taken_over.tournaments() == [TID]
    assert TID in taken_over.pending
    state = taken_over.peek(TID)
    assert state is not None
    assert standings(state) == standings(live.states[TID])
    assert TID in taken_over.pending, "peeking must not replay the facts for the agent"
    assert taken_over.peek("nope") is None


async def test_answers_follow_new_facts(wiring: Served) -> None:
    from tracker import contract as ev

    path = f"/api/tournaments/{TID}/standings"
    async with TestClient(TestServer(wiring.web_app)) as client:
        first = await (await client.get(path)).json()
        assert await (await client.get(path)).json() == first
        last = next(
            e for e in reversed(load(SEED)) if isinstance(e, ev.GameResult) and e.round == 11
        )
        flipped = "0-1" if last.result == "1-0" else "1-0"
        fix = ev.ResultCorrected(**{**last.model_dump(exclude={"type"}), "result": flipped})
        assert wiring.processor is not None
        wiring.processor.handle(TID.encode(), encode_input(fix), 0, len(load(SEED)))
        second = await (await client.get(path)).json()
    scores = {r["player"]["rank"]: r["score"] for r in first["rows"]}
    again = {r["player"]["rank"]: r["score"] for r in second["rows"]}
    assert {r for r in scores if scores[r] != again[r]} == {last.white, last.black}


async def test_stopping_the_feed_ends_its_readers() -> None:
    feed = AlertFeed(Settings(broker="kafka://127.0.0.1:9"))
    await feed.add(b'{"alert_id": "a", "type": "x"}')

    async def read_all() -> list[str]:
        reading = feed.read(AlertFilter(), heartbeat=60)
        return [json.loads(e.data)["alert_id"] async for e in reading if e]

    reader = asyncio.create_task(read_all())
    await asyncio.sleep(0.05)
    await feed.stop()
    assert await asyncio.wait_for(reader, 2) == ["a"]


async def test_a_tournament_held_by_an_unreachable_worker(
    wiring: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    from yarl import URL

    monkeypatch.setattr(wiring.backend, "owner", lambda tid: URL("http://127.0.0.1:9"))
    status, kind, body = await fetch(wiring, f"/api/tournaments/{TID}/standings")
    assert (status, kind) == (503, "application/json")
    assert "the worker at http://127.0.0.1:9 holding" in json.loads(body)["error"]
