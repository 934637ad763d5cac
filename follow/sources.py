"""Where snapshots come from: a file the arbiter's program rewrites, or a URL.

A source's :meth:`fetch` returns the bytes when they differ from the last bytes it returned,
``None`` when they have not changed, and raises :exc:`SourceError` when the source cannot be
read now, whatever the reason (the caller reports it and backs off): a missing file, a
refused connection, an HTTP error, a response cut short, a corrupt gzip body, a status line
that is not HTTP, an over-long header, a body beyond the bound in bytes (before or after
decompression), a request that takes longer than its bound in time
(:class:`~follow.limits.Limits`).

A URL is asked conditionally so that an unchanged feed costs a ``304``, but never in a way
that can miss a change: with the ``ETag`` of the last answer (``If-None-Match``) when the
server gives one; else with ``If-Modified-Since`` only when the last answer's
``Last-Modified`` is at least :data:`LAST_MODIFIED_MARGIN` seconds older than the answer
itself (its ``Date``). ``Last-Modified`` counts whole seconds: a document changed again
within the second of the answer keeps the same ``Last-Modified``, and a server asked
``If-Modified-Since`` that second would answer ``304`` from then on, losing the change for
good. Within the margin the next poll asks unconditionally and compares the bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import email.utils
import http.client
import socket
import urllib.error
import urllib.request
import zlib
from pathlib import Path
from typing import Any, Protocol

from follow.limits import DEFAULT, Limits

USER_AGENT = "fide-norm-tracker-follow/0.1"

LAST_MODIFIED_MARGIN = 2.0
"""Seconds by which an answer's ``Last-Modified`` must be older than its ``Date`` before it is
sent back as ``If-Modified-Since`` (one second of precision in each header)."""

CHUNK = 64 * 1024


class SourceError(OSError):
    """A source that cannot be read now; the message says why."""


class Source(Protocol):
    label: str

    async def fetch(self) -> bytes | None: ...

    def forget(self) -> None:
        """Return the current bytes again on the next fetch (after a failed send)."""


class FileSource:
    """A file, read whole on every poll and compared with the last bytes read: a program
    that rewrites a file within one tick of the file system's clock, at the same size (a
    result letter filled in), is not missed, which comparing modification times could do.
    A file over :attr:`Limits.max_bytes` is not read (a failure, reported)."""

    def __init__(self, path: str | Path, limits: Limits = DEFAULT) -> None:
        self.path = Path(path)
        self.label = str(path)
        self.limits = limits
        self._last: bytes | None = None

    async def fetch(self) -> bytes | None:
        data = self.read()
        if data == self._last:
            return None
        self._last = data
        return data

    def read(self) -> bytes:
        """The file's bytes, at most :attr:`Limits.max_bytes` of them."""
        bound = self.limits.max_bytes
        try:
            with self.path.open("rb") as f:
                data = f.read(bound + 1)  # the file may grow while it is read: never more
        except FileNotFoundError:
            raise SourceError("no such file") from None
        except OSError as exc:
            raise SourceError(str(exc.strerror or exc)) from None
        if len(data) > bound:
            raise SourceError(f"larger than {bound} bytes (--max-bytes)")
        return data

    def forget(self) -> None:
        self._last = None


@dataclasses.dataclass(frozen=True)
class _Answer:
    """One HTTP answer: its body (``None`` for a 304) and the validators to send next."""

    body: bytes | None
    etag: str | None = None
    modified: str | None = None


class UrlSource:
    """An HTTP(S) URL, asked conditionally (see the module's doc), gzip accepted. Runs
    urllib in a thread, so the follower needs no HTTP client beyond the standard library;
    every read is bounded in bytes and in time (:class:`Limits`): past the time, the poll
    ends and the thread's connection is shut down under it."""

    def __init__(self, url: str, limits: Limits = DEFAULT) -> None:
        self.url = url
        self.label = url
        self.limits = limits
        self._etag: str | None = None
        self._modified: str | None = None
        self._last: bytes | None = None

    async def fetch(self) -> bytes | None:
        timeout = self.limits.timeout
        opened: list[socket.socket] = []
        try:
            answer = await asyncio.wait_for(
                asyncio.to_thread(self._get, self._etag, self._modified, opened), timeout
            )
        except TimeoutError:
            for sock in opened:  # wake the thread up: its read ends at once
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
            raise SourceError(f"no complete answer within {timeout:g} s") from None
        if answer.body is None:
            return None
        self._etag, self._modified = answer.etag, answer.modified
        if answer.body == self._last:
            return None
        self._last = answer.body
        return answer.body

    def forget(self) -> None:
        self._etag = self._modified = None
        self._last = None

    def _get(self, etag: str | None, modified: str | None, opened: list[socket.socket]) -> _Answer:
        headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip"}
        if etag:
            headers["If-None-Match"] = etag
        elif modified:
            headers["If-Modified-Since"] = modified
        request = urllib.request.Request(self.url, headers=headers)
        opener = urllib.request.build_opener(_Http(opened), _Https(opened))
        try:
            with opener.open(request, timeout=self.limits.timeout) as response:
                raw = _body(response, self.limits.max_bytes)
                encoding = response.headers.get("Content-Encoding", "").strip().lower()
                body = _decoded(raw, encoding, self.limits.max_bytes)
                return _Answer(body, response.headers.get("ETag"), _trusted(response.headers))
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return _Answer(None)
            raise SourceError(f"HTTP {exc.code} {exc.reason}") from None
        except urllib.error.URLError as exc:
            raise SourceError(str(exc.reason)) from None
        except SourceError:
            raise
        except http.client.IncompleteRead as exc:
            raise SourceError(f"answer cut short ({len(exc.partial)} bytes read)") from None
        except http.client.HTTPException as exc:  # not HTTP, an over-long header, …
            raise SourceError(f"not a readable HTTP answer: {type(exc).__name__}: {exc}") from None
        except (OSError, EOFError, ValueError) as exc:  # timeouts, resets, …
            raise SourceError(f"{type(exc).__name__}: {exc}") from None


