"""A short run of the fuzz harness (``bench/fuzz.py``): it runs, reports, and finds planted crashes.

The long run (a million inputs, a few hours) is made outside the suite; the
short run here fuzzes every known game and must find no crash.  Planted steps
prove that the harness sees each kind of crash: an exception, a worker killed
by a signal, an input that hangs.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_harness() -> Any:
    spec = importlib.util.spec_from_file_location("grn_bench_fuzz", ROOT / "bench" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


fuzz = _load_harness()
SEED = 16


@pytest.fixture(scope="module")
def short_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path, float]:
    out = tmp_path_factory.mktemp("fuzz")
    started = time.perf_counter()
    state = fuzz.run(count=100, seed=SEED, jobs=2, out=out, selfplay=1, input_timeout=60, progress=False)
    return state, out, time.perf_counter() - started


def test_the_short_run_runs_every_input_and_reports(short_run: tuple[Any, Path, float]) -> None:
    state, out, seconds = short_run
    assert state.inputs == 100
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["inputs"] == 100 and sum(summary["kinds"].values()) == 100
    # both forms are fuzzed, and other programs' files for `grn import`
    assert set(summary["kinds"]) == {"grn", "json", "jcz"}
    assert summary["inputs_per_second"] > 0
    table = state.table()
    assert table.startswith("100 inputs in ")
    for cls in summary["classes"]:  # each class keeps a sample and what it did
        assert cls["count"] >= 1 and cls["sample"]
        assert (out / cls["sample"]).stat().st_size == cls["sample_bytes"]
        assert (out / cls["sample"]).with_suffix(".txt").read_text(encoding="utf-8").startswith("class: ")
        assert cls["sample"] in table
    assert seconds < 60, f"the short run took {seconds:.0f} s"


def test_the_short_run_finds_no_crash(short_run: tuple[Any, Path, float]) -> None:
    state, _, _ = short_run
    assert state.classes == {}, state.table()


def test_inputs_are_the_same_for_the_same_seed() -> None:
    corpus = fuzz.build_corpus(selfplay=1, seed=SEED)
    for index in (0, 7, 99):
        a, b = fuzz.make_input(corpus, SEED, index), fuzz.make_input(corpus, SEED, index)
        assert (a.data, a.kind, a.recipe, a.turn) == (b.data, b.kind, b.recipe, b.turn)
    kinds = [fuzz.make_input(corpus, SEED, i).kind for i in range(400)]
    assert {"grn", "json"} <= set(kinds) <= {"grn", "json"} | {kind for _, kind, _ in corpus.foreign}
    assert 0 < sum(k not in ("grn", "json") for k in kinds) < 400 / 10  # one input in 20 is a foreign file


# ---------------------------------------------------------------------------
# Planted crashes (module-level functions: the workers are forked)
# ---------------------------------------------------------------------------

def _marked(data: bytes, every: int) -> bool:
    return zlib.crc32(data) % every == 0


def planted_exception(ctx: Any) -> None:
    if b"(" in ctx.data:
        raise ZeroDivisionError("planted")


def planted_signal(ctx: Any) -> None:
    if _marked(ctx.data, 7):
        os.kill(os.getpid(), signal.SIGSEGV)


def planted_hang(ctx: Any) -> None:
    if _marked(ctx.data, 31):
        time.sleep(30)


def test_the_harness_finds_planted_crashes(tmp_path: Path) -> None:
    steps = [("planted exception", planted_exception), ("planted signal", planted_signal),
             ("planted hang", planted_hang)]
    state = fuzz.run(count=60, seed=SEED, jobs=2, out=tmp_path, selfplay=1, input_timeout=2,
                     extra_steps=steps, only_extra=True, progress=False, shrink=4)
    corpus = fuzz.build_corpus(selfplay=1, seed=SEED)
    inputs = [fuzz.make_input(corpus, SEED, i).data for i in range(60)]
    assert state.inputs == 60  # dead and stuck workers were replaced and the run went on
    by_kind = {(c.kind, c.what): c for c in state.classes.values()}

    raised = by_kind[("exception", "ZeroDivisionError")]
    assert raised.where == "test_fuzz_harness.py:planted_exception"
    # the exception comes first in each input, and is kept when a later step kills the worker
    assert raised.count == sum(b"(" in d for d in inputs)
    assert b"(" in (tmp_path / raised.sample_file).read_bytes()
    assert raised.sample_size == min(len(d) for d in inputs if b"(" in d)  # the smallest sample is kept

    # shrunk to little more than the parenthesis that matters
    small = (tmp_path / raised.min_file).read_bytes()
    assert b"(" in small and len(small) < 200 < raised.sample_size

    killed = by_kind[("signal", "SIGSEGV")]
    assert killed.where == "planted signal"
    assert killed.count == sum(_marked(d, 7) for d in inputs)

    hung = [c for c in state.classes.values() if c.kind == "timeout"]
    expected = sum(_marked(d, 31) and not _marked(d, 7) for d in inputs)
    assert expected > 0, "no input of the seed hangs: choose another modulus"
    assert hung and hung[0].where == "planted hang"
    assert hung[0].count == expected


def test_an_exception_is_placed_at_its_innermost_grn_frame(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import grn.notation.writer

    def broken(*args: Any, **kwargs: Any) -> str:
        raise KeyError("planted")

    monkeypatch.setattr(grn.notation.writer, "write_record", broken)
    fuzz._GRN_DIR = str(Path(grn.__file__).resolve().parent) + os.sep
    text = (ROOT / "examples" / "goldrush-2p.grn").read_bytes()
    inp = fuzz.Input(text, "grn", ["planted"], "1")
    findings, peak = fuzz.run_input(inp, str(tmp_path), [s for s in fuzz.STEPS if s[0] == "fmt"])
    assert [(f["kind"], f["what"], f["where"]) for f in findings] == [("exception", "KeyError", "grn/cli/app.py:fmt")]
    assert peak > 0


def test_a_bad_exit_code_and_a_failed_read_back_are_crashes(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "examples" / "goldrush-2p.grn").read_bytes()
    inp = fuzz.Input(text, "grn", ["planted"], "1")
    real = fuzz.run_cli

    def lying_cli(args: list[str]) -> tuple[int, str, str]:
        if args[0] == "show":
            return 3, "", ""
        if args[0] == "convert" and args[1].endswith(".json"):
            return 1, "", "x.json:4:2: error: syntax error: unexpected '(' at 12\n"
        return real(args)  # type: ignore[no-any-return]

    monkeypatch.setattr(fuzz, "run_cli", lying_cli)
    findings, _ = fuzz.run_input(inp, str(tmp_path), fuzz.STEPS)
    got = {(f["kind"], f["what"], f["where"], f["step"]) for f in findings}
    assert got == {("exit-code", "exit 3", "show", "show"),
                   ("convert-readback", "JSON written by convert does not read back",
                    "syntax error: unexpected '*' at N", "convert")}


def test_a_segfault_is_placed_by_the_faulthandler_dump() -> None:
    import grn

    grn_dir = str(Path(grn.__file__).resolve().parent) + os.sep
    dump = ("Fatal Python error: Segmentation fault\n\nCurrent thread 0x1 (most recent call first):\n"
            f'  File "{ROOT}/.venv/lib/python3.11/site-packages/lark/lexer.py", line 600 in lex\n'
            f'  File "{grn_dir}notation.py", line 300 in parse_game\n'
            f'  File "{grn_dir}cli.py", line 20 in validate\n')
    assert fuzz._dump_where(dump, grn_dir) == "grn/notation/read.py:parse_game"
    assert fuzz._dump_where("garbage", grn_dir) == ""


def test_a_wrong_source_line_and_a_missing_place_are_reported(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    text = b'[Game "goldrush"]\n1. red 17@0,0\x0c{x} 2. blue 3@1,0 +Q\n'
    inp = fuzz.Input(text, "grn", ["planted"], "1")

    def lying_cli(args: list[str]) -> tuple[int, str, str]:
        path = args[1]
        if args[0] == "validate" and len(args) == 2:  # shows the part after the form feed as the line
            return 1, "", f"{path}:2:21: error: '+Q' is not a place\n    {{x}} 2. blue 3@1,0 +Q\n    ^\n"
        if args[0] == "fmt":  # the right line: no finding
            # (grn shows a form feed as a space: one column for one character)
            return 1, "", f"{path}:2:21: error: '+Q' is not a place\n    1. red 17@0,0 {{x}} 2. blue 3@1,0 +Q\n    ^\n"
        if args[0] == "show":
            return 1, "", f"{path}: error: game 1: the Players tag names 3 players\n"
        if args[0] == "render":  # placed in the message itself: no finding
            return 1, "", f"{path}: error: game 1: the record breaks the rules at 2:21: no such place\n"
        return 0, "", ""

    monkeypatch.setattr(fuzz, "run_cli", lying_cli)
    steps = [s for s in fuzz.STEPS if s[0] in ("validate", "fmt", "show", "render")]
    findings, _ = fuzz.run_input(inp, str(tmp_path), steps)
    got = {(f["kind"], f["where"], f["step"]) for f in findings}
    assert got == {("wrong-location", "file holds FF", "validate"),
                   ("no-location", "game N: the Players tag names N players", "show")}
