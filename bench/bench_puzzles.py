"""The figures of ``grn puzzles`` (issue 44): puzzles a game and per CPU-hour, the share of candidates the
confirming search rejects, the share whose answer changes with a third seed, and the themes found per game.

    nice .venv/bin/python bench/bench_puzzles.py run --jobs 2 --selfplay 2 --out puzzles.jsonl
    .venv/bin/python bench/bench_puzzles.py summary puzzles.jsonl

``run`` looks for puzzles in every whole game of examples/ (self-played games: the turns the player found
count, ``--found``), in ``--selfplay`` fresh self-played games of each game (likewise; ``--players`` at the
table, deals from ``--from``; ``--pairing beginner-normal`` has two of grn's bots play them instead, seats
swapped every other deal, as ``grn arena`` would), and in the real games of tests/data (the Board Game Arena
games and the Japan 2015 final: only the moves the players missed).  ``--no-examples`` and ``--no-real`` leave
those out, for a run that looks only at fresh games; ``--confirm-rounds`` deepens the confirming search.  Each game
writes one line: its turns, the CPU seconds of its searches (``time.process_time`` in the worker: the machine's
other load does not count), the candidates the first search named, the puzzles kept, why the others were
rejected, the themes of each puzzle, and whether a search from a third seed gives each puzzle's answer again.
``summary`` prints the figures, each share with its binomial standard error.  Every run prints the machine's
load beside its figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: The whole games of examples/ (the rules examples and questions are a few turns each).
EXAMPLES = ("examples/carcassonne/carcassonne-2p.grn", "examples/carcassonne/carcassonne-3p-goldmines.grn",
            "examples/goldrush-2p.grn", "examples/goldrush-4p-farmers.grn", "examples/goldrush-first-game.grn",
            "examples/gold-2p.grn", "examples/gold-3p-match.grn")
GAMES = ("carcassonne", "goldrush", "gold")


def _jobs(selfplay: int, only: set[str] | None, *, players: int = 2, first: int = 1, pairing: str | None = None,
          examples: bool = True, real: bool = True) -> list[dict[str, Any]]:
    """The games to look at: (kind, file or game and seed, index; a fresh game's players and the bots that play
    it, None: the game's own self-play)."""
    import grn

    out: list[dict[str, Any]] = []
    for path in EXAMPLES if examples else ():
        for i, record in enumerate(grn.read(str(ROOT / path)), start=1):
            if only is None or record.game in only:
                out.append({"kind": "example", "source": path, "index": i})
    for game in GAMES:
        if only is None or game in only:
            for seed in range(first, first + selfplay):
                out.append({"kind": "selfplay", "source": game, "index": seed, "players": players,
                            "pairing": pairing})
    if real and (only is None or "carcassonne" in only):
        for game_file in sorted((ROOT / "tests" / "data").glob("*.grn")):
            for i, _ in enumerate(grn.read(str(game_file)), start=1):
                out.append({"kind": "real", "source": str(game_file.relative_to(ROOT)), "index": i})
    return out


def _record(job: dict[str, Any]) -> Any:
    import grn
    from grn import games
    from grn.rules.selfplay import to_record

    if job["kind"] == "selfplay":
        ruleset = games.find_ruleset(job["source"])
        if job.get("pairing"):
            return _bot_game(ruleset, job["pairing"], job.get("players", 2), job["index"])
        return to_record(ruleset.selfplay(job.get("players", 2), job["index"]))
    return list(grn.read(str(ROOT / job["source"])))[job["index"] - 1]


def _bot_game(ruleset: Any, pairing: str, players: int, deal: int) -> Any:
    """Deal ``deal`` played by the bots ``pairing`` names (``beginner-normal``), seated in turn round the table
    and the other way round every other deal (each bot sees only its own seat's view, R465)."""
    from grn.bots.arena import play_game
    from grn.bots.bot import make_bot

    names = pairing.split("-")
    if deal % 2:
        names.reverse()
    bots = [make_bot(names[i % len(names)], ruleset) for i in range(players)]
    return play_game(ruleset, bots, deal, deal, players=players).record(seed=deal)


def one(job: dict[str, Any], level: str, seed: int, confirm_rounds: int | None = None) -> dict[str, Any]:
    """Look for puzzles in one game; its line of figures."""
    from grn import games
    from grn.analysis.puzzles import Criteria, budget_for, mine_record, recheck

    record = _record(job)
    criteria = Criteria(found=job["kind"] != "real")
    budget = budget_for(level, seed=seed, confirm_rounds=confirm_rounds)
    start = time.process_time()
    outcomes = list(mine_record(record, criteria, budget, source=job["source"], index=job["index"]))
    mined = time.process_time() - start
    puzzles = []
    for o in outcomes:
        if o.puzzle is None:
            continue
        same, confirmed = recheck(record, o.puzzle, criteria, budget)
        puzzles.append({"turn": o.turn, "answer": o.puzzle.answer, "solution": o.puzzle.solution,
                        "themes": list(o.puzzle.themes),
                        "gain": round(o.puzzle.gain, 2), "gain_se": round(o.puzzle.gain_se, 2), "by": o.puzzle.by,
                        "missed": o.puzzle.missed, "third_seed_same": same,
                        "third_seed_confirmed": confirmed})
    reasons: dict[str, int] = {}
    for o in outcomes:
        if o.rejected:
            reasons[o.rejected] = reasons.get(o.rejected, 0) + 1
    return {**job, "game": record.game, "turns": sum(1 for t in record.turns if t.number > 0),
            "cpu_seconds": round(mined, 2), "candidates": len(outcomes), "kept": len(puzzles),
            "rejected": reasons, "puzzles": puzzles, "level": level, "seed": seed,
            "confirm_rounds": budget.for_game(games.find_ruleset(record.game)).confirm_rounds}


def run(args: argparse.Namespace) -> None:
    only = set(args.only.split(",")) if args.only else None
    jobs = _jobs(args.selfplay, only, players=args.players, first=args.first, pairing=args.pairing,
                 examples=args.examples, real=args.real)
    print(f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {len(jobs)} games, level {args.level}",
          file=sys.stderr)
    with open(args.out, "a", encoding="utf-8") as out, ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(one, j, args.level, args.seed, args.confirm_rounds) for j in jobs]
        for f in futures:
            line = f.result()
            out.write(json.dumps(line) + "\n")
            out.flush()
            table = f" ({line['players']}p{', ' + line['pairing'] if line.get('pairing') else ''})" \
                if line["kind"] == "selfplay" else ""
            print(f"{line['kind']} {line['source']}#{line['index']}{table}: {line['kept']} of {line['candidates']} kept, "
                  f"{line['cpu_seconds']:.0f} cpu s", file=sys.stderr)


