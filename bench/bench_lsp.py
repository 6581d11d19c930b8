"""Benchmark: ``grn lsp`` as an editor feels it, through a real client (pygls's) over stdio.

    .venv/bin/pip install -e '.[lsp]'
    nice .venv/bin/python bench/bench_lsp.py [--runs 40] [--games 140]

Times, each over ``--runs`` edits or requests, with the server's pause in typing
set to 0 (so the figure is the server's own work plus the trip through the pipe):

* **diagnostics of a full game**: an edit to the last turn of a self-played
  four-player Gold Rush game (every tile placed), to the diagnostics published
  for that version;
* **completion of legal placements**: the tile id of the next turn written,
  to the completion list holding its legal placements; *as typed*: each of the
  last ``--runs`` turns of the game written in turn (the turn before it whole), as
  a writer types a game; *after a header edit*: the last turn's, with the
  ``Event`` tag changed before each request, so that the whole game is replayed;
* **a 10,000-line file**: self-played games until the file has 10,000 lines;
  an edit to one game in the middle, to the diagnostics of the whole file;
* **start-up**: from starting ``grn lsp`` to its answer to ``initialize``,
  beside the floor under it in the same run: a bare Python, Python importing
  ``lsprotocol.types`` and ``pygls.lsp.server`` (what any pygls server loads
  before it can answer), what ``grn lsp`` imports before it answers, and
  ``grn --version`` (Python with all of grn's command line).

The issue's targets (p95): 50 ms, 30 ms, 100 ms, and start-up under 0.5 s.
Each figure is given twice: the wall time an editor waits, and the CPU time
the server spent on it (its threads' run time, from ``/proc/PID/task/*/schedstat``;
for the processes of the start-up floor, user + system time from ``wait4``),
which the other processes on a loaded machine do not inflate as they do the
wall time.  The machine's load average is printed with the figures.

Targets (p95, wall): diagnostics after an edit 50 ms, completion as typed 30 ms, an edit to one game of a 10,000-line file 100 ms, start-up 500 ms (docs/editors.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

from grn import games
from grn.notation import read as notation
from grn.rules.selfplay import to_record
from grn.notation.writer import write_record

ROOT = Path(__file__).resolve().parent.parent
GRN = str(Path(sys.executable).parent / "grn")
# the children run with Python's bytecode cache on, as a user's do
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_of(pid: int) -> float:
    """Seconds the process ``pid`` has run on a CPU so far, all its threads (0.0 where the kernel keeps no
    schedstat)."""
    total = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as fh:
                total += int(fh.read().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    return total / 1e9


class Timer:
    """Wall and server CPU seconds of each timed request."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self._t = self._c = 0.0

    def start(self) -> None:
        self._c = cpu_of(self.pid)
        self._t = time.perf_counter()

    def stop(self) -> None:
        self.wall.append(time.perf_counter() - self._t)
        self.cpu.append(cpu_of(self.pid) - self._c)


class Client:
    """A pygls client with the diagnostics it was sent, by document version."""

    def __init__(self) -> None:
        self.client = LanguageClient("grn-bench", "1")
        self.published: dict[tuple[str, int | None], asyncio.Event] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            self.published.setdefault((params.uri, params.version), asyncio.Event()).set()

    async def start(self) -> tuple[float, float]:
        """Start the server; the wall and CPU seconds until it answered ``initialize``."""
        t = time.perf_counter()
        await self.client.start_io(GRN, "lsp", "--pause", "0", env=ENV)
        await self.client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
        took = time.perf_counter() - t, cpu_of(self.pid)
        self.client.initialized(lsp.InitializedParams())
        return took

    @property
    def pid(self) -> int:
        server = self.client._server  # pygls keeps the server's process here
        assert server is not None
        return server.pid

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()

    async def published_for(self, uri: str, version: int) -> None:
        await self.published.setdefault((uri, version), asyncio.Event()).wait()

    def open(self, uri: str, text: str) -> None:
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "grn", 1, text)))

    def insert(self, uri: str, version: int, line: int, character: int, text: str, end_line: int | None = None,
               end_character: int = 0) -> None:
        """An edit as editors send it: the range replaced (by default an insertion) and the new text."""
        end = lsp.Position(line if end_line is None else end_line, character if end_line is None else end_character)
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [lsp.TextDocumentContentChangePartial(lsp.Range(lsp.Position(line, character), end), text)]))

    def change(self, uri: str, version: int, text: str) -> None:
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [lsp.TextDocumentContentChangeWholeDocument(text)]))


