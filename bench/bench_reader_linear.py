"""The reader on hostile input: CPU time per character at growing sizes, which stays about constant when
reading is linear (issue 46, item 8; R370-R374).

    .venv/bin/python bench/bench_reader_linear.py
    .venv/bin/python bench/bench_reader_linear.py --sizes 25000,50000,100000,200000 --shapes brace,brace_paren
    .venv/bin/python bench/bench_reader_linear.py --cli        # grn validate FILE, the whole command

Every shape starts from a self-played Carcassonne record (seed 1, two players, 71 turns) and puts ``n``
characters of one hostile kind in the middle of turn 37's line, the other 34 turn lines after it:

* ``brace``: ``n`` times ``{``, a comment never closed (the issue's case);
* ``brace_paren``: the same, with 101 ``(`` in a ``;`` comment later in the game, so that the variations'
  depth scan runs (R370; the case that took 18 s at 200,000 before it);
* ``quote_brace``: ``"\\`` repeated, a quote its line never closes, then a ``{`` (the game splitter's scan, R370);
* ``quote_paren``: the same quotes with 101 ``(`` on the next line (the depth scan's strings, R370);
* ``problems``: ``+Q`` repeated, a follower on no place, one problem of meaning each (R371);
* ``braces_closed``: ``{}`` repeated (grn validate's span reader, R372);
* ``markup_quote``: ``<label "\\"\\"...``, coloured by the Pygments lexer (R373; the reader declines it at once);
* ``parens``, ``close_parens``, ``lsqb``, ``semis``, ``words``: a run of ``(``, of ``)``, a line of ``[``,
  ``;`` comments, and valid placements (no fix needed: here to show they stay linear).

Each figure is the best of ``--repeat`` runs of :func:`grn.notation.read.parse` (``--cli``: ``grn validate`` of
the text written to a file, wall time, start-up included), in CPU seconds of this process, which a loaded
machine disturbs less than wall time; ``us/char`` is that time per character of the whole text.  The last
column is the time at the largest size over the time at the smallest, against the ratio of their sizes: about
equal when reading is linear, its square when quadratic.

Target: linear, the CPU time per character about constant as the hostile text grows 8x (issue 46 item 8).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from typing import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def base_record() -> list[str]:
    """The self-played Carcassonne record the shapes start from, as lines."""
    from grn.rules import registry
    from grn.rules.selfplay import to_record
    from grn.notation.writer import write_record

    ruleset = registry.find_ruleset("carcassonne")
    played = ruleset.selfplay(2, 1, ruleset.parse_options({}))
    return write_record(to_record(played, seed=1)).split("\n")


def shapes(lines: list[str]) -> dict[str, Callable[[int], str]]:
    """Each shape's text of about ``n`` hostile characters."""
    at = next(k for k, line in enumerate(lines) if line.startswith("37."))

    def put(inside: str, later: str = "", next_line: str = "") -> str:
        out = list(lines)
        cut = out[at].index(" ", 4) + 1  # after "37. red "
        out[at] = out[at][:cut] + inside + " " + out[at][cut:]
        if next_line:
            out.insert(at + 1, next_line)
        if later:
            out[at + 5] += " " + later
        return "\n".join(out)

    deep = ";" + "(" * 101
    return {
        "brace": lambda n: put("{" * n),
        "brace_paren": lambda n: put("{" * n, later=deep),
        "quote_brace": lambda n: put('"\\' * (n // 2) + " {"),
        "quote_paren": lambda n: put('"\\' * (n // 2), next_line="(" * 101),
        "problems": lambda n: put("+Q " * (n // 3)),
        "braces_closed": lambda n: put("{}" * (n // 2)),
        "markup_quote": lambda n: put('<label "' + '\\"' * (n // 2)),
        "parens": lambda n: put("(" * n),
        "close_parens": lambda n: put(")" * n),
        "lsqb": lambda n: put("", next_line="[" * n),
        "semis": lambda n: put("; " * (n // 2)),
        "words": lambda n: put("U@0,5:90 " * (n // 9)),
    }


def time_parse(text: str, repeat: int) -> float:
    """Best CPU seconds of reading ``text`` with :func:`grn.notation.read.parse`."""
    from grn.notation import read as notation

    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        notation.parse(text)
        best = min(best, time.process_time() - start)
    return best


def time_lexer(text: str, repeat: int) -> float:
    """Best CPU seconds of colouring ``text`` with the Pygments lexer."""
    from grn.notation.lexer import GrnLexer

    lexer = GrnLexer()
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for _token in lexer.get_tokens(text):
            pass
        best = min(best, time.process_time() - start)
    return best


def time_cli(text: str, repeat: int, grn: list[str]) -> float:
    """Best wall seconds of ``grn validate`` of ``text`` written to a file (start-up included)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "hostile.grn")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run([*grn, "validate", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=False)
            best = min(best, time.perf_counter() - start)
        return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="25000,50000,100000,200000", help="hostile characters, comma-separated")
    ap.add_argument("--shapes", default="", help="which shapes, comma-separated (default: all)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per figure, the best kept")
    ap.add_argument("--cli", action="store_true", help="time grn validate FILE (wall time) instead of the reader")
    ap.add_argument("--grn", default=f"{sys.executable} -P -m grn",
                    help="with --cli: the command that runs grn (default: this interpreter's)")
    ap.add_argument("--lexer", action="store_true", help="time the Pygments lexer instead of the reader")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    table = shapes(base_record())
    names = [s for s in args.shapes.split(",") if s] or list(table)
    from grn import _compiled

    what = "grn validate FILE, wall s" if args.cli else ("the lexer, CPU s" if args.lexer else "notation.parse, CPU s")
    print(f"# {what}; best of {args.repeat}; grn {_compiled.status() if not args.cli else args.grn}")
    print(f"{'shape':15}" + "".join(f"{n:>10,}" for n in sizes) + "   us/char (smallest..largest)  time ratio / size ratio")
    for name in names:
        make = table[name]
        times = []
        chars = []
        for n in sizes:
            text = make(n)
            chars.append(len(text))
            if args.cli:
                times.append(time_cli(text, args.repeat, args.grn.split()))
            elif args.lexer:
                times.append(time_lexer(text, args.repeat))
            else:
                times.append(time_parse(text, args.repeat))
        per = [t / c * 1e6 for t, c in zip(times, chars)]
        ratio = times[-1] / times[0] if times[0] > 0 else float("inf")
        print(f"{name:15}" + "".join(f"{t:10.3f}" for t in times)
              + f"   {per[0]:6.3f} .. {per[-1]:6.3f}            {ratio:6.1f} / {chars[-1] / chars[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
