"""Benchmark: the archive and parallel validation, against the targets of issue 13.

    .venv/bin/pip install -e '.[test,bench]'      # pyarrow and dask come with the test extra
    .venv/bin/python bench/bench_archive.py [--games 500] [--copies 6] [--archive 100000] [--memory-mb 1024]

Games: ``--games`` self-played 4-player Gold Rush games (``grn selfplay``),
written ``--copies`` times over with another Round tag each (the same
validation work per copy), as one GRN file.  Every command runs as a user
runs it, in its own process, and is timed by wall clock (the best of
``--repeat`` runs).

Measured, with the targets:

1. indexing: ``grn archive add`` against ``grn validate`` of the same file
   (serial, and both with ``--jobs 2``): at most 25% more CPU time (issue 26);
   and the archive's size a game, by table (SQLite's ``dbstat``).  ``add``
   keeps no per-turn rows (R250): beside it ``add --per-turn`` (the rows built
   during add) and ``grn archive index`` of add's archive (the deferred build).  ``add``
   remembers the JSON of the commands and events it has seen (R196), so the
   copies of ``--copies`` cost it less than distinct games would: give
   ``--copies 1`` (and more ``--games``) for a figure over distinct games;
2. ``grn validate --jobs 2`` against ``--jobs 1``: at least 1.8 times faster on 2 cores;
3. ``--dask-scheduler`` on a local 2-worker cluster (127.0.0.1) against ``--jobs 2``: within 10% (as run by
   default, and with the head start of R241 on, ``dh``: off by default since R298);
   for 2. and 3. the CPU seconds of the main process and of its workers (or the cluster's processes) are
   given apart, and the wall time on 2 idle cores is projected from them (a loaded machine's wall time
   says how much of the cores grn got, not how it scales);
   with ``--pairs`` (R305) --jobs 1 and the head start run in the first round only and every round's
   --jobs 2 / Dask pair is given with the pool's workers' and the task threads' user and system CPU,
   minor faults, waits and preemptions, and the medians; ``--variant quiet`` (or ``freeze``) adds a third
   run in each round on the cluster's workers with their periodic callbacks stopped (or ``gc.freeze``d, R307);
4. a tag query and a player query over an archive of ``--archive`` games: under 1 ms
   (issue 26); ``grn archive stats`` over it: under 2 s; and the searches that
   unpack per-turn facts (``--event``, ``--action``, ``--beside``), which read
   every game; the first of them builds every game's per-turn rows (R250), and
   its CPU time is given apart.  The large archive is made by copying the archived games' rows
   (games, tags, seats, points, game_turns) with other players (1,000 names)
   and other Event tags (500), in SQL.  In-process times are CPU seconds
   (``time.process_time``), which a loaded machine does not stretch;
5. peak memory of ``grn archive add`` of a file of ``--memory-mb`` MB
   (the games again and again): under 200 MB.  ``--memory-mb 0`` skips it.

Targets: `archive add` at most +25% over `validate`; `--jobs 2` at least 1.8x `--jobs 1`; Dask within 10% of `--jobs 2` (docs/performance.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GRN = [sys.executable, "-m", "grn"]
#: Every command runs with Python's bytecode cache on, as a user's does (R123): this development environment sets
#: PYTHONDONTWRITEBYTECODE, and with it each process, each worker of a pool too, compiled anew the sources of the
#: modules mypyc does not compile.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(args: list[str], *, repeat: int = 1) -> float:
    """Best wall time of ``grn ARGS`` over ``repeat`` runs (its output thrown away)."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(GRN + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=ENV)
        best = min(best, time.perf_counter() - t)
    return best


#: ``grn ARGS`` run as the console script runs it (grn.cli.launch: ``grn validate FILE`` without typer, R190) in a process
#: that says at its exit the CPU seconds it used itself and its worker processes used
ACCOUNTED = [sys.executable, "-c",
             "import atexit, resource, sys\n"
             "def said():\n"
             "    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)\n"
             "    import time\n"
             "    print('CPU', s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime, time.thread_time(), file=sys.stderr)\n"
             "    print('CHILDREN', c.ru_utime, c.ru_stime, c.ru_minflt, c.ru_nvcsw, c.ru_nivcsw, file=sys.stderr)\n"
             "atexit.register(said)\n"
             "sys.argv = ['grn'] + sys.argv[1:]\n"
             "import grn.cli.launch\n"
             # validate --dask-scheduler ends with os._exit (R299), which runs no atexit handler: say it first
             "end_now = grn.cli.launch._end_now\n"
             "def said_then_end(code):\n"
             "    said()\n"
             "    end_now(code)\n"
             "grn.cli.launch._end_now = said_then_end\n"
             "grn.cli.launch.main()\n"]


#: The same with the head start of a Dask client on (R241; off by default since R298): one local worker validates
#: the first chunks while the client imports distributed and connects
HEAD_START = ACCOUNTED[:2] + ["import grn.check.batch\ngrn.batch.HEAD_START = True\n" + ACCOUNTED[2]]