def run(cmd: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``cmd`` as a child process (CPU: user + system, from ``wait4``)."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - t, usage.ru_utime + usage.ru_stime


def game_text(players: int, seed: int) -> str:
    return write_record(to_record(games.find_ruleset("goldrush").selfplay(players, seed)))


def figures(name: str, times: list[float], target_ms: float | None, cpu: list[float] | None = None) -> str:
    """One line: the wall times' median, p95 and max against the target, and the CPU times' median and p95."""
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    line = f"{name:<38} wall median {statistics.median(ms):7.1f} p95 {p95:7.1f} max {ms[-1]:7.1f} ms"
    if cpu:
        c = sorted(t * 1000 for t in cpu)
        line += f" | CPU median {statistics.median(c):7.1f} p95 {c[min(len(c) - 1, int(round(0.95 * (len(c) - 1))))]:7.1f} ms"
    if target_ms is not None:
        line += f"  ({'within' if p95 <= target_ms else 'OVER'} the {target_ms:g} ms target)"
    return line


async def bench_game(client: Client, runs: int) -> tuple[Timer, Timer, Timer, int]:
    text = game_text(4, 11)
    record = notation.parse(text)[0]
    turns = len([t for t in record.turns if t.number > 0])
    uri = "file:///bench/game.grn"
    client.open(uri, text)
    await client.published_for(uri, 1)
    lines = text.rstrip("\n").split("\n")
    diag = Timer(client.pid)
    version = 1
    last_row = len(lines) - 1
    for i in range(runs):
        version += 1
        # the last turn is taken back, then typed again (an incremental change, as editors send them): each
        # edit has the whole game read and replayed again
        diag.start()
        if i % 2:
            client.insert(uri, version, last_row, 0, lines[-1] + "\n")
        else:
            client.insert(uri, version, last_row, 0, "", end_line=last_row + 1)
        await client.published_for(uri, version)
        diag.stop()
    # completion after a header edit: the last turn cut back to its number, player and tile id; the Event
    # tag differs each time, so that no position is remembered from the run before: the whole game is
    # replayed for each (the slowest first completion in a turn)
    last = lines[-1].split()
    number, player, tile = last[0], last[1], last[2].split("@")[0]
    where = lsp.Position(len(lines) - 1, len(f"{number} {player} {tile}"))
    comp = Timer(client.pid)
    version += 1
    client.change(uri, version, "\n".join(lines[:-1] + [f"{number} {player} {tile}"]))
    await client.published_for(uri, version)
    event = next(i for i, line in enumerate(lines) if line.startswith("[Event"))
    for i in range(runs):
        version += 1
        client.insert(uri, version, event, 0, f'[Event "bench {i}"]', end_line=event, end_character=len(lines[event]))
        lines[event] = f'[Event "bench {i}"]'
        await client.published_for(uri, version)
        comp.start()
        got: Any = await client.client.text_document_completion_async(lsp.CompletionParams(
            lsp.TextDocumentIdentifier(uri), where))
        comp.stop()
        assert any("@" in item.label for item in got.items), "no placement offered"
    # completion as a game is typed: turn N written whole, then turn N+1's number, player and tile id, and
    # the completion there (the first in that turn: the position before it is turn N played on from the
    # position before turn N, not the game replayed from its start)
    typed = Timer(client.pid)
    rows = [r for r, line in enumerate(lines) if re.match(r"\d+\. \S+ \w+@", line)][-runs:]
    for row in rows:
        number, player, placement = lines[row].split()[:3]
        partial = f"{number} {player} {placement.split('@')[0]}"
        version += 1
        client.change(uri, version, "\n".join(lines[:row] + [partial]))
        await client.published_for(uri, version)
        typed.start()
        got = await client.client.text_document_completion_async(lsp.CompletionParams(
            lsp.TextDocumentIdentifier(uri), lsp.Position(row, len(partial))))
        typed.stop()
        assert any("@" in item.label for item in got.items), f"no placement offered at {partial}"
    return diag, comp, typed, turns


async def bench_file(client: Client, runs: int, games_wanted: int) -> tuple[Timer, int, int]:
    texts: list[str] = []
    seed = 0
    while sum(t.count("\n") + 1 for t in texts) < 10_000 or len(texts) < games_wanted:
        seed += 1
        texts.append(game_text(2 + seed % 4, seed))
    text = "\n".join(texts)
    uri = "file:///bench/many.grn"
    client.open(uri, text)
    await client.published_for(uri, 1)
    middle = len(texts) // 2
    # a new line in the middle game, after its header: a comment, typed one edit at a time
    row = sum(t.count("\n") + 1 for t in texts[:middle]) + texts[middle].split("\n").index("")
    times = Timer(client.pid)
    for i in range(runs):
        times.start()
        client.insert(uri, i + 2, row + 1, 0, f"{{edit {i}}}\n")
        await client.published_for(uri, i + 2)
        times.stop()
    return times, text.count("\n") + 1, len(texts)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--games", type=int, default=1, help="at least this many games in the long file")
    args = ap.parse_args()
    from grn import _compiled

    print(f"grn lsp benchmark: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} "
          f"{os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}; grn runs {_compiled.status()}")
    starts = []
    for _ in range(max(5, args.runs // 4)):
        c = Client()
        starts.append(await c.start())
        await c.stop()
    client = Client()
    await client.start()
    diag, comp, typed, turns = await bench_game(client, args.runs)
    many, lines, count = await bench_file(client, max(5, args.runs // 4), args.games)
    await client.stop()
    print(figures(f"diagnostics, a {turns}-turn game", diag.wall, 50, diag.cpu))
    print(figures("completion of placements, as typed", typed.wall, 30, typed.cpu))
    print(figures("  the same after a header edit", comp.wall, 30, comp.cpu))
    print(figures(f"{lines:,} lines ({count} games), one edited", many.wall, 100, many.cpu))
    print(figures("start-up (to the initialize answer)", [w for w, _ in starts], 500, [c for _, c in starts]))
    # the floor under the start-up, in the same run: Python, and what a pygls server imports before it answers
    # (each child ends with os._exit, as the server is timed at its answer: Python's tear-down is not counted)
    py = sys.executable
    for name, cmd in (("  floor: a bare python", [py, "-c", "import os; os._exit(0)"]),
                      ("  floor: import lsprotocol.types", [py, "-c", "import lsprotocol.types, os; os._exit(0)"]),
                      ("  floor: import pygls.lsp.server", [py, "-c", "import pygls.lsp.server, os; os._exit(0)"]),
                      ("  grn lsp's imports before the answer", [py, "-c", "import grn.cli.launch, grn.lsp.command, "
                                                                 "grn.lsp.server, os; os._exit(0)"]),
                      ("  beside it: grn --version", [GRN, "--version"])):
        runs = [run(cmd) for _ in range(max(5, args.runs // 4))]
        print(figures(name, [w for w, _ in runs], None, [c for _, c in runs]))
    # grn's own share: its imports before the answer, timed inside a Python that has pygls loaded already
    code = ("import time, pygls.lsp.server; w, c = time.perf_counter(), time.process_time(); "
            "import grn.cli.launch, grn.lsp.command, grn.lsp.server; "
            "print(time.perf_counter() - w, time.process_time() - c)")
    own = []
    for _ in range(max(5, args.runs // 4)):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, check=True)
        wall_s, cpu_s = out.stdout.split()
        own.append((float(wall_s), float(cpu_s)))
    print(figures("  of which grn's own imports", [w for w, _ in own], None, [c for _, c in own]))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
