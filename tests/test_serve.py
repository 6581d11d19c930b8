"""grn serve on a real uvicorn (loopback, a free port): recording, the archive, and what makes it safe."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="grn serve needs the serve extra: pip install 'grn[serve]'")

import grn  # noqa: E402
from grn import games  # noqa: E402
from grn.rules.choices import ChoiceError  # noqa: E402
from grn.rules.position import position_at  # noqa: E402
from grn.rules.recording import annotate, play, undo  # noqa: E402
from grn.rules.selfplay import to_record  # noqa: E402
from grn.check.validate import validate_record  # noqa: E402
from grn.notation.writer import write_record  # noqa: E402
from serve_server import TOKEN, running  # noqa: E402


def call(base: str, method: str, path: str, body: Any = None, *, token: str | None = TOKEN,
         headers: dict[str, str] | None = None, raw: bytes | None = None) -> tuple[int, Any, dict[str, str]]:
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    req = urllib.request.Request(base + path, data=data, method=method)
    if token:
        req.add_header("X-GRN-Token", token)
    if data is not None and not (headers and "Content-Type" in headers):
        req.add_header("Content-Type", "application/json")
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            text = r.read().decode()
            status, hdrs = r.status, dict(r.headers)
    except urllib.error.HTTPError as e:
        text, status, hdrs = e.read().decode(), e.code, dict(e.headers)
    try:
        return status, json.loads(text), hdrs
    except ValueError:
        return status, text, hdrs


@pytest.fixture
def server(tmp_path: Path):
    with running(tmp_path / "club.db") as base:
        yield base


def tap_turn(base: str, game_id: int, state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Choose at random among the options the server offers until the turn is whole, then play it."""
    picked: list[str] = []
    step = state["step"]
    while not step["done"]:
        picked.append(rng.choice(step["options"])["word"])
        status, state, _ = call(base, "GET", f"/api/games/{game_id}?at={state['address']}&picked="
                                + urllib.request.quote(json.dumps(picked)))
        assert status == 200, state
        step = state["step"]
    status, state, _ = call(base, "POST", f"/api/games/{game_id}/play",
                            {"at": state["address"], "base": state["base"], "picked": picked})
    assert status == 200, state
    return state


# -- choices from the engine ---------------------------------------------------------------------

@pytest.mark.parametrize("game", ["goldrush", "carcassonne", "gold"])
def test_choices_alone_play_a_whole_legal_game(game):
    """Choosing only what turn_step offers plays every game to its end, and the record validates."""
    ruleset = games.find_ruleset(game)
    record = to_record(ruleset.selfplay(2, 4))
    # the same table and options, no turns (and no Result: the game is played anew)
    record = record.__class__(tuple((k, v) for k, v in record.tags if k != "Result"))
    address = "0"
    rng = random.Random(game)
    while True:
        pos = position_at(record, address)
        if pos.state.is_over:
            break
        picked: list[str] = []
        step = ruleset.turn_step(pos.state, picked)
        while not step.done:
            picked.append(rng.choice(step.options).word)
            step = ruleset.turn_step(pos.state, picked)
        record, address = play(record, address, pos.state.current_player, step.actions)
    report = validate_record(grn.notation.read.parse(write_record(record))[0])
    assert report.valid and report.complete, report
    assert int(address) > 20


def test_a_word_not_offered_is_refused():
    ruleset = games.find_ruleset("goldrush")
    (record,) = grn.read("examples/goldrush-2p.grn")
    state = position_at(record, "3").state
    squares = {o.word for o in ruleset.turn_step(state, ["38"]).options}
    with pytest.raises(ChoiceError):
        ruleset.turn_step(state, ["38", "40,40"])  # a square where it does not fit
    assert "40,40" not in squares
    with pytest.raises(ChoiceError):
        ruleset.turn_step(state, ["no-such-tile"])


def test_variation_undo_and_notes_edit_the_record():
    (record,) = grn.read("examples/goldrush-2p.grn")
    ruleset = games.find_ruleset(record.game)
    state = position_at(record, "2").state
    picked: list[str] = []
    step = ruleset.turn_step(state, picked)
    while not step.done:
        picked.append(step.options[-1].word)
        step = ruleset.turn_step(state, picked)
    branched, at = play(record, "2", state.current_player, step.actions)
    assert at == "3(1)3"
    noted = annotate(annotate(branched, at, comment="a new idea"), at, glyph="!?")
    text = write_record(noted)
    assert "(3. red" in text and "{a new idea} !?" in text
    assert validate_record(grn.notation.read.parse(text)[0]).valid
    back, at2 = undo(noted, at)
    assert at2 == "2" and write_record(back) == write_record(record)
    # the same move again follows the main line instead of branching
    same, at3 = play(record, "2", "red", record.turns[2].actions)
    assert at3 == "3" and same == record


