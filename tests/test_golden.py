"""Behaviour stays the same: ``grn validate --format json`` reports, byte for byte.

``tests/golden/reports.json.gz`` holds the JSON report of every shipped
example and of 300 self-played games (both games, 2 to 5 players, Gold Rush
with and without farmers), each also with one word changed per game (illegal
moves, wrong checkpoints), written before the rulesets became plug-ins.  The
games are made by ``grn selfplay`` and the reports by ``grn validate``, the
way a user makes them, so the test needs nothing but the command line.

Run ``python tests/test_golden.py --write`` to rewrite the file after a change
that is meant to change what users see (and say so in the commit).
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grn.cli.app import app

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "reports.json.gz"
runner = CliRunner()

#: (game, players, options, first seed, games): 300 self-played games in all.
SELFPLAY = [
    *[("goldrush", n, None, 100, 30) for n in (2, 3, 4, 5)],
    *[("goldrush", n, "farmers=off", 200, 15) for n in (2, 3, 4, 5)],
    *[("gold", n, None, 300, 15) for n in (2, 3, 4, 5)],
]


def _run(args: list[str], stdin: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, args, input=stdin)
    return result.exit_code, result.stdout


def cases() -> list[tuple[str, list[str], str | None]]:
    """(name, validate arguments, standard input) for every golden report."""
    out: list[tuple[str, list[str], str | None]] = []
    for path in sorted((ROOT / "examples").glob("*.grn")):
        out.append((f"examples/{path.name}", [str(path.relative_to(ROOT))], None))
    for game, players, options, seed, games in SELFPLAY:
        args = ["selfplay", "--game", game, "--players", str(players), "--seed", str(seed), "--games", str(games)]
        if options:
            args += ["--options", options]
        code, text = _run(args)
        assert code == 0, text
        name = f"selfplay {game} {players}p {options or 'default'} seeds {seed}+{games}"
        out.append((name, ["-"], text))
        out.append((f"{name}, mutated", ["-"], mutate(text, seed)))
    return out


def mutate(text: str, seed: int) -> str:
    """Every game of ``text`` with one word of one turn swapped for a word of another turn.

    Mostly illegal moves and wrong checkpoints, at every stage of a game: the
    golden reports then hold the validator's messages too, not only verdicts.
    """
    import random

    rng = random.Random(seed)
    games = text.split("\n\n[")
    out = []
    for game in games:
        lines = game.split("\n")
        turns = [i for i, line in enumerate(lines) if re.match(r"\d+\. ", line)]
        i, j = rng.choice(turns), rng.choice(turns)
        a, b = lines[i].split(" "), lines[j].split(" ")
        k = rng.randrange(1, len(a))
        a[k] = b[min(k, len(b) - 1)] if rng.random() < 0.7 else a[k] + "1"
        lines[i] = " ".join(a)
        out.append("\n".join(lines))
    return "\n\n[".join(out)


def reports() -> dict[str, str]:
    import os

    here = os.getcwd()
    os.chdir(ROOT)  # example paths appear in the reports as written on the command line
    try:
        out = {}
        for name, args, stdin in cases():
            code, text = _run(["validate", "--format", "json", *args], stdin)
            out[name] = f"exit {code}\n{text}"
        return out
    finally:
        os.chdir(here)


def test_reports_are_unchanged() -> None:
    golden = json.loads(gzip.decompress(GOLDEN.read_bytes()))
    now = reports()
    assert sorted(now) == sorted(golden)
    for name in golden:
        assert now[name] == golden[name], f"the report of {name} changed"


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit(pytest.main([__file__]))
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_bytes(gzip.compress(json.dumps(reports(), indent=0, sort_keys=True).encode(), mtime=0))
    print(f"wrote {GOLDEN} ({GOLDEN.stat().st_size} bytes)")
