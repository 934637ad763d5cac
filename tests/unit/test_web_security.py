"""The web server's exposure (issue 15, item 9) without a broker: it listens on loopback
unless told otherwise and serves no Faust page; every answer says ``nosniff`` and carries a
Content-Security-Policy (the HTML pages: their own inline blocks only); the PDF's file name
is encoded per RFC 6266 / 5987; SSE positions are checked. The same against the real worker:
``tests/integration/test_web_exposure.py``."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import re
from typing import Any
from urllib.parse import quote, unquote

import pytest
from aiohttp import web as aioweb
from aiohttp.test_utils import TestClient, TestServer

from streams.faust.wiring import build
from streams.publish import load
from streams.settings import Settings
from streams.web import content_disposition, content_security_policy
from tests.support.web import SEED, TID, Served, served

HOSTILE = 'q"uote;x=1 Zürich\\'


@pytest.fixture
def wiring() -> Served:
    """The seed twice: under its own id and under a hostile one."""
    events = load(SEED)
    hostile = [e.model_copy(update={"tournament_id": HOSTILE}) for e in events]
    return served([*events, *hostile])


def test_the_web_server_listens_on_loopback_unless_told() -> None:
    default = Settings().faust_web()
    assert default["web_bind"] == "127.0.0.1"
    assert default["web_host"] == "127.0.0.1"  # what others (on this host) forward to
    everywhere = Settings(web_bind="0.0.0.0").faust_web()
    assert everywhere["web_bind"] == "0.0.0.0"
    assert "web_host" not in everywhere  # Faust's default: the host name
    named = Settings(web_bind="0.0.0.0", web_host="worker-1.tracker").faust_web()
    assert named["web_host"] == "worker-1.tracker"
    for page in ("router", "tables", "stats", "graph", "metrics"):
        assert default[f"web_{page}_enabled"] is False
    w = build(Settings(broker="kafka://127.0.0.1:9", app_id="bind", web_port=6998))
    assert w.app.conf.web_bind == "127.0.0.1"
    assert str(w.app.conf.canonical_url) == "http://127.0.0.1:6998"


def test_bind_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRACKER_WEB_BIND", "0.0.0.0")
    assert Settings().faust_web()["web_bind"] == "0.0.0.0"


async def get(
    w: Served, path: str, headers: dict[str, str] | None = None
) -> tuple[int, Any, bytes]:
    async with TestClient(TestServer(w.web_app)) as client:
        answer = await client.get(path, headers=headers or {})
        return answer.status, answer.headers, await answer.read()


async def test_only_our_routes_are_served(wiring: Served) -> None:
    async def faust_page(request: aioweb.Request) -> aioweb.Response:
        return aioweb.json_response({"cluster": "layout"})

    # what Faust would add at start if its pages were on (its blueprints apply then)
    for path in ("/", "/router/", "/table/facts/", "/stats/"):
        wiring.web_app.router.add_get(path, faust_page)
    for path in ("/", "/router/", "/table/facts/", "/stats/", "/nope", "/api/tournaments/x/y"):
        status, headers, body = await get(wiring, path)
        assert status == 404, path
        assert json.loads(body)["error"].startswith("path: no such route"), path
        assert headers["X-Content-Type-Options"] == "nosniff"
    assert (await get(wiring, "/openapi.json"))[0] == 200


@pytest.mark.parametrize(
    "path",
    [
        "/api/tournaments",
        f"/api/tournaments/{TID}/standings",
        f"/api/tournaments/{TID}/players/14",
        "/api/tournaments/nope",
        "/openapi.json",
    ],
)
async def test_json_answers_say_nosniff_and_load_nothing(wiring: Served, path: str) -> None:
    _, headers, _ = await get(wiring, path)
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert headers["Access-Control-Allow-Origin"] == "*"


def inline_hashes(html: bytes, tag: str) -> set[str]:
    blocks = re.findall(rf"<{tag}>(.*?)</{tag}>".encode(), html, re.S)
    return {
        "'sha256-" + base64.b64encode(hashlib.sha256(b).digest()).decode() + "'" for b in blocks
    }


def directives(policy: str) -> dict[str, set[str]]:
    out = {}
    for part in policy.split(";"):
        name, *values = part.split()
        out[name] = set(values)
    return out


@pytest.mark.parametrize(
    "path", ["/live", f"/api/tournaments/{TID}/players/14/certificate?format=html&round=9"]
)
async def test_html_pages_allow_only_their_own_inline_blocks(wiring: Served, path: str) -> None:
    status, headers, html = await get(wiring, path)
    assert status == 200
    assert headers["X-Content-Type-Options"] == "nosniff"
    policy = directives(headers["Content-Security-Policy"])
    assert policy["default-src"] == {"'none'"}
    assert policy["style-src"] == inline_hashes(html, "style")
    if b"<script>" in html:
        assert policy["script-src"] == inline_hashes(html, "script")
        assert policy["connect-src"] == {"'self'"}  # fetch and EventSource to this server
    else:
        assert policy["script-src"] == {"'none'"}
    assert "'unsafe-inline'" not in headers["Content-Security-Policy"]
    assert not re.search(rb"<script[^>]*\ssrc=|\son[a-z]+=|style=", html)


def test_the_policy_of_a_page() -> None:
    policy = directives(content_security_policy(b"<style>a{}</style><p>no script</p>"))
    assert policy["script-src"] == {"'none'"}
    assert len(policy["style-src"]) == 1


async def test_the_pdf_file_name_is_encoded(wiring: Served) -> None:
    path = f"/api/tournaments/{quote(HOSTILE, safe='')}/players/14/certificate?format=pdf"
    status, headers, body = await get(wiring, path)
    assert status == 200
    assert body.startswith(b"%PDF-")
    assert headers["X-Content-Type-Options"] == "nosniff"
    disposition = headers["Content-Disposition"]
    assert disposition == content_disposition(f"{HOSTILE}-14-GM.pdf")
    plain = re.fullmatch(r'inline; filename="([^"]*)"; filename\*=UTF-8\'\'(\S+)', disposition)
    assert plain is not None, disposition
    assert re.fullmatch(r"[A-Za-z0-9._-]+", plain.group(1))
    assert unquote(plain.group(2)) == f"{HOSTILE}-14-GM.pdf"
    assert re.fullmatch(r"[A-Za-z0-9!#$&+^`|~%._-]+", plain.group(2))  # RFC 5987 attr-chars


@pytest.mark.parametrize(
    ("query", "headers", "named"),
    [
        ("since=-1", {}, "since"),
        ("since=1.5", {}, "since"),
        ("since=" + "9" * 21, {}, "since"),
        ("", {"Last-Event-ID": "-1"}, "Last-Event-ID"),
        ("since=3", {"Last-Event-ID": "x"}, "Last-Event-ID"),
    ],
)
async def test_stream_positions_are_whole_numbers(
    wiring: Served, query: str, headers: dict[str, str], named: str
) -> None:
    status, _, body = await get(wiring, f"/api/alerts?{query}", headers)
    assert status == 400
    assert json.loads(body)["error"].startswith(f"{named}: ")


async def test_a_stale_position_gets_a_reset_notice_and_everything(wiring: Served) -> None:
    feed = wiring.feed
    feed.task = asyncio.create_task(asyncio.sleep(3600))  # no broker: fill it by hand
    for i in range(3):
        await feed.add(json.dumps({"alert_id": f"a{i}", "type": "x", "tournament_id": "t"}))
    try:
        async with TestClient(TestServer(wiring.web_app)) as client:
            answer = await client.get("/api/alerts", headers={"Last-Event-ID": "5"})
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            lines: list[bytes] = []
            async with asyncio.timeout(10):
                while sum(line.startswith(b"data: ") for line in lines) < 4:
                    lines.append(await answer.content.readline())
            answer.close()
    finally:
        await feed.stop()
    text = b"".join(lines).decode()
    assert text.startswith("retry: 2000\n\nevent: reset\ndata: {")
    assert "is not one this worker gave" in text
    got = [json.loads(line[6:])["alert_id"] for line in lines[5:] if line.startswith(b"data: ")]
    assert got == ["a0", "a1", "a2"]
    assert f"id: {feed.base + 3}\n" in text


async def raw_request(client: TestClient, line: bytes) -> bytes:
    reader, writer = await asyncio.open_connection(client.host, client.port)
    writer.write(line + b"\r\nHost: x\r\nConnection: close\r\n\r\n")
    await writer.drain()
    answer = await reader.read()
    writer.close()
    return answer


async def test_long_request_lines_are_answered_with_the_headers_and_logged_once(
    wiring: Served, caplog: pytest.LogCaptureFixture
) -> None:
    """A request target over 8 kB gets a 414 naming ``path`` with the headers of every
    answer; one beyond the server's own limit a plain 400, logged in one line without a
    traceback (issue 22, point 7)."""
    async with TestClient(TestServer(wiring.web_app)) as client:
        long = await raw_request(client, b"GET /api/tournaments?x=" + b"a" * 9000 + b" HTTP/1.1")
        head, _, body = long.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 414 ")
        assert b"X-Content-Type-Options: nosniff" in head
        assert b"Content-Security-Policy: default-src 'none'" in head
        assert json.loads(body)["error"].startswith(
            "path: a request target of 9019 bytes (at most 8192)"
        )
        with caplog.at_level(logging.DEBUG, logger="aiohttp.server"):
            huge = await raw_request(client, b"GET /?" + b"a" * 70_000 + b" HTTP/1.1")
            assert huge.startswith(b"HTTP/1.0 400 ")
            await asyncio.sleep(0.05)
    errors = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert errors, "aiohttp says nothing of the refused request"
    assert all(r.exc_info is None and r.levelno <= logging.INFO for r in errors)
    assert "LineTooLong" in errors[0].getMessage()
    assert "Traceback" not in caplog.text