# -- the server --------------------------------------------------------------------------------------

def test_record_a_game_over_http_and_find_it_in_the_archive(server, tmp_path):
    status, made, _ = call(server, "POST", "/api/games", {"game": "carcassonne", "players": "Ada (red), Bo (blue)",
                                                          "event": "Thursday club"})
    assert status == 200
    gid = made["id"]
    status, state, _ = call(server, "GET", f"/api/games/{gid}")
    rng = random.Random(2)
    for _ in range(4):
        state = tap_turn(server, gid, state, rng)
    assert [t["n"] for t in state["moves"]["turns"]] == [1, 2, 3, 4]
    status, text, _ = call(server, "GET", f"/api/games/{gid}/download?format=grn")
    assert text.count("\n1. red ") == 1 and validate_record(grn.notation.read.parse(text)[0]).valid
    status, found, _ = call(server, "GET", "/api/games?player=Ada&tag=Event~club")
    assert [g["id"] for g in found["games"]] == [gid] and found["games"][0]["turns"] == 4
    status, js, _ = call(server, "GET", f"/api/games/{gid}/download?format=json")
    assert js["tags"][0] == ["Game", "carcassonne"] or js["tags"][0][0] == "Game"
    status, jcz, _ = call(server, "GET", f"/api/games/{gid}/download?format=jcz")
    assert status == 200 and "placeTile" in json.dumps(jcz) or status == 200
    # undo takes the fourth turn back; the archive follows
    status, state, _ = call(server, "POST", f"/api/games/{gid}/undo", {"at": state["address"], "base": state["base"]})
    assert status == 200 and state["address"] == "3"
    # the archive is grn archive's: its search command reads it
    con = sqlite3.connect(tmp_path / "club.db")
    assert con.execute("SELECT turns FROM games WHERE id = ?", (gid,)).fetchone()[0] == 3


def test_a_new_game_goes_on_from_any_position(server):
    text = Path("examples/goldrush-2p.grn").read_text()
    gid = call(server, "POST", "/api/import", {"name": "g.grn", "text": text})[1]["ids"][0]
    state = call(server, "GET", f"/api/games/{gid}?at=3")[1]
    state = tap_turn(server, gid, state, random.Random(5))  # a variation at turn 4
    assert state["address"] == "4(1)4"
    status, out, _ = call(server, "POST", f"/api/games/{gid}/fork", {"at": state["address"]})
    assert status == 200
    new = call(server, "GET", f"/api/games/{out['id']}")[1]
    assert [t["n"] for t in new["moves"]["turns"]] == [1, 2, 3, 4]
    assert new["moves"]["turns"][3]["grn"] == state["moves"]["turns"][-1]["grn"]
    assert "Result" not in dict(new["tags"]) and not any(t["variations"] for t in new["moves"]["turns"])


def test_import_delete_and_share(server):
    text = Path("examples/gold-2p.grn").read_text()
    status, out, _ = call(server, "POST", "/api/import", {"name": "gold-2p.grn", "text": text})
    assert status == 200 and len(out["ids"]) == 1
    gid = out["ids"][0]
    status, out, _ = call(server, "POST", "/api/import", {"name": "bad.grn", "text": "[Game \"gold\"]\n1. red zz\n"})
    assert status == 400 and "bad.grn:2:" in out["error"]
    status, share, _ = call(server, "GET", f"/api/games/{gid}/share")
    status, page, headers = call(server, "GET", share["path"], token=None)
    assert status == 200 and "grn-viewer" in page
    assert "sha256-" in headers["content-security-policy"] and "unsafe-inline" not in \
        headers["content-security-policy"].split("script-src")[1].split(";")[0]
    status, _, _ = call(server, "GET", share["path"][:-3] + "abc", token=None)
    assert status == 404
    status, out, _ = call(server, "POST", f"/api/games/{gid}/delete", {})
    assert status == 400 and "confirm" in out["error"]
    status, out, _ = call(server, "POST", f"/api/games/{gid}/delete", {"confirm": gid})
    assert status == 200
    assert call(server, "GET", f"/api/games/{gid}")[0] == 404


