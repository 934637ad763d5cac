"""The worker's web views: a plain aiohttp application (``tracker worker --web-port N``).

Thin: each handler finds the tournament's state, calls the core (:mod:`tracker.render.views`,
:mod:`tracker.render.certificate`) and returns its JSON. The routes are those of
:data:`streams.openapi.ROUTES`, described at ``/openapi.json``; :data:`HANDLERS` maps each to
its handler. Everything a handler needs is one explicit :class:`Backend` (the tournaments, the
alert feed, the settings, and who owns a tournament), so :func:`application` builds the views
with no Faust at all (the unit tests serve it with aiohttp's test client);
:mod:`streams.faust.wiring` :func:`mount`\\ s the same views into Faust's web server.

A tournament lives on the worker that owns its input partition. A request for a tournament
is forwarded there when :attr:`Backend.owner` names another worker (the worker's wiring asks
Faust's partition assignment); every worker must then be reachable at its canonical URL
(``TRACKER_WEB_HOST`` and the port). ``/api/tournaments`` lists only this worker's
tournaments. The alert stream and the live page work on any worker: each follows every
output topic.
"""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import hashlib
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from importlib.resources import files
from typing import Protocol
from urllib.parse import quote

from aiohttp import ClientError, ClientSession, ClientTimeout
from aiohttp import web as aioweb
from aiohttp.http_exceptions import HttpProcessingError
from yarl import URL

from streams.feed import AlertFeed
from streams.openapi import ROUTES, TournamentList, document
from streams.settings import Settings
from tracker.contract.alert_filter import AlertFilter
from tracker.domain.titles import Title
from tracker.engine.state import TournamentState
from tracker.render.certificate import NoNorm, NormCertificate, certificate
from tracker.render.views import find_player, player_card, standings, summary

log = logging.getLogger(__name__)

CORS = {"Access-Control-Allow-Origin": "*"}
ROUTED = "X-Tracker-Routed"
"""Set on a forwarded request: the receiving worker answers it itself (no loops)."""
LOCKED = "default-src 'none'; base-uri 'none'; form-action 'none'"
"""The Content-Security-Policy of every answer but the HTML pages: nothing may load."""
FORWARD_TIMEOUT = 30.0
"""Seconds a forwarded request may take at the owning worker."""
PDFS_KEPT = 256
"""Certificate PDFs kept in memory (~30-60 kB each)."""
MAX_TARGET = 8192
"""The longest request target (path and query) answered; a longer one gets a 414 that names
``path``, with the security headers of every answer."""
HANDLER_ARGS = {"max_line_size": 64 * 1024}
"""The server's own limit on a request line, above :data:`MAX_TARGET` so that our answer
refuses long targets. A line beyond it is refused by aiohttp itself (a plain 400), logged in
one line (:class:`QuietBadRequests`)."""


class Tournaments(Protocol):
    """What the views read tournaments from (:class:`streams.processor.Processor`)."""

    def tournaments(self) -> list[str]: ...

    def peek(self, tid: str) -> TournamentState | None: ...


def _here(_tid: str) -> URL | None:
    return None


@dataclasses.dataclass
class Backend:
    """What the views answer from."""

    tournaments: Tournaments
    feed: AlertFeed
    settings: Settings
    owner: Callable[[str], URL | None] = _here
    """The base URL of the worker holding a tournament when that is another worker;
    ``None``: this worker answers (it holds the tournament, or no owner is known yet)."""


class Views:
    """The views' state: the backend, the answers made once per tournament state, the
    client that forwards requests."""

    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.answered: dict[tuple[str, ...], tuple[TournamentState, bytes]] = {}
        """The last JSON body per view and tournament, with the state it was made from: every
        viewer of a live page asks again after each alert, and the state only changes with a
        fact, so the answer is made once per state."""
        self.api = json.dumps(document(), indent=1).encode()
        self.live_page = files("streams").joinpath("static/live.html").read_bytes()
        self.live_policy = content_security_policy(self.live_page)
        self.client: ClientSession | None = None
        self.pdfs = PdfCache(backend.settings.certificate_renders)

    def once(self, key: tuple[str, ...], state: TournamentState, make: Callable[[], str]) -> bytes:
        hit = self.answered.get(key)
        if hit is None or hit[0] is not state:
            hit = self.answered[key] = (state, make().encode())
        return hit[1]

    async def close(self) -> None:
        self.pdfs.close()
        await self.backend.feed.stop()
        if self.client is not None:
            await self.client.close()
            self.client = None


VIEWS = aioweb.AppKey("views", Views)


