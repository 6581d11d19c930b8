"""``grn archive``: add, search, stats, export on a small archive of self-played games.

Search results are checked against a brute-force replay: every game of the
files is read and validated again here, and each filter is applied to the
records and reports directly (hypothesis draws the combinations).
"""

from __future__ import annotations

import json
import operator
import re
import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from grn.archive.db import register
from grn.archive.search import Filters, game_ids
from grn.cli.app import app
from grn.notation.jsonform import command_to_json
from grn.core.record import Record
from grn.notation.sources import load
from grn.check.validate import GameReport, validate_record

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
GAME_WORDS = ("goldrush", "gold", "carcassonne", "mountain", "railroad", "city", "prairie", "cowboy", "tent",
              "card", "farmer", "tipi", "nugget", "locomotive")


def grn(*args: str, input: str | None = None) -> Any:
    return runner.invoke(app, list(args), input=input)


def _selfplay(*args: str) -> str:
    result = grn("selfplay", *args)
    assert result.exit_code == 0, result.output
    return result.stdout


def _dated(text: str, dates: list[str], events: list[str]) -> str:
    """Give the games of a file Date and Event tags (the self-played ones have none)."""
    games = text.split('[Event "grn selfplay"]')
    out = games[0]
    for i, rest in enumerate(games[1:]):
        out += f'[Event "{events[i % len(events)]}"]\n[Date "{dates[i % len(dates)]}"]' + rest
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    d = tmp_path_factory.mktemp("archive")
    files = {
        "two.grn": _dated(_selfplay("--players", "2", "--seed", "1", "--games", "6"),
                          ["2026.11.01", "2026.11.05", "2026.12.24"], ["Thursday club", "Open"]),
        "three.grn": _dated(_selfplay("--players", "3", "--seed", "20", "--games", "5", "--options", "farmers=off"),
                            ["2025.06.??", "2026.11.03"], ["Club final"]),
        "four.grn": _selfplay("--players", "4", "--seed", "30", "--games", "3"),
        "cards.grn": _selfplay("--game", "gold", "--players", "3", "--seed", "5", "--games", "4"),
    }
    # one illegal move: game 2 of four.grn
    four = files["four.grn"].split("\n[Game ")
    four[1] = re.sub(r"\n5\. (\w+) (\S+)", r"\n5. \1 \2@40,40", four[1], count=1)
    files["four.grn"] = "\n[Game ".join(four)
    for name, text in files.items():
        (d / name).write_text(text, encoding="utf-8")
    conv = grn("convert", str(d / "cards.grn"), "--to", "json")
    (d / "cards.json").write_text(conv.stdout.replace('"Round", "5"', '"Round", "55"'), encoding="utf-8")
    paths = [str(d / n) for n in ("two.grn", "three.grn", "four.grn", "cards.grn", "cards.json")]
    db = d / "club.db"
    result = grn("archive", "add", str(db), *paths)
    assert result.exit_code == 0, result.output
    # add keeps no per-turn rows (R250): the tests below read the views, so they are built up front here
    built = grn("archive", "index", str(db))
    assert built.exit_code == 0, built.output
    assert f"per-turn rows built for {sum(1 for p in paths for _ in load(p))} games" in built.output
    # the brute-force side: every game read and validated again, here
    games = []
    for path in paths:
        for index, item in enumerate(load(path)):
            assert item.record is not None
            games.append((path, index, item.record, validate_record(item.record, keep_turns=True)))
    return {"dir": d, "db": db, "paths": paths, "games": games, "add": result}


def _con(db: Path) -> sqlite3.Connection:
    con = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
    register(con)  # the actions and events views unpack with grn's SQL function
    return con


# ---------------------------------------------------------------------------
# add
# ---------------------------------------------------------------------------

def test_add_indexes_every_game_once(corpus: dict[str, Any]) -> None:
    assert f"{len(corpus['games'])} games added from 5 files (1 invalid)" in corpus["add"].stdout
    con = _con(corpus["db"])
    assert con.execute("SELECT count(*) FROM games").fetchone()[0] == len(corpus["games"])
    assert con.execute("SELECT count(*) FROM games WHERE valid = 0").fetchone()[0] == 1
    problems = json.loads(con.execute("SELECT problems FROM games WHERE valid = 0").fetchone()[0])
    assert problems and problems[0]["severity"] == "error"


