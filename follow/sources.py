"""Where snapshots come from: a file the arbiter's program rewrites, or a URL.

A source's :meth:`fetch` returns the bytes when they differ from the last bytes it returned,
``None`` when they have not changed, and raises :exc:`SourceError` when the source cannot be
read (the caller backs off). A URL is asked with ``If-None-Match`` / ``If-Modified-Since`` from
the last answer, so an unchanged feed costs a ``304``.
"""

from __future__ import annotations

import asyncio
import gzip
import urllib.error
import urllib.request
from pathlib import Path
from typing import Protocol

USER_AGENT = "fide-norm-tracker-follow/0.1"


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
    result letter filled in), is not missed, which comparing modification times could do."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.label = str(path)
        self._last: bytes | None = None

    async def fetch(self) -> bytes | None:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            raise SourceError("no such file") from None
        except OSError as exc:
            raise SourceError(str(exc.strerror or exc)) from None
        if data == self._last:
            return None
        self._last = data
        return data

    def forget(self) -> None:
        self._last = None


class UrlSource:
    """An HTTP(S) URL, asked conditionally (ETag, Last-Modified), gzip accepted. Runs
    urllib in a thread, so the follower needs no HTTP client beyond the standard library."""

    def __init__(self, url: str, timeout: float = 15.0) -> None:
        self.url = url
        self.label = url
        self.timeout = timeout
        self._etag: str | None = None
        self._modified: str | None = None
        self._last: bytes | None = None

    async def fetch(self) -> bytes | None:
        return await asyncio.to_thread(self._get)

    def forget(self) -> None:
        self._etag = self._modified = None
        self._last = None

    def _get(self) -> bytes | None:
        headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip"}
        if self._etag:
            headers["If-None-Match"] = self._etag
        if self._modified:
            headers["If-Modified-Since"] = self._modified
        request = urllib.request.Request(self.url, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                body: bytes = response.read()
                if response.headers.get("Content-Encoding", "").lower() == "gzip":
                    body = gzip.decompress(body)
                etag = response.headers.get("ETag")
                modified = response.headers.get("Last-Modified")
        except urllib.error.HTTPError as exc:
            if exc.code == 304:
                return None
            raise SourceError(f"HTTP {exc.code} {exc.reason}") from None
        except urllib.error.URLError as exc:
            raise SourceError(str(exc.reason)) from None
        except (OSError, EOFError) as exc:  # timeouts, resets, a cut gzip stream
            raise SourceError(str(exc)) from None
        self._etag, self._modified = etag, modified
        if body == self._last:
            return None
        self._last = body
        return body


def source(where: str) -> Source:
    """A URL for ``http://`` and ``https://``, else a file."""
    if where.startswith(("http://", "https://")):
        return UrlSource(where)
    return FileSource(where)


__all__ = ["FileSource", "Source", "SourceError", "UrlSource", "source"]
