"""What a tap costs in ``grn serve`` early and late in a long game, and what ``grn validate FILE`` costs: each
before and after issue 46 item 4 (R458-R464), both variants in one run on the same machine.

    nice -n 10 .venv/bin/python bench/bench_serve_tap.py [ROUNDS] [--before REV] [--instructions]

* **a tap** (Confirm at the end of the main line): the server's work for ``POST /api/games/ID/play`` without HTTP
  (:func:`grn.serve.routes_recording.apply_edit`: the turn checked, stored, the new position drawn), at turn 10
  and turn 150 of a self-played Carcassonne game of three base sets (215 turns), the position before the turn
  drawn first as the page had it.  ``append``: the turn stored as one turn (R458); ``full``: the same request
  with the store's full save (the whole game written, read, replayed and its rows written again), as before.
  Also the store's share alone (``save``).  Target: the tap at turn 150 within a few milliseconds of the tap at
  turn 10 (a tap costs a turn, not a game).
* **validate**: ``grn validate examples/goldrush-2p.grn``, wall time, start-up included, this tree against the
  tree of ``REV`` (default ``main``, taken with ``git archive``), run alternately; with ``--instructions`` also
  counted by callgrind (valgrind), which the load does not disturb.  Target: no slower.

Medians and 95th percentiles in milliseconds, and the load average, which the figures depend on.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from grn.core.record import Record
from grn.games.carcassonne import selfplay
from grn.games.carcassonne.options import Options
from grn.rules.selfplay import to_record
from grn.serve.common import Context
from grn.serve.routes_recording import Edit, apply_edit, play_actions, state_of
from grn.serve.store import Store, digest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = "examples/goldrush-2p.grn"


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def taps(rounds: int) -> dict[tuple[str, int], tuple[list[float], list[float], list[float]]]:
    """(variant, turn) -> the taps' wall times, their CPU times and the store's share of the CPU time,
    milliseconds."""
    full = to_record(selfplay.play(2, 1, Options(basic=3)), seed=1)
    out: dict[tuple[str, int], tuple[list[float], list[float], list[float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db")
        ctx = Context(store, 10**6)
        real_save = store.save
        saved: list[float] = []

        def timed_save(variant: str) -> Callable[..., str]:
            def save(game_id: int, record: Record, base: str, appended: Any = None) -> str:
                c0 = time.process_time()
                try:
                    return real_save(game_id, record, base, appended if variant == "append" else None)
                finally:
                    saved.append((time.process_time() - c0) * 1000)
            return save

        for _ in range(rounds):
            for turn in (10, 150):
                for variant in ("append", "full"):
                    start = full.replace(tags=tuple((k, v) for k, v in full.tags if k != "Result"),
                                         turns=full.turns[:turn - 1])
                    actions = list(full.turns[turn - 1].actions)
                    game_id = store.create(start)
                    _, text = store.load(game_id)
                    state_of(ctx, game_id, "end", [], None)  # the page shows the position before the turn

                    def change(record: Record, text: str, at: str, data: dict[str, Any]) -> Edit:
                        return play_actions(record, text, at, actions)

                    store.save = timed_save(variant)  # type: ignore[method-assign]
                    c0, t0 = time.process_time(), time.perf_counter()
                    view = apply_edit(ctx, game_id, digest(text), "end", {}, change)
                    took = (time.perf_counter() - t0) * 1000
                    cpu = (time.process_time() - c0) * 1000
                    store.save = real_save  # type: ignore[method-assign]
                    assert view["address"] == str(turn), view["address"]
                    times, cpus, shares = out.setdefault((variant, turn), ([], [], []))
                    times.append(took)
                    cpus.append(cpu)
                    shares.append(saved.pop())
    return out


def validate_runs(rounds: int, before: str) -> dict[str, tuple[list[float], list[float]]]:
    """``grn validate EXAMPLE``'s wall times and CPU times (the child's user and system time): this tree
    (``after``) and ``before``'s tree, alternately."""
    out: dict[str, tuple[list[float], list[float]]] = {"before": ([], []), "after": ([], [])}
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as away:
        archive = subprocess.run(["git", "archive", before, "grn"], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        trees = {"before": tmp, "after": str(ROOT)}
        # run from a folder without grn in it: ``python -c`` puts the working folder first on the path, and the
        # editable install's finder comes after the path, so PYTHONPATH picks the tree
        command = [sys.executable, "-c", "from grn.cli.launch import run; run()", "validate", str(ROOT / EXAMPLE)]
        check = [sys.executable, "-c", "import grn, sys; sys.stdout.write(grn.__file__)"]
        for variant, tree in trees.items():
            found = subprocess.run(check, cwd=away, env={**os.environ, "PYTHONPATH": tree}, capture_output=True,
                                   text=True).stdout
            assert found.startswith(tree), (variant, found)
        for _ in range(2):  # warm: the file system's caches, the byte code and the grammars' cache
            for tree in trees.values():
                subprocess.run(command, cwd=away, env={**os.environ, "PYTHONPATH": tree}, capture_output=True)
        for _ in range(rounds):
            for variant, tree in trees.items():
                c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                t0 = time.perf_counter()
                done = subprocess.run(command, cwd=away, env={**os.environ, "PYTHONPATH": tree},
                                      capture_output=True, text=True)
                out[variant][0].append((time.perf_counter() - t0) * 1000)
                c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                out[variant][1].append((c1.ru_utime - c0.ru_utime + c1.ru_stime - c0.ru_stime) * 1000)
                assert done.returncode == 0 and "1 valid: ok" in done.stdout, done
    return out


def instructions(before: str) -> dict[str, int]:
    """``grn validate EXAMPLE``'s instructions under callgrind (start-up included; no load's noise), this tree and
    ``before``'s."""
    out: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as away:
        archive = subprocess.run(["git", "archive", before, "grn"], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        command = [sys.executable, "-c", "from grn.cli.launch import run; run()", "validate", str(ROOT / EXAMPLE)]
        for variant, tree in (("before", tmp), ("after", str(ROOT))):
            env = {**os.environ, "PYTHONPATH": tree}
            subprocess.run(command, cwd=away, env=env, capture_output=True)  # the byte code written
            done = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                                  cwd=away, env=env, capture_output=True, text=True)
            found = [line for line in done.stderr.splitlines() if "Collected :" in line]
            out[variant] = int(found[-1].rsplit(":", 1)[1]) if found else -1
    return out


def main(argv: list[str]) -> int:
    rounds = int(argv[1]) if len(argv) > 1 and argv[1].isdigit() else 15
    before = argv[argv.index("--before") + 1] if "--before" in argv else "main"
    load = os.getloadavg()
    print(f"load average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)")
    found = taps(rounds)
    print(f"a tap at the end of a 215-turn Carcassonne game, {rounds} rounds (ms, p50 / p95):")
    for (variant, turn), (times, cpus, shares) in sorted(found.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        print(f"  turn {turn:3d}  {variant:6s}  tap wall {statistics.median(times):6.1f} / {pct(times, 95):6.1f}"
              f"   CPU {statistics.median(cpus):6.1f} / {pct(cpus, 95):6.1f}   of it the store's save (CPU) "
              f"{statistics.median(shares):6.1f} / {pct(shares, 95):6.1f}")
    runs = validate_runs(rounds, before)
    print(f"grn validate {EXAMPLE}, start-up included, {rounds} runs each (ms, p50 / p95):")
    for variant, (times, cpu) in runs.items():
        print(f"  {variant:6s} ({before if variant == 'before' else 'this tree'}): wall "
              f"{statistics.median(times):6.1f} / {pct(times, 95):6.1f}   CPU {statistics.median(cpu):6.1f} / "
              f"{pct(cpu, 95):6.1f}")
    if "--instructions" in argv:
        counted = instructions(before)
        print(f"grn validate {EXAMPLE}, instructions (callgrind, start-up included): before ({before}) "
              f"{counted['before']:,}, after {counted['after']:,} "
              f"({(counted['after'] - counted['before']) / counted['before']:+.1%})")
    load = os.getloadavg()
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
