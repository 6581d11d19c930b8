"""Benchmark: how long ``grn validate`` of one small file takes, start to end, beside python-chess.

    .venv/bin/pip install -e '.[bench]'
    nice .venv/bin/python bench/bench_startup.py --compare [--runs 15] [--file F.grn ...] [--python OTHER ...]
        [--imports] [--syscalls] [--through-typer]

Runs ``grn validate FILE`` (by default one small shipped file of each game with
comments and markup, and one without: :data:`CASES`, the files without
comments written from the shipped ones with their comments and markup left out) and, with
``--compare``, a Python process that imports python-chess and reads one game of
PGN (``import chess.pgn`` + ``chess.pgn.read_game``), one after the other,
``--runs`` times each, and prints for each the median and best wall time and
the median CPU time (user + system of the child process, from ``wait4``, and
each apart), which the other processes on a loaded machine do not inflate as
they do the wall time.  The ratio is of the median CPU times.

The system time is what instruction counts (callgrind counts the process's own
instructions, not the kernel's) do not show: opening, stat-ing and mapping files.
``--syscalls`` counts, with ``strace -f -c``, the system calls of one run of each
command (files opened, ``stat`` calls of the import system, ``mmap`` of shared
objects), beside a bare ``python -c pass``.  The children run with
Python's bytecode cache on, as a user's do (``PYTHONDONTWRITEBYTECODE`` is
taken out of their environment: with it, every run compiles grn's Python sources anew).
``--python OTHER`` times another interpreter's grn on the same files in the same
interleaved runs (the virtual environment of an older checkout: before and after
in one run).  ``--imports`` lists what one validate of each file imports: how
many of grn's modules and compiled ``.so`` files, and which other packages
(Lark among them or not).

Target: `grn validate` of one small file no slower than python-chess reading one PGN (docs/performance.md).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PGN = '[Event "?"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n'
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
#: ``grn validate FILE`` through the typer app, as every command line with an option runs (and as all did before R190)
TYPER = "import sys; sys.argv = ['grn', 'validate', *sys.argv[1:]]; from grn.cli.app import main; main()"
FILES = ("examples/rulebook-railroad-3.grn", "examples/gold-2p.grn", "examples/carcassonne/carcassonne-2p.grn")
#: The default files: (label, shipped file, whether to leave its comments and markup out).
CASES = (
    ("railroad-3 (Gold Rush, comments, markup)", "examples/rulebook-railroad-3.grn", False),
    ("railroad-3 without comments", "examples/rulebook-railroad-3.grn", True),
    ("gold-2p (Gold, a comment)", "examples/gold-2p.grn", False),
    ("gold-2p without it", "examples/gold-2p.grn", True),
    ("rules-question (Carcassonne, comments, markup)", "examples/carcassonne/carcassonne-rules-question.grn", False),
    ("carcassonne-2p (no comment)", "examples/carcassonne/carcassonne-2p.grn", False),
)


def case_files(folder: str) -> dict[str, str]:
    """Label -> path of each of :data:`CASES`, the copies without comments and markup written in ``folder``."""

    from grn.notation import read as notation
    from grn.core.record import Comment, Markup
    from grn.notation.writer import write_records

    out: dict[str, str] = {}
    for label, name, strip in CASES:
        path = str(ROOT / name)
        if strip:
            records = []
            for record in notation.read(path):
                turns = tuple(t.replace(extras=tuple(e for e in t.extras if not isinstance(e, (Comment, Markup))))
                              for t in record.turns)
                records.append(record.replace(intro=(), turns=turns))
            path = os.path.join(folder, Path(name).stem + "-no-comments.grn")
            Path(path).write_text(write_records(records), encoding="utf-8")
        out[label] = path
    return out


#: Run in a fresh interpreter: grn validate FILE as the console script runs it, then the modules it imported.
LIST_MODULES = """
import sys
from grn.cli.launch import main
sys.argv = ["grn", "validate", *sys.argv[1:]]
try:
    main()
except SystemExit:
    pass
for name, module in sorted(sys.modules.items()):
    print(name, getattr(module, "__file__", None) or "")