class PdfCache:
    """Certificate PDFs (:mod:`tracker.render.certificate_pdf`, ~0.2 s of CPU each) rendered
    off the event loop, in at most ``renders`` threads at a time, so that alerts keep flowing
    while a crowd asks for PDFs; each made once and kept (the last :data:`PDFS_KEPT`) under
    its certificate's alert id and content, which any change of the facts changes. Many
    requests for the same PDF while it is being made wait for that one rendering."""

    def __init__(self, renders: int) -> None:
        from tracker.render.certificate_pdf import render

        self.render_pdf: Callable[[NormCertificate], bytes] = render
        self.renders = renders
        self.threads: ThreadPoolExecutor | None = None
        """Started on the first rendering; stopped with the server."""
        self.kept: OrderedDict[str, bytes] = OrderedDict()
        self.making: dict[str, asyncio.Future[bytes]] = {}

    @staticmethod
    def key(cert: NormCertificate) -> str:
        content = hashlib.sha256(cert.model_dump_json().encode()).hexdigest()
        return f"{cert.alert_id or '-'}/{content}"

    async def render(self, cert: NormCertificate) -> bytes:
        key = self.key(cert)
        kept = self.kept.get(key)
        if kept is not None:
            self.kept.move_to_end(key)
            return kept
        making = self.making.get(key)
        if making is None:
            if self.threads is None:
                self.threads = ThreadPoolExecutor(self.renders, thread_name_prefix="pdf")
            loop = asyncio.get_running_loop()
            making = loop.run_in_executor(self.threads, self.render_pdf, cert)
            self.making[key] = making
            making.add_done_callback(lambda done: self._made(key, done))
        # shielded: a client that leaves does not cancel the others' answer
        return await asyncio.shield(making)

    def _made(self, key: str, done: asyncio.Future[bytes]) -> None:
        del self.making[key]
        if done.cancelled() or done.exception() is not None:
            return  # the requests waiting get the error; the next one tries again
        self.kept[key] = done.result()
        while len(self.kept) > PDFS_KEPT:
            self.kept.popitem(last=False)

    def close(self) -> None:
        if self.threads is not None:
            self.threads.shutdown(wait=False, cancel_futures=True)
            self.threads = None


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


# ---------------------------------------------------------------------- the views of a tournament

Answer = Callable[[Views, TournamentState, aioweb.Request], Awaitable[aioweb.StreamResponse]]
Handler = Callable[[aioweb.Request], Awaitable[aioweb.StreamResponse]]


async def _elsewhere(views: Views, request: aioweb.Request, tid: str) -> aioweb.Response | None:
    """The answer of the worker owning ``tid``, if that is another worker."""
    if request.headers.get(ROUTED):
        return None
    try:
        url = views.backend.owner(tid)
    except Exception:  # no assignment known (yet): this worker answers
        log.debug("no owner known for %r; answering here", tid, exc_info=True)
        return None
    if url is None:
        return None
    target = request.url.with_host(url.host or "").with_port(url.port)
    if views.client is None:
        views.client = ClientSession(timeout=ClientTimeout(total=FORWARD_TIMEOUT))
    try:
        async with views.client.get(target, headers={ROUTED: "1"}) as answer:
            return aioweb.Response(
                body=await answer.read(),
                status=answer.status,
                content_type=answer.content_type,
                headers=CORS,
            )
    except (ClientError, TimeoutError) as exc:
        return _problem(503, f"tournament_id: the worker at {url} holding {tid!r}: {exc}")


def tournament_view(answer: Answer) -> Handler:
    """A handler of a ``/api/tournaments/{tournament_id}…`` route: forwarded to the worker
    holding the tournament, or answered from its state here."""

    async def view(request: aioweb.Request) -> aioweb.StreamResponse:
        views = request.app[VIEWS]
        tid = request.match_info["tournament_id"]
        forwarded = await _elsewhere(views, request, tid)
        if forwarded is not None:
            return forwarded
        state = views.backend.tournaments.peek(tid)
        if state is None:
            return _problem(404, f"tournament_id: no tournament {tid!r} on this worker")
        try:
            return await answer(views, state, request)
        except Problem as exc:
            return _problem(exc.status, str(exc))

    return view


def _rank(state: TournamentState, request: aioweb.Request) -> int:
    wanted = request.match_info["player"]
    rank = find_player(state, wanted)
    if rank is None:
        raise Problem(404, f"player: no player with start rank or FIDE id {wanted}")
    return rank


@tournament_view
async def tournament(views: Views, state: TournamentState, _r: aioweb.Request) -> aioweb.Response:
    return _json(summary(state).model_dump_json())


@tournament_view
async def standings_view(
    views: Views, state: TournamentState, _r: aioweb.Request
) -> aioweb.Response:
    key = ("standings", state.tournament.id)
    return _json(views.once(key, state, lambda: standings(state).model_dump_json()))


@tournament_view
async def card(views: Views, state: TournamentState, request: aioweb.Request) -> aioweb.Response:
    rank = _rank(state, request)
    key = ("card", state.tournament.id, str(rank))
    return _json(views.once(key, state, lambda: player_card(state, rank).model_dump_json()))


