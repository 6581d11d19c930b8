"""Render the final position of a 72-tile self-played Gold Rush game N times; print the median.

    .venv/bin/python bench/bench_render.py [N] [seed]

Target: well under 50 ms per render (tile drawings are cached per design and
rotation; the board is one <use> per tile).
"""

from __future__ import annotations

import statistics
import sys
import time

from grn.rules.position import position_at
from grn.render import render_svg
from grn.games.goldrush import selfplay as selfplay_goldrush
from grn.rules.selfplay import to_record


def main(argv: list[str]) -> int:
    n = int(argv[1]) if len(argv) > 1 else 50
    seed = int(argv[2]) if len(argv) > 2 else 1
    record = to_record(selfplay_goldrush.play(2, seed), seed=seed)
    pos = position_at(record)
    tiles = len(pos.state.board.tiles)
    t0 = time.perf_counter()
    first = render_svg(pos)
    cold = (time.perf_counter() - t0) * 1000
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        render_svg(pos)
        times.append((time.perf_counter() - t0) * 1000)
    med = statistics.median(times)
    print(f"render_svg of a {tiles}-tile board: median {med:.2f} ms over {n} runs "
          f"(first, cold cache: {cold:.1f} ms; {len(first) // 1024} KiB of SVG)")
    print("OK: under 50 ms" if med < 50 else "SLOW: over 50 ms")
    return 0 if med < 50 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