"""


def imports(python: str, path: str) -> str:
    """One line on what ``grn validate path`` imports: grn's modules (and how many are compiled ``.so``), the
    other packages, and whether Lark is among them."""
    done = subprocess.run([python, "-c", LIST_MODULES, path], capture_output=True, text=True, env=ENV, check=False)
    rows = [line.split(" ", 1) for line in done.stdout.splitlines() if line]
    mods = {r[0]: (r[1] if len(r) > 1 else "") for r in rows}
    grn_mods = [m for m in mods if m == "grn" or m.startswith("grn.")]
    compiled = sum(1 for m in grn_mods if mods[m].endswith(".so"))
    others = sorted({m.split(".")[0] for m, f in mods.items() if f and "site-packages" in f and not m.startswith("grn")}
                    | ({"lark"} if "lark" in mods else set()))
    return (f"{len(grn_mods)} grn modules ({compiled} compiled .so), {len(mods)} modules in all; other packages: "
            f"{', '.join(others) or 'none'}; Lark {'imported' if 'lark' in mods else 'not imported'}")


def run(args: list[str]) -> tuple[float, float, float]:
    """(wall, user CPU, system CPU) seconds of one run of ``args`` as a child process."""
    t = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime, usage.ru_stime


#: The system calls ``--syscalls`` shows: files opened and read, the import system's stat calls, shared objects mapped.
SYSCALLS = ("openat", "newfstatat", "read", "getdents64", "mmap")


def syscalls(args: list[str]) -> dict[str, int]:
    """The number of each system call of one run of ``args`` (``strace -f -c``), and their total."""
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as out:
        subprocess.run(["strace", "-f", "-c", "-o", out.name, *args], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=ENV, check=False)
        counts: dict[str, int] = {}
        for line in out.read().splitlines():
            parts = line.split()
            # "% time  seconds  usecs/call  calls  [errors]  syscall"; the total line has no usecs/call
            if parts and parts[-1] in SYSCALLS + ("total",) and parts[0][0].isdigit():
                counts[parts[-1]] = int(parts[3])
        return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--compare", action="store_true", help="also time python-chess's import + read_game")
    ap.add_argument("--file", action="append", help="a record file to validate (default: one of each game)")
    ap.add_argument("--syscalls", action="store_true", help="also count each command's system calls (strace)")
    ap.add_argument("--through-typer", action="store_true",
                    help="also time each validate through grn.cli.app's typer app (the path any option takes, R190)")
    ap.add_argument("--python", action="append", default=[],
                    help="another interpreter with grn installed, timed on the same files in the same runs")
    ap.add_argument("--imports", action="store_true", help="also list what one validate of each file imports")
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-startup-")
    files = {f"grn validate {Path(n).name}": str(ROOT / n) for n in args.file} if args.file else case_files(folder)
    pythons = [sys.executable, *args.python]
    commands: dict[str, list[str]] = {}
    for label, path in files.items():
        for number, python in enumerate(pythons):
            tag = f" [python {number}]" if len(pythons) > 1 else ""
            commands[f"{label}{tag}"] = [python, "-P", "-m", "grn", "validate", path]
            if args.through_typer:
                commands[f"  the same through typer{tag}"] = [python, "-c", TYPER, path]
    pgn = None
    if args.compare:
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as fh:
            fh.write(PGN)
        pgn = fh.name
        commands["python-chess"] = [sys.executable, "-c", f"import chess.pgn; chess.pgn.read_game(open({pgn!r}))"]
    for argv in commands.values():
        run(argv)  # the first run builds the grammar cache and warms the file cache
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    users: dict[str, list[float]] = {name: [] for name in commands}
    systems: dict[str, list[float]] = {name: [] for name in commands}
    load = os.getloadavg()[0]
    for _ in range(args.runs):
        for name, argv in commands.items():
            wall, user, system = run(argv)
            walls[name].append(wall)
            cpus[name].append(user + system)
            users[name].append(user)
            systems[name].append(system)
    print(f"load average {load:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores, {args.runs} runs each, "
          f"interleaved; " + ", ".join(f"python {i}: {p}" for i, p in enumerate(pythons)))
    width = max(len(n) for n in commands)
    for name in commands:
        print(f"{name:<{width}}  wall median {statistics.median(walls[name]) * 1000:5.0f} ms  "
              f"best {min(walls[name]) * 1000:5.0f} ms   CPU median {statistics.median(cpus[name]) * 1000:5.0f} ms "
              f"(user {statistics.median(users[name]) * 1000:4.0f}, system {statistics.median(systems[name]) * 1000:4.0f})")
    if args.syscalls and shutil.which("strace") is None:
        print("--syscalls needs strace (apt-get install strace): system calls not counted")
    elif args.syscalls:
        print("system calls of one run (strace -f -c): " + ", ".join(SYSCALLS))
        for name, argv in {**commands, "python -c pass": [sys.executable, "-c", "pass"]}.items():
            counts = syscalls(argv)
            print(f"{name:<{width}}  " + "  ".join(f"{counts.get(c, 0):5d}" for c in SYSCALLS)
                  + f"   total {counts.get('total', 0)}")
    if args.compare:
        chess = statistics.median(cpus["python-chess"])
        for name in commands:
            if name != "python-chess":
                print(f"{name} / python-chess, CPU: {statistics.median(cpus[name]) / chess:.2f}")
    if args.imports:
        print("what one validate imports:")
        for label, path in files.items():
            for number, python in enumerate(pythons):
                tag = f" [python {number}]" if len(pythons) > 1 else ""
                print(f"{label}{tag}: {imports(python, path)}")
    if pgn:
        os.unlink(pgn)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