def run_accounted(args: list[str], command: list[str] = ACCOUNTED) -> tuple[float, float, float]:
    """Wall time of ``grn ARGS``, with the CPU seconds of its main process and of its worker processes (for a
    Dask client: the local worker of its head start, R241)."""
    return run_threads(args, command)[:3]


def run_threads(args: list[str], command: list[str] = ACCOUNTED) -> tuple[float, float, float, float]:
    """:func:`run_accounted`, and the CPU seconds of the main process's main thread (for a Dask client, the rest
    of its process is the thread that imports distributed and connects, and the client's event loop)."""
    return run_counted(args, command)[:4]


#: What a process or thread did besides its CPU seconds: user and system seconds, minor page faults, voluntary
#: and involuntary context switches (the first are waits: for the interpreter lock, for work; the second
#: preemptions)
COUNTERS = ("user", "system", "faults", "waits", "preempted")


def run_counted(args: list[str], command: list[str] = ACCOUNTED
                ) -> tuple[float, float, float, float, dict[str, float]]:
    """:func:`run_threads`, and the :data:`COUNTERS` of its worker processes (a pool's) together."""
    t = time.perf_counter()
    done = subprocess.run(command + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False,
                          env=ENV)
    wall = time.perf_counter() - t
    line = [x for x in done.stderr.splitlines() if x.startswith("CPU ")][-1].split()
    kids = [x for x in done.stderr.splitlines() if x.startswith("CHILDREN ")][-1].split()
    return (wall, float(line[1]), float(line[2]), float(line[3]),
            dict(zip(COUNTERS, (float(x) for x in kids[1:]))))


def cluster_counters() -> dict[str, dict[str, float]]:
    """The :data:`COUNTERS` so far of the local cluster's workers' threads, by kind: ``work`` (the threads
    that run tasks) and ``loop`` (each worker's event loop), read from /proc per thread."""
    import psutil  # comes with distributed

    tick = os.sysconf("SC_CLK_TCK")
    out = {kind: dict.fromkeys(COUNTERS, 0.0) for kind in ("work", "loop")}
    for child in psutil.Process().children(recursive=True):
        try:
            tids = [t.id for t in child.threads()]
        except psutil.NoSuchProcess:
            continue
        if len(tids) < 2:  # a nanny
            continue
        for tid in tids:
            base = f"/proc/{child.pid}/task/{tid}"
            try:
                stat = Path(base, "stat").read_text().rsplit(")", 1)[1].split()
                status = dict(line.split(":", 1) for line in Path(base, "status").read_text().splitlines()
                              if ":" in line)
            except OSError:  # the thread ended
                continue
            got = out["loop" if tid == child.pid else "work"]
            # stat's fields from the third: minflt is the tenth, utime and stime the 14th and 15th
            got["user"] += int(stat[11]) / tick
            got["system"] += int(stat[12]) / tick
            got["faults"] += int(stat[7])
            got["waits"] += int(status["voluntary_ctxt_switches"])
            got["preempted"] += int(status["nonvoluntary_ctxt_switches"])
    return out


def cluster_cpu(cluster: object) -> float:
    """CPU seconds used so far by a local Dask cluster: its scheduler (threads of this process) and its workers."""
    return sum(v for k, v in cluster_threads().items() if not k.startswith("worker "))


def cluster_threads() -> dict[str, float]:
    """CPU seconds used so far by a local Dask cluster, by kind of thread: ``scheduler`` (the scheduler and the
    nannies, threads of this process, with the bench's own idle client), ``loop`` (each worker's main thread: its event loop, with the heartbeats,
    the comms and the statistical profiler) and ``work`` (the workers' other threads, where the tasks run)."""
    import psutil  # comes with distributed

    me = psutil.Process()
    out = {"scheduler": sum(t.user_time + t.system_time for t in me.threads()[1:]), "work": 0.0, "loop": 0.0}
    for child in me.children(recursive=True):
        try:
            threads = child.threads()
        except psutil.NoSuchProcess:
            continue
        # a worker process's main thread runs its event loop; its tasks run on the executor's other threads
        for t in threads:
            out["loop" if t.id == child.pid else "work"] += t.user_time + t.system_time
        if len(threads) > 1:  # a worker (a nanny's process has one thread): its CPU apart, by process id
            out[f"worker {child.pid}"] = sum(t.user_time + t.system_time for t in threads)
    return out


def task_stream(client: Any, start: float, stop: float) -> str:
    """How the cluster's workers spent a run's wall time (the scheduler's task stream): tasks, their compute
    time, the gaps between one task's end and the next one's start on a worker, and the time before the first
    and after the last task.  Compute near the wall time with small gaps: the workers were kept busy and any
    excess over ``--jobs 2`` is CPU; long gaps: the workers waited for tasks (latency, not CPU)."""
    spans: dict[str, list[tuple[float, float]]] = {}
    for task in client.get_task_stream(start=start, stop=stop):
        for step in task["startstops"]:
            if step["action"] == "compute":
                spans.setdefault(task["worker"], []).append((step["start"], step["stop"]))
    parts = []
    for n, (_, times) in enumerate(sorted(spans.items()), start=1):
        times.sort()
        compute = sum(b - a for a, b in times)
        gaps = sum(times[i + 1][0] - times[i][1] for i in range(len(times) - 1))
        parts.append(f"worker {n}: {len(times)} tasks, compute {compute:.2f} s, gaps {gaps:.2f} s, before the first "
                     f"{times[0][0] - start:.2f} s, after the last {stop - times[-1][1]:.2f} s")
    return "; ".join(parts) or "no task"


