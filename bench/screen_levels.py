"""Screen a greedy level's mistakes against the greedy bot, cheaply, before the ladder (R473, R474).

    nice -n 5 .venv/bin/python bench/screen_levels.py goldrush b:0.4:1.0:6 40 bench/results/levels-round4-screen.jsonl
    .venv/bin/python bench/screen_levels.py --summary bench/results/levels-round4-screen.jsonl

A SPEC is ``slip:S:W`` (the greedy bot slipping with chance S among its W best), ``b:B:S:W`` (the same, and a
blunder, any legal move, with chance B first) or a bot's name (``random``).  Deal *d* is
``arena.match``'s seed ``7000 + d``: other deals than ``bench/calibrate_levels.py``'s (seed 1: 1000 + d), so the
ladder is measured on deals the screen did not choose its settings on.  One JSON line a deal (both seatings),
appended at once.
"""

from __future__ import annotations

import collections
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grn import games  # noqa: E402
from grn.bots.arena import MatchResult, match  # noqa: E402
from grn.bots.bot import Bot, SlipBot, make_bot  # noqa: E402


def bot(spec: str, ruleset: Any) -> Bot:
    """The bot a SPEC names."""
    if spec.startswith("slip:"):
        _, slip, width = spec.split(":")
        return SlipBot(ruleset, slip=float(slip), width=int(width))
    if spec.startswith("b:"):
        _, blunder, slip, width = spec.split(":")
        return SlipBot(ruleset, slip=float(slip), width=int(width), blunder=float(blunder))
    return make_bot(spec, ruleset)


def summary(paths: list[str]) -> str:
    """One line a (game, pairing): deals, score, mean margin, Elo with its 95% interval by deal."""
    rows: dict[tuple[str, str, str], list[dict[str, Any]]] = collections.defaultdict(list)
    for path in paths:
        for line in Path(path).read_text().splitlines():
            x = json.loads(line)
            rows[(x["game"], x["first"], x["second"])].append(x)
    out = []
    for (game, first, second), xs in sorted(rows.items()):
        r = MatchResult.of_deals((first, second), xs)
        low, mid, high = r.elo()
        out.append(f"| {game} | {first} vs {second} | {len(xs)} | {100 * r.score:.1f}% | {r.mean_margin:+.1f} | "
                   f"{mid:+.0f} ({low:+.0f} to {high:+.0f}) |")
    return "\n".join(out)


def main() -> None:
    if sys.argv[1:2] == ["--summary"]:
        print(summary(sys.argv[2:]))
        return
    game, spec, deals, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    against = sys.argv[5] if len(sys.argv) > 5 else "greedy"
    ruleset = games.find_ruleset(game)
    with open(out, "a") as sink:
        for d in range(deals):
            start = time.process_time()
            r = match(ruleset, bot(against, ruleset), bot(spec, ruleset), 1, 7000 + d)
            sink.write(json.dumps({"game": game, "first": against, "second": spec, "deal": d, "wins": r.wins,
                                   "games": r.games, "margins": r.margins,
                                   "cpu": round(time.process_time() - start, 2)}) + "\n")
            sink.flush()


if __name__ == "__main__":
    main()
