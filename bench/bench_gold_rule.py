"""What a rule for Gold's straddling losses costs and changes for a player (issue 21, round nine: R275-R279).

    nice .venv/bin/python bench/bench_gold_rule.py examples/gold-2p.grn r.grn --seed 3

Each record is analysed at the default level once per variant, one after the other in this process:
``round8`` (a judgement on the loss itself, the mistake threshold 2.5: round eight's), ``rule`` (R275, a
mistake only on the loss's lower bound ``lost - 3 × se``, a straddling loss named near the threshold) and
``valley`` (the mistake threshold moved to 2.8, the valley of Gold's measured losses above 2.5: R278,
adopted).  For each: the CPU seconds of the analysis (``time.process_time``: a loaded machine stretches it
less than the wall clock, but some; the load is printed), the playouts a turn, the moves judged a mistake
or worse, and the moves named near a threshold.  ``--only`` picks variants.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import grn  # noqa: E402
from grn.analysis.judge import analyse  # noqa: E402
from ladder import apply_settings, restore_settings  # noqa: E402  (bench/ladder.py: --set, shared)

#: Each variant's settings (``bench/ladder.py``'s ``--set``), from round eight's analysis.
VARIANTS: dict[str, list[str]] = {
    "round8": ["grn.games.gold.bot.GoldWorld.judge_clear_z=null",
               "grn.games.gold.GoldRuleset.analysis_thresholds=[1.0, 2.5, 5.0]"],
    "rule": ["grn.games.gold.bot.GoldWorld.judge_clear_z=3.0",
             "grn.games.gold.GoldRuleset.analysis_thresholds=[1.0, 2.5, 5.0]"],
    "valley": ["grn.games.gold.bot.GoldWorld.judge_clear_z=null",
               "grn.games.gold.GoldRuleset.analysis_thresholds=[1.0, 2.8, 5.0]"],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--only", default=",".join(VARIANTS))
    args = ap.parse_args()
    for path in args.files:
        record = grn.parse(Path(path).read_text(encoding="utf-8"))[0]
        for name in args.only.split(","):
            before = apply_settings(VARIANTS[name])
            try:
                cpu = time.process_time()
                a = analyse(record, seed=args.seed)
                cpu = time.process_time() - cpu
            finally:
                restore_settings(before)
            severe = [t.turn for t in a.turns if t.judgement in ("mistake", "blunder")]
            near = [t.turn for t in a.turns if t.near]
            playouts = sum(t.playouts for t in a.turns) / max(1, len(a.turns))
            print(f"{path} {name}: {cpu:.1f} s CPU, {playouts:.0f} playouts a turn, {len(a.turns)} turns; "
                  f"mistake or worse: {len(severe)} {severe}; near a threshold: {len(near)} {near} "
                  f"(load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)", flush=True)


if __name__ == "__main__":
    main()