@tournament_view
async def certificate_view(
    views: Views, state: TournamentState, request: aioweb.Request
) -> aioweb.Response:
    rank = _rank(state, request)
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
        name = f"{state.tournament.id}-{rank}-{cert.title}.pdf"
        return aioweb.Response(
            body=await views.pdfs.render(cert),
            content_type="application/pdf",
            headers={**CORS, "Content-Disposition": content_disposition(name)},
        )
    return _json(cert.model_dump_json())


# ---------------------------------------------------------------------- the other views


async def tournaments(request: aioweb.Request) -> aioweb.Response:
    held = request.app[VIEWS].backend.tournaments
    found = [held.peek(t) for t in held.tournaments()]
    listing = TournamentList(tournaments=[summary(s) for s in found if s is not None])
    return _json(listing.model_dump_json())


async def alerts(request: aioweb.Request) -> aioweb.StreamResponse:
    feed = request.app[VIEWS].backend.feed
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
        async for entry in feed.read(wanted, after, feed.settings.feed_heartbeat):
            if entry is None:
                await stream.write(b": keep-alive\n\n")
                continue
            await stream.write(entry.sse())
    except ConnectionResetError:  # the client left
        pass
    return stream


async def openapi(request: aioweb.Request) -> aioweb.Response:
    return _json(request.app[VIEWS].api)


async def live(request: aioweb.Request) -> aioweb.Response:
    views = request.app[VIEWS]
    return aioweb.Response(
        body=views.live_page,
        content_type="text/html",
        charset="utf-8",
        headers={"Content-Security-Policy": views.live_policy},
    )


HANDLERS: dict[str, Handler] = {
    "/api/tournaments": tournaments,
    "/api/tournaments/{tournament_id}": tournament,
    "/api/tournaments/{tournament_id}/standings": standings_view,
    "/api/tournaments/{tournament_id}/players/{player}": card,
    "/api/tournaments/{tournament_id}/players/{player}/certificate": certificate_view,
    "/api/alerts": alerts,
    "/openapi.json": openapi,
    "/live": live,
}
"""The handler of each route of :data:`streams.openapi.ROUTES` (a test checks they agree)."""


# ---------------------------------------------------------------------- the application

OURS = frozenset(route.path for route in ROUTES)


@aioweb.middleware
async def only_ours(request: aioweb.Request, handler: Handler) -> aioweb.StreamResponse:
    """Serve the routes of :data:`~streams.openapi.ROUTES` and nothing else (Faust's own
    pages are switched off in :meth:`~streams.settings.Settings.faust_web`; this keeps any
    it adds unserved), for request targets of at most :data:`MAX_TARGET` bytes."""
    if len(request.raw_path) > MAX_TARGET:
        return _problem(
            414, f"path: a request target of {len(request.raw_path)} bytes (at most {MAX_TARGET})"
        )
    resource = request.match_info.route.resource
    if resource is None or resource.canonical not in OURS:
        return _problem(404, "path: no such route (the routes are listed at /openapi.json)")
    return await handler(request)


async def secure(request: aioweb.Request, response: aioweb.StreamResponse) -> None:
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers.setdefault("Content-Security-Policy", LOCKED)


class QuietBadRequests(logging.Filter):
    """aiohttp logs every request it cannot parse (a line over its limit, a non-HTTP
    client) with a traceback: the client's error, not the server's. This keeps one line
    without the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            record.msg = f"{record.msg}: {type(error).__name__}: {str(error)[:200]}"
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


_QUIET = QuietBadRequests()


def mount(app: aioweb.Application, backend: Backend) -> Views:
    """Add the views of :data:`HANDLERS` to ``app`` (ours, or Faust's web server's), answering
    from ``backend``; its feed stops when the server shuts down."""
    views = Views(backend)
    app[VIEWS] = views
    logging.getLogger("aiohttp.server").addFilter(_QUIET)  # once: a filter is kept once
    app.middlewares.append(only_ours)
    app.on_response_prepare.append(secure)
    for path, handler in HANDLERS.items():
        app.router.add_get(path, handler, allow_head=False)

    async def close(_app: aioweb.Application) -> None:
        await views.close()

    # on shutdown, before the server waits for open requests: the alert streams end then
    app.on_shutdown.append(close)
    return views


def application(backend: Backend) -> aioweb.Application:
    """The web views as an aiohttp application of their own."""
    app = aioweb.Application(handler_args=HANDLER_ARGS)
    mount(app, backend)
    return app


__all__ = [
    "HANDLERS",
    "HANDLER_ARGS",
    "LOCKED",
    "MAX_TARGET",
    "VIEWS",
    "Backend",
    "Tournaments",
    "Views",
    "application",
    "content_disposition",
    "content_security_policy",
    "mount",
]
