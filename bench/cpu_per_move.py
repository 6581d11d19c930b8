"""CPU seconds a move of mcts and mcts:classic at the same positions (issue 41 item 5, docs/bots.md "The bot, round
three"): every sixth position of two games greedy plays against itself (deals 21 and 22), in each tile game, or
in the games named on the command line (``gold``: Gold's round seven, docs/bots.md; R491).

    nice -n 5 .venv/bin/python bench/cpu_per_move.py
    nice -n 10 .venv/bin/python bench/cpu_per_move.py gold
    nice -n 5 .venv/bin/python bench/cpu_per_move.py carcassonne --bots mcts,mcts:strong,mcts:master \\
        --set grn.games.carcassonne.bot.BOT_FIGHTS=false      # a variant's cost (R519), as bench/ladder.py sets it
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from grn import games  # noqa: E402
from grn.bots import make_bot  # noqa: E402
from grn.bots.arena import new_game  # noqa: E402

from ladder import apply_settings  # noqa: E402  (bench/ is on the path: this script's own folder)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", default=["carcassonne", "goldrush"])
    ap.add_argument("--bots", default="mcts,mcts:classic", help="the bots timed, comma separated")
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.ATTR=VALUE",
                    help="a variant's setting, as bench/ladder.py takes it")
    args = ap.parse_args()
    apply_settings(args.set)
    names = args.bots.split(",")
    for g in args.games:
        rs = games.find_ruleset(g)
        tot: dict[str, list[float]] = {}
        for deal in (21, 22):
            _, e = new_game(rs, 2, deal)
            t = rs.determinise(e, random.Random(deal))
            gr = make_bot("greedy", rs)
            rng = random.Random(deal)
            i = 0
            while not t.is_over:
                if i % 6 == 1:
                    for name in names:
                        b = make_bot(name, rs)
                        c = time.process_time()
                        b.choose(t.engine.copy(), random.Random(i), t.hand())
                        tot.setdefault(name, []).append(time.process_time() - c)
                t.play_commands(t.recorded(gr.choose(t.engine.copy(), rng, t.hand())))
                i += 1
        for name, xs in tot.items():
            print(g, name, len(xs), "moves", f"mean {sum(xs) / len(xs):.3f} s, max {max(xs):.3f} s", flush=True)


if __name__ == "__main__":
    main()
