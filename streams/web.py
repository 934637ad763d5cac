"""The worker's web views (Faust's aiohttp server, ``tracker worker --web-port N``).

Thin: each handler finds the tournament's state, calls the core (:mod:`tracker.render.views`,
:mod:`tracker.render.certificate`) and returns its JSON. The routes are those of
:data:`streams.openapi.ROUTES`, described at ``/openapi.json``.

A tournament lives on the worker that owns its input partition. A request for a tournament
is forwarded there when Faust's partition assignment names another worker (the input topic's
key is the tournament id, so :meth:`faust.App.router.external_topic_key_store` finds it);
every worker must then be reachable at its ``canonical_url`` (``TRACKER_WEB_HOST`` and the
port). ``/api/tournaments`` lists only this worker's tournaments. The alert stream and the
live page work on any worker: each follows every output topic.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any
from urllib.parse import quote

from aiohttp import ClientError
from aiohttp import web as aioweb

from streams.feed import AlertFeed
from streams.openapi import ROUTES, TournamentList, document
from streams.processor import Processor
from streams.settings import Settings
from tracker.contract.alert_filter import AlertFilter
from tracker.domain.titles import Title
from tracker.engine.state import TournamentState
from tracker.render.certificate import NoNorm, certificate
from tracker.render.views import find_player, player_card, standings, summary

log = logging.getLogger(__name__)

CORS = {"Access-Control-Allow-Origin": "*"}
ROUTED = "X-Tracker-Routed"
"""Set on a forwarded request: the receiving worker answers it itself (no loops)."""
LOCKED = "default-src 'none'; base-uri 'none'; form-action 'none'"
"""The Content-Security-Policy of every answer but the HTML pages: nothing may load."""


def content_security_policy(html: bytes) -> str:
    """The policy of one of our HTML pages: its own inline ``<script>`` and ``<style>``
    blocks (by their SHA-256, so no other script runs even if a name got through the
    escaping), requests to this server only (``fetch``, ``EventSource``), nothing else.

    >>> print(content_security_policy(b"<style>b{}</style><script>go()</script>"))
    ... # doctest: +NORMALIZE_WHITESPACE
    default-src 'none'; script-src 'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw=';
    style-src 'sha256-7yqHVAesot11p6HczDsgKRipvI5UPgs97z80zNXlans='; connect-src 'self';
    img-src 'self' data:; base-uri 'none'; form-action 'none'
    """

    def hashes(tag: bytes) -> str:
        blocks = re.findall(rb"<" + tag + rb">(.*?)</" + tag + rb">", html, re.S)
        found = [base64.b64encode(hashlib.sha256(b).digest()).decode() for b in blocks]
        return " ".join(f"'sha256-{h}'" for h in found) or "'none'"

    return (
        f"default-src 'none'; script-src {hashes(b'script')}; style-src {hashes(b'style')}; "
        "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'"
    )


def content_disposition(name: str) -> str:
    """``inline`` with the file name as RFC 6266 has it: a plain ASCII ``filename`` (other
    characters, quotes, ``;`` and ``\\`` replaced) and the exact name as ``filename*``,
    percent-encoded UTF-8 (RFC 5987).

    >>> print(content_disposition('q"uote;x=1-3-GM.pdf'))
    inline; filename="q_uote_x_1-3-GM.pdf"; filename*=UTF-8''q%22uote%3Bx%3D1-3-GM.pdf
    >>> print(content_disposition("Zürich-3-GM.pdf"))
    inline; filename="Z_rich-3-GM.pdf"; filename*=UTF-8''Z%C3%BCrich-3-GM.pdf
    """
    plain = re.sub(r"[^A-Za-z0-9._-]", "_", name)
    exact = quote(name, safe="!#$&+^`|~")
    return f"inline; filename=\"{plain}\"; filename*=UTF-8''{exact}"


class Problem(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _title(text: str | None) -> Title | None:
    """The ``title`` query parameter, in any case as ``--title`` takes it (``gm`` is GM)."""
    if not text:
        return None
    try:
        return Title(text.upper())
    except ValueError:
        known = ", ".join(t.value for t in Title)
        raise Problem(400, f"title: {text!r} is not a title ({known})") from None


def _round(text: str | None) -> int | None:
    """The ``round`` query parameter: a round number."""
    if not text:
        return None
    if not text.isdigit():
        raise Problem(400, f"round: {text!r} is not a round number")
    return int(text)


def _json(body: str | bytes, status: int = 200) -> aioweb.Response:
    data = body.encode() if isinstance(body, str) else body
    return aioweb.Response(
        body=data, status=status, content_type="application/json", charset="utf-8", headers=CORS
    )


def _problem(status: int, message: str) -> aioweb.Response:
    return _json(json.dumps({"error": message}), status)


def register(app: Any, settings: Settings, source: Any, processor: Processor) -> AlertFeed:
    """Add the views of :data:`~streams.openapi.ROUTES` to the Faust ``app``, answering from
    the ``processor``'s tournaments (``source``: the input topic, whose keys say which worker
    holds a tournament); returns the alert feed behind ``/api/alerts``."""
    page: Any = app.page  # faust's annotations do not know aiohttp's response classes
    feed = AlertFeed(settings)
    live_page = files("streams").joinpath("static/live.html").read_bytes()
    live_policy = content_security_policy(live_page)
    ours = frozenset(route.path for route in ROUTES)

    @aioweb.middleware
    async def only_ours(request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        """Serve the routes of :data:`~streams.openapi.ROUTES` and nothing else (Faust's
        own pages are switched off in :meth:`~streams.settings.Settings.faust_web`; this
        keeps any it adds unserved)."""
        resource = request.match_info.route.resource
        if resource is None or resource.canonical not in ours:
            return _problem(404, "path: no such route (the routes are listed at /openapi.json)")
        return await handler(request)

    async def secure(request: Any, response: aioweb.StreamResponse) -> None:
        response.headers["X-Content-Type-Options"] = "nosniff"
        if response.content_type != "application/pdf":
            response.headers.setdefault("Content-Security-Policy", LOCKED)

    web_app = app.web.web_app  # Faust's aiohttp driver
    web_app.middlewares.append(only_ours)
    web_app.on_response_prepare.append(secure)
    api = json.dumps(document(), indent=1).encode()
    answered: dict[tuple[str, ...], tuple[TournamentState, bytes]] = {}
    """The last JSON body per view and tournament, with the state it was made from: every
    viewer of a live page asks again after each alert, and the state only changes with a
    fact, so the answer is made once per state."""

    def once(key: tuple[str, ...], state: TournamentState, make: Callable[[], str]) -> bytes:
        hit = answered.get(key)
        if hit is None or hit[0] is not state:
            hit = answered[key] = (state, make().encode())
        return hit[1]

    async def elsewhere(request: Any, tid: str) -> aioweb.Response | None:
        """The answer of the worker owning ``tid``, if that is another worker."""
        if request.headers.get(ROUTED):
            return None
        try:
            url = app.router.external_topic_key_store(source, tid.encode())
        except Exception:  # no assignment known (yet): this worker answers
            log.debug("no owner known for %r; answering here", tid, exc_info=True)
            return None
        here = app.conf.canonical_url
        if (url.host, url.port) == (here.host, here.port):
            return None
        target = request.url.with_host(url.host).with_port(url.port)
        try:
            async with app.http_client.get(target, headers={ROUTED: "1"}) as answer:
                return aioweb.Response(
                    body=await answer.read(),
                    status=answer.status,
                    content_type=answer.content_type,
                    headers=CORS,
                )
        except (ClientError, TimeoutError) as exc:
            return _problem(503, f"tournament_id: the worker at {url} holding {tid!r}: {exc}")

    def tournament_view(
        path: str, answer: Callable[[TournamentState, Any, dict[str, str]], aioweb.Response]
    ) -> None:
        async def view(self: Any, request: Any, **match: str) -> aioweb.Response:
            tid = match["tournament_id"]
            forwarded = await elsewhere(request, tid)
            if forwarded is not None:
                return forwarded
            state = processor.peek(tid)
            if state is None:
                return _problem(404, f"tournament_id: no tournament {tid!r} on this worker")
            try:
                return answer(state, request, match)
            except Problem as exc:
                return _problem(exc.status, str(exc))

        page(path, name=path)(view)

    def rank_of(state: TournamentState, wanted: str) -> int:
        rank = find_player(state, wanted)
        if rank is None:
            raise Problem(404, f"player: no player with start rank or FIDE id {wanted}")
        return rank

    def cert_answer(state: TournamentState, request: Any, match: dict[str, str]) -> Any:
        rank = rank_of(state, match["player"])
        query = request.query
        fmt = query.get("format", "json")
        title = _title(query.get("title"))
        up_to = _round(query.get("round"))
        if fmt not in ("json", "html", "pdf"):
            raise Problem(400, f"format: {fmt!r} is not json, html or pdf")
        try:
            cert = certificate(state, rank, title, up_to)
        except NoNorm as exc:
            raise Problem(404, str(exc)) from None
        if fmt == "html":
            from tracker.render.certificate_html import render

            html = render(cert).encode()
            policy = {"Content-Security-Policy": content_security_policy(html)}
            return aioweb.Response(
                body=html, content_type="text/html", charset="utf-8", headers={**CORS, **policy}
            )
        if fmt == "pdf":
            from tracker.render.certificate_pdf import render as pdf

            name = f"{state.tournament.id}-{rank}-{cert.title}.pdf"
            return aioweb.Response(
                body=pdf(cert),
                content_type="application/pdf",
                headers={**CORS, "Content-Disposition": content_disposition(name)},
            )
        return _json(cert.model_dump_json())

    def card_answer(state: TournamentState, _r: Any, match: dict[str, str]) -> aioweb.Response:
        rank = rank_of(state, match["player"])
        key = ("card", state.tournament.id, str(rank))
        return _json(once(key, state, lambda: player_card(state, rank).model_dump_json()))

    tournament_view(
        "/api/tournaments/{tournament_id}",
        lambda state, _r, _m: _json(summary(state).model_dump_json()),
    )
    tournament_view(
        "/api/tournaments/{tournament_id}/standings",
        lambda state, _r, _m: _json(
            once(
                ("standings", state.tournament.id),
                state,
                lambda: standings(state).model_dump_json(),
            )
        ),
    )
    tournament_view("/api/tournaments/{tournament_id}/players/{player}", card_answer)
    tournament_view("/api/tournaments/{tournament_id}/players/{player}/certificate", cert_answer)

    async def tournaments(self: Any, request: Any) -> aioweb.Response:
        found = [processor.peek(t) for t in processor.tournaments()]
        listing = TournamentList(tournaments=[summary(s) for s in found if s is not None])
        return _json(listing.model_dump_json())

    async def alerts(self: Any, request: Any) -> aioweb.StreamResponse:
        query = request.query
        wanted = AlertFilter.of(
            query.getall("tournament", []), query.getall("type", []), query.getall("federation", [])
        )
        given = request.headers.get("Last-Event-ID")
        where, given = ("Last-Event-ID", given) if given else ("since", query.get("since"))
        if given and not (given.isascii() and given.isdigit() and len(given) <= 20):
            return _problem(400, f"{where}: not an id this stream gives (a whole number ≥ 0)")
        feed.start()
        after, notice = feed.resume(int(given or 0))
        stream = aioweb.StreamResponse(
            headers={
                **CORS,
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await stream.prepare(request)
        try:
            await stream.write(b"retry: 2000\n\n")
            if notice is not None:
                await stream.write(f"event: {notice.kind}\ndata: {notice.json()}\n\n".encode())
            async for entry in feed.read(wanted, after):
                if entry is None:
                    await stream.write(b": keep-alive\n\n")
                    continue
                await stream.write(entry.sse())
        except ConnectionResetError:  # the client left
            pass
        return stream

    async def openapi(self: Any, request: Any) -> aioweb.Response:
        return _json(api)

    async def live(self: Any, request: Any) -> aioweb.Response:
        return aioweb.Response(
            body=live_page,
            content_type="text/html",
            charset="utf-8",
            headers={"Content-Security-Policy": live_policy},
        )

    async def stop_feed(sender: Any, /, *args: Any, signal: Any, **kwargs: Any) -> None:
        await feed.stop()

    app.on_before_shutdown.connect(stop_feed)
    page("/api/tournaments", name="/api/tournaments")(tournaments)
    page("/api/alerts", name="/api/alerts")(alerts)
    page("/openapi.json", name="/openapi.json")(openapi)
    page("/live", name="/live")(live)
    return feed


__all__ = ["register"]
