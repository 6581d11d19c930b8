"""How long a person waits for grn's reply in a game against grn (``grn serve``), through uvicorn on a loopback port.

    nice .venv/bin/python bench/bench_serve_bots.py [TURNS] [LEVELS]

For each game (Carcassonne, Gold Rush, Gold; two seats: a person and ``mcts:LEVEL``) and each level (default
``quick,normal``), plays TURNS rounds (default 8): the person's first offered choices, then
``POST /api/games/ID/bots`` timed client side (HTTP included: the seat's view replayed, the deal, the search,
the turn written, validated and indexed, the next position drawn).  Prints p50, p95 and the largest, in seconds.
Target (issue 43): a level plays in at most 2 s a move on one core.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from serve_server import TOKEN, running  # noqa: E402

TABLES = {"carcassonne": "Anna (red), {bot} (blue)", "goldrush": "Anna (red), {bot} (blue)",
          "gold": "Anna (red+yellow), {bot} (green+blue)"}


def call(base: str, method: str, path: str, body: object = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"X-GRN-Token": TOKEN, "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.load(r)


def person(base: str, state: dict[str, Any]) -> dict[str, Any]:
    picked, step = list(state["picked"]), state["step"]
    while not step["done"]:
        picked.append(step["options"][0]["word"])
        state = call(base, "GET", f"/api/games/{state['id']}?picked=" + urllib.parse.quote(json.dumps(picked)))
        picked, step = list(state["picked"]), state["step"]
    return call(base, "POST", f"/api/games/{state['id']}/play", {"base": state["base"], "picked": picked})


def main() -> None:
    turns = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    levels = (sys.argv[2] if len(sys.argv) > 2 else "quick,normal").split(",")
    with tempfile.TemporaryDirectory() as tmp, running(Path(tmp) / "bench.db", open_read=False) as base:
        for game, players in TABLES.items():
            for level in levels:
                made = call(base, "POST", "/api/games", {"game": game, "against": True,
                                                         "players": players.format(bot=f"mcts:{level}")})
                state = call(base, "GET", f"/api/games/{made['id']}")
                times = []
                for _ in range(turns):
                    if state["over"]:
                        break
                    state = person(base, state)
                    if state["over"]:
                        break
                    start = time.perf_counter()
                    state = call(base, "POST", f"/api/games/{made['id']}/bots", {"base": state["base"]})
                    times.append(time.perf_counter() - start)
                times.sort()
                p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
                print(f"{game:12} mcts:{level:7} {len(times)} replies: p50 {statistics.median(times):.2f} s  "
                      f"p95 {p95:.2f} s  max {times[-1]:.2f} s", flush=True)


if __name__ == "__main__":
    main()
