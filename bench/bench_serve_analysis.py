"""grn serve's analysis answer times on a 72-tile board, through uvicorn on a loopback port.

    nice .venv/bin/python bench/bench_serve_analysis.py [N] [level] [seed]

* **evaluate this position**: ``POST /api/games/ID/evaluate`` with the tile drawn picked, at the
  given level (default ``quick``, the page's default): p50 and p95 over N rounds (milliseconds,
  client side, HTTP and the board drawn included), each round at another of the last turns;
* **analyse this game**: ``POST /api/games/ID/analyse`` at the same level, polled until the
  annotated record is stored (seconds, once); and the time of a plain read of the game while it
  runs (the analysis runs beside the server's requests, not in front of them).

The game is a self-played Gold Rush game less its last turns (about 72 tiles on the board).

Target: a position evaluated at the `quick` level in a few seconds (docs/serve-analysis.md); the server's plain reads answered while a game is analysed.
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


def call(base: str, method: str, path: str, body: object = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"X-GRN-Token": TOKEN, "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main(argv: list[str]) -> int:
    n = int(argv[1]) if len(argv) > 1 else 10
    level = argv[2] if len(argv) > 2 else "quick"
    seed = int(argv[3]) if len(argv) > 3 else 1
    record = to_record(selfplay_goldrush.play(2, seed), seed=seed)
    record = record.replace(tags=tuple((k, v) for k, v in record.tags if k != "Result"),
                     turns=record.turns[:-3])
    last = record.turns[-1].number
    with tempfile.TemporaryDirectory() as tmp, running(Path(tmp) / "bench.db") as base:
        gid = call(base, "POST", "/api/import", {"name": "bench.grn", "text": write_record(record)})["ids"][0]
        tiles = call(base, "GET", f"/api/games/{gid}")["svg"].count("<use")
        eval_ms: list[float] = []
        for k in range(n):
            at = str(last - k)
            q = urllib.parse.urlencode({"at": at})
            tile = call(base, "GET", f"/api/games/{gid}?{q}")["step"]["options"][0]["word"]
            t0 = time.perf_counter()
            call(base, "POST", f"/api/games/{gid}/evaluate", {"at": at, "picked": [tile], "level": level})
            eval_ms.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        task = call(base, "POST", f"/api/games/{gid}/analyse", {"level": level})
        reads: list[float] = []
        while task["state"] == "running":
            r0 = time.perf_counter()
            call(base, "GET", f"/api/games/{gid}")
            reads.append((time.perf_counter() - r0) * 1000)
            time.sleep(0.5)
            task = call(base, "GET", f"/api/tasks/{task['task']}")
        whole = time.perf_counter() - t0
    print(f"board of about {tiles} tiles; level {level}; {n} positions")
    print(f"evaluate this position:  p50 {statistics.median(eval_ms):7.1f} ms   p95 {pct(eval_ms, 95):7.1f} ms")
    print(f"analyse this game ({last} turns): {whole:.1f} s, {task['state']}; a read of the game meanwhile: "
          f"p50 {statistics.median(reads) if reads else 0:.1f} ms, max {max(reads, default=0):.1f} ms")
    return 0 if task["state"] == "done" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