def test_original_text_is_kept_verbatim(corpus: dict[str, Any]) -> None:
    con = _con(corpus["db"])
    for path in corpus["paths"]:
        if not path.endswith(".grn"):
            continue
        texts = [r[0] for r in con.execute(
            "SELECT text FROM games g JOIN files f ON f.id = g.file_id WHERE f.path = ? ORDER BY file_index", (path,))]
        assert "".join(texts) == Path(path).read_text(encoding="utf-8")


def _table_counts(db: Path) -> dict[str, int]:
    con = _con(db)
    names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {n: con.execute(f"SELECT count(*) FROM {n}").fetchone()[0] for n in names}


def test_adding_again_changes_nothing(corpus: dict[str, Any]) -> None:
    before = _table_counts(corpus["db"])
    result = grn("archive", "add", str(corpus["db"]), *corpus["paths"])
    assert result.exit_code == 0
    assert "0 games added from 0 files (0 invalid); 5 files already archived" in result.stdout
    assert _table_counts(corpus["db"]) == before


def test_points_add_up_to_final_scores(corpus: dict[str, Any]) -> None:
    """The indexed score events of a finished tile game sum to each player's final score."""
    con = _con(corpus["db"])
    rows = con.execute(
        "SELECT s.score, (SELECT coalesce(sum(points), 0) FROM events e WHERE e.game_id = s.game_id "
        "AND e.player = s.key AND e.type = 'ScoreEvent') FROM seats s JOIN games g ON g.id = s.game_id "
        "WHERE g.valid AND g.complete AND g.game = 'goldrush'").fetchall()
    assert len(rows) > 20
    assert all(score == total for score, total in rows)


# ---------------------------------------------------------------------------
# search: brute force
# ---------------------------------------------------------------------------

