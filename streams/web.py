"""The worker's web views (Faust's aiohttp server, ``tracker worker --web-port N``).

Thin: each handler finds the tournament's state, calls the core (:mod:`tracker.views`,
:mod:`tracker.certificate`) and returns its JSON. The routes are those of
:data:`streams.openapi.ROUTES`, described at ``/openapi.json``.

A tournament lives on the worker that owns its input partition. A request for a tournament
is forwarded there when Faust's partition assignment names another worker (the input topic's
key is the tournament id, so :meth:`faust.App.router.external_topic_key_store` finds it);
every worker must then be reachable at its ``canonical_url`` (``TRACKER_WEB_HOST`` and the
port). ``/api/tournaments`` lists only this worker's tournaments. The alert stream and the
live page work on any worker: each follows every output topic.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from importlib.resources import files
from typing import Any

from aiohttp import ClientError
from aiohttp import web as aioweb

from streams.feed import AlertFeed
from streams.openapi import TournamentList, document
from streams.processor import Processor
from streams.settings import Settings
from tracker.alert_filter import AlertFilter
from tracker.certificate import NoNorm, certificate
from tracker.state import TournamentState
from tracker.titles import Title
from tracker.views import find_player, player_card, standings, summary

log = logging.getLogger(__name__)

CORS = {"Access-Control-Allow-Origin": "*"}
ROUTED = "X-Tracker-Routed"
"""Set on a forwarded request: the receiving worker answers it itself (no loops)."""


class Problem(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


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
        try:
            title = Title(query["title"]) if query.get("title") else None
            up_to = int(query["round"]) if query.get("round") else None
        except ValueError as exc:
            raise Problem(400, f"title or round: {exc}") from None
        if fmt not in ("json", "html", "pdf"):
            raise Problem(400, f"format: {fmt!r} is not json, html or pdf")
        try:
            cert = certificate(state, rank, title, up_to)
        except NoNorm as exc:
            raise Problem(404, str(exc)) from None
        if fmt == "html":
            from tracker.certificate_html import render

            return aioweb.Response(
                text=render(cert), content_type="text/html", charset="utf-8", headers=CORS
            )
        if fmt == "pdf":
            from tracker.certificate_pdf import render as pdf

            name = f"{state.tournament.id}-{rank}-{cert.title}.pdf"
            return aioweb.Response(
                body=pdf(cert),
                content_type="application/pdf",
                headers={**CORS, "Content-Disposition": f'inline; filename="{name}"'},
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
        try:
            after = int(request.headers.get("Last-Event-ID") or query.get("since") or 0)
        except ValueError:
            return _problem(400, "since: not a whole number")
        feed.start()
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
            async for entry in feed.read(wanted, after):
                if entry is None:
                    await stream.write(b": keep-alive\n\n")
                    continue
                seq, _, text = entry
                await stream.write(f"id: {seq}\ndata: {text}\n\n".encode())
        except ConnectionResetError:  # the client left
            pass
        return stream

    async def openapi(self: Any, request: Any) -> aioweb.Response:
        return _json(api)

    async def live(self: Any, request: Any) -> aioweb.Response:
        return aioweb.Response(body=live_page, content_type="text/html", charset="utf-8")

    async def stop_feed(sender: Any, /, *args: Any, signal: Any, **kwargs: Any) -> None:
        await feed.stop()

    app.on_before_shutdown.connect(stop_feed)
    page("/api/tournaments", name="/api/tournaments")(tournaments)
    page("/api/alerts", name="/api/alerts")(alerts)
    page("/openapi.json", name="/openapi.json")(openapi)
    page("/live", name="/live")(live)
    return feed


__all__ = ["register"]