def peak_rss_mb(args: list[str]) -> tuple[float, float]:
    """Wall time and peak resident memory (MB) of ``grn ARGS`` run alone in a child process."""
    code = ("import resource, subprocess, sys, time; t = time.perf_counter(); "
            f"subprocess.run({GRN + args!r}, stdout=subprocess.DEVNULL, check=True); "
            "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1]) / 1024


def copy_file(path: Path, source: Path, copies: int) -> int:
    """``source``'s games (a real record, such as a commented Board Game Arena import) written ``copies`` times;
    return the number of games."""
    text = source.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    with open(path, "w", encoding="utf-8") as fh:
        for _ in range(copies):
            fh.write(text)
    return text.count("[Game ") * copies


def make_games(path: Path, games: int, copies: int) -> int:
    """Self-play ``games`` games and write them ``copies`` times; return the number of games."""
    text = subprocess.run(GRN + ["selfplay", "--players", "4", "--seed", "1", "--games", str(games)],
                          capture_output=True, text=True, check=True).stdout
    parts = text.split('[Round "')
    with open(path, "w", encoding="utf-8") as fh:
        for c in range(copies):
            if c:
                fh.write("\n")
            fh.write(parts[0] + "".join(f'[Round "{c}-' + p for p in parts[1:]))
    return games * copies


def grow(db: Path, target: int) -> int:
    """Copy the archive's games (and their tags, seats, points, packed or not) until it holds ``target`` games."""
    con = sqlite3.connect(db)
    base = con.execute("SELECT count(*), max(id) FROM games").fetchone()
    n, top = base
    copy = 1
    while n < target:
        off = copy * top
        take = min(base[0], target - n)
        con.execute("BEGIN")
        con.execute(
            "INSERT INTO games SELECT id + ?, file_id, file_index + ?, format, game, "
            "'Event ' || ((id + ?) % 500), site, date, round, players, n_players, result, winners, valid, complete, "
            "turns, errors, final_scores, first_player, dedup, problems, text FROM games WHERE id <= ?",
            (off, off, off, take))
        con.execute("INSERT INTO tags SELECT game_id + ?, pos, name, CASE name WHEN 'Event' THEN "
                    "'Event ' || ((game_id + ?) % 500) ELSE value END FROM tags WHERE game_id <= ?", (off, off, take))
        con.execute("INSERT INTO seats SELECT game_id + ?, seat, key, 'Player ' || ((game_id + ? + seat * 7) % 1000), "
                    "score, won, first, done, game, n_players FROM seats WHERE game_id <= ?", (off, off, take))
        con.execute("INSERT INTO points SELECT p.game_id + ?, p.player, s.name, p.feature, p.points FROM points p "
                    "JOIN seats s ON s.game_id = p.game_id + ? AND s.key = p.player WHERE p.game_id <= ?",
                    (off, off, take))
        # the points rows add keeps packed (R310): each copy's with its seats' new names
        con.execute("INSERT INTO points_packed SELECT p.game_id + ?, json_group_object(s.key, json_object(t.name, "
                    "json(n.value))) FROM points_packed p, json_each(p.data) s, json_each(s.value) n "
                    "JOIN seats t ON t.game_id = p.game_id + ? AND t.key = s.key WHERE p.game_id <= ? "
                    "GROUP BY p.game_id", (off, off, take))
        con.execute("INSERT INTO game_turns SELECT game_id + ?, actions, events FROM game_turns WHERE game_id <= ?",
                    (off, take))
        con.execute("COMMIT")
        n += take
        copy += 1
    con.execute("ANALYZE")
    con.close()
    return n


def table_sizes(db: Path) -> list[tuple[str, int]]:
    """Bytes of each table and index of an archive, the largest first (SQLite's dbstat)."""
    con = sqlite3.connect(db)
    try:
        return [(str(name), int(b)) for name, b in
                con.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC")]
    except sqlite3.OperationalError:  # an SQLite built without dbstat
        return []
    finally:
        con.close()


def query_ms(db: Path, args: list[str], repeat: int = 5) -> tuple[float, int]:
    """CPU time of a search's SQL (filters -> ids), in this process, best of ``repeat``."""
    sys.path.append(str(ROOT))  # the grn this Python has installed, else this checkout
    from grn.archive.db import connect
    from grn.archive.search import Filters, game_ids

    f = Filters()
    for i in range(0, len(args), 2):
        if args[i] == "--tag":
            f.tags.append(args[i + 1])
        elif args[i] == "--player":
            f.players.append(args[i + 1])
        elif args[i] == "--event":
            f.events.append(args[i + 1])
        elif args[i] == "--action":
            f.actions.append(args[i + 1])
        elif args[i] == "--beside":
            f.beside.append(args[i + 1])
    con = connect(db, readonly=True)
    best, found = float("inf"), 0
    for _ in range(repeat):
        t = time.process_time()
        found = len(game_ids(con, f))
        best = min(best, time.process_time() - t)
    con.close()
    return best * 1000, found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--copies", type=int, default=6)
    ap.add_argument("--archive", type=int, default=100_000)
    ap.add_argument("--memory-mb", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-dask", action="store_true")
    ap.add_argument("--no-worker-profile", action="store_true",
                    help="the local cluster's workers without Dask's statistical profiler (is it Dask's overhead?)")
    ap.add_argument("--pairs", action="store_true",
                    help="sections 2-3: --jobs 1 and the head start in the first round only, then --jobs 2 and Dask "
                    "(interleaved pairs, R305) in every round")
    ap.add_argument("--variant", choices=sorted(VARIANTS),
                    help="section 3: in every round a third run, on the cluster's workers changed by VARIANT for "
                    "that run only (R305-R307)")
    ap.add_argument("--game-level-only", action="store_true",
                    help="section 4 without the per-turn searches (the first builds every game's per-turn rows: "
                    "minutes over 100,000 games): the tag and player queries and stats")
    ap.add_argument("--only", choices=["speed", "parallel", "archive", "memory"],
                    help="run one part only (parallel: sections 2 and 3 alone, without archive add)")
    ap.add_argument("--file", type=Path, help="validate this record's games, written --copies times, instead of "
                    "self-played games (sections 2 and 3: e.g. tests/data/bga-361578832.grn, with comments)")
    ap.add_argument("--memory-jobs", default="1,2", help="--jobs values for the memory run")
    opts = ap.parse_args()
    parts = {opts.only} if opts.only else {"speed", "archive", "memory"}
    with_add = "parallel" not in parts  # section 1 (archive add) runs in the same interleaved rounds
    if "parallel" in parts:
        parts = {"speed"}

    tmp = Path(tempfile.mkdtemp(prefix="grn-bench-archive-"))
    try:
        games_file = tmp / "games.grn"
        if opts.file is not None:
            n = copy_file(games_file, opts.file, opts.copies)
        else:
            n = make_games(games_file, opts.games, opts.copies)
        size = games_file.stat().st_size / 1e6
        print(f"{n} games, {size:.1f} MB, {os.cpu_count()} cores, "
              f"{subprocess.run(GRN + ['--version'], capture_output=True, text=True).stdout.strip()}")

        def add(jobs: int, per_turn: bool = False) -> float:
            name = f"add{jobs}{'p' if per_turn else ''}.db"
            db = tmp / name
            for p in tmp.glob(f"{name}*"):
                p.unlink()
            # --jobs only where it is not 1: a user's plain add takes the console script's light path (R325)
            return run(["archive", "add", "-q", *(["--per-turn"] if per_turn else []),
                        *(["--jobs", str(jobs)] if jobs != 1 else []), str(db), str(games_file)])

        def index_cpu() -> float:
            """CPU seconds of ``grn archive index`` of a copy of add1.db: the deferred build of every game (R250)."""
            db = tmp / "index1.db"
            for p in tmp.glob("index1.db*"):
                p.unlink()
            shutil.copy(tmp / "add1.db", db)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            run(["archive", "index", "-q", str(db)])
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

        if "archive" in parts and "speed" not in parts:
            add(1)
        if "speed" in parts:
            # interleaved rounds, the best of each: the load of a shared machine changes from minute to minute
            best: dict[str, float] = {}
            cpu: dict[str, float] = {}
            split: dict[str, tuple[float, float]] = {}  # (main process, workers) CPU s of the best run
            helper: dict[str, float] = {}  # CPU s of a Dask client's local helper in the best run (R241)
            main_thread: dict[str, float] = {}  # CPU s of the main process's main thread in the best run
            # each round's --jobs 2 and Dask runs, side by side: walls, and the pool's workers' and the cluster's
            # task threads' counters (R305: every pair and their median, not the best of each)
            rounds: list[dict[str, Any]] = []
            cluster = None
            idle_rate = 0.0
            if not opts.skip_dask:
                import dask
                from distributed import LocalCluster

                if opts.no_worker_profile:  # the nannies hand the config to their workers
                    dask.config.set({"distributed.worker.profile.enabled": False})
                cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address=None)
                run(["validate", "--dask-scheduler", cluster.scheduler_address, str(games_file)])  # warm up
                # an idle cluster uses CPU too (heartbeats, event loops): its rate is taken off the runs' CPU
                idle_from = cluster_cpu(cluster)
                time.sleep(5)
                idle_rate = (cluster_cpu(cluster) - idle_from) / 5
                from distributed import Client

                watcher = Client(cluster.scheduler_address, set_as_default=False)
                watcher.get_task_stream(start=time.time())  # installs the scheduler's task-stream plugin
            try:
                for round_no in range(opts.repeat):
                    for name, args in (("v1", ["validate", str(games_file)]),
                                       ("v2", ["validate", "--jobs", "2", str(games_file)]),
                                       ("d", ["validate", "--dask-scheduler",
                                              cluster.scheduler_address if cluster else "", str(games_file)]),
                                       ("dv", ["validate", "--dask-scheduler",
                                               cluster.scheduler_address if cluster else "", str(games_file)]),
                                       ("dh", ["validate", "--dask-scheduler",
                                               cluster.scheduler_address if cluster else "", str(games_file)]),
                                       ("a1", None), ("a2", None), ("p1", None), ("i1", None)):
                        on_dask = name.startswith("d")
                        if (on_dask and cluster is None) or (args is None and not with_add):
                            continue
                        if (opts.pairs and round_no and name in ("v1", "dh")) or (name == "dv" and not opts.variant):
                            continue
                        if name == "dv":  # the same cluster, its workers changed for this run only
                            run_variant(watcher, opts.variant, True)
                        before = resource.getrusage(resource.RUSAGE_CHILDREN)
                        in_cluster = cluster_cpu(cluster) if on_dask else 0.0
                        threads_before = cluster_threads() if on_dask else {}
                        if name == "i1":
                            wall = float("nan")
                            cpu["i1"] = min(cpu.get("i1", float("inf")), index_cpu())
                            continue
                        if args is None:
                            wall = add(int(name[1]), per_turn=name == "p1")
                        else:  # 2. and 3.: the main process's CPU apart from its workers' (and the cluster's)
                            started = time.time()
                            counted_before = cluster_counters()["work"] if name in ("d", "dv") else {}
                            wall, main_cpu, workers_cpu, thread_cpu, kids = run_counted(
                                args, HEAD_START if name == "dh" else ACCOUNTED)
                            if name == "v2":
                                rounds.append({"v2": wall, "pool": kids})
                            elif name in ("d", "dv") and rounds:
                                after_counted = cluster_counters()["work"]
                                rounds[-1].update({name: wall, "tasks" if name == "d" else "variant": {
                                    k: after_counted[k] - counted_before[k] for k in COUNTERS}})
                            if on_dask:
                                # the cluster's CPU beyond its idle cost, and the client's local helper (R241)
                                helper[name] = workers_cpu if wall <= best.get(name, wall) else helper.get(name, 0.0)
                                workers_cpu += cluster_cpu(cluster) - in_cluster - idle_rate * wall
                                threads_after = cluster_threads()
                                by_thread = {k: threads_after[k] - threads_before.get(k, 0.0) for k in threads_after}
                            if wall <= best.get(name, wall):
                                split[name] = (main_cpu, workers_cpu)
                                main_thread[name] = thread_cpu
                                if name == "d":
                                    best_threads, best_d_wall = by_thread, wall
                                    best_stream = task_stream(watcher, started, started + wall)
                        if name == "dv":
                            run_variant(watcher, opts.variant, False)
                        after = resource.getrusage(resource.RUSAGE_CHILDREN)
                        best[name] = min(best.get(name, wall), wall)
                        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                        cpu[name] = min(cpu.get(name, used), used)
                start = startup_cpu(tmp)
                start_d = startup_cpu(tmp, cluster.scheduler_address) if cluster is not None else 0.0
            finally:
                if cluster is not None:
                    watcher.close()
                    cluster.close()
            v1, v2 = best["v1"], best["v2"]
            if with_add:  # section 1
                a1, a2 = best["a1"], best["a2"]
                size = (tmp / "add1.db").stat().st_size
                sizes = table_sizes(tmp / "add1.db")
                print(f"1. indexing: validate {v1:.2f} s wall {cpu['v1']:.2f} s CPU, archive add {a1:.2f} s wall "
                      f"{cpu['a1']:.2f} s CPU: +{100 * (a1 / v1 - 1):.0f}% wall, +{100 * (cpu['a1'] / cpu['v1'] - 1):.0f}% "
                      f"CPU (target <= +25%); with --jobs 2: validate {v2:.2f} s, add {a2:.2f} s: "
                      f"+{100 * (a2 / v2 - 1):.0f}%; the archive {size / n / 1024:.1f} KiB a game "
                      f"({size / games_file.stat().st_size:.1f}x the GRN text)")
                print("   by table, KiB a game: " + ", ".join(f"{name} {b / n / 1024:.2f}" for name, b in sizes[:8]))
                p1, i1 = cpu["p1"], cpu["i1"]
                size_p = (tmp / "add1p.db").stat().st_size
                print(f"   add --per-turn (the per-turn rows built during add, as before R250): {best['p1']:.2f} s wall "
                      f"{p1:.2f} s CPU, +{100 * (p1 / cpu['v1'] - 1):.0f}% CPU over validate; its archive "
                      f"{size_p / n / 1024:.1f} KiB a game; the deferred build (grn archive index of add's archive): "
                      f"{i1:.2f} s CPU, {1000 * i1 / n:.2f} ms a game; add + index {cpu['a1'] + i1:.2f} s CPU against "
                      f"add --per-turn {p1:.2f} s")
                con = sqlite3.connect(tmp / "add1p.db")
                packed = con.execute("SELECT avg(length(actions)), avg(length(events)), "
                                     "sum(substr(actions, 1, 4) = x'28b52ffd') FROM game_turns").fetchone()
                con.close()
                print(f"   packed per-turn facts a game: actions {packed[0]:.0f} bytes, events {packed[1]:.0f} bytes "
                      f"({packed[2]} of {n} games packed with Zstandard, R216)")
            print(f"2. validate --jobs 2: {v1 / v2:.2f} times as fast as --jobs 1 by wall time (target >= 1.8); "
                  f"CPU seconds (all processes): {cpu['v1']:.2f} serial, {cpu['v2']:.2f} with --jobs 2, so "
                  f"{cpu['v2'] / v2:.2f} cores busy of {os.cpu_count()} (load average {os.getloadavg()[0]:.1f})")
            serial = sum(split["v1"])
            print(f"   CPU by process: --jobs 1 {serial:.2f} s; --jobs 2: main process {split['v2'][0]:.2f} s "
                  f"(of it start-up {start:.2f} s), workers {split['v2'][1]:.2f} s")
            # what a parallel run costs beyond the serial one: the main process's share after its start-up (it
            # finds where the games lie and prints the reports, R220), and the workers' CPU over the serial run's
            # after its start-up (each worker imports the game's modules and warms its memos on its own)
            print(f"   beyond the serial run: the main process after start-up {split['v2'][0] - start:.2f} s; the "
                  f"workers {100 * (split['v2'][1] / (serial - start) - 1):+.0f}% over the serial run after start-up "
                  f"({serial - start:.2f} s)")
            print(f"   on 2 idle cores (start-up alone, then the rest shared by the two cores, Amdahl): "
                  f"{project(split['v2'], start):.2f} s, {serial / project(split['v2'], start):.2f}x --jobs 1")
            if "d" in best:
                d, dh = best["d"], best["dh"]
                print(f"3. Dask, 2 local workers: {d:.2f} s against --jobs 2 {v2:.2f} s: {100 * (d / v2 - 1):+.0f}% "
                      f"(target within 10%); with the head start (R241, off since R298) {dh:.2f} s: "
                      f"{100 * (dh / v2 - 1):+.0f}%")
                print(f"   CPU: the client process {split['d'][0]:.2f} s (start-up {start_d:.2f} s: importing "
                      f"distributed, connecting), of it the main thread {main_thread['d']:.2f} s (the start-up, finding "
                      f"the games, the reports; --jobs 2's main process {split['v2'][0]:.2f} s) and the client's event "
                      f"loop {split['d'][0] - main_thread['d']:.2f} s; the cluster (scheduler and "
                      f"workers) {split['d'][1] - helper['d']:.2f} s beyond its idle {idle_rate:.2f} CPU s a second; "
                      f"with the head start: client {split['dh'][0]:.2f} s, its local helper {helper['dh']:.2f} s, "
                      f"cluster {split['dh'][1] - helper['dh']:.2f} s")
                print(f"   the cluster's CPU s by thread (idle cost not taken off), {best_d_wall:.2f} s of wall: tasks "
                      f"{best_threads['work']:.2f} (the pool's workers {split['v2'][1]:.2f}), the workers' event "
                      f"loops {best_threads['loop']:.2f}, the scheduler and nannies {best_threads['scheduler']:.2f}; "
                      "each worker (tasks and loop): " + ", ".join(f"{v:.2f}" for k, v in sorted(best_threads.items())
                                                                  if k.startswith("worker ")))
                print(f"   the workers' time line in that run: {best_stream}")
                on_idle, on_idle_h = project(split["d"], start_d), project_overlapped(split["dh"], start_d, helper["dh"])
                print(f"   on 2 idle cores: {on_idle:.2f} s, {100 * (on_idle / project(split['v2'], start) - 1):+.0f}% "
                      f"over --jobs 2 (the start-up alone, then all shared); with the head start (the start-up beside "
                      f"the helper) {on_idle_h:.2f} s, {100 * (on_idle_h / project(split['v2'], start) - 1):+.0f}%")

            if any("d" in r for r in rounds):
                pairs_part(rounds, n)

        if "archive" in parts:
            archive_part(tmp, opts.archive, opts.repeat, per_turn=not opts.game_level_only)
        if "memory" in parts and opts.memory_mb:
            memory_part(tmp, games_file, n, opts.memory_mb, [int(j) for j in opts.memory_jobs.split(",")])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"(bench process peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB; "
          f"load average {open('/proc/loadavg').read().split()[0] if os.path.exists('/proc/loadavg') else '?'})")


def _freeze(on: bool) -> None:
    """On a worker: its objects so far out of the garbage collector's generations (gc.freeze), or back."""
    import gc

    if on:
        gc.freeze()
    else:
        gc.unfreeze()


#: The worker's periodic callbacks that wake its event loop while a task runs, besides the comms: the statistical
#: profiler (every 10 ms, and its cycle), the event loop's health check (20 ms) and the memory monitor (100 ms)
QUIET = ("profile", "profile-cycle", "tick", "memory_monitor")


def _quiet(on: bool, dask_worker: Any = None) -> list[str]:
    """On a worker: its periodic callbacks of :data:`QUIET` stopped (or started again); the ones it has."""
    found = [name for name in QUIET if name in dask_worker.periodic_callbacks]
    for name in found:
        callback = dask_worker.periodic_callbacks[name]
        callback.stop() if on else callback.start()
    return found


#: ``--variant``: what is done on each worker of the cluster before a run (and undone after it)
VARIANTS: dict[str, Any] = {"freeze": _freeze, "quiet": _quiet}


def run_variant(client: Any, variant: str, on: bool) -> None:
    """Change (``on``) or restore the local cluster's workers as ``--variant`` says."""
    client.run(VARIANTS[variant], on)


def pairs_part(rounds: list[dict[str, Any]], n: int) -> None:
    """Section 3, round by round: Dask against the --jobs 2 run just before it (interleaved pairs), by wall, and
    the cluster's task threads against the pool's workers: CPU (user, system), minor faults and context switches
    a game; then the medians (R305)."""
    import statistics

    pairs = [r for r in rounds if "d" in r]
    print("   interleaved pairs, --jobs 2 then Dask: wall s; the pool's workers -> the cluster's task threads: "
          "user + system CPU s, minor faults, waits (voluntary switches), preemptions a 1,000 games")
    for k, r in enumerate(pairs, start=1):
        pool, tasks = r["pool"], r["tasks"]
        print(f"   pair {k}: {r['v2']:.2f} -> {r['d']:.2f} s ({100 * (r['d'] / r['v2'] - 1):+.0f}%); "
              f"{pool['user']:.2f} + {pool['system']:.2f} -> {tasks['user']:.2f} + {tasks['system']:.2f} s "
              f"({100 * ((tasks['user'] + tasks['system']) / (pool['user'] + pool['system']) - 1):+.0f}%); "
              + "; ".join(f"{1000 * pool[c] / n:.0f} -> {1000 * tasks[c] / n:.0f} {c}"
                          for c in ("faults", "waits", "preempted")))
    wall = statistics.median(r["d"] / r["v2"] for r in pairs)
    work = statistics.median((r["tasks"]["user"] + r["tasks"]["system"]) / (r["pool"]["user"] + r["pool"]["system"])
                             for r in pairs)
    print(f"   median of {len(pairs)} pairs: Dask {100 * (wall - 1):+.0f}% by wall over --jobs 2; the task threads "
          f"{100 * (work - 1):+.0f}% CPU over the pool's workers")
    variants = [r for r in pairs if "variant" in r]
    if variants:
        for k, r in enumerate(variants, start=1):
            tasks, var = r["tasks"], r["variant"]
            print(f"   the variant, round {k}: {r['dv']:.2f} s against Dask {r['d']:.2f} s "
                  f"({100 * (r['dv'] / r['d'] - 1):+.0f}%), {100 * (r['dv'] / r['v2'] - 1):+.0f}% over --jobs 2; "
                  f"task threads {var['user']:.2f} + {var['system']:.2f} s "
                  f"({100 * ((var['user'] + var['system']) / (tasks['user'] + tasks['system']) - 1):+.0f}% against "
                  f"Dask's); " + "; ".join(f"{1000 * var[c] / n:.0f} {c}" for c in ("faults", "waits", "preempted")))
        print(f"   median of {len(variants)}: the variant "
              f"{100 * (statistics.median(r['dv'] / r['d'] for r in variants) - 1):+.0f}% by wall against Dask, "
              f"{100 * (statistics.median(r['dv'] / r['v2'] for r in variants) - 1):+.0f}% over --jobs 2; its task "
              f"threads {100 * (statistics.median(sum(r['variant'][c] for c in ('user', 'system')) / sum(r['tasks'][c] for c in ('user', 'system')) for r in variants) - 1):+.0f}% CPU against Dask's")


def startup_cpu(tmp: Path, scheduler: str | None = None) -> float:
    """CPU seconds of the main process of ``grn validate`` of one tiny game (on Dask: ``scheduler``): what a
    run spends before any work, alone (the best of 5)."""
    tiny = tmp / "tiny.grn"
    tiny.write_text('[Game "Gold Rush"]\n[Players "2"]\n\n', encoding="utf-8")
    extra = ["--dask-scheduler", scheduler] if scheduler else []
    return min(run_accounted(["validate", *extra, str(tiny)])[1] for _ in range(5))


def project(split: tuple[float, float], start: float) -> float:
    """Wall time on 2 idle cores: the start-up runs alone, then the rest of the main process's CPU and the
    workers' CPU share the two cores (the end of the last chunk, where one core waits, is not counted)."""
    main, workers = split
    return start + (main - start + workers) / 2


def project_overlapped(split: tuple[float, float], start: float, helper: float) -> float:
    """Wall time on 2 idle cores of a Dask run with a head start (R241): the client's start-up runs beside its
    local helper, so a core idles only for the start-up the helper's work does not cover; the rest is shared."""
    main, workers = split
    return (main + workers + max(0.0, start - helper)) / 2


def first_search_s(db: Path, args: list[str]) -> tuple[float, int, int]:
    """CPU seconds in this process of a per-turn search of an archive without per-turn rows: the build of
    every game's rows (R250, serial) and the search; the games built and found."""
    from grn.archive.db import connect
    from grn.archive.search import Filters, game_ids
    from grn.archive.turns import ensure

    f = Filters()
    if args[0] == "--event":
        f.events.append(args[1])
    con = connect(db, readonly=True)
    t = time.process_time()
    built = ensure(con, db).built
    found = len(game_ids(con, f))
    used = time.process_time() - t
    con.close()
    return used, built, found


def archive_part(tmp: Path, size: int, repeat: int, per_turn: bool = True) -> None:
    """Target 4: a tag query, a player query and the statistics over a large archive; with ``per_turn`` also
    the first per-turn search (which builds every game's per-turn rows) and the per-turn searches."""
    big = tmp / "big.db"
    shutil.copy(tmp / "add1.db", big)  # made by add: no per-turn rows (R250)
    t = time.perf_counter()
    total = grow(big, size)
    print(f"   (archive of {total} games made by copying rows in {time.perf_counter() - t:.1f} s)")
    if per_turn:
        first_args = ["--event", "type=ScoreEvent feature=mountain points>=12"]
        used, built, found = first_search_s(big, first_args)
        print(f"   the first per-turn search ({first_args[0]} {first_args[1]!r}), which builds every game's rows: "
              f"{used:.1f} s CPU ({built} games built, {1000 * used / max(built, 1):.2f} ms a game; {found} found)")
    tq, found_t = query_ms(big, ["--tag", "Event=Event 123"])
    pq, found_p = query_ms(big, ["--player", "Player 42"])
    print(f"4. over {total} games: tag query {tq:.2f} ms ({found_t} games), player query {pq:.2f} ms "
          f"({found_p} games) (target < 1 ms), CPU")
    for args in (["--event", "type=ScoreEvent feature=mountain points>=12"], ["--action", "tile=33 x>=2"],
                 ["--beside", "33,08"]) if per_turn else ():
        ms, found = query_ms(big, args, repeat=1)
        print(f"   {args[0]} {args[1]!r}: {ms / 1000:.2f} s CPU ({found} games; every game's turns unpacked)")
    tc = run(["archive", "search", str(big), "--tag", "Event=Event 123", "--count"])
    tp = run(["archive", "search", str(big), "--player", "Player 42"])
    print(f"   the same as commands, start-up included: {1000 * tc:.0f} ms (count), {1000 * tp:.0f} ms (table)")
    # the first stats expands every game's points rows, which add kept packed (R310); the later ones read points
    first = run(["archive", "stats", str(big)])
    print(f"   the first stats over {total} games, which expands every game's points rows: {first:.2f} s wall")
    ts = run(["archive", "stats", str(big)], repeat=repeat)
    from grn.archive.db import connect
    from grn.archive.stats import compute

    con = connect(big, readonly=True)
    inner = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        compute(con)
        inner = min(inner, time.process_time() - t)
    con.close()
    print(f"   stats over {total} games: {ts:.2f} s wall as a command (target < 2 s), {inner:.2f} s CPU of it "
          "computing")


def memory_part(tmp: Path, games_file: Path, n: int, memory_mb: int, jobs_list: list[int]) -> None:
    """Target 5: peak memory while adding a large file (the games again and again, each copy re-tagged)."""
    mem_file = tmp / "big.grn"
    base = games_file.read_text(encoding="utf-8")
    with open(mem_file, "w", encoding="utf-8") as fh:
        written, k = 0, 0
        while written < memory_mb * 1_000_000:
            chunk = base.replace('[Round "', f'[Round "m{k}-')
            fh.write(chunk + "\n")
            written += len(chunk) + 1
            k += 1
    for jobs in jobs_list:
        for p in tmp.glob("mem.db*"):
            p.unlink()
        wall, rss = peak_rss_mb(["archive", "add", "-q", "--jobs", str(jobs), str(tmp / "mem.db"), str(mem_file)])
        print(f"5. archive add --jobs {jobs} of a {written / 1e6:.0f} MB file ({k * n} games): "
              f"peak memory {rss:.0f} MB (target < 200 MB; the largest process), {wall:.0f} s, "
              f"archive {sum(p.stat().st_size for p in tmp.glob('mem.db*')) / 1e9:.1f} GB", flush=True)


if __name__ == "__main__":
    main()
