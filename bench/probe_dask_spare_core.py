"""Probe: Dask against grn's own workers when the cluster's threads have a core to themselves.

    .venv/bin/python bench/probe_dask_spare_core.py [--games 300] [--copies 100] [--workers 1] [--pairs 3]

Issue 26 item 5, round twelve.  With two workers on two cores, ``grn validate --dask-scheduler`` runs 13-18%
behind ``--jobs 2`` although its task threads execute the same instructions a game as the pool's workers
(R305): the cluster's other threads (the scheduler, the nannies, each worker's event loop, the client) run on
the same two cores and take the workers' turns.  This probe gives the cluster one core more than it has
workers: a local cluster of ``--workers`` workers (one thread each) against ``grn validate --jobs N`` with the
same N (``--jobs 1`` is the serial run, in the command's own process), interleaved pairs, wall and the
children's CPU time, and their median.  Run it on an idle machine with more cores than ``--workers``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
import subprocess

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_archive import GRN, make_games  # noqa: E402  (the same self-played games as the archive bench)


def run(args: list[str]) -> tuple[float, float]:
    """Wall seconds and the child's CPU seconds (user + system) of one ``grn`` command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(GRN + args, stdout=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--copies", type=int, default=100)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--pairs", type=int, default=3)
    opts = ap.parse_args()
    from distributed import LocalCluster

    with tempfile.TemporaryDirectory(prefix="grn-probe-spare-") as tmp:
        games = Path(tmp) / "games.grn"
        n = make_games(games, opts.games, opts.copies)
        cluster = LocalCluster(n_workers=opts.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
        try:
            dask = ["validate", "--dask-scheduler", cluster.scheduler_address, str(games)]
            ours = ["validate", "--jobs", str(opts.workers), str(games)]
            run(dask)  # the workers warmed up, as a long-lived cluster's are
            print(f"{n} games; a local cluster of {opts.workers} worker(s), one thread each, against --jobs "
                  f"{opts.workers}: wall s (the command's CPU s; Dask's cluster not in it)")
            ratios = []
            for i in range(opts.pairs):
                j_wall, j_cpu = run(ours)
                d_wall, d_cpu = run(dask)
                ratios.append(d_wall / j_wall - 1)
                print(f"  pair {i + 1}: --jobs {opts.workers} {j_wall:.2f} s ({j_cpu:.2f}) -> Dask {d_wall:.2f} s "
                      f"({d_cpu:.2f}): {ratios[-1]:+.1%}", flush=True)
            print(f"  median of {opts.pairs} pairs: Dask {statistics.median(ratios):+.1%} by wall")
        finally:
            cluster.close()


if __name__ == "__main__":
    main()
