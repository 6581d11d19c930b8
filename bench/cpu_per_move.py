"""CPU seconds a move of mcts and mcts:classic at the same positions (issue 41 item 5, docs/bots.md "The bot, round
three"): every sixth position of two games greedy plays against itself (deals 21 and 22), in each tile game, or
in the games named on the command line (``gold``: Gold's round seven, docs/bots.md; R491).

    nice -n 5 .venv/bin/python bench/cpu_per_move.py
    nice -n 10 .venv/bin/python bench/cpu_per_move.py gold
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import random, time
from grn import games
from grn.bots import make_bot
from grn.bots.arena import new_game
for g in (sys.argv[1:] or ['carcassonne', 'goldrush']):
    rs = games.find_ruleset(g)
    tot: dict[str, list[float]] = {}
    for deal in (21, 22):
        _, e = new_game(rs, 2, deal)
        t = rs.determinise(e, random.Random(deal))
        gr = make_bot('greedy', rs); rng = random.Random(deal)
        i = 0
        while not t.is_over:
            if i % 6 == 1:
                for name in ('mcts', 'mcts:classic'):
                    b = make_bot(name, rs); c = time.process_time()
                    b.choose(t.engine.copy(), random.Random(i), t.hand())
                    tot.setdefault(name, []).append(time.process_time() - c)
            t.play_commands(t.recorded(gr.choose(t.engine.copy(), rng, t.hand())))
            i += 1
    for name, xs in tot.items():
        print(g, name, len(xs), 'moves', f'mean {sum(xs)/len(xs):.3f} s, max {max(xs):.3f} s')