def _share(k: int, n: int) -> str:
    if n == 0:
        return "n/a (none)"
    p = k / n
    return f"{100 * p:.0f}% ± {100 * math.sqrt(p * (1 - p) / n):.0f}% ({k} of {n})"


def summary(args: argparse.Namespace) -> None:
    from grn import games

    lines = [json.loads(x) for x in Path(args.file).read_text(encoding="utf-8").splitlines() if x.strip()]
    for game in GAMES:
        own = [x for x in lines if x["game"] == game]
        if not own:
            continue
        print(f"{game}: {len(own)} games ({', '.join(sorted({x['kind'] for x in own}))})")
        for kind in ("example", "selfplay", "real", None):
            part = [x for x in own if kind is None or x["kind"] == kind]
            if not part:
                continue
            kept = sum(x["kept"] for x in part)
            cands = sum(x["candidates"] for x in part)
            cpu = sum(x["cpu_seconds"] for x in part)
            third = [p["third_seed_same"] for x in part for p in x["puzzles"]]
            kept_again = [p.get("third_seed_confirmed", p["third_seed_same"]) for x in part for p in x["puzzles"]]
            name = kind or "all"
            print(f"  {name}: {kept / len(part):.1f} puzzles a game, {3600 * kept / cpu if cpu else 0:.0f} per "
                  f"CPU-hour ({cpu / len(part):.0f} cpu s a game); rejected by the confirming search "
                  f"{_share(cands - kept, cands)}; answer changed with a third seed "
                  f"{_share(sum(1 for t in third if not t), len(third))}, not confirmed again (another answer, "
                  f"not unique or under the threshold) {_share(sum(1 for t in kept_again if not t), len(kept_again))}")
        reasons: dict[str, int] = {}
        for x in own:
            for r, n in x["rejected"].items():
                reasons[r] = reasons.get(r, 0) + n
        print(f"  rejections: {reasons or 'none'}")
        found: dict[str, int] = {}
        where: dict[str, list[str]] = {}
        for x in own:
            if x["kind"] == "real":
                continue
            for p in x["puzzles"]:
                for t in p["themes"]:
                    found[t] = found.get(t, 0) + 1
                    table = f" {x.get('players', 2)}p {x.get('pairing') or 'self-play'}" if x["kind"] == "selfplay" else ""
                    where.setdefault(t, []).append(f"{x['source']}#{x['index']}{table} turn {p['turn']} "
                                                   f"{p.get('solution', p['answer'])}")
        names = games.find_ruleset(game).puzzles.theme_names
        print(f"  themes (examples and self-play): " + ", ".join(f"{t} {found.get(t, 0)}" for t in names))
        print(f"  not found: {', '.join(t for t in names if not found.get(t)) or 'none'}")
        for t in names:  # where a rare theme was found, to look at it again
            if 0 < found.get(t, 0) <= 3:
                print(f"  {t}: {'; '.join(where[t])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", required=True)
    r.add_argument("--jobs", type=int, default=1)
    r.add_argument("--level", default="quick")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--selfplay", type=int, default=2, help="self-played games of each game")
    r.add_argument("--from", dest="first", type=int, default=1, help="the first self-played deal")
    r.add_argument("--players", type=int, default=2, help="players at a self-played game's table")
    r.add_argument("--pairing", help="two bots that play the fresh games instead of self-play (beginner-normal)")
    r.add_argument("--confirm-rounds", type=int, help="the confirming search's rounds (default the level's)")
    r.add_argument("--no-examples", dest="examples", action="store_false", help="leave out examples/")
    r.add_argument("--no-real", dest="real", action="store_false", help="leave out the real games of tests/data")
    r.add_argument("--only", help="games, comma separated (carcassonne,goldrush,gold)")
    s = sub.add_parser("summary")
    s.add_argument("file")
    args = parser.parse_args()
    run(args) if args.command == "run" else summary(args)


if __name__ == "__main__":
    main()
