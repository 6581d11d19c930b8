"""Imports read what they can hold, and many at once (issue 25, points 4 and 6; rulings R87-R88).

An import reads at most 16 MiB of a file and refuses more before parsing; a
player's name too long for a record is refused; every import that is accepted
reads back and validates.  A batch (several inputs, a folder, a list of links,
a CSV column) becomes one multi-game GRN file; each refused item is one line
naming its file or line, and the batch goes on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from grn.cli.app import app
from grn.cli.importing import ImportProblem, Item, batch_items, convert
from grn.rules.interop import MAX_NAME_CHARS
from grn.notation.read import parse
from grn.check.validate import validate_record

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "jcz"
runner = CliRunner()
LINK = ("https://www.carcassonnelab.com/#/0/0/qcpTfaVv0FiZHt4y-eNwjP5TFu_E_uwFA7B0lJ1nydRZ3lr7Ea5wg3T/"
        "212112c222a323Z133Z122q0312143c2411044Z221L053Z15140121131J123q032s024s013Z052Z132H234b035a122K03"
        "3H032Z142b154c064Z025Z065Z055b034K156c145c026a246b1612035J143L225L066a044H163b047Z276a057a086a037"
        "a058Z1623438b0631059Z039Z415b128Z053H03Ab067Z045H069a034r263J055J014c044r036L348b3423354H1"
        "?players=A,B&colors=red,blue")


def grn(*args: object, stdin: str | None = None):
    return runner.invoke(app, [str(a) for a in args], input=stdin)


def _lines(result) -> list[str]:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return [line for line in result.stderr.splitlines() if line.strip()]


# -- point 4: a size cap, and nothing written that cannot be read back -------------------------------

def test_an_endless_input_is_refused_after_the_cap_with_memory_bounded():
    code = ("import resource, sys; from grn.cli.app import main; sys.argv = ['grn', 'import', '/dev/zero', '--from', "
            "'jcz']\ntry:\n    main()\nexcept SystemExit as e:\n    print(e.code, resource.getrusage("
            "resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    said = done.stderr.strip().splitlines()
    assert said[0].startswith("/dev/zero: error: larger than 16 MiB, the most grn reads")
    code_, rss_kb = said[-1].split()
    assert code_ == "1" and int(rss_kb) < 400 * 1024  # never the 20 GB of reading it all


def test_a_big_save_is_refused_before_it_is_parsed(tmp_path: Path):
    big = tmp_path / "big.jcz"
    doc = json.loads((DATA / "01-road.jcz").read_text(encoding="utf-8"))
    doc["padding"] = "x" * (17 * 1024 * 1024)
    big.write_text(json.dumps(doc), encoding="utf-8")
    result = grn("import", big)
    assert result.exit_code == 1 and _lines(result) == [
        f"{big}: error: larger than 16 MiB, the most grn reads from one file to import (a saved game is a few "
        "hundred KB; docs/interop.md)"]


@pytest.mark.parametrize("length", [MAX_NAME_CHARS + 1, 1_000_000])
def test_a_name_too_long_for_a_record_is_refused(length: int, tmp_path: Path):
    doc = json.loads((DATA / "01-road.jcz").read_text(encoding="utf-8"))
    doc["players"][0]["name"] = "N" * length
    path = tmp_path / "long.jcz"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = grn("import", path)
    assert result.exit_code == 1
    assert _lines(result) == [f"{path}: $.players[0].name: error: a player's name of {length:,} characters: grn "
                              f"takes at most {MAX_NAME_CHARS}"]
    result = grn("import", LINK.replace("players=A,B", "players=" + "N" * length + ",B"))
    assert result.exit_code == 1 and "a player's name of" in _lines(result)[0]


def test_a_name_just_within_the_limit_reads_back(tmp_path: Path):
    doc = json.loads((DATA / "01-road.jcz").read_text(encoding="utf-8"))
    doc["players"][0]["name"] = "N" * MAX_NAME_CHARS
    path = tmp_path / "ok.jcz"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = grn("import", path)
    assert result.exit_code == 0
    (record,) = parse(result.stdout)
    assert record.ok and record.tag("Players").startswith("N" * MAX_NAME_CHARS + " (")


def test_a_huge_tag_from_the_command_line_is_refused_not_written():
    result = grn("import", LINK, "--tag", "Event=" + "e" * 2_000_000)
    assert result.exit_code == 1 and "the record would hold a tag of" in _lines(result)[0]


def _mutate(doc: object, path: list[object], value: object) -> None:
    node = doc
    try:
        for key in path[:-1]:
            node = node[key]  # type: ignore[index]
        node[path[-1]] = value  # type: ignore[index]
    except (KeyError, IndexError, TypeError):
        pass  # an earlier mutation took that part away


_VALUES = st.one_of(st.integers(-10**6, 10**6), st.text(max_size=300), st.booleans(), st.none(),
                    st.just("x" * 5000), st.lists(st.integers(-3, 3), max_size=3))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(p.name for p in DATA.glob("*.jcz"))), data=st.data())
def test_every_import_that_is_accepted_reads_back_and_validates(name: str, data: st.DataObject,
                                                               tmp_path_factory: pytest.TempPathFactory):
    doc = json.loads((DATA / name).read_text(encoding="utf-8"))
    paths: list[list[object]] = []

    def walk(node: object, at: list[object]) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                paths.append(at + [k])
                walk(v, at + [k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                paths.append(at + [i])
                walk(v, at + [i])

    walk(doc, [])
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(doc, data.draw(st.sampled_from(paths)), data.draw(_VALUES))
    path = tmp_path_factory.mktemp("mutated") / "m.jcz"
    path.write_text(json.dumps(doc), encoding="utf-8")
    try:
        text = convert(Item(str(path), "m.jcz"), {})
    except ImportProblem as exc:  # refused: in one line
        assert "\n" not in exc.line()
        return
    records = parse(text)
    assert len(records) == 1 and records[0].ok, [d.one_line() for d in records[0].diagnostics]
    validate_record(records[0])  # replays without an exception (it may find the mutated game illegal)


# -- point 6: batches ------------------------------------------------------------------------------

def test_a_folder_of_saves_becomes_one_file(tmp_path: Path):
    out = tmp_path / "club.grn"
    result = grn("import", DATA, "-o", out)
    saves = sorted(DATA.glob("*.jcz"))
    assert result.exit_code == 0, result.output
    assert _lines(result) == [f"grn import: {len(saves)} games imported into {out}"]
    records = parse(out.read_text(encoding="utf-8"))
    assert len(records) == len(saves) and all(r.ok for r in records)
    one = grn("import", saves[0]).stdout
    assert out.read_text(encoding="utf-8").startswith(one + "\n[Game ")


def test_a_list_of_links_goes_on_past_a_refused_line(tmp_path: Path):
    links = tmp_path / "club.txt"
    links.write_text("# the club's games\n" + LINK + "\n\n" + LINK.replace("/0/0/", "/7/0/") + "\n"
                     + "01-road.jcz\n" + "missing.jcz\n" + LINK.replace("A,B", "Ann,Ben") + "\n", encoding="utf-8")
    (tmp_path / "01-road.jcz").write_bytes((DATA / "01-road.jcz").read_bytes())
    out = tmp_path / "club.grn"
    result = grn("import", links, "-o", out)
    assert result.exit_code == 1
    assert _lines(result) == [
        f"{links}:4: version: error: link version '7' is not known (grn reads version 0)",
        f"{links}:6: error: cannot read the file: no such file or directory",
        f"grn import: 3 games imported, 2 refused into {out}",
    ]
    records = parse(out.read_text(encoding="utf-8"))
    assert [r.tag("Players") for r in records] == ["A (red), B (blue)", records[1].tag("Players"),
                                                   "Ann (red), Ben (blue)"]
    assert all(r.ok for r in records)


def test_a_csv_column_of_links(tmp_path: Path):
    table = tmp_path / "tournament.csv"
    table.write_text('round,table,replay\n1,361578832,"' + LINK + '"\n2,5,not a link\n3,6,"'
                     + LINK.replace("A,B", "C,D") + '"\n', encoding="utf-8")
    result = grn("import", table)
    assert result.exit_code == 1
    said = _lines(result)
    assert said[0].startswith(f"{table}:3: error: no reader for this kind of file") and said[-1].startswith(
        "grn import: 2 games imported, 1 refused")
    assert [r.tag("Players") for r in parse(result.stdout)] == ["A (red), B (blue)", "C (red), D (blue)"]
    assert grn("import", table, "--column", "replay").stdout == result.stdout
    wrong = grn("import", table, "--column", "link")
    assert wrong.exit_code == 2 and _lines(wrong) == [
        f"{table}: error: no column 'link': the first line names 'round', 'table', 'replay'"]


def test_batch_items_name_each_input(tmp_path: Path):
    links = tmp_path / "l.txt"
    links.write_text(LINK + "\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    items = list(batch_items([str(links), str(DATA / "01-road.jcz"), LINK, str(tmp_path / "empty")]))
    assert items[:3] == [Item(LINK, f"{links}:1"), Item(str(DATA / "01-road.jcz"), str(DATA / "01-road.jcz")),
                         Item(LINK, "<link>")]
    assert isinstance(items[3], ImportProblem)


def test_a_batch_shows_a_progress_bar_on_a_terminal(tmp_path: Path):
    import pty

    links = tmp_path / "l.txt"
    links.write_text((LINK + "\n") * 30, encoding="utf-8")
    master, slave = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "grn", "import", str(links), "-o", str(tmp_path / "o.grn")],
                              stdout=subprocess.PIPE, stderr=slave, timeout=120, env={**os.environ, "COLUMNS": "100"})
        os.close(slave)
        slave = -1
        seen = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    assert done.returncode == 0
    text = seen.decode("utf-8", "replace")
    assert "importing" in text and "30 games imported" in text


def test_a_list_on_standard_input():
    result = grn("import", "-", "--from", "list", stdin=LINK + "\n" + LINK.replace("A,B", "C,D") + "\n")
    assert result.exit_code == 0 and [r.tag("Players") for r in parse(result.stdout)] == [
        "A (red), B (blue)", "C (red), D (blue)"]
    assert _lines(result) == ["grn import: 2 games imported"]


def test_a_compressed_file_says_so(tmp_path: Path):
    import gzip

    path = tmp_path / "old.jcz"
    path.write_bytes(gzip.compress(b'<?xml version="1.0"?><game/>'))
    result = grn("import", path)
    assert result.exit_code == 1 and _lines(result) == [
        f"{path}: error: a gzip-compressed file, not text (older programs saved so): uncompress it, or save the "
        "game again with a current version"]
