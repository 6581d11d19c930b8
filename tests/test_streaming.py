"""Reading is streamed: game by game, in constant memory, however large the file."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest

from grn.notation import read as notation
from grn.notation.writer import write_record


def game_text(i: int) -> str:
    if i % 7 == 3:
        return (f'[Game "gold"]\n[Event "match {i}"]\n[Round "{i}"]\n\n'
                f"1. red a1=G{i % 5} b2=red{i % 9}\n2. blue c3=D d4=G2 {{comment {i}}}\n"
                "3. red e5=blue3 f6=G1 score red=3 blue=0\n")
    return (f'[Game "goldrush"]\n[Event "club night {i}"]\n[Players "Anna (red), Ben (blue)"]\n\n'
            f"{{game {i}}}\n"
            f"1. red 17@1,0:90 +N\n"
            f"2. blue 08@0,1 tent@0,1 score red=0 blue=0\n"
            f"3. red 01a@-1,0 +WSW ! {{a farmer\n[early] on}}\n"
            f"4. blue 56@2,0 mine=2 (4. blue 56@0,-1:180 +S {{safer}}) ; line {i}\n"
            f"5. red 33@0,{i} tokens=3,? <label 0,{i} \"game {i}\">\n")


def small_game_text(i: int) -> str:
    return f'[Event "g{i}"]\n[Site "{"x" * 150}"]\n\n1. red 17@1,{i} +N {{c}}\n2. blue 08@0,1\n'


def write_games(path: Path, count: int, text=game_text) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for i in range(count):
            if i:
                fh.write("\n")
            fh.write(text(i))


@pytest.fixture(scope="module")
def big_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("stream") / "2000.grn"
    write_games(path, 2000)
    return path


def test_generated_games_read_cleanly():
    recs = notation.parse("\n".join(game_text(i) for i in range(8)))
    assert len(recs) == 8
    assert all(r.ok for r in recs), [d.one_line() for r in recs for d in r.diagnostics]
    assert recs[3].game == "gold" and recs[4].game == "goldrush"
    assert recs[0].turns[2].extras[1].text == "a farmer\n[early] on"


def test_read_is_lazy_on_a_file_object(big_file):
    size = big_file.stat().st_size
    assert size > 400_000
    with open(big_file, encoding="utf-8", newline="") as fh:
        games = notation.read(fh)
        first = next(games)
        assert first.tag("Event") == "club night 0"
        assert first.ok and len(first.turns) == 5
        # Only a buffer's worth of the file has been read, not the whole file.
        position = fh.buffer.tell()
        assert position < size // 10, (position, size)
        second = next(games)
        assert second.tag("Event") == "club night 1"
        assert fh.buffer.tell() < size // 10
        games.close()


class CountingLines:
    """An iterable of lines that counts how many were taken."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.taken = 0

    def __iter__(self):
        with open(self.path, encoding="utf-8", newline="") as fh:
            for line in fh:
                self.taken += 1
                yield line


def test_read_takes_only_the_lines_of_the_games_asked_for(big_file):
    total = sum(1 for _ in open(big_file, encoding="utf-8"))
    lines = CountingLines(big_file)
    games = notation.read(lines)
    first = next(games)
    assert first.tag("Event") == "club night 0"
    # The first game and the tag line that ends it, no more.
    assert lines.taken <= len(game_text(0).splitlines()) + 2
    for _ in range(9):
        next(games)
    assert lines.taken < total // 100
    games.close()


def test_read_whole_big_file(big_file):
    count = 0
    last = None
    for rec in notation.read(big_file):
        assert rec.diagnostics == ()
        count += 1
        last = rec
    assert count == 2000
    assert last is not None and last.tag("Event") == "club night 1999"
    assert last.turns[4].span.line == big_file.read_text(encoding="utf-8").count("\n")


def test_peak_memory_while_iterating_5000_games(tmp_path):
    path = tmp_path / "5000.grn"
    write_games(path, 5000, small_game_text)
    assert path.stat().st_size > 1_000_000
    # Warm the grammar caches so that only the reading itself is measured.
    for rec in notation.parse(game_text(0) + "\n" + game_text(3)):
        assert rec.ok
    gc.collect()
    tracemalloc.start()
    try:
        count = 0
        turns = 0
        for rec in notation.read(path):
            count += 1
            turns += len(rec.turns)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 5000
    assert turns == 10_000
    assert peak < 20 * 1024 * 1024, f"peak {peak / 1e6:.1f} MB"


def test_write_of_streamed_records_matches(big_file):
    # Streaming and formatting compose: the first games format the same as
    # when parsed from their own text.
    for i, rec in zip(range(5), notation.read(big_file)):
        assert write_record(rec) == write_record(notation.parse(game_text(i))[0])


# ---------------------------------------------------------------------------
# JSON input streams too
# ---------------------------------------------------------------------------

def _json_file(tmp_path: Path, count: int) -> Path:
    from grn.notation.jsonform import records_to_json

    grn_path = tmp_path / "games.grn"
    write_games(grn_path, count, small_game_text)
    records = list(notation.read(grn_path))
    path = tmp_path / "games.json"
    import json

    path.write_text(json.dumps(records_to_json(records), indent=1), encoding="utf-8")
    return path


def test_peak_memory_while_iterating_a_json_file_is_flat(tmp_path):
    from grn.notation.sources import load

    (tmp_path / "s").mkdir()
    (tmp_path / "b").mkdir()
    small, big = _json_file(tmp_path / "s", 200), _json_file(tmp_path / "b", 2000)
    peaks = []
    for path in (small, big):
        list(load(str(small)))  # warm the caches (schema, grammar)
        gc.collect()
        tracemalloc.start()
        try:
            count = sum(1 for item in load(str(path)) if item.record is not None)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        peaks.append(peak)
        assert count == (200 if path is small else 2000)
    # ten times the games, not ten times the memory: the file is read game by game
    assert peaks[1] < 2 * peaks[0] + 2_000_000, [p / 1e6 for p in peaks]


def test_a_bad_game_in_a_json_file_does_not_hide_the_good_ones(tmp_path):
    import json

    from grn.notation.sources import load

    path = _json_file(tmp_path, 3)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["games"][1]["turns"][0]["actions"][0]["x"] = 1.5
    path.write_text(json.dumps(doc), encoding="utf-8")
    items = list(load(str(path)))
    assert [i.record.tag("Event") for i in items if i.record is not None] == ["g0", "g2"]
    problems = [i.problem.message for i in items if i.problem is not None]
    assert problems == ["$.games[1].turns[0].actions[0].x: 1.5 is not a whole number: GRN's numbers are integers"]


@pytest.mark.parametrize("tail", ['{"grn": 1, "games": [], ', '{"grn": 1, "games": [] } x', '{"games": [{"tags": [["Event", "x"]], "turns": []}'])
def test_broken_json_is_still_told_with_line_and_column(tmp_path, tail):
    from grn.notation.sources import load

    path = tmp_path / "broken.json"
    path.write_text(tail, encoding="utf-8")
    problems = [i.problem for i in load(str(path)) if i.problem is not None]
    assert len(problems) == 1 and problems[0].message.startswith("not valid JSON")
    assert problems[0].span is not None and problems[0].span.line == 1
