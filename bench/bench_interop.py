"""Export self-played Carcassonne games to JCloisterZone and import them back; print games per second.

    .venv/bin/python bench/bench_interop.py [GAMES] [LINKS]

Half the games are played with The Gold Mines.  Each game is exported
(``grn export --to jcz``'s work), imported (``grn import``'s), and the
imported record is read back; the commands of every game must come back the
same.  Also times importing the CarcassonneLab link of a whole Board Game Arena game, and a batch
import of LINKS such links (default 2,000) from one list in one process (``grn import club.txt``).

Target: export and import keep every game's commands; games per second reported in docs/interop.md.
"""

from __future__ import annotations

import sys
import time

from grn.games.carcassonne import Options, selfplay
from grn.games.carcassonne.carcassonnelab import link_to_grn
from grn.games.carcassonne.jcz import grn_to_jcz, jcz_to_grn
from grn.notation.read import parse
from grn.notation.read import read as parse_file
from grn.rules.selfplay import to_record


def main(argv: list[str]) -> int:
    n = int(argv[1]) if len(argv) > 1 else 200
    records = [to_record(selfplay.play(2 + seed % 4, seed=seed, options=Options(goldmines=seed % 2 == 1)),
                         seed=seed) for seed in range(n)]
    turns = sum(len(r.turns) for r in records)
    t0 = time.perf_counter()
    files = [grn_to_jcz(r) for r in records]
    t1 = time.perf_counter()
    texts = [jcz_to_grn(f) for f in files]
    t2 = time.perf_counter()
    back = [parse(t)[0] for t in texts]
    t3 = time.perf_counter()
    same = sum([(t.player, t.actions) for t in a.mainline()] == [(t.player, t.actions) for t in b.mainline()]
               for a, b in zip(records, back))
    print(f"{n} games ({turns} turns), {sum(len(f) for f in files) // n // 1024} KiB of .jcz a game")
    print(f"export: {n / (t1 - t0):.0f} games/s; import: {n / (t2 - t1):.0f} games/s; "
          f"reading the imports back: {n / (t3 - t2):.0f} games/s")
    print(f"round trips giving back the same commands: {same} of {n}")
    link = ("https://www.carcassonnelab.com/#/0/0/qcpTfaVv0FiZHt4y-eNwjP5TFu_E_uwFA7B0lJ1nydRZ3lr7Ea5wg3T/"
            "212112c222a323Z133Z122q0312143c2411044Z221L053Z15140121131J123q032s024s013Z052Z132H234b035a122K03"
            "3H032Z142b154c064Z025Z065Z055b034K156c145c026a246b1612035J143L225L066a044H163b047Z276a057a086a037"
            "a058Z1623438b0631059Z039Z415b128Z053H03Ab067Z045H069a034r263J055J014c044r036L348b3423354H1"
            "?players=A,B&colors=red,blue")  # Board Game Arena table 361578832 (tests/test_interop_carcassonnelab.py)
    t0 = time.perf_counter()
    for _ in range(100):
        link_to_grn(link)
    print(f"a CarcassonneLab link of a whole game (71 tiles): {(time.perf_counter() - t0) * 10:.2f} ms an import")
    batch_ok = _batch(link, int(argv[2]) if len(argv) > 2 else 2000)
    return 0 if same == n and batch_ok else 1


def _batch(link: str, count: int) -> bool:
    """``grn import LINKS.txt -o OUT.grn`` in one process: links a second, start-up included (target: 500)."""
    import os
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        links = os.path.join(folder, "club.txt")
        with open(links, "w", encoding="utf-8") as fh:
            for k in range(count):  # the same whole game under other names: each link is read in full
                fh.write(link.replace("players=A,B", f"players=Player{k},Other{k}") + "\n")
        out = os.path.join(folder, "club.grn")
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "grn", "import", links, "-o", out], capture_output=True,
                              text=True)
        elapsed = time.perf_counter() - t0
        with open(out, encoding="utf-8") as fh:
            games = sum(line.startswith("[Game ") for line in fh)
        back = sum(1 for _ in parse_file(out))
    rate = count / elapsed
    print(f"batch import of {count} CarcassonneLab links in one process: {elapsed:.2f} s, {rate:.0f} links/s "
          f"(target 500); {games} games written, {back} read back; {done.stderr.strip()}")
    return done.returncode == 0 and games == back == count


if __name__ == "__main__":
    sys.exit(main(sys.argv))
