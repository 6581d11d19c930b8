"""The engine protocol's own cost: a JavaScript engine (tests/engines/follower.js) plays duplicate games against
one of grn's bots in each game, and every move's time is split into grn's rules, the protocol and the engine.

    nice .venv/bin/python bench/bench_protocol.py                     # 100 games (50 deals) per game vs greedy
    nice .venv/bin/python bench/bench_protocol.py --deals 5 --games gold --opponent random

Per move, the protocol's cost (wall-clock) is what grn spends framing the message (the record so far, the hand, the hidden
pools, the moves as text), sending it and parsing the answer, plus the round trip less the engine's own choosing
(it says how long in its info string): the pipes and the engine's reading of the message.  grn's CPU time for
its part is printed beside it (on a loaded machine the wall-clock figures wait for a core).  grn's rules (the
moves listed, the player's view replayed) and the engine's thinking are apart.  Prints figures; asserts
nothing (the machine is shared: its load average is printed beside them).

Target: the protocol's own cost a small part of a move's time beside the engine's choosing (docs/protocol.md gives today's split).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grn.rules import registry  # noqa: E402
from grn.bots import make_bot  # noqa: E402
from grn.bots.arena import match  # noqa: E402
from grn.bots.bot import Forfeit  # noqa: E402
from grn.bots.external import EngineBot  # noqa: E402
from grn.bots.protocol import Budget, EngineError, Query  # noqa: E402
from grn.bots.seen import PlayerView  # noqa: E402
from grn.rules.world import Decision  # noqa: E402

ENGINE = ROOT / "tests" / "engines" / "follower.js"
_CHOSEN = re.compile(r"chosen in (\d+) us")
_READ = re.compile(r"read in (\d+) us of CPU")


class TimedBot(EngineBot):
    """The engine bot, each move's time split: ``rules`` (view and moves), ``frame`` (grn's framing, sending and
    parsing), ``trip`` (waiting for the answer) and ``think`` (the engine's choosing, as it says), in seconds."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.times: list[tuple[float, float, float, float]] = []
        #: grn's CPU seconds for the protocol a move (framing, sending, parsing)
        self.cpu: list[float] = []
        #: the engine's CPU seconds reading each position (its CPU between answers, as it says)
        self.engine_cpu: list[float] = []
        self.moves_listed: list[int] = []
        self.bytes_sent: list[int] = []

    def choose(self, state: Any, rng: random.Random, hand: tuple[Any, ...] = ()) -> Decision:
        assert self._header is not None
        t0 = time.perf_counter()
        player = state.current_player
        view = self._views.get(player)
        if view is None:
            view = self._views[player] = PlayerView(self.ruleset, self._header, player)
        view.catch_up(self._history)
        ruleset = self.ruleset
        world = ruleset.determinise(view.engine, random.Random(0), hand)
        decisions = world.moves()
        t1 = time.perf_counter()
        c1 = time.process_time()
        texts: dict[str, Decision] = {}
        for d, text in zip(decisions, ruleset.move_texts(view.engine, decisions)):
            texts.setdefault(text, d)
        query = Query(ruleset.name, player, view.record_text(), tuple(str(h) for h in hand),
                      ruleset.unseen(view.engine, hand), tuple(texts))
        t2 = time.perf_counter()
        costs = self.engine.costs
        frame0, wait0 = costs.framing, costs.waiting
        try:
            if not self._seeded and "Seed" in self.engine.options:
                self.engine.configure({"Seed": rng.getrandbits(31)})
            self._seeded = True
            result = self.engine.play(query, self.budget, timeout=self.timeout)
        except EngineError as exc:
            self.engine.close(0.5)
            raise Forfeit(str(exc)) from None
        chosen = texts[result.move]
        t3 = time.perf_counter()
        self.cpu.append(time.process_time() - c1)
        said = _CHOSEN.search(" ".join(result.info.strings))
        think = int(said.group(1)) / 1e6 if said else 0.0
        read = _READ.search(" ".join(result.info.strings))
        if read is not None:
            self.engine_cpu.append(int(read.group(1)) / 1e6)
        frame = (t2 - t1) + (costs.framing - frame0) + (t3 - t2 - (costs.framing - frame0) - (costs.waiting - wait0))
        self.times.append((t1 - t0, frame, costs.waiting - wait0, think))
        self.moves_listed.append(len(texts))
        self.bytes_sent.append(len(query.text().encode()))
        return chosen


def _ms(xs: list[float]) -> str:
    if not xs:
        return "-"
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"mean {1000 * statistics.fmean(xs):.2f}, median {1000 * statistics.median(xs):.2f}, p95 {1000 * p95:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="goldrush,gold,carcassonne", help="The games, comma separated.")
    parser.add_argument("--deals", type=int, default=50, help="Deals per game, each played twice (seats swapped).")
    parser.add_argument("--opponent", default="greedy", help="grn's bot on the other side.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--movetime", type=int, default=2000, help="Milliseconds the engine may take a move.")
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        parser.error("Node.js (node) is not on the PATH")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {args.deals} deals ({2 * args.deals} "
          f"games) per game against {args.opponent}")
    for game in args.games.split(","):
        ruleset = registry.find_ruleset(game)
        bot = TimedBot(ruleset, f"{node} {ENGINE}", budget=Budget(movetime=args.movetime))
        start = time.perf_counter()
        try:
            result = match(ruleset, bot, make_bot(args.opponent, ruleset), args.deals, args.seed)
        finally:
            bot.close()
        wall = time.perf_counter() - start
        rules = [t[0] for t in bot.times]
        frame = [t[1] for t in bot.times]
        trip = [t[2] - t[3] for t in bot.times]
        cost = [t[1] + t[2] - t[3] for t in bot.times]
        think = [t[3] for t in bot.times]
        print(f"\n{game}: {result.games} games, {len(bot.times)} engine moves, {len(result.forfeits)} illegal or "
              f"failed answers, {wall:.1f} s; {result.summary()}")
        for line in result.forfeits:
            print("  forfeit:", line)
        print(f"  moves listed a turn: mean {statistics.fmean(bot.moves_listed):.0f}, max {max(bot.moves_listed)}; "
              f"message {statistics.fmean(bot.bytes_sent) / 1000:.1f} kB mean, {max(bot.bytes_sent) / 1000:.1f} max")
        print(f"  protocol cost a move (ms, wall): {_ms(cost)}")
        print(f"    grn's CPU for it (ms): {_ms(bot.cpu)}")
        print(f"    the engine's CPU reading the position (ms): {_ms(bot.engine_cpu[1:])}")
        both = [a + b for a, b in zip(bot.cpu[1:], bot.engine_cpu[1:])]
        print(f"  protocol CPU a move, both sides (ms): {_ms(both)}")
        print(f"    grn framing, sending, parsing: {_ms(frame)}")
        print(f"    round trip less the engine's choosing: {_ms(trip)}")
        print(f"  grn's rules a move (ms, apart): {_ms(rules)}")
        print(f"  the engine's choosing (ms, apart): {_ms(think)}")


if __name__ == "__main__":
    main()
