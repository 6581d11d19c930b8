"""Sizes and load times of the viewer's pages: one 72-tile Gold Rush game, and N games in one page.

    .venv/bin/python bench/bench_viewer.py [--games N] [--baseline DIR] [--no-browser]

Writes the pages of self-played Gold Rush games (2 to 5 players, seeds 1..N)
with ``grn html``'s renderer, prints their sizes (uncompressed and gzipped),
the time to write them, and the time headless Chromium takes to open each
until the viewer shows its first position (playwright driving /usr/bin/chromium).
``--baseline DIR`` also measures an earlier grn checkout (for example the
main branch's worktree) on the same games, in the same run, for comparison.

Targets (issue 14): one complete game at most 150 KB; 100 games at most
5 MB, open in under 2 s.  The same game analysed (``grn analyse --format grn``
at ``--analysed-playouts`` playouts a move, issue 21 item 7: the evaluation
chart, judgements, best moves and summary) is measured too, with the same
150 KB target.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WRITE = r"""
import sys, time, json
from grn.games.goldrush import selfplay
from grn.rules.selfplay import to_record
from grn.render import render_html
n, out = int(sys.argv[1]), sys.argv[2]
records = [to_record(selfplay.play(2 + (s - 1) % 4 if n > 1 else 2, s), seed=s) for s in range(1, n + 1)]
t0 = time.perf_counter()
page = render_html(records, file_name="bench.grn")
took = time.perf_counter() - t0
open(out, "w", encoding="utf-8").write(page)
print(json.dumps({"seconds": took, "tiles": [len([t for t in r.turns if t.number > 0]) for r in records][:1]}))
"""

WRITE_ANALYSED = r"""
import sys, time, json, subprocess
from grn.games.goldrush import selfplay
from grn.rules.selfplay import to_record
from grn.render import render_html
from grn.notation.writer import write_record
import grn
playouts, out = sys.argv[1], sys.argv[2]
plain = out + ".grn"
open(plain, "w", encoding="utf-8").write(write_record(to_record(selfplay.play(2, 1), seed=1)))
t0 = time.perf_counter()
subprocess.run([sys.executable, "-m", "grn", "analyse", plain, "--format", "grn", "--playouts", playouts,
                "-o", out + ".analysed.grn"], check=True)
analysed = time.perf_counter() - t0
records = list(grn.read(out + ".analysed.grn"))
t0 = time.perf_counter()
page = render_html(records, file_name="bench.grn")
took = time.perf_counter() - t0
open(out, "w", encoding="utf-8").write(page)
print(json.dumps({"seconds": took, "analysis_seconds": analysed}))
"""

# the old page filled #label, the viewer marks itself ready
READY = ("() => { const v = document.querySelector('.grn-viewer.grn-ready'); const l = document.getElementById('label');"
         " return !!v || !!(l && l.textContent); }")


def write_page(src: Path, games: int, out: Path, playouts: int = 0) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    script, first = (WRITE_ANALYSED, str(playouts)) if playouts else (WRITE, str(games))
    got = subprocess.run([sys.executable, "-c", script, first, str(out)], env=env, cwd=src,
                         capture_output=True, text=True, check=True)
    return json.loads(got.stdout)


def open_time(browser, path: Path, tries: int = 3) -> float:
    best = float("inf")
    for _ in range(tries):
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        t0 = time.perf_counter()
        page.goto(path.as_uri(), timeout=300_000)
        page.wait_for_function(READY, timeout=300_000)
        best = min(best, time.perf_counter() - t0)
        page.close()
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--baseline", type=Path, help="an earlier grn checkout to measure the same way")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--analysed-playouts", type=int, default=8, help="the analysed game's budget (0: skip it)")
    args = ap.parse_args()
    here = Path(__file__).resolve().parent.parent
    sources = [("this grn", here)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    tmp = Path(tempfile.mkdtemp(prefix="bench-viewer-"))
    browser = None
    pw = None
    if not args.no_browser and shutil.which("chromium"):
        from playwright.sync_api import sync_playwright

        pw = sync_playwright().start()
        browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--no-first-run"])
    ok = True
    try:
        for name, src in sources:
            runs = [(1, 150, None, 0), (args.games, 5 * 1024, 2.0, 0)]
            if args.analysed_playouts and name == "this grn":
                runs.insert(1, (1, 150, None, args.analysed_playouts))
            for games, limit_kb, limit_s, playouts in runs:
                out = tmp / f"{name.replace(' ', '-')}-{games}-{playouts}.html"
                info = write_page(src, games, out, playouts)
                raw = out.read_bytes()
                kb = len(raw) / 1024
                gz = len(gzip.compress(raw, 6)) / 1024
                what = "analysed" if playouts else f"game{'s' if games > 1 else ' '}"
                line = (f"{name:9} {games:4} {what}: {kb:9.1f} KiB ({gz:8.1f} KiB gzipped), "
                        f"written in {info['seconds']:.2f} s")
                if playouts:
                    line += f" (analysed at {playouts} playouts a move in {info['analysis_seconds']:.1f} s)"
                if browser is not None:
                    secs = open_time(browser, out, 1 if kb > 20_000 else 3)
                    line += f", opens in {secs:.2f} s"
                    if name == "this grn" and limit_s is not None and secs > limit_s:
                        ok = False
                if name == "this grn" and kb > limit_kb:
                    ok = False
                print(line, flush=True)
    finally:
        if browser is not None:
            browser.close()
        if pw is not None:
            pw.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print("OK: within the targets" if ok else "OVER a target (150 KB a game; 5 MB and 2 s for the many)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
