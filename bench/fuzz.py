#!/usr/bin/env python3
"""Fuzz the ``grn`` command line with mutated records and report crash classes (issue 16).

    .venv/bin/python bench/fuzz.py --count 100000 --seed 1 --jobs 2 --out fuzz-out
    .venv/bin/python bench/fuzz.py --time-limit 1800 --out fuzz-out      # as many as fit in 30 minutes

Inputs are the shipped examples and self-played games of both games (``grn
selfplay``, 2 to 5 players), and their JSON form (``grn convert --to json``),
mutated: word and character edits, lines spliced from other games, integers of
thousands of digits, variations nested 60 to 30,000 deep, long comments and
lines, odd whitespace (form feed, U+2028, CR-only ends, NUL, BOM), tags in other
cases, the other game's words; JSON documents get floats and huge integers
where integers belong, strings with a trailing newline, actions of the other
game, unknown games, wrong markup argument counts and deep arrays.  Input ``i``
of seed ``S`` is the same on every run, so any finding can be made again.

Each input goes through what the CLI runs, in worker processes (calling the
Typer app in-process, fast; a worker killed by a signal is noticed and
replaced): ``validate``, ``validate --format json``, ``fmt``, ``convert`` to the
other form and back (what convert writes must read back, and say the same),
``render``, ``show``, ``render --turn ADDRESS``, ``render --turn ADDRESS
--diagram``, for one input in ten ``html``, and
``export`` to every format the game writes, read back with ``import``; for one
input in four a writing command with a hostile ``-o`` (a missing folder, a
folder, ``/dev/full``, a symlink, an existing file, an odd name), and for one
in six an archive of the input searched with random filters and ``--sql``
statements (ATTACH, VACUUM INTO, endless recursion, writes).  One
input in twenty is instead another program's file (a JCloisterZone save, as
``grn export`` writes them for the corpus games), mutated as JSON or as text,
for ``import``: it must be refused in one line or give GRN that reads and
validates without a traceback (some with a player's name about the 200-character
limit or far past it, a tag or comment of 100,000 characters, or a file past the
16 MiB an import reads).

A *crash* is an uncaught exception (a traceback), a worker killed by a signal
or stopped for running past ``--input-timeout``, an exit code other than 0, 1
and 2, a converted or imported file that does not read back, or a round trip
that changes the record; inputs whose peak RSS passes 500 MB are flagged too.  Crashes are
grouped by kind, exception type and innermost grn frame (file:function); the
smallest input of each class is kept in ``--out`` with what it did, and a
table is printed at the end (also ``--out``/summary.json, rewritten as the run
goes).

Target: no input makes a command fail with a traceback, hang or run out of memory (issue 16); the crash classes found are in summary.json.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import multiprocessing as mp
import os
import random
import re
import resource
import signal
import sys
import time
import traceback
import zlib
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Callable, Optional

#: Where a run's files go by default (kept out of the tree: bench/results is ignored by git).
RESULTS = Path(__file__).resolve().parent / "results"

ROOT = Path(__file__).resolve().parent.parent
try:
    import grn  # noqa: F401 - the installed grn (maybe compiled), not the sources beside this script
except ImportError:
    sys.path.append(str(ROOT))

RSS_LIMIT_KB = 500 * 1024

# ---------------------------------------------------------------------------
# Running the CLI in-process
# ---------------------------------------------------------------------------

_COMMAND: Any = None


def _command() -> Any:
    global _COMMAND
    if _COMMAND is None:
        import typer.main

        from grn.cli.app import app

        _COMMAND = typer.main.get_command(app)
    return _COMMAND


def _click_exception() -> tuple[type[BaseException], ...]:
    """Click's usage errors, from typer's own copy of click (typer >= 0.26) and from click (older typer)."""
    found: list[type[BaseException]] = []
    for module in ("typer._click.exceptions", "click.exceptions"):
        try:
            found.append(importlib.import_module(module).ClickException)
        except ImportError:
            pass
    return tuple(found)


class Crash(Exception):
    """A finding that is not an exception of grn's own (a bad exit code, a failed read-back)."""

    def __init__(self, kind: str, what: str, where: str, message: str = "") -> None:
        super().__init__(message or what)
        self.kind, self.what, self.where, self.message = kind, what, where, message


def run_cli(args: list[str]) -> tuple[int, str, str]:
    """Run ``grn ARGS`` in this process as the console script would: (exit code, stdout, stderr).

    Exceptions grn lets escape propagate (the console script would print a
    traceback); click's usage errors give their exit code as they would.
    """
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = _command().main(args=args, prog_name="grn", standalone_mode=False)
        except _click_exception() as exc:
            rc = getattr(exc, "exit_code", 1)
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return (0 if rc is None else rc), out.getvalue(), err.getvalue()


# ---------------------------------------------------------------------------
# The corpus
# ---------------------------------------------------------------------------

@dataclass
class Corpus:
    """Seed texts: GRN records (name, game, text) and the JSON form of each."""

    grn: list[tuple[str, str, str]]
    json: list[tuple[str, str, str]]
    words: dict[str, list[str]]
    turns: dict[str, list[str]]
    actions: dict[str, list[Any]]
    #: other programs' files (name, suffix without the dot, text): what ``grn export`` writes of the games
    foreign: list[tuple[str, str, str]] = field(default_factory=list)


def _games() -> list[str]:
    """Every game grn knows (the registry), so a game added since is fuzzed too."""
    from grn.games import names

    return list(names())


def _game_of(text: str) -> str:
    from grn.games import DEFAULT, find_ruleset

    m = re.search(r'\[Game\s+"([^"]*)"', text)
    try:
        return find_ruleset(m.group(1).strip()).name if m else DEFAULT
    except Exception:  # noqa: BLE001 - an unknown game in an example: fuzz it as the default
        return DEFAULT


def build_corpus(selfplay: int = 3, seed: int = 1) -> Corpus:
    """The examples, ``selfplay`` self-played games per game and player count, and their JSON forms."""
    grn: list[tuple[str, str, str]] = []
    for path in sorted((ROOT / "examples").rglob("*.grn")):
        text = path.read_text(encoding="utf-8")
        grn.append((path.name, _game_of(text), text))
    from grn.games import find_ruleset

    for game in _games():
        ruleset = find_ruleset(game)
        # every option on and off, where the game has options (The Gold Mines, farmers)
        option_sets: list[list[str]] = [[]] + [["--options", o] for o in _SELFPLAY_OPTIONS.get(game, [])]
        for players in range(ruleset.min_players, ruleset.max_players + 1):
            for k in range(selfplay):
                s = seed * 1000 + players * 10 + k
                opts = option_sets[k % len(option_sets)]
                rc, out, err = run_cli(["selfplay", "--game", game, "--players", str(players), "--seed", str(s)] + opts)
                if rc == 0 and out.strip():
                    grn.append((f"selfplay-{game}-{players}p-{s}", game, out))
    json_texts: list[tuple[str, str, str]] = []
    foreign: list[tuple[str, str, str]] = []
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for name, game, text in grn:
            tmp_file = os.path.join(tmp, "in.grn")
            with open(tmp_file, "w", encoding="utf-8") as fh:
                fh.write(text)
            rc, out, _ = run_cli(["convert", tmp_file, "--to", "json"])
            if rc == 0:
                json_texts.append((name, game, out))
            # the files other programs read, as grn writes them: mutated, they are what `grn import` must refuse
            for fmt, exporter in find_ruleset(game).exporters().items():
                there = os.path.join(tmp, "out" + exporter.suffix)
                if run_cli(["export", tmp_file, "--to", fmt, "-o", there])[0] == 0:
                    with open(there, encoding="utf-8") as fh:
                        foreign.append((name, exporter.suffix.lstrip("."), fh.read()))
    words: dict[str, list[str]] = {g: [] for g in _games()}
    turns: dict[str, list[str]] = {g: [] for g in _games()}
    for _, game, text in grn:
        for line in text.splitlines():
            if re.match(r"\s*\d+\.", line):
                turns[game].append(line.strip())
                words[game].extend(w for w in line.split() if not re.fullmatch(r"\d+\.", w))
    actions: dict[str, list[Any]] = {g: [] for g in _games()}
    for _, game, text in json_texts:
        for g in json.loads(text)["games"]:
            for t in g["turns"]:
                actions[game].extend(t["actions"])
    return Corpus(grn, json_texts, {k: sorted(set(v)) for k, v in words.items()}, turns,
                  {k: v[:400] for k, v in actions.items()}, foreign)


# ---------------------------------------------------------------------------
# Mutating GRN text
# ---------------------------------------------------------------------------

SPECIAL_WORDS = [
    "+N", "+C", "+WNW", "+Q", "tent@0,0", "tent@1,0:N", "mine", "mine=?", "mine=5", "tokens=?,2", "tokens=3",
    "discard 12", "12@0,0", "12a@1,1:90", "33@-1,0:45", "x@1,1", "score", "red=3", "blue=-1", "!", "$1", "$999",
    "0.", "1.", "99.", "-1.", "red", "blue", "green", "black", "purple", "a1=G3", "b2=red4", "c3=D", "p9=blue1",
    "c4=pink2", "<ghost 12@1,1>", "<highlight 0,0:N red>", "<arrow 0,0 1,0>", "<label 0,0 \"x\">", "<label>",
    "<arrow 0,0>", "<bogus 1>", "{c}", "{", "}", "(", ")", "[", "]", ";", "\"", "\\", "@", ":", ",", "-", "=",
    "99999999999999999999", "0@0,0:360", "17@1,0:90", "end",
]
CHARS = list("0123456789-,:@=?+ ()[]{}<>;!$\"\\abcxyzNESWC.") + [
    "\t", "\f", "\v", "\r", "\n", "\x00", "\u2028", "\u2029", "\x85", "\ufeff", "\xa0", "\u00b2", "\u0663",
    "\U0001d7d8", "\u00e9", "\ud800",
]
ODD_BREAKS = ["\f\n", "\f", "\u2028", "\r", "\r\n", "\x85", "\v", "\n\x00", "\u2029", "\x1c"]
MAX_INPUT = 4_000_000
DEPTHS = [60] * 6 + [100] * 3 + [250] * 4 + [500] * 4 + [1000] * 3 + [5000, 30000]


