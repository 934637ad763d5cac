"""A small client of headless Chromium's DevTools protocol (CDP) over a websocket (aiohttp),
for the browser test and the README's screenshots. It drives Debian's ``chromium``; no
browser is downloaded.

>>> find_chromium() is None or find_chromium().endswith(("chromium", "chromium-browser"))
True
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
import tempfile
from typing import Any

import aiohttp


def find_chromium() -> str | None:
    """``$CHROMIUM``, else ``chromium`` or ``chromium-browser`` on the PATH."""
    named = os.environ.get("CHROMIUM")
    if named:
        return shutil.which(named) or (named if os.path.exists(named) else None)
    return shutil.which("chromium") or shutil.which("chromium-browser")


class Browser:
    """One headless Chromium process and its first page."""

    def __init__(self, binary: str, width: int = 1280, height: int = 900) -> None:
        self.binary, self.width, self.height = binary, width, height
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[Any]] = {}
        self.console: list[str] = []

    async def __aenter__(self) -> Browser:
        self.profile = tempfile.mkdtemp(prefix="chromium-")
        self.proc = await asyncio.create_subprocess_exec(
            self.binary,
            "--headless=new",
            "--no-sandbox",  # CI runs as root, where the sandbox cannot start
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--hide-scrollbars",
            "--remote-debugging-port=0",
            f"--user-data-dir={self.profile}",
            f"--window-size={self.width},{self.height}",
            "about:blank",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        assert self.proc.stderr is not None
        endpoint = None
        async with asyncio.timeout(60):
            while endpoint is None:
                line = (await self.proc.stderr.readline()).decode(errors="replace")
                if not line:
                    raise RuntimeError(f"{self.binary} exited before DevTools listened")
                match = re.search(r"DevTools listening on (ws://\S+)", line)
                if match:
                    endpoint = match.group(1)
        self.drain = asyncio.create_task(self._drain_stderr())
        port = int(re.search(r":(\d+)/", endpoint).group(1))  # type: ignore[union-attr]
        self.http = aiohttp.ClientSession()
        async with self.http.get(f"http://127.0.0.1:{port}/json/list") as answer:
            pages = [t for t in await answer.json() if t["type"] == "page"]
        self.ws = await self.http.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0)
        self.reader = asyncio.create_task(self._read())
        await self.send("Runtime.enable")
        await self.send("Page.enable")
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.reader.cancel()
        await self.ws.close()
        await self.http.close()
        if self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        self.drain.cancel()
        shutil.rmtree(self.profile, ignore_errors=True)

    async def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        with contextlib.suppress(Exception):
            while await self.proc.stderr.readline():
                pass

    async def _read(self) -> None:
        async for message in self.ws:
            body = json.loads(message.data)
            if "id" in body and body["id"] in self.waiting:
                self.waiting.pop(body["id"]).set_result(body)
            elif body.get("method") == "Runtime.consoleAPICalled":
                args = body["params"]["args"]
                self.console.append(
                    " ".join(str(a.get("value", a.get("description"))) for a in args)
                )
            elif body.get("method") == "Runtime.exceptionThrown":
                self.console.append(json.dumps(body["params"]["exceptionDetails"])[:500])

    async def send(self, method: str, **params: Any) -> Any:
        ident = next(self.ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.waiting[ident] = future
        await self.ws.send_str(json.dumps({"id": ident, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, 60)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    async def goto(self, url: str) -> None:
        await self.send("Page.navigate", url=url)
        await self.wait_for("document.readyState === 'complete'", 30)

    async def eval(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for(self, expression: str, timeout: float) -> Any:
        """Poll ``expression`` until it is truthy; its value."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            value = await self.eval(expression)
            if value:
                return value
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"{expression!r} still false after {timeout} s")
            await asyncio.sleep(0.2)

    async def viewport(self, width: int, height: int, mobile: bool = False) -> None:
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )

    async def screenshot(self, path: str, full_page: bool = False) -> None:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
        shot = await self.send("Page.captureScreenshot", **params)
        with open(path, "wb") as f:
            f.write(base64.b64decode(shot["data"]))


__all__ = ["Browser", "find_chromium"]