# -- safety -----------------------------------------------------------------------------------------

def test_a_turn_typed_in_grn_is_checked_by_the_engine(server):
    gid = call(server, "POST", "/api/games", {"game": "goldrush", "players": "A (red), B (yellow)"})[1]["id"]
    state = call(server, "GET", f"/api/games/{gid}")[1]
    status, out, _ = call(server, "POST", f"/api/games/{gid}/play",
                          {"at": "0", "base": state["base"], "text": "17@5,5"})
    assert status == 400 and "5,5" in out["error"]  # the engine's reason, in one line
    status, out, _ = call(server, "POST", f"/api/games/{gid}/play",
                          {"at": "0", "base": state["base"], "text": "17@0,1:90"})
    assert status == 200 and out["moves"]["turns"][0]["grn"] == "1. red 17@0,1:90"
    status, out, _ = call(server, "POST", f"/api/games/{gid}/play",
                          {"at": "1", "base": out["base"], "text": "{comment} 17@0,-1"})
    assert status == 400


def test_tile_pictures_for_the_tile_buttons(server):
    status, out, headers = call(server, "GET", "/api/tiles/goldrush/17.svg")
    assert status == 200 and out.startswith("<svg") and headers["content-type"].startswith("image/svg+xml")
    assert call(server, "GET", "/api/tiles/carcassonne/A.svg")[0] == 200
    assert call(server, "GET", "/api/tiles/goldrush/nope.svg")[0] == 404
    assert call(server, "GET", "/api/tiles/gold/G1.svg")[0] == 404


def test_writes_need_the_token(server):
    for token in (None, "wrong-token-wrong-token"):
        status, out, _ = call(server, "POST", "/api/games", {"game": "gold", "players": "A (red+yellow), B (green+blue)"},
                              token=token)
        assert status == 403 and "token" in out["error"]


def test_reading_needs_the_token_unless_opened(tmp_path):
    with running(tmp_path / "a.db", open_read=False) as base:
        assert call(base, "GET", "/api/games", token=None)[0] == 403
        assert call(base, "GET", "/api/games")[0] == 200
        # the token in an address is no credential but on the start-up address (R342): it would leak
        assert call(base, "GET", f"/api/games?token={TOKEN}", token=None)[0] == 403
        assert call(base, "GET", "/api/games", token=None, headers={"Authorization": f"Bearer {TOKEN}"})[0] == 200
        assert call(base, "GET", "/", token=None)[0] == 200  # the page's shell holds no game


