"""Draw the README's picture of grn serve: the recorder on a phone, a tile chosen, the squares where it fits.

    .venv/bin/python scripts/serve_screenshot.py [OUT.png]

Starts grn serve on a loopback port with a new archive in a temporary folder,
imports examples/goldrush-2p.grn, and has headless Chromium (Debian's, through
Playwright) open the game at turn 5 with the next tile chosen, at 420 x 860.
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grn.serve.app import make_app  # noqa: E402
from grn.serve.cli import bind, server  # noqa: E402

TOKEN = "screenshot-token-0123456789"


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else ROOT / "docs" / "images" / "serve-recorder.png"
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        sock = bind("127.0.0.1", 0)
        srv = server(make_app(Path(tmp) / "club.db", token=TOKEN), sock)
        thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not srv.started:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{sock.getsockname()[1]}"
        body = json.dumps({"name": "goldrush-2p.grn", "text": (ROOT / "examples" / "goldrush-2p.grn").read_text()})
        req = urllib.request.Request(base + "/api/import", data=body.encode(), method="POST",
                                     headers={"X-GRN-Token": TOKEN, "Content-Type": "application/json"})
        with urllib.request.urlopen(req) as r:
            gid = json.loads(r.read())["ids"][0]
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                page = browser.new_page(viewport={"width": 420, "height": 860}, device_scale_factor=1)
                page.goto(f"{base}/?token={TOKEN}#game={gid}&at=5")
                page.wait_for_selector("#options button")
                page.locator("#options button").nth(3).click()
                page.wait_for_selector("#board .markup-layer .highlight[data-word]")
                page.screenshot(path=str(out), clip={"x": 0, "y": 0, "width": 420, "height": 860})
                browser.close()
        finally:
            srv.should_exit = True
            thread.join(timeout=10)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
