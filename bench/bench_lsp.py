"""Benchmark: ``grn lsp`` as an editor feels it, through a real client (pygls's) over stdio.

    .venv/bin/pip install -e '.[lsp]'
    nice .venv/bin/python bench/bench_lsp.py [--runs 40] [--games 140]

Times, each over ``--runs`` edits or requests, with the server's pause in typing
set to 0 (so the figure is the server's own work plus the trip through the pipe):

* **diagnostics of a full game**: an edit to the last turn of a self-played
  four-player Gold Rush game (every tile placed), to the diagnostics published
  for that version;
* **completion of legal placements**: the tile id of the next turn written,
  to the completion list holding its legal placements;
* **a 10,000-line file**: self-played games until the file has 10,000 lines;
  an edit to one game in the middle, to the diagnostics of the whole file;
* **start-up**: from starting ``grn lsp`` to its answer to ``initialize``.

The issue's targets (p95): 50 ms, 30 ms, 100 ms, and start-up under 0.5 s.
The machine's load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

from grn import games, notation
from grn.selfplay import to_record
from grn.writer import write_record

ROOT = Path(__file__).resolve().parent.parent
GRN = str(Path(sys.executable).parent / "grn")


class Client:
    """A pygls client with the diagnostics it was sent, by document version."""

    def __init__(self) -> None:
        self.client = LanguageClient("grn-bench", "1")
        self.published: dict[tuple[str, int | None], asyncio.Event] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            self.published.setdefault((params.uri, params.version), asyncio.Event()).set()

    async def start(self) -> float:
        """Start the server; the seconds until it answered ``initialize``."""
        t = time.perf_counter()
        await self.client.start_io(GRN, "lsp", "--pause", "0")
        await self.client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
        took = time.perf_counter() - t
        self.client.initialized(lsp.InitializedParams())
        return took

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


def wall(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t


def game_text(players: int, seed: int) -> str:
    return write_record(to_record(games.find_ruleset("goldrush").selfplay(players, seed)))


def figures(name: str, times: list[float], target_ms: float) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    verdict = "within" if p95 <= target_ms else "OVER"
    return (f"{name:<34} median {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms  max {ms[-1]:7.1f} ms  "
            f"({verdict} the {target_ms:g} ms target)")


async def bench_game(client: Client, runs: int) -> tuple[list[float], list[float], int]:
    text = game_text(4, 11)
    record = notation.parse(text)[0]
    turns = len([t for t in record.turns if t.number > 0])
    uri = "file:///bench/game.grn"
    client.open(uri, text)
    await client.published_for(uri, 1)
    lines = text.rstrip("\n").split("\n")
    diag: list[float] = []
    version = 1
    last_row = len(lines) - 1
    for i in range(runs):
        version += 1
        # the last turn is taken back, then typed again (an incremental change, as editors send them): each
        # edit has the whole game read and replayed again
        t = time.perf_counter()
        if i % 2:
            client.insert(uri, version, last_row, 0, lines[-1] + "\n")
        else:
            client.insert(uri, version, last_row, 0, "", end_line=last_row + 1)
        await client.published_for(uri, version)
        diag.append(time.perf_counter() - t)
    # completion: the last turn cut back to its number, player and tile id; the Event tag differs each time,
    # so that no position is remembered from the run before (the first completion in a turn)
    last = lines[-1].split()
    number, player, tile = last[0], last[1], last[2].split("@")[0]
    where = lsp.Position(len(lines) - 1, len(f"{number} {player} {tile}"))
    comp: list[float] = []
    version += 1
    client.change(uri, version, "\n".join(lines[:-1] + [f"{number} {player} {tile}"]))
    await client.published_for(uri, version)
    event = next(i for i, line in enumerate(lines) if line.startswith("[Event"))
    for i in range(runs):
        version += 1
        client.insert(uri, version, event, 0, f'[Event "bench {i}"]', end_line=event, end_character=len(lines[event]))
        lines[event] = f'[Event "bench {i}"]'
        await client.published_for(uri, version)
        t = time.perf_counter()
        got: Any = await client.client.text_document_completion_async(lsp.CompletionParams(
            lsp.TextDocumentIdentifier(uri), where))
        comp.append(time.perf_counter() - t)
        assert any("@" in item.label for item in got.items), "no placement offered"
    return diag, comp, turns


async def bench_file(client: Client, runs: int, games_wanted: int) -> tuple[list[float], int, int]:
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
    times: list[float] = []
    for i in range(runs):
        t = time.perf_counter()
        client.insert(uri, i + 2, row + 1, 0, f"{{edit {i}}}\n")
        await client.published_for(uri, i + 2)
        times.append(time.perf_counter() - t)
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
    for _ in range(max(3, args.runs // 8)):
        c = Client()
        starts.append(await c.start())
        await c.stop()
    client = Client()
    await client.start()
    diag, comp, turns = await bench_game(client, args.runs)
    many, lines, count = await bench_file(client, max(5, args.runs // 4), args.games)
    await client.stop()
    print(figures(f"diagnostics, a {turns}-turn game", diag, 50))
    print(figures("completion of legal placements", comp, 30))
    print(figures(f"{lines:,} lines ({count} games), one edited", many, 100))
    print(figures("start-up (to the initialize answer)", starts, 500))
    # what the start-up is made of: Python with grn's command line, and lsprotocol's types, which pygls loads
    for name, cmd in (("  of which grn --version", [GRN, "--version"]),
                      ("  of which import lsprotocol.types", [sys.executable, "-c", "import lsprotocol.types"])):
        print(figures(name, [wall(cmd) for _ in range(3)], 500))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