def test_cross_site_writes_are_refused(server):
    body = {"game": "gold", "players": "A (red+yellow), B (green+blue)"}
    status, out, _ = call(server, "POST", "/api/games", body, headers={"Origin": "https://evil.example"})
    assert status == 403 and "another site" in out["error"]
    status, _, _ = call(server, "POST", "/api/games", body, headers={"Sec-Fetch-Site": "cross-site"})
    assert status == 403
    # a form post (no preflight) is not JSON
    status, out, _ = call(server, "POST", "/api/games", raw=b"game=gold",
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 415
    assert call(server, "POST", "/api/games", body, headers={"Origin": server})[0] == 200


def test_size_limits(tmp_path):
    with running(tmp_path / "a.db", max_body=2000) as base:
        status, out, _ = call(base, "POST", "/api/import", {"name": "x.grn", "text": "x" * 5000})
        assert status == 413 and "limit" in out["error"]
        # sent in chunks, with no length announced: refused once it passes the limit
        req = urllib.request.Request(base + "/api/import", method="POST",
                                     data=iter([b'{"name": "x.grn", "text": "', b"x" * 1500, b"x" * 1500, b'"}']),
                                     headers={"X-GRN-Token": TOKEN, "Content-Type": "application/json"})
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(req, timeout=30)
        assert err.value.code == 413 and "limit" in json.loads(err.value.read())["error"]
    with running(tmp_path / "b.db") as base:
        status, out, _ = call(base, "POST", "/api/games", {"game": "gold", "players": "A (red+yellow), B (green+blue)",
                                                           "event": "e" * 20000})
        assert status == 400 and "longer" in out["error"]


def test_every_answer_has_the_csp_and_errors_are_json(server):
    for path in ("/", "/static/recorder.js", "/api/meta", "/nowhere", "/api/games/99", "/api/games/x"):
        status, out, headers = call(server, "GET", path)
        csp = headers["content-security-policy"]
        assert "script-src 'self'" in csp and "default-src 'none'" in csp, path
        if status >= 400:
            assert isinstance(out, dict) and "error" in out and "Traceback" not in json.dumps(out)
    status, out, _ = call(server, "POST", "/api/games", raw=b"{not json")
    assert status == 400 and out["error"] == "the request body is not JSON"


@pytest.mark.parametrize("path", ["/static/../../pyproject.toml", "/static/%2e%2e%2fpyproject.toml",
                                  "/static/..%2f..%2fREADME.md", "/static/index.html", "/static/recorder.py"])
def test_no_file_outside_the_page_is_served(server, path):
    status, out, _ = call(server, "GET", path)
    assert status == 404 and "[project]" not in json.dumps(out)


def test_concurrent_writers_lose_no_turn(server):
    """Twenty phones record twenty games into one archive at once (bounded, loopback only)."""
    ids = []
    for i in range(20):
        status, made, _ = call(server, "POST", "/api/games", {"game": "gold", "players": f"P{i} (red+yellow), Q{i} (green+blue)"})
        ids.append(made["id"])
    errors: list[str] = []

    def phone(gid: int) -> None:
        try:
            state = call(server, "GET", f"/api/games/{gid}")[1]
            rng = random.Random(gid)
            for _ in range(3):
                state = tap_turn(server, gid, state, rng)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(repr(exc))

    threads = [threading.Thread(target=phone, args=(g,)) for g in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not errors
    status, found, _ = call(server, "GET", "/api/games?game=gold")
    assert sorted(g["id"] for g in found["games"]) == sorted(ids)
    assert all(g["turns"] == 3 for g in found["games"])


def test_a_stale_edit_is_refused_not_lost(server):
    gid = call(server, "POST", "/api/games", {"game": "gold", "players": "A (red+yellow), B (green+blue)"})[1]["id"]
    state = call(server, "GET", f"/api/games/{gid}")[1]
    first = tap_turn(server, gid, state, random.Random(1))
    # a second phone still holds the old version
    status, out, _ = call(server, "POST", f"/api/games/{gid}/note", {"at": "0", "base": state["base"],
                                                                      "comment": "late"})
    assert status == 409 and "reload" in out["error"]
    assert [t["n"] for t in call(server, "GET", f"/api/games/{gid}")[1]["moves"]["turns"]] == [1]
    assert first["moves"]["turns"][0]["n"] == 1


# -- rulings R100-R105 ---------------------------------------------------------------------------------

def test_r100_a_tile_that_fits_nowhere_is_set_aside_and_the_next_asked():
    ruleset = games.find_ruleset("carcassonne")
    record = to_record(ruleset.selfplay(2, 5))
    state = position_at(record, "6").state  # turn 7 of this game discards tile C (it fits nowhere)
    assert state.legal_placements("C") == []
    step = ruleset.turn_step(state, ["C"])
    assert step.prompt.startswith("tile C fits nowhere and is set aside") and not step.done
    assert "C" not in {o.word for o in step.options} or dict((o.word, o.count) for o in step.options)["C"] \
        == state.bag()["C"] - 1
    words = ["C", "H", "0,1", "0", "none"]
    step = ruleset.turn_step(state, words)
    assert step.done and [type(a).__name__ for a in step.actions] == ["DiscardTile", "PlaceTile"]
    assert step.actions == record.turns[6].actions


def test_r101_token_faces_are_asked_and_may_stay_unknown():
    ruleset = games.find_ruleset("goldrush")
    record = to_record(ruleset.selfplay(2, 43))
    state = position_at(record, "19").state  # turn 20 mines a token worth 1
    words = ["26d", "12a", "-1,0", "270", "mine"]
    step = ruleset.turn_step(state, words)
    assert {o.word for o in step.options} >= {"?", "1"}
    assert ruleset.turn_step(state, [*words, "1"]).actions[-1] == record.turns[19].actions[-1]
    unknown = ruleset.turn_step(state, [*words, "?"])
    assert unknown.done and unknown.actions[-1].value is None


def test_r103_a_card_seen_before_shows_only_what_it_showed():
    ruleset = games.find_ruleset("gold")
    (record,) = grn.read("examples/gold-2p.grn")
    state = position_at(record, "2").state
    known = state.known_faces()  # cards turned and turned back face down: remembered
    pos, face = sorted(known.items())[0]
    step = ruleset.turn_step(state, [pos])
    assert [o.word for o in step.options] == [grn.games.gold.commands.card_text(face)]
    never = next(p for p in state.legal_flips() if p not in known)
    fresh = ruleset.turn_step(state, [never])
    assert len(fresh.options) > 10


def test_r105_only_the_last_turn_of_a_line_is_taken_back():
    (record,) = grn.read("examples/goldrush-2p.grn")
    from grn.rules.recording import EditError

    with pytest.raises(EditError, match="only the last turn"):
        undo(record, "3")
    with pytest.raises(EditError):
        undo(record, "0")


def test_an_illegal_turn_cannot_be_posted(server):
    gid = call(server, "POST", "/api/games", {"game": "goldrush", "players": "A (red), B (yellow)"})[1]["id"]
    state = call(server, "GET", f"/api/games/{gid}")[1]
    for picked in (["17", "5,5", "0", "none"], ["17", "0,1", "45", "none"], ["17"], ["nope"]):
        status, out, _ = call(server, "POST", f"/api/games/{gid}/play",
                              {"at": "0", "base": state["base"], "picked": picked})
        assert status == 400 and out["error"], picked
    assert call(server, "GET", f"/api/games/{gid}")[1]["moves"]["turns"] == []


def test_the_command_prints_its_address_with_the_token(tmp_path):
    import subprocess
    import sys

    db = tmp_path / "club.db"
    proc = subprocess.Popen([sys.executable, "-m", "grn", "serve", str(db), "--port", "0", "--token",
                             TOKEN], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith(f"grn serve: {db} at http://127.0.0.1:") and line.rstrip().endswith(f"?token={TOKEN}")
        base = line.split(" at ")[1].split("/?")[0]
        status, meta, _ = call(base, "GET", "/api/meta")
        assert status == 200 and {g["name"] for g in meta["games"]} >= {"goldrush", "gold", "carcassonne"}
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert db.exists()
    (tmp_path / "notes.txt").write_text("not a database")
    bad = subprocess.run([sys.executable, "-m", "grn", "serve", str(tmp_path / "notes.txt"), "--port", "0"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 1 and bad.stderr.count("\n") == 1 and "not an archive" in bad.stderr
    short = subprocess.run([sys.executable, "-m", "grn", "serve", str(db), "--token", "short"],
                           capture_output=True, text=True, timeout=60)
    assert short.returncode == 2 and "at least 16" in short.stderr


def test_a_game_without_choices_is_recorded_by_typing(server):
    """A plug-in game that defines no tree of choices (``choice_point``): the page asks for the turn in GRN.  The
    toy game (tests/toygame) defines one, so the page offers its takes."""
    from grn.rules.ruleset import Ruleset
    from tests.toygame import RULESET, NimRuleset

    class Silent(NimRuleset):
        name = "silentnim"
        aliases = ()
        choice_point = Ruleset.choice_point  # the default: no tree

    games.register(RULESET)
    games.register(Silent())
    try:
        gid = call(server, "POST", "/api/games", {"game": "nim", "players": "Ann (red), Bob (blue)"})[1]["id"]
        state = call(server, "GET", f"/api/games/{gid}")[1]
        assert [o["word"] for o in state["step"]["options"]] == ["take=1", "take=2", "take=3"]
        gid = call(server, "POST", "/api/games", {"game": "silentnim", "players": "Ann (red), Bob (blue)"})[1]["id"]
        state = call(server, "GET", f"/api/games/{gid}")[1]
        assert state["step"] is None and state["player"] == "red"
        status, state, _ = call(server, "POST", f"/api/games/{gid}/play",
                                {"at": "0", "base": state["base"], "text": "take=3"})
        assert status == 200 and state["moves"]["turns"][0]["grn"] == "1. red take=3"
        status, out, _ = call(server, "POST", f"/api/games/{gid}/play",
                              {"at": "1", "base": state["base"], "text": "take=9"})
        assert status == 400
    finally:
        games.unregister("silentnim")
        games.unregister("nim")



def test_r351_the_token_may_come_as_a_bearer_header(server):
    """The page sends ``Authorization: Bearer <token>``: a write with it is taken, with another token refused."""
    body = {"game": "carcassonne", "players": "Ann (red), Ben (yellow)"}
    assert call(server, "POST", "/api/games", body, token=None, headers={"Authorization": f"Bearer {TOKEN}"})[0] == 200
    assert call(server, "POST", "/api/games", body, token=None, headers={"Authorization": "Bearer x" + TOKEN})[0] == 403