OPS: dict[str, Callable[[Any, Any], bool]] = {
    ">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt, "=": operator.eq, "!=": operator.ne}


def _events(report: GameReport) -> list[tuple[Any, bool]]:
    out = [(e, False) for t in report.turns for e in t.raw_events]
    return out + [(e, True) for e in report.final_raw_events]


def _event_field(event: Any, key: str) -> Any:
    """A field of an event as the archive stores it: its JSON (a score event's counts are fields there)."""
    data = event.to_json() if hasattr(event, "to_json") else {}
    return data.get(key, getattr(event, key, None))


def _term_holds(value: Any, op: str, want: Any) -> bool:
    if value is None:
        return False
    if op == "~":
        return str(want).lower() in str(value).lower()
    if isinstance(want, int) and not isinstance(value, bool):
        return isinstance(value, int) and OPS[op](value, want)
    return OPS[op](str(value), str(want))


def _terms(spec: str) -> list[tuple[str, str, Any]]:
    out = []
    for word in spec.split():
        m = re.match(r"(\w+)(>=|<=|!=|=|<|>|~)(.*)", word)
        assert m
        v: Any = m.group(3)
        out.append((m.group(1), m.group(2), int(v) if re.fullmatch(r"-?\d+", v) else v))
    return out


def _expected(g: tuple[str, int, Record, GameReport], f: Filters) -> bool:
    _, _, record, report = g
    seats = record.seats()
    scores = report.final_scores or {}
    if f.game and record.game != f.game:
        return False
    for p in f.players:
        if not any(s.name.lower() == p.lower() for s in seats):
            return False
    winners = []
    if report.valid and report.complete and scores:
        winners = [k for k, v in scores.items() if v == max(scores.values())]
    for w in f.winners:
        if not any(s.key in winners and (s.name.lower() == w.lower() or s.key == w) for s in seats):
            return False
    for spec in f.scores:
        m = re.match(r"(\w*)(>=|<=|!=|=|<|>)(-?\d+)", spec)
        assert m
        who, op, n = m.group(1), m.group(2), int(m.group(3))
        if not any(scores.get(s.key) is not None and OPS[op](scores[s.key], n)
                   and (not who or s.name.lower() == who.lower() or s.key == who) for s in seats):
            return False
    if f.valid is not None and report.valid != f.valid:
        return False
    date = record.tag("Date")
    iso = None
    if date and re.match(r"\d{4}\.\d\d\.\d\d$", date):
        iso = date.replace(".", "-")
    elif date and re.match(r"\d{4}\.\d\d\.\?\?$", date):
        iso = date[:4] + "-" + date[5:7]
    if f.date_from and not (iso and iso >= f.date_from):
        return False
    for spec in f.tags:
        name, text = spec.split("~")
        if not any(k == name and text.lower() in v.lower() for k, v in record.tags):
            return False
    for spec in f.events:
        terms = _terms(spec)
        if not any(all(_term_holds(type(e).__name__ if k == "type" else int(final) if k == "final"
                                   else _event_field(e, k), op, v) for k, op, v in terms)
                   for e, final in _events(report)):
            return False
    actions = [command_to_json(a) for t in record.turns for a in t.actions]
    for spec in f.actions:
        terms = _terms(spec)
        if not any(all(_term_holds(a.get(k), op, str(v) if k == "tile" else v) for k, op, v in terms)
                   for a in actions):
            return False
    for spec in f.beside:
        ta, tb = spec.split(",")
        placed = [(a["tile"], a["x"], a["y"]) for a in actions if "tile" in a and "x" in a]
        if not any(p[0] == ta and q[0] == tb and abs(p[1] - q[1]) + abs(p[2] - q[2]) == 1
                   for p in placed for q in placed):
            return False
    return True


def _archived(con: sqlite3.Connection, ids: list[int]) -> set[tuple[str, int]]:
    if not ids:
        return set()
    rows = con.execute(f"SELECT f.path, g.file_index FROM games g JOIN files f ON f.id = g.file_id "
                       f"WHERE g.id IN ({','.join(map(str, ids))})")
    return set(rows)


FILTERS = st.builds(
    Filters,
    game=st.sampled_from([None, "goldrush", "gold"]),
    players=st.lists(st.sampled_from(["Ada", "bo", "Cy", "Di", "Nobody"]), max_size=1),
    date_from=st.sampled_from([None, "2026-11-03", "2025-01-01"]),
    tags=st.lists(st.sampled_from(["Event~club", "Event~final"]), max_size=1),
    winners=st.lists(st.sampled_from(["Ada", "red", "yellow", "Cy"]), max_size=1),
    scores=st.lists(st.sampled_from([">=40", "Ada>=25", "red<15", "Bo=0"]), max_size=1),
    valid=st.sampled_from([None, True, False]),
    events=st.lists(st.sampled_from([
        "type=ScoreEvent feature=mountain points>=5", "feature=prairie points>=10 final=1",
        "detail~locomotive", "type=ScoreEvent feature=railroad final=0", "type=GoldTaken player=red",
        "type=ScoreEvent feature=gold points>=8", "type=ScoreEvent feature=railroad tiles>=5 locomotives=1",
        "type=ScoreEvent railroads>=2", "tipis>=2 final=1"]), max_size=2),
    actions=st.lists(st.sampled_from(["type=place tile=33", "type=place x>=3 y<0", "type=mine value=3",
                                      "type=tent", "type=place rotation=270 tile=17"]), max_size=1),
    beside=st.lists(st.sampled_from(["33,66", "17,61", "31,71", "12a,12b"]), max_size=1),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(f=FILTERS)
def test_search_equals_brute_force(corpus: dict[str, Any], f: Filters) -> None:
    con = _con(corpus["db"])
    got = _archived(con, game_ids(con, f))
    want = {(p, i) for (p, i, r, rep) in corpus["games"] if _expected((p, i, r, rep), f)}
    assert got == want


def test_search_filters_find_something(corpus: dict[str, Any]) -> None:
    """The brute-force test is not vacuous: each per-turn filter matches some games and not all."""
    n = len(corpus["games"])
    for f in (Filters(events=["type=ScoreEvent feature=mountain points>=5"]), Filters(actions=["type=place tile=33"]),
              Filters(beside=["33,66"]), Filters(events=["detail~locomotive"]), Filters(players=["Di"]),
              Filters(events=["type=ScoreEvent feature=railroad tiles>=5 locomotives=1"]),
              Filters(events=["type=ScoreEvent railroads>=2"]), Filters(events=["tipis>=2 final=1"]),
              Filters(winners=["red"]), Filters(scores=[">=40"]), Filters(date_from="2026-11-03")):
        k = sum(_expected(g, f) for g in corpus["games"])
        assert 0 < k < n, f


def test_search_command_formats(corpus: dict[str, Any]) -> None:
    db = str(corpus["db"])
    table = grn("archive", "search", db, "--player", "Ada", "--game", "goldrush")
    assert table.exit_code == 0
    want = sum(_expected(g, Filters(players=["Ada"], game="goldrush")) for g in corpus["games"])
    last = table.stdout.strip().splitlines()[-1]
    unfinished = sum(1 for line in table.stdout.splitlines()[1:-1] if "valid* " in line
                     or "INVALID* " in line)
    assert last == f"{want} games" + (f" ({unfinished} unfinished, marked *)" if unfinished else "")
    assert grn("archive", "search", db, "--player", "Ada", "--game", "goldrush", "--count").stdout.strip() == str(want)
    text = grn("archive", "search", db, "--tag", "Event~club", "--format", "grn").stdout
    assert text.count("[Game ") == sum(_expected(g, Filters(tags=["Event~club"])) for g in corpus["games"])
    assert grn("validate", "-", input=text).exit_code == 0
    doc = json.loads(grn("archive", "search", db, "--game", "gold", "--format", "json").stdout)
    assert len(doc["games"]) == 8 and doc["grn"] == 1
    dated = grn("archive", "search", db, "--from", "2026-11-02", "--to-date", "2026-11", "--count")
    assert dated.stdout.strip() == str(sum(1 for (_, _, r, _) in corpus["games"]
                                           if r.tag("Date") in ("2026.11.05", "2026.11.03")))


def test_sql_is_read_only(corpus: dict[str, Any]) -> None:
    db = str(corpus["db"])
    ok = grn("archive", "search", db, "--sql", "SELECT game, count(*) AS n FROM games GROUP BY game ORDER BY game")
    assert ok.exit_code == 0
    assert ok.stdout.splitlines() == ["game\tn", "gold\t8", f"goldrush\t{len(corpus['games']) - 8}"]
    for sql in ("DELETE FROM games", "DROP TABLE games", "UPDATE games SET valid = 1"):
        bad = grn("archive", "search", db, "--sql", sql)
        assert bad.exit_code == 1
        assert bad.stderr.startswith(f"{db}: error: --sql is read-only"), bad.stderr
    assert _table_counts(corpus["db"])["games"] == len(corpus["games"])
    typo = grn("archive", "search", db, "--sql", "SELECT x FROM nowhere")
    assert typo.exit_code == 1 and "error: SQL: no such table" in typo.stderr


def test_bad_input_is_one_line_errors(corpus: dict[str, Any], tmp_path: Path) -> None:
    db = str(corpus["db"])
    for args, code, text in (
        (["archive", "search", str(tmp_path / "none.db")], 1, "none.db: error: no such archive"),
        (["archive", "search", db, "--score", "lots"], 2, "--score 'lots'"),
        (["archive", "search", db, "--event", "points>>3"], 2, "cannot read"),
        (["archive", "search", db, "--from", "yesterday"], 2, "write a date"),
        (["archive", "add", str(tmp_path / "new.db"), str(tmp_path / "missing.grn")], 1,
         "missing.grn: error: no such file"),
        (["archive", "export", db, "--to", "csv"], 2, "--to must be grn, json or parquet"),
    ):
        result = grn(*args)
        assert result.exit_code == code, (args, result.output)
        assert text in result.stderr and "Traceback" not in result.output
    junk = tmp_path / "junk.db"
    junk.write_text("not a database at all, just text" * 50)
    result = grn("archive", "search", str(junk))
    assert result.exit_code == 1 and result.stderr.startswith(f"{junk}: error: not an archive")


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_a_file_with_no_game_is_refused_and_not_kept(tmp_path: Path, text: str) -> None:
    """R328: ``archive add`` says of an empty file what ``validate`` says, exits 1, and archives the other files."""
    empty = tmp_path / "empty.grn"
    empty.write_text(text, encoding="utf-8")
    db = tmp_path / "club.db"
    said = f"{empty}: error: no game found: the file holds no record"
    checked = grn("validate", str(empty))
    assert checked.exit_code == 1 and said in checked.stderr
    for _ in range(2):  # again: still refused, not "already archived"
        added = grn("archive", "add", str(db), str(empty), str(ROOT / "examples" / "gold-2p.grn"))
        assert added.exit_code == 1, added.output
        assert added.stderr.strip().splitlines() == [said]
    assert "1 file already archived" in added.stdout
    con = sqlite3.connect(db)
    assert [row[0] for row in con.execute("SELECT path FROM files")] == [str(ROOT / "examples" / "gold-2p.grn")]
    con.close()
    piped = grn("archive", "add", str(db), "-", input=text)
    assert piped.exit_code == 1 and piped.stderr.strip() == "<stdin>: error: no game found: the file holds no record"


# ---------------------------------------------------------------------------
# stats
# ---------------------------------------------------------------------------

def test_stats_per_player_and_charts(corpus: dict[str, Any], tmp_path: Path) -> None:
    result = grn("archive", "stats", str(corpus["db"]), "--format", "json", "--svg", str(tmp_path / "charts"))
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    players = {p["name"]: p for p in doc["players"]}
    for name in ("Ada", "Bo", "Cy"):
        games = [g for g in corpus["games"] if any(s.name == name for s in g[2].seats())]
        done = [g for g in games if g[3].valid and g[3].complete]
        wins = 0
        scores = []
        for _, _, record, report in done:
            key = next(s.key for s in record.seats() if s.name == name)
            assert report.final_scores is not None
            scores.append(report.final_scores[key])
            wins += report.final_scores[key] == max(report.final_scores.values())
        p = players[name]
        assert (p["games"], p["finished"], p["wins"], p["best"]) == (len(games), len(done), wins, max(scores))
        assert p["average"] == pytest.approx(sum(scores) / len(scores))
    ada = players["Ada"]["shares"]
    assert {"prairie", "mountain", "railroad"} <= set(ada) and sum(ada.values()) == pytest.approx(1, abs=1e-3)
    kinds = {(g["game"], g["players"]): g for g in doc["games"]}
    assert kinds[("goldrush", 2)]["finished"] == 6 and kinds[("goldrush", 2)]["expected_rate"] == 0.5
    assert sum(kinds[("goldrush", 2)]["score_bins"].values()) == 12
    charts = sorted(p.name for p in (tmp_path / "charts").iterdir())
    assert "players.svg" in charts and "first-player.svg" in charts and "scores-goldrush-2p.svg" in charts
    for name in charts:
        root = ET.parse(tmp_path / "charts" / name).getroot()
        assert root.tag.endswith("svg") and len(root.findall(".//{http://www.w3.org/2000/svg}rect")) > 2
    table = grn("archive", "stats", str(corpus["db"]))
    assert "first wins" in table.stdout and "Ada" in table.stdout


# ---------------------------------------------------------------------------
# export
# ---------------------------------------------------------------------------

def test_export_grn_and_json(corpus: dict[str, Any], tmp_path: Path) -> None:
    db = str(corpus["db"])
    out = tmp_path / "all.grn"
    assert grn("archive", "export", db, "--to", "grn", "-o", str(out)).exit_code == 0
    records = [item.record for item in load(str(out))]
    originals = [g[2] for g in corpus["games"]]
    assert records == originals  # the same games, every word (JSON-form games written as GRN)
    out_json = tmp_path / "valid.json"
    assert grn("archive", "export", db, "--to", "json", "--valid", "-o", str(out_json)).exit_code == 0
    loaded = [item.record for item in load(str(out_json))]
    assert loaded == [g[2] for g in corpus["games"] if g[3].valid]
    assert grn("validate", str(out_json)).exit_code == 0


def test_export_parquet_readable_without_grn(corpus: dict[str, Any], tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "pq"
    result = grn("archive", "export", str(corpus["db"]), "--to", "parquet", "-o", str(out), "--game", "goldrush")
    assert result.exit_code == 0, result.output
    games = pq.read_table(out / "games.parquet").to_pylist()
    events = pq.read_table(out / "score_events.parquet").to_pylist()
    assert len(games) == len(corpus["games"]) - 8
    doc = (ROOT / "docs" / "archive.md").read_text(encoding="utf-8")
    for column in pq.read_table(out / "games.parquet").schema.names + \
            pq.read_table(out / "score_events.parquet").schema.names:
        assert f"`{column}`" in doc  # every column is documented
    totals: dict[tuple[int, str], int] = {}
    for e in events:
        totals[(e["game_id"], e["player"])] = totals.get((e["game_id"], e["player"]), 0) + e["points"]
    for g in games:
        if g["valid"] and g["complete"]:
            for s in g["seats"]:
                assert totals.get((g["game_id"], s["key"]), 0) == s["score"]
    assert any(e["final"] and e["turn"] is None for e in events)


# ---------------------------------------------------------------------------
# the core names no game
# ---------------------------------------------------------------------------

def test_archive_code_names_no_game() -> None:
    for path in sorted((ROOT / "grn" / "archive").glob("*.py")):
        text = path.read_text(encoding="utf-8").lower()
        found = [w for w in GAME_WORDS if re.search(rf"\b{w}s?\b", text)]  # "tenth" names no tent
        assert not found, f"{path.name} names {found}"