def _big_number(rng: random.Random) -> str:
    n = rng.choice([4300, 4301, 5000, 5000, 6000, 20000])
    return rng.choice("123456789") + "".join(rng.choice("0123456789") for _ in range(n - 1))


_SELFPLAY_OPTIONS = {"goldrush": ["farmers=on", "farmers=off"], "carcassonne": ["goldmines", "goldmines, farmers=off", "smallcity"]}


def _other(game: str) -> str:
    """Another game than ``game`` (the next in the registry), for its words in the wrong game."""
    games = _games()
    return games[(games.index(game) + 1) % len(games)] if game in games else games[0]


def m_word(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    lines = text.split("\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        words = lines[i].split(" ")
        j = rng.randrange(len(words))
        pool = rng.choice([c.words[game], c.words[_other(game)], SPECIAL_WORDS])
        word = rng.choice(pool) if pool else "x"
        op = rng.choice(["replace", "insert", "drop"])
        if op == "replace":
            words[j] = word
        elif op == "insert":
            words.insert(j, word)
        else:
            del words[j]
        lines[i] = " ".join(words)
    return "\n".join(lines)


def m_char(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 6)):
        k = rng.randrange(len(chars) + 1)
        op = rng.random()
        ch = rng.choice(CHARS)
        if op < 0.4 or not chars:
            chars.insert(k, ch)
        elif op < 0.7:
            chars[min(k, len(chars) - 1)] = ch
        else:
            del chars[min(k, len(chars) - 1)]
    return "".join(chars)


def m_splice(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    other = rng.choice(c.grn)[2].split("\n")
    a = rng.randrange(len(other))
    piece = other[a:a + rng.randint(1, 12)]
    lines = text.split("\n")
    at = rng.randrange(len(lines) + 1)
    if rng.random() < 0.5:
        return "\n".join(lines[:at] + piece + lines[at:])
    return "\n".join(lines[:at] + piece + lines[at + len(piece):])


def m_huge_int(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    spots = list(re.finditer(r"\d+", text))
    if not spots:
        return text + " " + _big_number(rng)
    if rng.random() < 0.15 and len(spots) <= 300:  # every numeric slot at once
        big = _big_number(rng)
        return re.sub(r"\d+", big, text)
    m = rng.choice(spots)
    return text[:m.start()] + _big_number(rng) + text[m.end():]


def _nest(turn: str, depth: int, rng: random.Random) -> str:
    # a turn made long by an earlier mutation, 30,000 times over, is gigabytes before any check
    depth = max(2, min(depth, MAX_INPUT // (len(turn) + 2)))
    shape = rng.random()
    if shape < 0.7:  # a variation in a variation in ...: "( T ( T ( T ) ) )"
        return ("(" + turn + " ") * depth + ")" * depth
    if shape < 0.85:  # bare parentheses, a syntax error far down
        return "(" * depth + ")" * depth
    return ("(" + turn + " ") * depth + ")" * (depth - 1)  # one left open


def m_nesting(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    lines = text.split("\n")
    turn_idx = [i for i, line in enumerate(lines) if re.match(r"\s*\d+\.", line)]
    depth = rng.choice(DEPTHS)
    if not turn_idx:
        return text + "\n1. red 17@1,0 " + _nest("1. red 17@1,0", depth, rng) + "\n"
    i = rng.choice(turn_idx)
    # the turn number, the player and the first action: long lines times 30,000 make slow inputs
    turn = " ".join(lines[i].split("(")[0].split("{")[0].split(";")[0].split()[:3])
    lines[i] = lines[i] + " " + _nest(turn, depth, rng)
    return "\n".join(lines)


def m_long(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    n = rng.choice([10_000, 100_000, 1_000_000])
    what = rng.random()
    lines = text.split("\n")
    at = rng.randrange(len(lines) + 1)
    if what < 0.3:
        piece = "{" + "x" * n + "}"
    elif what < 0.45:
        piece = "; " + "y" * n
    elif what < 0.6:
        piece = "[Event \"" + "e" * n + "\"]"
    elif what < 0.75:
        piece = "1. red " + "7" * min(n, 4000) + "a" * n + "@0,0"
    else:  # every line joined into one
        return " ".join(lines) * rng.choice([1, 20])
    return "\n".join(lines[:at] + [piece] + lines[at:])


def m_whitespace(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    r = rng.random()
    if r < 0.35:
        brk = rng.choice(ODD_BREAKS)
        if rng.random() < 0.5:
            return text.replace("\n", brk)
        parts = text.split("\n")
        return "".join(p + (brk if rng.random() < 0.3 else "\n") for p in parts[:-1]) + parts[-1]
    if r < 0.5:
        return "\ufeff" + text if rng.random() < 0.6 else "\ufeff\ufeff" + text
    if r < 0.7:
        k = rng.randrange(len(text) + 1)
        return text[:k] + rng.choice(["\x00", "\ufeff", "\u2028", "\f", "\r", "\t\f\v", "\x00" * 100]) + text[k:]
    if r < 0.85:  # odd characters inside tags and comments
        return re.sub(r'\[(\w+) "', lambda m: "[" + m.group(1) + rng.choice(["\f", "\t", "\v", "\u2028", "  "]) + '"',
                      text, count=rng.randint(1, 3))
    return text.replace(" ", rng.choice(["\t", "\f", "\xa0", "\u3000", "  "]))


def m_tags(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    r = rng.random()
    if r < 0.3:
        cases: list[Callable[[str], str]] = [str.upper, str.lower, str.swapcase, str]
        return re.sub(r"\[(\w+)", lambda m: "[" + rng.choice(cases)(m.group(1)), text)
    if r < 0.55:
        value = rng.choice(["GOLD", "Gold", " gold ", "GoldRush", "goldrush\f", "gold\\\"", "chess", "", "carcassonne",
                            "g\u00f6ld", "gold" + "x" * 5000])
        return re.sub(r'\[Game\s+"[^"]*"\]', '[Game "' + value + '"]', text, count=1) if "[Game" in text \
            else '[Game "' + value + '"]\n' + text
    if r < 0.7:
        sep = rng.choice(["\f", "\t", "\v", "\u2028", "\f\n", "\r"])
        return re.sub(r'\[Game\s+"', "[Game" + sep + '"', text, count=1)
    if r < 0.85:  # the other game's tag over these moves
        return re.sub(r'\[Game\s+"[^"]*"\]', f'[Game "{_other(game)}"]', text, count=1) if "[Game" in text \
            else f'[Game "{_other(game)}"]\n' + text
    tags = re.findall(r"^\[.*\]$", text, re.M)
    return "\n".join(rng.sample(tags, len(tags))) + "\n" + text if tags else text


def m_other_game(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    lines = text.split("\n")
    pool = c.turns[_other(game)]
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(lines) + 1)
        if pool and rng.random() < 0.5:
            lines.insert(at, rng.choice(pool))
        elif c.words[_other(game)]:
            lines.insert(at, rng.choice(c.words[_other(game)]))
    return "\n".join(lines)


def m_structure(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    lines = text.split("\n")
    r = rng.random()
    a = rng.randrange(len(lines))
    b = min(len(lines), a + rng.randint(1, 10))
    if r < 0.3:
        return "\n".join(lines[:a] + lines[b:])
    if r < 0.55:
        return "\n".join(lines[:b] + lines[a:b] * rng.randint(1, 3) + lines[b:])
    if r < 0.75:
        return text[:rng.randrange(len(text) + 1)]
    if r < 0.9:
        return text + "\n" + text  # two games
    return rng.choice(["", "\n", "[", "(", "{", "1.", "\ufeff", "[Game \"gold\"]", "\x00", "[Game \"gold\"]\n1."])


def m_numbers(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    spots = list(re.finditer(r"-?\d+", text))
    if not spots:
        return text
    for _ in range(rng.randint(1, 3)):
        m = rng.choice(spots)
        new = rng.choice(["0", "-1", "-0", "00", "2147483648", "9223372036854775808", "1" + "0" * 309, "1" * 300,
                          "-" + "9" * 400, "007", "\u0663", "\u00b2", "1_000"])
        text = text[:m.start()] + new + text[m.end():]
        spots = list(re.finditer(r"-?\d+", text))
        if not spots:
            break
    return text


def m_markup(rng: random.Random, text: str, c: Corpus, game: str) -> str:
    big = rng.choice(["1" + "0" * 309, "9" * 400, "1" * 5000, "-1" + "0" * 320, "2147483648", "0"])
    marks = [f"<highlight {big},0>", f"<highlight 0,{big}:N red>", f"<arrow {big},0 0,{big}>", f"<label {big},{big} \"x\">",
             f"<ghost 17@{big},0>", f"<ghost 17@0,0:{big}>", "<highlight>", "<arrow 0,0 1,0 2,0 3,0 4,0>", "<label 0,0>",
             "<ghost>", "<label 0,0 \"a\" \"b\" \"c\">", "<highlight 0,0:Q red>", "<arrow a,b c,d>", "<highlight ,>",
             f"<label 0,0 \"{'z' * 10000}\">"]
    lines = text.split("\n")
    turn_idx = [i for i, line in enumerate(lines) if re.match(r"\s*\d+\.", line)] or [len(lines) - 1]
    for _ in range(rng.randint(1, 3)):
        i = rng.choice(turn_idx)
        lines[i] += " " + rng.choice(marks)
    return "\n".join(lines)


GRN_MUTATORS: list[tuple[Callable[..., str], int]] = [
    (m_word, 20), (m_char, 15), (m_splice, 8), (m_huge_int, 8), (m_nesting, 5), (m_long, 3), (m_whitespace, 10),
    (m_tags, 8), (m_other_game, 6), (m_structure, 6), (m_numbers, 6), (m_markup, 6),
]

# ---------------------------------------------------------------------------
# Mutating the JSON form
# ---------------------------------------------------------------------------


class Raw:
    """JSON text put as is into a document (numbers and nestings ``json.dumps`` cannot write)."""

    def __init__(self, text: str) -> None:
        self.text = text


def _dump(doc: Any, indent: Optional[int]) -> str:
    raws: list[str] = []

    def default(obj: Any) -> Any:
        if isinstance(obj, Raw):
            raws.append(obj.text)
            return f"@@RAW{len(raws) - 1}@@"
        raise TypeError(type(obj).__name__)

    text = json.dumps(doc, indent=indent, default=default, ensure_ascii=False)
    return re.sub(r'"@@RAW(\d+)@@"', lambda m: raws[int(m.group(1))], text) if raws else text


def _nodes(doc: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) in the document, iteratively."""
    out: list[tuple[Any, Any]] = []
    stack = [doc]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            out.append((node, k))
            if isinstance(v, (dict, list)):
                stack.append(v)
    return out


def _deep_array(depth: int) -> Raw:
    return Raw("[" * depth + "]" * depth)


def _deep_variation(turn: Any, depth: int) -> Raw:
    inner = json.dumps(turn)
    head = '{"type":"variation","intro":[],"turns":[{"number":1,"player":"red","actions":[],"extras":['
    return Raw(head * depth + "]}]}" * depth) if inner else Raw("[]")


def j_int(rng: random.Random, doc: Any, c: Corpus, game: str) -> None:
    spots = [(n, k) for n, k in _nodes(doc) if isinstance(n[k], int) and not isinstance(n[k], bool)]
    if not spots:
        return
    for _ in range(rng.randint(1, 2)):
        n, k = rng.choice(spots)
        n[k] = rng.choice([1.0, 1e300, -1e300, 0.5, Raw(_big_number(rng)), Raw("1e400"), Raw("-1e400"),
                           2 ** 63, -(2 ** 63) - 1, True, False, None, str(n[k]), Raw("NaN"), Raw("Infinity"),
                           Raw("1" + "0" * 309), -1, 10 ** 18])


def j_str(rng: random.Random, doc: Any, c: Corpus, game: str) -> None:
    spots = [(n, k) for n, k in _nodes(doc) if isinstance(n[k], str)]
    if not spots:
        return
    for _ in range(rng.randint(1, 3)):
        n, k = rng.choice(spots)
        s = n[k]
        n[k] = rng.choice([s + "\n", "\n" + s, s + "\r\n", "", s * 50, s + "\u2028", s + "\x00", s.upper(), " " + s,
                           s + "\f", "x" * 100_000, "\ud800", s + "}", s + '"', "{" + s])


def j_other_action(rng: random.Random, doc: Any, c: Corpus, game: str) -> None:
    spots = [n[k] for n, k in _nodes(doc) if k == "actions" and isinstance(n[k], list)]
    pool = c.actions[_other(game)] or [{"type": "flip", "pos": "a1", "face": {"kind": "gold", "value": 3}}]
    if not spots:
        return
    for _ in range(rng.randint(1, 3)):
        acts = rng.choice(spots)
        act = json.loads(json.dumps(rng.choice(pool)))
        if acts and rng.random() < 0.5:
            acts[rng.randrange(len(acts))] = act
        else:
            acts.append(act)


def j_game(rng: random.Random, doc: Any, c: Corpus, game: str) -> None:
    for g in doc.get("games", []) if isinstance(doc, dict) else []:
        tags = g.get("tags") if isinstance(g, dict) else None
        if not isinstance(tags, list):
            continue
        value = rng.choice(["chess", "GOLD", "gold\n", "goldrush\n", "", " gold", _other(game), "Gold", "carcassonne",
                            "gold\u2028"])
        for t in tags:
            if isinstance(t, list) and t and t[0] == "Game":
                t[1:] = [value]
                break
        else:
            tags.insert(0, ["Game", value])
        if rng.random() < 0.3:
            tags.append(["Game", rng.choice(_games())])
        if rng.random() < 0.3:
            tags.append([rng.choice(["game", "GAME", "Game\n", "", "Players\n"]), "gold"])


def j_markup(rng: random.Random, doc: Any, c: Corpus, game: str) -> None:
    extras = [n[k] for n, k in _nodes(doc) if k == "extras" and isinstance(n[k], list)]
    if not extras:
        return
    for _ in range(rng.randint(1, 3)):
        big = rng.choice(["1" + "0" * 309, "9" * 400, "0", "1e400", "1" * 5000])
        pool: list[Any] = ["0,0", "1,0:N", "red", f"{big},0", f"0,{big}", {"text": "x"}, {"text": "x\n"}, "17@1,0",
                           f"17@{big},0:90", "", "a,b", {"text": 1}, 3, None, [], "0,0:Q"]
        args = [rng.choice(pool) for _ in range(rng.choice([0, 1, 2, 3, 4, 5, 9]))]
        kind = rng.choice(["highlight", "arrow", "label", "ghost", "bogus", "HIGHLIGHT", "label\n"])
        rng.choice(extras).append({"type": "markup", "kind": kind, "args": args})


def j_deep(rng: random.Random, doc: Any, c: Corpus, game: str) -> None:
    nodes = _nodes(doc)
    if rng.random() < 0.5:
        extras = [n[k] for n, k in nodes if k == "extras" and isinstance(n[k], list)]
        if extras:
            rng.choice(extras).append(_deep_variation({}, rng.choice([60, 60, 100, 250, 500, 1000, 5000])))
            return
    if nodes:
        n, k = rng.choice(nodes)
        n[k] = _deep_array(rng.choice([100, 1000, 10_000, 100_000]))


def j_types(rng: random.Random, doc: Any, c: Corpus, game: str) -> None:
    nodes = _nodes(doc)
    if not nodes:
        return
    for _ in range(rng.randint(1, 3)):
        n, k = rng.choice(nodes)
        r = rng.random()
        if r < 0.5:
            n[k] = rng.choice([None, True, [], {}, "x", 0, [[]], {"type": "x"}, {"": None}])
        elif r < 0.7 and isinstance(n, dict):
            del n[k]
            nodes = _nodes(doc)
            if not nodes:
                return
        elif isinstance(n[k], dict):
            n[k][rng.choice(["extra", "type", "x", "", "__proto__"])] = rng.choice([1, "y", None, []])


def j_top(rng: random.Random, doc: Any, c: Corpus, game: str) -> None:
    if not isinstance(doc, dict):
        return
    r = rng.random()
    if r < 0.3:
        doc["grn"] = rng.choice([2, 0, "1", 1.0, True, None, Raw(_big_number(rng))])
    elif r < 0.6:
        doc["games"] = rng.choice([[], {}, None, [None], [{}], [[]], doc.get("games", []) * 3])
    else:
        doc[rng.choice(["extra", "Games", ""])] = 1


JSON_MUTATORS: list[tuple[Callable[..., None], int]] = [
    (j_int, 15), (j_str, 10), (j_other_action, 10), (j_game, 8), (j_markup, 10), (j_deep, 6), (j_types, 12),
    (j_top, 4),
]
def j_size(rng: random.Random, doc: Any, c: Corpus, game: str) -> None:
    """Import sizes (issue 25): a player's name about the limit or far past it, a tag or comment of a
    hundred thousand characters, or, rarely, a file past the 16 MiB that an import reads."""
    names = [n for n, k in _nodes(doc) if k == "name" and isinstance(n[k], str)]
    r = rng.random()
    if r < 0.6 and names:
        rng.choice(names)["name"] = rng.choice(["N" * 199, "N" * 200, "N" * 201, "N" * 10_000, "N" * 1_000_000,
                                                "(" * 300, "a,b" * 100])
    elif r < 0.95 and isinstance(doc, dict):
        doc[rng.choice(["name", "appVersion"])] = "x" * rng.choice([99_999, 100_001, 400_000])
    elif isinstance(doc, dict):
        doc["padding"] = "p" * (17 * 1024 * 1024)


#: The mutations that fit any JSON document (another program's file).
FOREIGN_JSON_MUTATORS: list[tuple[Callable[..., None], int]] = [(j_int, 15), (j_str, 10), (j_types, 15),
                                                                 (j_size, 6)]


def _json_text_edit(rng: random.Random, text: str) -> str:
    r = rng.random()
    if r < 0.4:
        return m_char(rng, text, Corpus([], [], {}, {}, {}), "goldrush")
    if r < 0.55:
        return "\ufeff" + text
    if r < 0.7:  # a key written twice: the parser keeps the last one
        return text.replace('"number": ', '"number": 1, "number": ', 1)
    if r < 0.85:
        return text.replace("\n", rng.choice(["\r", "\u2028", "\f\n", "\r\n"]))
    return text[:rng.randrange(len(text) + 1)]


# ---------------------------------------------------------------------------
# One input
# ---------------------------------------------------------------------------

@dataclass
class Input:
    """A generated input: its bytes, its form (grn or json), what made it and the --turn to ask for."""

    data: bytes
    kind: str
    recipe: list[str]
    turn: str


def _turn_arg(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.5:
        n = rng.randint(0, 40)
        return str(n) if rng.random() < 0.6 else f"{n}({rng.randint(1, 3)}){n + rng.randint(0, 3)}"
    return rng.choice(["\u00b2", "\u0663", "1" * 5000, "-1", "", " ", "end", "1(1)", "1(", "((", "1(0)1", "1(99)2",
                       "1_0", "+3", "1e3", "0x10", "3 ", "\x00", "1(1)2(1)3(1)4", "9" * 4300, "\U0001d7d8",
                       "1(" + "1" * 5000 + ")2", "2" + "(1)2" * 2000])


def _cut(rng: random.Random, text: str) -> str:
    """The header and the first few turns of a game."""
    lines = text.split("\n")
    turn_idx = [i for i, line in enumerate(lines) if re.match(r"\s*\d+\.", line)]
    if len(turn_idx) < 2:
        return text
    return "\n".join(lines[:turn_idx[min(rng.randint(1, 30), len(turn_idx) - 1)]]) + "\n"


#: The kinds of input that are game records; any other kind is a file of another program (its suffix).
RECORD_KINDS = ("grn", "json")
#: One input in this many is another program's file, for ``grn import``.
FOREIGN_EVERY = 20


def _foreign_input(rng: random.Random, corpus: Corpus, turn: str) -> Input:
    """A file of another program that ``grn export`` wrote, mutated: JSON ones as JSON, others as text."""
    name, kind, text = rng.choice(corpus.foreign)
    recipe = [f"{name}.{kind}"]
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if doc is not None:
        for _ in range(rng.choice([1, 1, 2, 3])):
            jfn = rng.choices([f for f, _ in FOREIGN_JSON_MUTATORS], [w for _, w in FOREIGN_JSON_MUTATORS])[0]
            try:
                jfn(rng, doc, corpus, "")
            except (KeyError, IndexError, TypeError, AttributeError):
                pass
            recipe.append(jfn.__name__)
        text = _dump(doc, rng.choice([None, 2]))
    if doc is None or rng.random() < 0.15:
        text = _json_text_edit(rng, text)
        recipe.append("text_edit")
    return Input(text.encode("utf-8", "surrogatepass"), kind, recipe, turn)


def make_input(corpus: Corpus, seed: int, index: int) -> Input:
    """Input ``index`` of run ``seed``: the same bytes on every run."""
    rng = random.Random(f"grn-fuzz/{seed}/{index}")
    turn = _turn_arg(rng)
    if corpus.foreign and rng.random() < 1 / FOREIGN_EVERY:
        return _foreign_input(rng, corpus, turn)
    if rng.random() < 0.7 or not corpus.json:
        name, game, text = rng.choice(corpus.grn)
        recipe = [name]
        if name.startswith("selfplay") and rng.random() < 0.6:
            text = _cut(rng, text)  # shorter games: quicker, and the rules code sees games end early
            recipe.append("cut")
        for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
            fn = rng.choices([f for f, _ in GRN_MUTATORS], [w for _, w in GRN_MUTATORS])[0]
            new = fn(rng, text, corpus, game)
            if len(new) <= MAX_INPUT:  # a 30,000-deep nesting with 20,000-digit numbers is gigabytes
                text = new
                recipe.append(fn.__name__)
        return Input(text.encode("utf-8", "surrogatepass"), "grn", recipe, turn)
    name, game, text = rng.choice(corpus.json)
    recipe = [name]
    doc = json.loads(text)
    if name.startswith("selfplay") and rng.random() < 0.6:
        keep = rng.randint(0, 30)
        for g in doc["games"]:
            g["turns"] = g["turns"][:keep]
        recipe.append("cut")
    for _ in range(rng.choice([1, 1, 2, 3])):
        jfn = rng.choices([f for f, _ in JSON_MUTATORS], [w for _, w in JSON_MUTATORS])[0]
        try:
            jfn(rng, doc, corpus, game)
        except (KeyError, IndexError, TypeError, AttributeError):
            pass  # a mutation that no longer fits the document: skip it
        recipe.append(jfn.__name__)
    out = _dump(doc, rng.choice([None, 1]))
    if rng.random() < 0.15:
        out = _json_text_edit(rng, out)
        recipe.append("json_text_edit")
    return Input(out.encode("utf-8", "surrogatepass"), "json", recipe, turn)


# ---------------------------------------------------------------------------
# The steps each input goes through
# ---------------------------------------------------------------------------

@dataclass
class Ctx:
    """What the steps of one input share: its file, its form, the work folder and earlier results."""

    path: str
    kind: str
    turn: str
    work: str
    data: bytes
    results: dict[str, tuple[int, str, str]] = field(default_factory=dict)


def _cli(ctx: Ctx, name: str, args: list[str]) -> tuple[int, str, str]:
    rc, out, err = run_cli(args)
    ctx.results[name] = (rc, out, err)
    if "Traceback (most recent call last)" in err:
        raise Crash("printed-traceback", "traceback on stderr", name, err[-300:])
    if rc not in (0, 1, 2):
        raise Crash("exit-code", f"exit {rc}", name, err[-300:])
    if ctx.path in args:  # not for the files convert wrote
        _check_locations(ctx, name, rc, err)
    return rc, out, err


# the line breaks str.splitlines() knows besides \n, the likeliest cause first (one class each)
_BREAKS = {"\u2028": "U+2028", "\u2029": "U+2029", "\x85": "NEL", "\f": "FF", "\v": "VT", "\x1c": "FS",
           "\x1d": "GS", "\x1e": "RS", "\r": "CR"}
# a message that names its place ("at 12:5", "at turn 3") has one, if not in the usual spot
_PLACED_RE = re.compile(r"\b\d+:\d+\b|\bat turn \d+")
_DIAG_RE = re.compile(r"(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?:error|warning|info): ")


def _check_locations(ctx: Ctx, name: str, rc: int, err: str) -> None:
    """The source line printed under a diagnostic is that line of the file; a record's problem has a place."""
    if ctx.kind != "grn":
        return
    printed = err.split("\n")
    file_lines: Optional[list[str]] = None
    for i, line in enumerate(printed):
        m = _DIAG_RE.match(line)
        if m is None or m.group("file") != ctx.path:
            if (rc == 1 and line.startswith(f"{ctx.path}: error: game ") and name in ("render", "show", "render --turn")
                    and not _PLACED_RE.search(line)):
                # a problem of the record (exit 1, not a usage error) told without line and column
                raise Crash("no-location", "record problem without line:column", _template(line), line[:300])
            continue
        if i + 2 < len(printed) and printed[i + 1].startswith("    ") and printed[i + 2].strip() == "^":
            if file_lines is None:
                file_lines = [x.decode("utf-8", "replace") for x in ctx.data.split(b"\n")]
            number = int(m.group("line"))
            real = file_lines[number - 1].rstrip("\r\n").lstrip("\ufeff") if 0 < number <= len(file_lines) else None
            # grn shows control characters as spaces and a long line as a window of it ("..." either side)
            shown = printed[i + 1][4:]
            plain = None if real is None else re.sub("[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]", " ", real)
            window = shown.removeprefix("...").removesuffix("...")
            if plain is None or (shown != plain and not (len(plain) > 120 and window and window in plain)):
                # grouped by the line breaks other than \n the file holds before that line: the usual cause
                before = "\n".join(file_lines[:number])
                odd = next((name for ch, name in _BREAKS.items() if ch in before), "no odd line break")
                raise Crash("wrong-location", "source line shown is not the file's line", "file holds " + odd,
                            f"{line[:200]}\nshown: {printed[i + 1][4:][:100]!r}\nline {number}: {(real or '')[:100]!r}")


def _template(err: str) -> str:
    """The first error message with its place, numbers and quoted words taken out (to group read-back failures)."""
    line = next((x for x in err.splitlines() if ": error: " in x), err.strip().split("\n")[0] if err.strip() else "")
    msg = line.split(": error: ", 1)[-1]
    msg = re.sub(r"'[^']*'|\"[^\"]*\"", "'*'", msg)
    msg = re.sub(r"\d+", "N", msg)
    return msg[:80]


def step_validate(ctx: Ctx) -> None:
    _cli(ctx, "validate", ["validate", ctx.path])


def step_validate_json(ctx: Ctx) -> None:
    rc, out, err = _cli(ctx, "validate --format json", ["validate", "--format", "json", ctx.path])
    if rc in (0, 1):
        try:
            json.loads(out)
        except ValueError as exc:
            raise Crash("bad-output", "validate --format json is not JSON", "validate --format json", str(exc))


def step_fmt(ctx: Ctx) -> None:
    _cli(ctx, "fmt", ["fmt", ctx.path])


def step_convert(ctx: Ctx) -> None:
    """Convert to the other form, read that back, and check the round trip says the same."""
    work = ctx.work
    if ctx.kind == "grn":
        there = os.path.join(work, "conv.json")
        rc, _, _ = _cli(ctx, "convert --to json", ["convert", ctx.path, "--to", "json", "-o", there])
        if rc != 0:
            return
        back = os.path.join(work, "back.grn")
        rc, _, err = _cli(ctx, "convert --to grn (read back)", ["convert", there, "--to", "grn", "-o", back])
        if rc != 0:
            raise Crash("convert-readback", "JSON written by convert does not read back", _template(err), err[-400:])
        rc2, out2, err2 = _cli(ctx, "fmt (read back)", ["fmt", back])
        if rc2 != 0:
            raise Crash("convert-readback", "GRN written by convert does not read back", _template(err2), err2[-400:])
        rc1, out1, _ = ctx.results.get("fmt") or run_cli(["fmt", ctx.path])
        if rc1 == 0 and out1 != out2:
            raise Crash("not-lossless", "GRN -> JSON -> GRN changes the record", "convert", "")
    else:
        there = os.path.join(work, "conv.grn")
        rc, _, _ = _cli(ctx, "convert --to grn", ["convert", ctx.path, "--to", "grn", "-o", there])
        if rc != 0:
            return
        back = os.path.join(work, "back.json")
        rc, _, err = _cli(ctx, "convert --to json (read back)", ["convert", there, "--to", "json", "-o", back])
        if rc != 0:
            raise Crash("convert-readback", "GRN written by convert does not read back", _template(err), err[-400:])
        rc1, out1, _ = _cli(ctx, "convert --to json", ["convert", ctx.path, "--to", "json"])
        with open(back, encoding="utf-8") as fh:
            if rc1 == 0 and not _same_record(fh.read(), out1):
                raise Crash("not-lossless", "JSON -> GRN -> JSON changes the record", "convert", "")


def _same_record(a: str, b: str) -> bool:
    """The same JSON record, but for the order of header tags: GRN writes the known tags first, by design."""
    if a == b:
        return True
    try:
        da, db = json.loads(a), json.loads(b)
        for doc in (da, db):
            for g in doc["games"]:
                g["tags"] = sorted(g["tags"])
    except (ValueError, KeyError, TypeError):
        return False
    return bool(da == db)


def step_render(ctx: Ctx) -> None:
    _cli(ctx, "render", ["render", ctx.path, "-o", os.devnull])


def step_show(ctx: Ctx) -> None:
    _cli(ctx, "show", ["show", ctx.path])


def step_render_turn(ctx: Ctx) -> None:
    _cli(ctx, "render --turn", ["render", ctx.path, "--turn", ctx.turn, "-o", os.devnull])


def step_render_diagram(ctx: Ctx) -> None:
    """A rules-discussion picture of the position at ``--turn`` (exit 2 for a game that draws none)."""
    _cli(ctx, "render --diagram", ["render", ctx.path, "--turn", ctx.turn, "--diagram", "-o", os.devnull])


def step_html(ctx: Ctx) -> None:
    """The viewer page (every position of every line drawn): one input in ten, as it costs ten steps."""
    if zlib.crc32(ctx.data) % 10 == 0:
        _cli(ctx, "html", ["html", ctx.path, "-o", os.devnull])


def step_export(ctx: Ctx) -> None:
    """Every format the input's game writes (``grn export``), and the file it wrote read back (``grn import``)."""
    if ctx.kind != "grn":
        return
    from grn.games import find_ruleset

    try:
        ruleset = find_ruleset(_game_of(ctx.data.decode("utf-8", "replace")))
    except Exception:  # noqa: BLE001 - no such game: nothing to export
        return
    for name in ruleset.exporters():
        there = os.path.join(ctx.work, "export." + name)
        rc, _, _ = _cli(ctx, f"export --to {name}", ["export", ctx.path, "--to", name, "-o", there])
        if rc != 0:
            continue
        rc, _, err = _cli(ctx, f"import (read back {name})", ["import", there, "-o", os.devnull])
        if rc != 0:
            raise Crash("export-readback", f"the {name} file export wrote does not import", _template(err),
                        err[-400:])


def step_import(ctx: Ctx) -> None:
    """Another program's file: ``grn import`` refuses it in one line, or writes GRN that reads and validates."""
    out = os.path.join(ctx.work, "imported.grn")
    rc, _, _ = _cli(ctx, "import", ["import", ctx.path, "-o", out])
    if rc != 0:
        return
    rc, _, err = _cli(ctx, "fmt (imported)", ["fmt", out])
    if rc != 0:
        raise Crash("import-output", "GRN written by import does not read", _template(err), err[-400:])
    _cli(ctx, "validate (imported)", ["validate", out])


#: Output paths a writing command is given (issue 25): each names what it must do.
_OUTPUTS = ("missing-folder", "folder", "full-disk", "symlink", "existing", "odd-name", "new")


def _writers(ctx: Ctx, out: str) -> list[list[str]]:
    """The commands that write a file, each with ``-o out``."""
    return [["render", ctx.path, "-o", out], ["convert", ctx.path, "--to", "json" if ctx.kind == "grn" else "grn",
                                               "-o", out],
            ["html", ctx.path, "-o", out], ["selfplay", "--seed", "1", "-o", out], ["tiles", "-o", out]]


def step_output(ctx: Ctx) -> None:
    """Hostile output paths (one input in four): a missing folder or a folder is a usage error, a full disk
    one line, a symlink is written through, an existing file replaced whole or left as it was, and no
    temporary file is left behind (grn.core.output, R80-R82)."""
    import shutil
    import stat as st_

    crc = zlib.crc32(ctx.data)
    if crc % 4:
        return
    rng = random.Random(crc)
    folder = os.path.join(ctx.work, "out")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    kind = rng.choice(_OUTPUTS)
    if kind == "full-disk" and not os.path.exists("/dev/full"):
        kind = "new"
    target = {"missing-folder": os.path.join(folder, "nosuch", "x.svg"), "folder": folder, "full-disk": "/dev/full",
              "symlink": os.path.join(folder, "link.out"), "existing": os.path.join(folder, "old.out"),
              "odd-name": os.path.join(folder, rng.choice(["we\nird.svg", " .svg", "-x.svg", "ü\u2028.svg"])),
              "new": os.path.join(folder, "new.out")}[kind]
    if kind == "symlink":
        with open(os.path.join(folder, "real.out"), "w") as fh:
            fh.write("old")
        os.symlink("real.out", target)
    if kind == "existing":
        with open(target, "w") as fh:
            fh.write("old")
    args = rng.choice(_writers(ctx, target))
    name = f"{args[0]} -o <{kind}>"
    rc, _, err = _cli(ctx, name, args)
    lines = [line for line in err.splitlines() if line.strip()]
    if kind in ("missing-folder", "folder") and rc != 2:
        raise Crash("output-path", f"-o {kind}: exit {rc}, not 2", name, err[-300:])
    if kind in ("missing-folder", "folder", "full-disk") and rc != 0 and len(lines) != 1 and args[0] not in (
            "render", "html", "convert"):  # record commands may report the record's own problems first
        raise Crash("output-path", f"-o {kind}: {len(lines)} lines", name, err[-300:])
    if kind == "missing-folder" and os.path.exists(os.path.dirname(target)):
        raise Crash("output-path", "a missing folder was made", name, "")
    if kind == "full-disk" and (rc == 0 or not st_.S_ISCHR(os.stat("/dev/full").st_mode)):
        raise Crash("output-path", "a full disk was not reported, or the device was replaced", name, err[-300:])
    if kind == "symlink" and not os.path.islink(target):
        raise Crash("output-path", "a symlink was replaced by a file", name, "")
    # (html writes the page of an illegal game, shown up to its first illegal turn, and exits 1)
    if kind in ("existing", "symlink") and rc != 0 and not (args[0] == "html" and rc == 1):
        with open(os.path.join(folder, "real.out" if kind == "symlink" else "old.out")) as fh:
            if fh.read() != "old":
                raise Crash("output-path", "a failed command changed the existing file", name, err[-300:])
    left = [n for n in os.listdir(folder) if n.endswith(".part")]
    if left:
        raise Crash("output-path", "a temporary file was left behind", name, ", ".join(left))


_FILTER_KEYS = ("type", "feature", "points", "player", "tile", "x", "y", "detail", "tiles", "rotation", "_", "a" * 300)
_FILTER_VALUES = ("0", "-1", "99999999999999999999", "9" * 5000, "'quoted'", '"x"', "", "%", "_", "'", "\\",
                  "red", "Ada", "1e5", "0x10", "NULL", "'); DROP TABLE games; --", "\x00", "\u2028")
_SQL = (
    "SELECT count(*) FROM games", "SELECT * FROM seats LIMIT 3", "PRAGMA table_info(games)",
    "ATTACH DATABASE '{dir}/attached.db' AS x", "VACUUM INTO '{dir}/copy.db'", "PRAGMA query_only = OFF",
    "DELETE FROM games", "DROP TABLE games", "CREATE TABLE t(x)", "INSERT INTO meta VALUES ('a', 'b')",
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c",
    "SELECT 99999999999999999999999", "SELECT 1; SELECT 2", "SELECT load_extension('x')",
    "SELECT json_extract(json, '$.a') FROM events", "PRAGMA journal_mode = DELETE", "DETACH DATABASE main",
    "SELECT readfile('/etc/passwd')", "BEGIN", "SELECT zeroblob(1000000000)", "", ";", "SELECT",
)


def _filter(rng: random.Random) -> list[str]:
    """One random filter option of ``grn archive search``."""
    option = rng.choice(["--score", "--event", "--action", "--tag", "--player", "--from", "--to-date", "--beside",
                         "--winner", "--result", "--limit"])
    value = rng.choice(_FILTER_VALUES)
    if option == "--score":
        text = rng.choice(["", "red", "Ada", "x y"]) + rng.choice([">=", "<", "=", "!=", ">>", "~"]) + value
    elif option in ("--event", "--action"):
        text = " ".join(rng.choice(_FILTER_KEYS) + rng.choice(["=", ">=", "<", "~", "!=", ""]) + rng.choice(
            _FILTER_VALUES) for _ in range(rng.randint(1, 3)))
    elif option == "--tag":
        text = rng.choice(["Event", "Date", "x"]) + rng.choice(["=", "~", ""]) + value
    elif option == "--beside":
        text = f"{value},{rng.choice(_FILTER_VALUES)}"
    elif option == "--limit":
        text = rng.choice(["0", "1", "99999999999999999999", "-1"])
    else:
        text = value
    return [option, text]


def step_archive(ctx: Ctx) -> None:
    """Archive search filters and ``--sql`` statements (one input in six): one-line errors, and ``--sql``
    makes no file (R85)."""
    import shutil

    crc = zlib.crc32(ctx.data)
    if crc % 6:
        return
    rng = random.Random(crc ^ 0x5EA)
    folder = os.path.join(ctx.work, "archive")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    db = os.path.join(folder, "a.db")
    rc, _, _ = _cli(ctx, "archive add", ["archive", "add", db, ctx.path, "-q"])
    if not os.path.exists(db):
        return
    for _ in range(3):
        _cli(ctx, "archive search (filters)", ["archive", "search", db] + _filter(rng) + rng.choice(
            [[], ["--count"], ["--format", "json"]]))
    before = sorted(os.listdir(folder))
    for _ in range(2):
        sql = rng.choice(_SQL).format(dir=folder)
        rc, _, err = _cli(ctx, "archive search --sql", ["archive", "search", db, "--sql", sql, "--sql-timeout", "2"])
        if rc != 0 and len([line for line in err.splitlines() if line.strip()]) != 1:
            raise Crash("sql", "an --sql error is not one line", "archive search --sql", err[-300:])
        made = sorted(set(os.listdir(folder)) - set(before))
        if made:
            raise Crash("sql", "--sql made a file", "archive search --sql", f"{sql}: {made}")


Step = tuple[str, Callable[[Ctx], None]]
STEPS: list[Step] = [
    ("validate", step_validate), ("validate --format json", step_validate_json), ("fmt", step_fmt),
    ("convert", step_convert), ("render", step_render), ("show", step_show), ("render --turn", step_render_turn),
    ("render --diagram", step_render_diagram), ("html", step_html), ("export", step_export), ("import", step_import),
    ("output paths", step_output), ("archive search", step_archive),
]
#: The steps for another program's file, and those for a game record (a step added by a test runs for both).
FOREIGN_STEPS = frozenset({"import"})
_RECORD_STEPS = frozenset(name for name, _ in STEPS) - FOREIGN_STEPS

# ---------------------------------------------------------------------------
# Worker processes
# ---------------------------------------------------------------------------

_GRN_DIR: str = ""


def _where(exc: BaseException) -> str:
    """The innermost grn frame of the exception (``grn/file.py:function``), else the innermost frame."""
    frames = [(frame.f_code.co_filename, frame.f_code.co_name)
              for frame, _ in traceback.walk_tb(exc.__traceback__)]  # no source lines: 1,000-frame tracebacks are common
    for filename, name in reversed(frames):
        if filename.startswith(_GRN_DIR):
            return f"grn/{os.path.relpath(filename, _GRN_DIR)}:{name}"
    if frames:
        return f"{Path(frames[-1][0]).name}:{frames[-1][1]}"
    return "?"


def _finding(kind: str, what: str, where: str, step: str, message: str, tb: str = "") -> dict[str, Any]:
    return {"kind": kind, "what": what, "where": where, "step": step, "message": message[:500], "tb": tb[-3000:]}


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")  # resets VmHWM, the peak resident set size
        return True
    except OSError:
        return False


def _peak_kb() -> int:
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


# ---------------------------------------------------------------------------
# Reading each input once
# ---------------------------------------------------------------------------
# Every command reads the input again: Lark's parse of a mutated game (which
# the fast reader declines) and the JSON Schema check of a document are most
# of the time of an input, seven to nine times over.  Both are pure functions
# of their arguments returning values nobody changes, so within one input the
# worker remembers what they returned.  Only successful results are kept: an
# exception is raised again by every command that reads the input.

_MEMO: dict[Any, Any] = {}


def install_memo() -> None:
    """Make ``notation.parse_game``, the JSON reading of ``sources`` and the streaming reader's check of
    each game remember results (per input)."""
    import grn.notation.jsonform as jsonform
    import grn.notation.read as notation

    parse_game = notation.parse_game
    # grn.notation.sources imports it from grn.notation.jsonform when a JSON input comes (only JSON pays for jsonschema)
    records_from_json = jsonform.records_from_json
    check_game = jsonform.check_game

    def memo_parse_game(text: str, **kw: Any) -> Any:
        key = ("grn", text, tuple(sorted(kw.items())))
        got = _MEMO.get(key)
        if got is None:
            got = _MEMO[key] = parse_game(text, **kw)
        return got

    def memo_check_game(game: Any, index: int, **kw: Any) -> Any:
        # the streaming reader (R65) checks each game on its own: the schema check of a game the
        # quick validator refuses is most of the time of a JSON input
        try:
            key = ("json-game", json.dumps(game), index, tuple(sorted(kw.items())))
        except (ValueError, TypeError, RecursionError):
            return check_game(game, index, **kw)
        got = _MEMO.get(key)
        if got is None:
            got = _MEMO[key] = check_game(game, index, **kw)
        return list(got)

    def memo_records_from_json(document: Any, **kw: Any) -> Any:
        try:
            key = ("json", json.dumps(document), tuple(sorted(kw.items())))
        except (ValueError, TypeError, RecursionError):
            return records_from_json(document, **kw)  # what json cannot write: not remembered
        got = _MEMO.get(key)
        if got is None:
            got = _MEMO[key] = records_from_json(document, **kw)
        return list(got[0]), list(got[1])

    notation.parse_game = memo_parse_game  # type: ignore[assignment]
    jsonform.records_from_json = memo_records_from_json  # type: ignore[assignment]
    jsonform.check_game = memo_check_game  # type: ignore[assignment]


def run_input(inp: Input, work: str, steps: list[Step], current: Any = None,
              report: Optional[Callable[[dict[str, Any]], None]] = None) -> tuple[list[dict[str, Any]], int]:
    """Run every step on one input: its findings and its peak RSS in kB.

    ``report`` is told each finding at once (a later step may kill the process).
    """
    path = os.path.join(work, "input." + inp.kind)
    with open(path, "wb") as fh:
        fh.write(inp.data)
    ctx = Ctx(path, inp.kind, inp.turn, work, inp.data)
    findings = []
    _MEMO.clear()
    _reset_peak()
    skip = _RECORD_STEPS if inp.kind not in RECORD_KINDS else FOREIGN_STEPS
    for k, (name, fn) in enumerate(steps):
        if name in skip:
            continue
        if current is not None:
            current.value = k
        try:
            fn(ctx)
        except Crash as exc:
            findings.append(_finding(exc.kind, exc.what, exc.where, name, exc.message))
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - an escaped exception is what we look for
            findings.append(_finding("exception", type(exc).__name__, _where(exc), name, repr(exc)[:300],
                                     "".join(traceback.format_exception(exc, limit=-25))))
        else:
            continue
        if report is not None:
            report(findings[-1])
    peak = _peak_kb()
    if peak > RSS_LIMIT_KB:
        findings.append(_finding("rss", f"peak RSS {peak // 1024} MB > 500 MB", "", "(any)", ""))
    return findings, peak


def _worker(conn: Connection, corpus: Corpus, seed: int, steps: list[Step], work: str, current: Any,
            mem_limit_mb: int, recycle: int, memo: bool) -> None:
    global _GRN_DIR
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the run
    if memo:
        install_memo()
    import grn

    _GRN_DIR = str(Path(grn.__file__).resolve().parent) + os.sep
    if mem_limit_mb:
        limit = mem_limit_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.makedirs(work, exist_ok=True)
    os.chdir(work)
    import faulthandler

    # on a segfault, the Python stack goes to this file: the parent reads it to place the crash
    fault_log = open(os.path.join(work, "fault.log"), "w")
    faulthandler.enable(file=fault_log)
    done = 0
    while done < recycle:
        task = conn.recv()
        if task is None:
            break
        t = time.perf_counter()
        inp = make_input(corpus, seed, task)
        findings, peak = run_input(inp, work, steps, current,
                                   report=lambda f: conn.send(("finding", task, f)))
        done += 1
        # a fresh worker now and then: nothing one input leaves behind affects the next thousands
        _MEMO.clear()
        conn.send(("done", task, findings, peak, len(inp.data), time.perf_counter() - t, inp.kind,
                   done >= recycle))
    conn.close()


# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------

@dataclass
class CrashClass:
    """One class of crash: how often, where, and its smallest input so far."""

    key: str
    kind: str
    what: str
    where: str
    count: int = 0
    steps: Counter = field(default_factory=Counter)
    sample_index: int = -1
    sample_size: int = 1 << 62
    sample_file: str = ""
    message: str = ""
    min_file: str = ""
    min_size: int = 0


@dataclass
class Slot:
    proc: Any = None
    conn: Any = None
    current: Any = None
    task: Optional[int] = None
    started: float = 0.0
    findings: list[dict[str, Any]] = field(default_factory=list)


def _fault_log(work: Path) -> str:
    """What faulthandler wrote when the worker died (its Python stack), or ''."""
    try:
        return (work / "fault.log").read_text(encoding="utf-8", errors="replace")[-3000:]
    except OSError:
        return ""


def _dump_where(dump: str, grn_dir: str) -> str:
    """The innermost grn frame of a faulthandler dump (it lists the most recent call first)."""
    for m in re.finditer(r'File "([^"]+)", line \d+ in (\S+)', dump):
        if m.group(1).startswith(grn_dir):
            return f"grn/{os.path.relpath(m.group(1), grn_dir)}:{m.group(2)}"
    return ""


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:80]


class Run:
    """The state of one fuzzing run (see :func:`run`)."""

    def __init__(self, corpus: Corpus, seed: int, out: Path, steps: list[Step]) -> None:
        self.corpus, self.seed, self.out, self.steps = corpus, seed, out, steps
        self.classes: dict[str, CrashClass] = {}
        self.inputs = 0
        self.crashing_inputs = 0
        self.kinds: Counter = Counter()
        self.max_rss = 0
        self.slowest: list[tuple[float, int]] = []
        self.started = time.time()
        self.elapsed = 0.0

    def record(self, index: int, findings: list[dict[str, Any]], size: int) -> None:
        if findings:
            self.crashing_inputs += 1
        seen = set()
        for f in findings:
            key = f"{f['kind']} | {f['what']} | {f['where']}"
            cls = self.classes.get(key)
            if cls is None:
                cls = self.classes[key] = CrashClass(key, f["kind"], f["what"], f["where"])
            cls.steps[f["step"]] += 1
            if key in seen:
                continue
            seen.add(key)
            cls.count += 1
            if size < cls.sample_size:
                cls.sample_size, cls.sample_index, cls.message = size, index, f["message"]
                self._write_sample(cls, f)

    def _write_sample(self, cls: CrashClass, f: dict[str, Any]) -> None:
        inp = make_input(self.corpus, self.seed, cls.sample_index)
        n = list(self.classes).index(cls.key) + 1
        stem = f"{n:03d}-{_slug(cls.kind + '-' + cls.what + '-' + cls.where)}"
        for old in self.out.glob(f"{n:03d}-*"):
            old.unlink()
        data_path = self.out / f"{stem}.{inp.kind}"
        data_path.write_bytes(inp.data)
        cls.sample_file = data_path.name
        info = [f"class: {cls.key}", f"step: {f['step']}", f"input: --seed {self.seed} index {cls.sample_index}",
                f"recipe: {' '.join(inp.recipe)}", f"--turn: {inp.turn[:200]!r}", f"size: {len(inp.data)} bytes",
                f"message: {f['message']}", "", f["tb"]]
        (self.out / f"{stem}.txt").write_text("\n".join(info), encoding="utf-8")

    def summary(self) -> dict[str, Any]:
        elapsed = self.elapsed or (time.time() - self.started)
        return {
            "seed": self.seed, "inputs": self.inputs, "seconds": round(elapsed, 1),
            "inputs_per_second": round(self.inputs / elapsed, 2) if elapsed else 0,
            "crashing_inputs": self.crashing_inputs, "max_rss_mb": self.max_rss // 1024,
            "kinds": dict(self.kinds), "slowest": [{"seconds": round(s, 2), "index": i} for s, i in self.slowest],
            "classes": [{"key": c.key, "kind": c.kind, "what": c.what, "where": c.where, "count": c.count,
                         "steps": dict(c.steps), "sample": c.sample_file, "sample_bytes": c.sample_size,
                         "sample_index": c.sample_index, "min_sample": c.min_file, "min_bytes": c.min_size,
                         "message": c.message[:200]}
                        for c in sorted(self.classes.values(), key=lambda c: -c.count)],
        }

    def write_summary(self) -> None:
        tmp = self.out / "summary.json.tmp"
        tmp.write_text(json.dumps(self.summary(), indent=1), encoding="utf-8")
        os.replace(tmp, self.out / "summary.json")

    def table(self) -> str:
        s = self.summary()
        lines = [f"{s['inputs']} inputs in {s['seconds']} s ({s['inputs_per_second']} inputs/s), "
                 f"{s['crashing_inputs']} crashing, {len(self.classes)} crash classes, peak RSS {s['max_rss_mb']} MB, "
                 f"forms {s['kinds']}"]
        if self.classes:
            lines.append(f"{'count':>7}  {'kind':<17} {'exception / what':<34} {'where':<44} sample")
            for c in sorted(self.classes.values(), key=lambda c: -c.count):
                smallest = f"{c.min_file} ({c.min_size} B)" if c.min_file else f"{c.sample_file} ({c.sample_size} B)"
                lines.append(f"{c.count:>7}  {c.kind:<17} {c.what[:34]:<34} {c.where[:44]:<44} {smallest}")
        return "\n".join(lines)


def run(*, count: int, seed: int = 1, jobs: int = 2, out: str | os.PathLike[str] = "fuzz-out",
        time_limit: float = 0.0, selfplay: int = 3, input_timeout: float = 120.0, mem_limit_mb: int = 4096,
        recycle: int = 3000, extra_steps: Optional[list[Step]] = None, only_extra: bool = False,
        progress: bool = True, memo: bool = True, shrink: float = 0.0) -> Run:
    """Fuzz ``count`` inputs (0: until ``time_limit`` seconds pass) with ``jobs`` worker processes."""
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    corpus = build_corpus(selfplay, seed)
    steps = (list(extra_steps or []) if only_extra else STEPS + list(extra_steps or []))
    state = Run(corpus, seed, out_dir, steps)
    ctx = mp.get_context("fork")  # workers inherit the corpus and the imported grn
    import grn

    grn_dir = str(Path(grn.__file__).resolve().parent) + os.sep
    base_work = Path(os.environ.get("GRN_FUZZ_WORK") or ("/dev/shm" if os.path.isdir("/dev/shm") else out_dir))
    work_root = base_work / f"grn-fuzz-{os.getpid()}"
    slots = [Slot() for _ in range(max(1, jobs))]

    def start(k: int) -> None:
        parent, child = ctx.Pipe()
        current = ctx.RawValue("i", -1)
        proc = ctx.Process(target=_worker, args=(child, corpus, seed, steps, str(work_root / f"w{k}"), current,
                                                 mem_limit_mb, recycle, memo), daemon=True)
        proc.start()
        child.close()
        slots[k] = Slot(proc, parent, current)

    def finish(k: int, s: Slot, msg: tuple[Any, ...]) -> None:
        """A message from worker ``k``: a finding (kept in case it dies later in the input), or its result."""
        if msg[0] == "finding":
            s.findings.append(msg[2])
            return
        _, index, findings, peak, size, secs, kind, retiring = msg
        state.inputs += 1
        state.kinds[kind] += 1
        state.max_rss = max(state.max_rss, peak)
        state.slowest = sorted(state.slowest + [(secs, index)], reverse=True)[:5]
        state.record(index, findings, size)
        s.task = None
        if retiring:
            s.proc.join()
            start(k)

    for k in range(len(slots)):
        start(k)
    next_index = 0
    deadline = state.started + time_limit if time_limit else float("inf")
    last_report = time.time()
    try:
        while True:
            now = time.time()
            more = (count == 0 or next_index < count) and now < deadline
            for k, s in enumerate(slots):
                if s.task is None and more:
                    try:
                        s.conn.send(next_index)
                    except (BrokenPipeError, OSError):
                        s.proc.join()
                        start(k)
                        continue
                    s.task, s.started, s.findings = next_index, time.time(), []
                    next_index += 1
                    more = (count == 0 or next_index < count) and now < deadline
            busy = [s for s in slots if s.task is not None]
            if not busy:
                break
            ready = wait([s.conn for s in busy] + [s.proc.sentinel for s in busy], timeout=0.5)
            for k, s in enumerate(slots):
                if s.task is None:
                    continue
                if s.conn in ready:
                    try:
                        msg = s.conn.recv()
                    except (EOFError, OSError):
                        pass  # died: handled below
                    else:
                        finish(k, s, msg)
                        continue
                died = not s.proc.is_alive()
                late = time.time() - s.started > input_timeout
                if died or late:
                    if late and not died:
                        s.proc.kill()
                    s.proc.join()
                    # what it sent before dying (the pipe keeps it): findings, or even its result
                    try:
                        while s.task is not None and s.conn.poll():
                            finish(k, s, s.conn.recv())
                    except (EOFError, OSError):
                        pass
                    if s.task is None:
                        continue
                    step_no = s.current.value
                    step = steps[step_no][0] if 0 <= step_no < len(steps) else "?"
                    code = s.proc.exitcode
                    if late and not died:
                        finding = _finding("timeout", f"over {input_timeout:.0f} s", step, step, "")
                    elif code is not None and code < 0:
                        name = signal.Signals(-code).name
                        dump = _fault_log(work_root / f"w{k}")
                        where = _dump_where(dump, grn_dir)
                        finding = _finding("signal", name, f"{step} @ {where}" if where else step, step,
                                           f"worker killed by {name}", dump)
                    else:
                        finding = _finding("worker-exit", f"exit {code}", step, step, "")
                    state.inputs += 1
                    state.record(s.task, s.findings + [finding], len(make_input(corpus, seed, s.task).data))
                    s.task = None
                    start(k)
            # a worker that recycled itself (exited cleanly between tasks) is replaced
            for k, s in enumerate(slots):
                if s.task is None and not s.proc.is_alive():
                    s.proc.join()
                    start(k)
            if time.time() - last_report > 10:
                last_report = time.time()
                state.write_summary()
                if progress:
                    el = time.time() - state.started
                    print(f"[fuzz] {state.inputs} inputs, {state.inputs / el:.1f}/s, {state.crashing_inputs} crashing, "
                          f"{len(state.classes)} classes", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        print("[fuzz] interrupted", file=sys.stderr)
    finally:
        state.elapsed = time.time() - state.started
        for s in slots:
            try:
                s.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        for s in slots:
            s.proc.join(timeout=5)
            if s.proc.is_alive():
                s.proc.kill()
                s.proc.join()
        if shrink > 0 and state.classes:
            if progress:
                print(f"[fuzz] shrinking the samples of {len(state.classes)} classes ({shrink:.0f} s at most)",
                      file=sys.stderr, flush=True)
            try:
                shrink_classes(state, shrink, grn_dir, work_root / "shrink")
            except KeyboardInterrupt:
                print("[fuzz] shrinking interrupted", file=sys.stderr)
        import shutil

        shutil.rmtree(work_root, ignore_errors=True)
        state.write_summary()
    return state


# ---------------------------------------------------------------------------
# Shrinking the samples
# ---------------------------------------------------------------------------
# Each class's smallest input is often still kilobytes (a whole game around
# the one word that matters).  Shrinking removes lines, then words, then
# shortens digit runs, keeping a change only when a fresh forked process
# still finds the same class in the same step.  JSON samples are shrunk as
# documents (elements and keys removed) so that they stay JSON.

def _probe(conn: Connection, data: bytes, kind: str, turn: str, step: Step, work: str) -> None:
    global _GRN_DIR
    import faulthandler

    import grn

    _GRN_DIR = str(Path(grn.__file__).resolve().parent) + os.sep
    os.makedirs(work, exist_ok=True)
    os.chdir(work)
    faulthandler.enable(file=open(os.path.join(work, "fault.log"), "w"))
    findings, _ = run_input(Input(data, kind, [], turn), work, [step])
    conn.send([f"{f['kind']} | {f['what']} | {f['where']}" for f in findings])


def _keys_of(data: bytes, kind: str, turn: str, step: Step, work: Path, grn_dir: str,
             timeout: float = 60.0) -> set[str]:
    """The crash classes one step finds on ``data``, in a forked process."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_probe, args=(child, data, kind, turn, step, str(work)), daemon=True)
    proc.start()
    child.close()
    got: set[str] = set()
    if parent.poll(timeout):
        try:
            got = set(parent.recv())
        except (EOFError, OSError):
            pass
    proc.join(timeout=5)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return {f"timeout | over {timeout:.0f} s | {step[0]}"}
    if proc.exitcode is not None and proc.exitcode < 0:
        name = signal.Signals(-proc.exitcode).name
        where = _dump_where(_fault_log(work), grn_dir)
        got.add(f"signal | {name} | {step[0]} @ {where}" if where else f"signal | {name} | {step[0]}")
    return got


def _ddmin(units: list[Any], still: Callable[[list[Any]], bool], budget: list[int]) -> list[Any]:
    """Remove chunks of ``units`` while ``still`` holds (delta debugging, within ``budget[0]`` tries)."""
    n = 2
    while len(units) >= 2 and budget[0] > 0:
        size = max(1, len(units) // n)
        for start in range(0, len(units), size):
            if budget[0] <= 0:
                return units
            candidate = units[:start] + units[start + size:]
            budget[0] -= 1
            if candidate and still(candidate):
                units = candidate
                n = max(2, n - 1)
                break
        else:
            if size == 1:
                break
            n = min(len(units), n * 2)
    return units


def _shrink_text(data: bytes, ok: Callable[[bytes], bool], budget: list[int]) -> bytes:
    lines = data.split(b"\n")
    lines = _ddmin(lines, lambda u: ok(b"\n".join(u)), budget)
    data = b"\n".join(lines)
    for i in range(len(lines)):
        words = lines[i].split(b" ")
        if len(words) > 1:
            def with_words(u: list[bytes], i: int = i) -> bytes:
                return b"\n".join(lines[:i] + [b" ".join(u)] + lines[i + 1:])

            lines[i] = b" ".join(_ddmin(words, lambda u: ok(with_words(u)), budget))
    data = b"\n".join(lines)
    # a run of thousands of digits: as short as still fails (4,301 digits passes Python's limit)
    for m in sorted(re.finditer(rb"\d{400,}", data), key=lambda m: -len(m.group()))[:3]:
        for length in (4301, 400, 40):
            if length >= len(m.group()) or budget[0] <= 0:
                continue
            budget[0] -= 1
            candidate = data.replace(m.group(), m.group()[:length], 1)
            if ok(candidate):
                data = candidate
                break
    return data


def _shrink_json(data: bytes, ok: Callable[[bytes], bool], budget: list[int]) -> bytes:
    try:
        doc = json.loads(data, parse_int=Raw, parse_float=Raw, parse_constant=Raw)
    except (ValueError, RecursionError):
        return _shrink_text(data, ok, budget)
    text = lambda: _dump(doc, 1).encode("utf-8", "surrogatepass")  # noqa: E731
    if not ok(text()):
        return _shrink_text(data, ok, budget)
    changed = True
    while changed and budget[0] > 0:
        changed = False
        stack: list[Any] = [doc]
        while stack and budget[0] > 0:
            node = stack.pop()
            if isinstance(node, list) and node:
                def still(units: list[Any], node: list[Any] = node) -> bool:
                    return _try_list(node, units, text, ok)

                kept = _ddmin(list(node), still, budget)
                if len(kept) < len(node):
                    changed = True
                node[:] = kept
                stack.extend(v for v in node if isinstance(v, (dict, list)))
            elif isinstance(node, dict):
                for key in list(node):
                    if budget[0] <= 0:
                        break
                    value = node.pop(key)
                    budget[0] -= 1
                    if ok(text()):
                        changed = True
                    else:
                        node[key] = value
                stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
    return text()


def _try_list(node: list[Any], units: list[Any], text: Callable[[], bytes], ok: Callable[[bytes], bool]) -> bool:
    saved = list(node)
    node[:] = units
    good = ok(text())
    node[:] = saved
    return good


def shrink_classes(state: Run, seconds: float, grn_dir: str, work: Path) -> None:
    """Shrink each class's sample (within ``seconds`` in all), writing ``<sample>.min.<ext>`` beside it."""
    deadline = time.time() + seconds
    by_name = dict(state.steps)
    classes = [c for c in state.classes.values() if c.kind not in ("timeout", "rss") and c.sample_index >= 0]
    for n, cls in enumerate(sorted(classes, key=lambda c: c.sample_size)):
        left = deadline - time.time()
        if left <= 0:
            break
        step_name = cls.steps.most_common(1)[0][0]
        if step_name not in by_name:
            continue
        inp = make_input(state.corpus, state.seed, cls.sample_index)
        step = (step_name, by_name[step_name])
        share = left / (len(classes) - n)

        def ok(data: bytes, inp: Input = inp, step: Step = step, stop: float = time.time() + share) -> bool:
            if time.time() > stop:
                return False
            return cls.key in _keys_of(data, inp.kind, inp.turn, step, work, grn_dir)

        path = state.out / cls.sample_file
        target = path.with_name(path.stem + ".min" + path.suffix)
        start = inp.data
        if target.exists() and ok(target.read_bytes()):
            start = target.read_bytes()  # go on from an earlier shrink
        elif not ok(start):
            continue  # not reproducible alone (depends on an earlier step): keep the sample as it is
        budget = [400]
        small = (_shrink_json if inp.kind == "json" else _shrink_text)(start, ok, budget)
        if len(small) < len(inp.data):
            if not target.exists() or len(small) < target.stat().st_size:
                target.write_bytes(small)
            cls.min_file, cls.min_size = target.name, target.stat().st_size


def shrink_saved(out: Path, seconds: float, selfplay: int) -> str:
    """Shrink the samples of an earlier run from its ``summary.json`` (the same ``--selfplay`` it used)."""
    import grn

    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    state = Run(build_corpus(selfplay, summary["seed"]), summary["seed"], out, STEPS)
    for c in summary["classes"]:
        state.classes[c["key"]] = CrashClass(c["key"], c["kind"], c["what"], c["where"], c["count"],
                                             Counter(c["steps"]), c["sample_index"], c["sample_bytes"],
                                             c["sample"], c["message"])
    work = Path(os.environ.get("GRN_FUZZ_WORK") or ("/dev/shm" if os.path.isdir("/dev/shm") else out))
    shrink_classes(state, seconds, str(Path(grn.__file__).resolve().parent) + os.sep,
                   work / f"grn-fuzz-shrink-{os.getpid()}")
    for c in summary["classes"]:
        cls = state.classes[c["key"]]
        c["min_sample"], c["min_bytes"] = cls.min_file, cls.min_size
    (out / "summary.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    state.inputs, state.elapsed, state.crashing_inputs = summary["inputs"], summary["seconds"], summary["crashing_inputs"]
    state.kinds, state.max_rss = Counter(summary["kinds"]), summary["max_rss_mb"] * 1024
    return state.table()


def main(argv: Optional[list[str]] = None) -> int:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("--count", type=int, default=1000, help="inputs to run (0: until --time-limit)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--time-limit", type=float, default=0.0, help="stop after this many seconds (0: no limit)")
    ap.add_argument("--out", default=str(RESULTS / "fuzz-out"), help="folder for crash samples and summary.json")
    ap.add_argument("--selfplay", type=int, default=3, help="self-played games per game and player count")
    ap.add_argument("--input-timeout", type=float, default=120.0, help="seconds before one input counts as a hang")
    ap.add_argument("--mem-limit", type=int, default=4096, help="address-space limit of a worker in MB (0: none)")
    ap.add_argument("--shrink", type=float, default=300.0, help="seconds to spend shrinking samples at the end")
    ap.add_argument("--no-memo", action="store_true", help="let every command parse the input again")
    ap.add_argument("--show", type=int, metavar="INDEX", help="print input INDEX of --seed and exit")
    ap.add_argument("--shrink-only", metavar="DIR", help="only shrink the samples of an earlier run's --out DIR")
    args = ap.parse_args(argv)
    if args.shrink_only:
        print(shrink_saved(Path(args.shrink_only), args.shrink, args.selfplay))
        return 0
    if args.show is not None:
        inp = make_input(build_corpus(args.selfplay, args.seed), args.seed, args.show)
        print(f"# {inp.kind} {' '.join(inp.recipe)} --turn {inp.turn[:80]!r}", file=sys.stderr)
        sys.stdout.buffer.write(inp.data)
        return 0
    state = run(count=args.count, seed=args.seed, jobs=args.jobs, out=args.out, time_limit=args.time_limit,
                selfplay=args.selfplay, input_timeout=args.input_timeout, mem_limit_mb=args.mem_limit,
                memo=not args.no_memo, shrink=args.shrink)
    print(state.table())
    print(f"samples and summary.json in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
