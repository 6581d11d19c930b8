"""grn serve's answer times on a 72-tile board, through uvicorn on a loopback port; and the page's first load.

    nice .venv/bin/python bench/bench_serve.py [N] [seed]

Times, over N rounds (p50 and p95, milliseconds, client side, HTTP included):

* **tile chosen -> legal squares**: ``GET /api/games/ID?picked=["TILE"]``: the engine's legal
  placements of the tile, and the board drawn with every square highlighted;
* **placement confirmed -> new position**: ``POST /api/games/ID/play``: the turn checked by
  the engine, the record edited, written, validated and indexed in the archive (one
  transaction), and the new position drawn.  Each round's turn is taken back after (not timed).

The game is a self-played Gold Rush game less its last turns, so that the board holds about
72 tiles.  Target: p95 at most 50 ms for both; the page's first load under 300 KB.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from grn.games.goldrush import selfplay as selfplay_goldrush  # noqa: E402
from grn.rules.selfplay import to_record  # noqa: E402
from grn.notation.writer import write_record  # noqa: E402
from serve_server import TOKEN, running  # noqa: E402


def call(base: str, method: str, path: str, body: object = None) -> tuple[dict, int]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"X-GRN-Token": TOKEN, "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        raw = r.read()
    return json.loads(raw), len(raw)


def size(base: str, path: str) -> int:
    with urllib.request.urlopen(base + path, timeout=60) as r:
        return len(r.read())


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main(argv: list[str]) -> int:
    n = int(argv[1]) if len(argv) > 1 else 40
    seed = int(argv[2]) if len(argv) > 2 else 1
    record = to_record(selfplay_goldrush.play(2, seed), seed=seed)
    record = record.replace(tags=tuple((k, v) for k, v in record.tags if k != "Result"),
                     turns=record.turns[:-3])
    with tempfile.TemporaryDirectory() as tmp, running(Path(tmp) / "bench.db") as base:
        (ids, _) = call(base, "POST", "/api/import", {"name": "bench.grn", "text": write_record(record)})
        gid = ids["ids"][0]
        state, state_bytes = call(base, "GET", f"/api/games/{gid}")
        tiles = state["svg"].count("<use")
        first_load = sum(size(base, p) for p in ("/", "/static/recorder.js", "/static/recorder.css", "/api/meta"))
        squares_ms: list[float] = []
        play_ms: list[float] = []
        for _ in range(n):
            tile = state["step"]["options"][0]["word"]
            q = urllib.parse.urlencode({"at": state["address"], "picked": json.dumps([tile])})
            t0 = time.perf_counter()
            step_state, _ = call(base, "GET", f"/api/games/{gid}?{q}")
            squares_ms.append((time.perf_counter() - t0) * 1000)
            picked = [tile]
            step = step_state["step"]
            while not step["done"]:
                picked.append(step["options"][0]["word"])
                q = urllib.parse.urlencode({"at": state["address"], "picked": json.dumps(picked)})
                step = call(base, "GET", f"/api/games/{gid}?{q}")[0]["step"]
            t0 = time.perf_counter()
            after, _ = call(base, "POST", f"/api/games/{gid}/play",
                            {"at": state["address"], "base": state["base"], "picked": picked})
            play_ms.append((time.perf_counter() - t0) * 1000)
            state, _ = call(base, "POST", f"/api/games/{gid}/undo", {"at": after["address"], "base": after["base"]})
    print(f"board of about {tiles} tiles; {n} rounds")
    print(f"tile chosen -> legal squares:          p50 {statistics.median(squares_ms):6.1f} ms   "
          f"p95 {pct(squares_ms, 95):6.1f} ms")
    print(f"placement confirmed -> new position:   p50 {statistics.median(play_ms):6.1f} ms   "
          f"p95 {pct(play_ms, 95):6.1f} ms")
    print(f"page's first load: {first_load / 1000:.1f} KB (page, script, style, game list), "
          f"{(first_load + state_bytes) / 1000:.1f} KB with the {tiles}-tile game open "
          f"(its state and board: {state_bytes / 1000:.1f} KB)")
    ok = pct(squares_ms, 95) <= 50 and pct(play_ms, 95) <= 50 and first_load + state_bytes < 300_000
    print("OK: within the targets" if ok else "OVER a target (p95 50 ms, first load 300 KB)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