class _Http(urllib.request.HTTPHandler):
    """urllib's handler, noting the socket of each connection it opens, so that a request
    over its time can be woken up (:meth:`UrlSource.fetch`; urllib hands the socket to the
    response and forgets it)."""

    def __init__(self, opened: list[socket.socket]) -> None:
        super().__init__()
        self.opened = opened

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_noted(http.client.HTTPConnection, self.opened), req)


class _Https(urllib.request.HTTPSHandler):
    """As :class:`_Http`, for HTTPS."""

    def __init__(self, opened: list[socket.socket]) -> None:
        super().__init__()
        self.opened = opened

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(_noted(http.client.HTTPSConnection, self.opened), req)


def _noted(kind: type[http.client.HTTPConnection], opened: list[socket.socket]) -> Any:
    """A connection class of ``kind`` that appends its socket to ``opened`` on connecting."""

    class Noted(kind):  # type: ignore[valid-type,misc]
        def connect(self) -> None:
            super().connect()
            opened.append(self.sock)

    return Noted


def _body(response: http.client.HTTPResponse, bound: int) -> bytes:
    """The body as sent, at most ``bound`` bytes of it; a body shorter than its
    ``Content-Length`` is cut short."""
    length = response.headers.get("Content-Length", "").strip()
    chunked = "chunked" in response.headers.get("Transfer-Encoding", "").lower()
    if length.isdigit() and int(length) > bound:
        raise SourceError(f"a body of {length} bytes: more than {bound} (--max-bytes)")
    parts: list[bytes] = []
    size = 0
    while part := response.read1(CHUNK):
        size += len(part)
        if size > bound:
            raise SourceError(f"a body of more than {bound} bytes (--max-bytes)")
        parts.append(part)
    if length.isdigit() and not chunked and size < int(length):
        raise SourceError(f"answer cut short ({size} of {length} bytes)")
    return b"".join(parts)


def _decoded(raw: bytes, encoding: str, bound: int) -> bytes:
    """The body without its content coding, at most ``bound`` bytes of it."""
    if encoding in ("", "identity"):
        return raw
    if encoding not in ("gzip", "x-gzip"):
        raise SourceError(f"Content-Encoding {encoding!r}: only gzip is asked for")
    out: list[bytes] = []
    size = 0
    rest = raw
    while rest:  # a gzip body may hold several members, one after the other
        unzip = zlib.decompressobj(wbits=31)
        data = rest
        while data:
            try:
                part = unzip.decompress(data, bound + 1 - size)
            except zlib.error as exc:
                raise SourceError(f"corrupt gzip body: {exc}") from None
            size += len(part)
            if size > bound:
                raise SourceError(f"more than {bound} bytes once decompressed (--max-bytes)")
            out.append(part)
            data = unzip.unconsumed_tail
        if not unzip.eof:
            raise SourceError("gzip body cut short")
        rest = unzip.unused_data
    return b"".join(out)


def _trusted(headers: Any) -> str | None:
    """The answer's ``Last-Modified`` if it can be sent back as ``If-Modified-Since`` (see
    the module's doc), else ``None``.

    >>> from email.message import Message
    >>> m = Message()
    >>> m["Date"] = "Sun, 06 Nov 1994 08:49:37 GMT"
    >>> m["Last-Modified"] = "Sun, 06 Nov 1994 08:49:30 GMT"
    >>> _trusted(m)
    'Sun, 06 Nov 1994 08:49:30 GMT'
    >>> m.replace_header("Last-Modified", "Sun, 06 Nov 1994 08:49:36 GMT")
    >>> _trusted(m) is None
    True
    """
    modified, date = headers.get("Last-Modified"), headers.get("Date")
    if not modified or not date:
        return None
    try:
        changed = email.utils.parsedate_to_datetime(modified)
        answered = email.utils.parsedate_to_datetime(date)
        age = (answered - changed).total_seconds()
    except (TypeError, ValueError):  # unreadable, or one of them without a time zone
        return None
    return modified if age >= LAST_MODIFIED_MARGIN else None


def source(where: str, limits: Limits = DEFAULT) -> Source:
    """A URL for ``http://`` and ``https://``, else a file."""
    if where.startswith(("http://", "https://")):
        return UrlSource(where, limits)
    return FileSource(where, limits)


__all__ = [
    "FileSource",
    "Source",
    "SourceError",
    "UrlSource",
    "source",
]
