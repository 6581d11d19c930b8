"""grn serve against hostile requests (issue 45): DNS rebinding, the token kept out of addresses, and every
bad request answered with a 4xx and one sentence, never a 500 and never a traceback in the log."""

from __future__ import annotations

import http.client
import json
import logging
import time
import urllib.parse
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette", reason="grn serve needs the serve extra: pip install 'grn[serve]'")

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from serve_server import TOKEN, running  # noqa: E402

GOLD = {"game": "gold", "players": "A (red+yellow), B (green+blue)"}
POSTS = ["/api/games", "/api/import", "/api/games/1/delete", "/api/games/1/fork", "/api/games/1/play",
         "/api/games/1/undo", "/api/games/1/note", "/api/games/1/evaluate", "/api/games/1/analyse"]
GETS = ["/api/meta", "/api/games", "/api/games/1", "/api/games/1/download", "/api/games/1/share",
        "/games/1/view", "/api/tasks/1", "/api/tiles/goldrush.svg", "/api/tiles/goldrush/17.svg", "/share/1/x"]


def request(base: str, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
            *, timeout: float = 60) -> tuple[int, dict[str, str], Any]:
    """One request on a connection of its own, redirects not followed: (status, headers, JSON or text)."""
    parts = urllib.parse.urlsplit(base)
    con = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    sent = {"Content-Type": "application/json"} if body is not None else {}
    sent.update(headers or {})
    try:
        con.request(method, path, body=body, headers=sent)
        answer = con.getresponse()
        raw = answer.read()
        hdrs = {k.lower(): v for k, v in answer.getheaders()}
    finally:
        con.close()
    try:
        return answer.status, hdrs, json.loads(raw)
    except ValueError:
        return answer.status, hdrs, raw.decode("utf-8", "replace")


def token(**more: str) -> dict[str, str]:
    return {"X-GRN-Token": TOKEN, **more}


def one_sentence(out: Any) -> str:
    assert isinstance(out, dict) and isinstance(out.get("error"), str), out
    message = out["error"]
    assert message and "\n" not in message and "Traceback" not in message and "the server failed" not in message
    return message


class Errors(logging.Handler):
    """What uvicorn and Starlette log at ERROR (a traceback of the application is logged there)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logged() -> Iterator[Errors]:
    handler = Errors()
    loggers = [logging.getLogger(name) for name in ("uvicorn.error", "uvicorn", "starlette", "grn")]
    for lg in loggers:
        lg.addHandler(handler)
    try:
        yield handler
    finally:
        for lg in loggers:
            lg.removeHandler(handler)


@pytest.fixture
def closed(tmp_path: Path) -> Iterator[str]:
    """A server as ``grn serve`` makes it on loopback: reading needs the token."""
    with running(tmp_path / "club.db", open_read=False) as base:
        yield base


# -- item 1: DNS rebinding and the token -----------------------------------------------------------------

@pytest.mark.parametrize("host", ["evil.example:{port}", "evil.example", "127.0.0.1.evil.example:{port}",
                                  "localhost.evil.example", "10.0.0.1:{port}", "[::1]x", ""])
def test_a_page_on_another_name_reads_nothing_and_writes_nothing(closed, host, logged):
    port = urllib.parse.urlsplit(closed).port
    name = host.format(port=port)
    made = request(closed, "POST", "/api/games", json.dumps(GOLD).encode(), token())[2]["id"]
    share = request(closed, "GET", f"/api/games/{made}/share", headers=token())[2]["path"]
    for method, path, body in [("GET", "/api/games", None), ("GET", f"/api/games/{made}", None),
                               ("GET", f"/api/games/{made}/download", None), ("GET", share, None),
                               ("GET", "/", None), ("GET", f"/?token={TOKEN}", None),
                               ("POST", "/api/games", json.dumps(GOLD).encode())]:
        # even with the token: a rebinding page cannot have it, and the Host is what gives it away
        status, _, out = request(closed, method, path, body, token(Host=name))
        assert status == 421, (name, path)
        assert "Host" in one_sentence(out)
    assert not logged.records


@pytest.mark.parametrize("host", ["localhost:{port}", "LOCALHOST", "127.0.0.1:{port}", "127.3.4.5:{port}",
                                  "[::1]:{port}", "localhost.", "club.local:{port}"])
def test_loopback_names_and_allowed_names_are_answered(tmp_path, host):
    with running(tmp_path / "a.db", open_read=False, hosts=["club.local"]) as base:
        name = host.format(port=urllib.parse.urlsplit(base).port)
        assert request(base, "GET", "/api/games", headers=token(Host=name))[0] == 200
        assert request(base, "GET", "/api/games", headers={"Host": name})[0] == 403  # and reading needs the token


def test_a_server_of_the_room_that_names_no_host_answers_any(tmp_path):
    with running(tmp_path / "a.db", open_read=False, hosts=None) as base:
        assert request(base, "GET", "/api/games", headers=token(Host="laptop.lan:8000"))[0] == 200


def test_the_start_up_address_puts_the_token_in_a_cookie_and_leaves_the_address(closed):
    status, headers, _ = request(closed, "GET", f"/?token={TOKEN}")
    assert status == 303 and headers["location"] == "/"
    cookie = headers["set-cookie"]
    port = urllib.parse.urlsplit(closed).port
    assert cookie.startswith(f"grn-token-{port}=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    jar = cookie.split(";")[0]
    # the page's own requests carry the cookie: reading, downloads, the viewer, writes (same origin)
    made = request(closed, "POST", "/api/games", json.dumps(GOLD).encode(), {"Cookie": jar, "Origin": closed})
    assert made[0] == 200
    gid = made[2]["id"]
    for path in ("/api/games", f"/api/games/{gid}", f"/api/games/{gid}/download?format=grn", f"/games/{gid}/view"):
        assert request(closed, "GET", path, headers={"Cookie": jar})[0] == 200, path
    # a cookie of another port's server, a wrong token, or a write from another site: refused
    assert request(closed, "GET", "/api/games", headers={"Cookie": f"grn-token-1={TOKEN}"})[0] == 403
    assert request(closed, "GET", "/api/games", headers={"Cookie": jar + "x"})[0] == 403
    status, _, out = request(closed, "POST", "/api/games", json.dumps(GOLD).encode(),
                             {"Cookie": jar, "Origin": "http://127.0.0.1:1"})
    assert status == 403 and "another site" in one_sentence(out)
    # a wrong token in the start-up address is said so; the page's other query words stay
    status, _, out = request(closed, "GET", "/?token=nope")
    assert status == 403 and "not this server's" in one_sentence(out)
    assert request(closed, "GET", f"/?token={TOKEN}&lang=en")[1]["location"] == "/?lang=en"


def test_reading_needs_the_token_on_loopback_but_share_links_do_not(closed):
    gid = request(closed, "POST", "/api/games", json.dumps(GOLD).encode(), token())[2]["id"]
    share = request(closed, "GET", f"/api/games/{gid}/share", headers=token())[2]["path"]
    for path in ("/api/games", f"/api/games/{gid}", f"/api/games/{gid}/download", f"/games/{gid}/view",
                 f"/api/games/{gid}/share"):
        status, _, out = request(closed, "GET", path)
        assert status == 403 and "token" in one_sentence(out), path
        assert request(closed, "GET", path, headers={"Authorization": f"Bearer {TOKEN}"})[0] == 200, path
    assert request(closed, "GET", share)[0] == 200
    assert request(closed, "GET", "/")[0] == 200 and request(closed, "GET", "/static/recorder.js")[0] == 200


def test_the_command_on_loopback_wants_the_token_to_read(tmp_path):
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "grn", "serve", str(tmp_path / "c.db"), "--port", "0",
                             "--token", TOKEN, "--allow-host", "club.local"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        base = proc.stdout.readline().split(" at ")[1].split("/?")[0]
        assert request(base, "GET", "/api/games")[0] == 403
        assert request(base, "GET", "/api/games", headers=token())[0] == 200
        assert request(base, "GET", "/api/games", headers=token(Host="evil.example"))[0] == 421
        assert request(base, "GET", "/api/games", headers=token(Host="club.local"))[0] == 200
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert "Traceback" not in proc.stderr.read()


# -- item 2: every bad request is a 4xx and a sentence -------------------------------------------------------

@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with running(tmp_path / "club.db") as base:
        request(base, "POST", "/api/games", json.dumps(GOLD).encode(), token())
        yield base


@pytest.mark.parametrize("gid", ["²", "١", "１", "1²", "+1", "-1", "1.0", " 1", "9" * 13])
def test_a_game_id_is_ascii_digits(server, gid, logged):
    quoted = urllib.parse.quote(gid)
    for method, path in [("GET", f"/api/games/{quoted}"), ("GET", f"/api/games/{quoted}/download"),
                         ("GET", f"/games/{quoted}/view"), ("GET", f"/api/tasks/{quoted}"),
                         ("POST", f"/api/games/{quoted}/undo")]:
        status, _, out = request(server, method, path, b"{}" if method == "POST" else None, token())
        assert status == 404, (gid, path)
        assert "digits 0-9" in one_sentence(out)
    assert not logged.records


@pytest.mark.parametrize("path", POSTS)
def test_a_body_nested_100000_deep_is_refused_unread(server, path, logged):
    for body in (b"[" * 100_000, b'{"picked": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
                 b'{"a": "[[[[", "b": ' + b"[" * 40 + b"]" * 40 + b"}"):
        status, _, out = request(server, "POST", path, body, token())
        assert status == 400 and "nests more than 32 deep" in one_sentence(out), path
    assert not logged.records


def test_picked_of_a_thousand_brackets_is_refused(server, logged):
    status, _, out = request(server, "GET", "/api/games/1?picked=" + "%5B" * 1000, headers=token())
    assert status == 400 and "picked" in one_sentence(out)
    status, _, out = request(server, "POST", "/api/games/1/play",
                             json.dumps({"at": "0", "picked": "[" * 1000}).encode(), token())
    assert status in (400, 409) and one_sentence(out)
    assert not logged.records


def test_a_twenty_megabyte_body_is_answered_413_not_reset(server, logged):
    status, _, out = request(server, "POST", "/api/import", b'{"text": "' + b"x" * (20 << 20) + b'"}', token())
    assert status == 413 and "limit" in one_sentence(out)
    assert request(server, "GET", "/api/meta", headers=token())[0] == 200  # the server goes on


@pytest.mark.parametrize("path, body, field", [
    ("/api/games", {**GOLD, "event": "\ud800"}, "event"),
    ("/api/games", {**GOLD, "players": "A\udfff (red+yellow), B (green+blue)"}, "players"),
    ("/api/games", {**GOLD, "date": "2026.\ud800"}, "date"),
    ("/api/import", {"name": "x\ud800.grn", "text": "[Game \"gold\"]\n"}, "name"),
    ("/api/import", {"name": "x.grn", "text": "{\ud800}"}, "text"),
    ("/api/games/1/note", {"at": "0", "base": "", "comment": "\ud800"}, "comment"),
    ("/api/games/1/play", {"at": "0", "base": "", "picked": ["\ud800"]}, "picked"),
    ("/api/games/1/fork", {"at": "\udc00"}, "at"),
])
def test_text_that_is_not_unicode_is_refused_by_its_field(server, path, body, field, logged):
    raw = json.dumps(body).encode()  # ensure_ascii: the surrogate travels as \ud800
    assert b"\\ud" in raw
    status, _, out = request(server, "POST", path, raw, token())
    assert status == 400 and one_sentence(out).startswith(f"{field} is not valid Unicode text")
    assert request(server, "GET", "/api/games?game=gold", headers=token())[2]["games"][0]["id"] == 1
    assert len(request(server, "GET", "/api/games", headers=token())[2]["games"]) == 1  # nothing written
    assert not logged.records


def test_a_surrogate_pair_is_text(server):
    status, _, out = request(server, "POST", "/api/games", json.dumps({**GOLD, "event": "club \U0001f600"}).encode(),
                             token())
    assert status == 200
    assert request(server, "GET", f"/api/games/{out['id']}", headers=token())[0] == 200


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
                    | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                  max_size=4),
                    max_leaves=12)
FIELDS = st.sampled_from(["game", "players", "event", "date", "options", "name", "text", "at", "base", "picked",
                          "comment", "glyph", "confirm", "level", "playouts"])
BODY = st.one_of(JSON, st.dictionaries(FIELDS, JSON, max_size=6))
IDS = st.one_of(st.integers(0, 3).map(str), st.text(min_size=1, max_size=6).filter(lambda s: "/" not in s),
                st.sampled_from(["²", "١", "9" * 20, "0x1", "1e3", "%00", ".."]))
QUERY = st.dictionaries(st.sampled_from(["at", "picked", "preview", "format", "game", "player", "from", "valid",
                                         "token"]), st.text(max_size=12) | JSON.map(json.dumps), max_size=3)


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_requests_at_every_route_never_fail_the_server(property_server, data):
    base, logged = property_server
    gid = urllib.parse.quote(data.draw(IDS), safe="")
    if data.draw(st.booleans()):
        path = data.draw(st.sampled_from(POSTS)).replace("/1/", f"/{gid}/")
        body = json.dumps(data.draw(BODY)).encode()
        status, _, out = request(base, "POST", path, body, token())
    else:
        path = data.draw(st.sampled_from(GETS)).replace("/1", f"/{gid}", 1)
        query = urllib.parse.urlencode(data.draw(QUERY))
        status, _, out = request(base, "GET", path + ("?" + query if query else ""), headers=token())
    assert status < 500, (path, out)
    if status >= 400:
        one_sentence(out)
    assert not logged.records, logged.records[0].getMessage()


@pytest.fixture(scope="module")
def property_server(tmp_path_factory) -> Iterator[tuple[str, Errors]]:
    handler = Errors()
    loggers = [logging.getLogger(name) for name in ("uvicorn.error", "uvicorn", "starlette")]
    for lg in loggers:
        lg.addHandler(handler)
    try:
        with running(tmp_path_factory.mktemp("prop") / "club.db") as base:
            gid = request(base, "POST", "/api/games", json.dumps(GOLD).encode(), token())[2]["id"]
            state = request(base, "GET", f"/api/games/{gid}", headers=token())[2]
            request(base, "POST", f"/api/games/{gid}/play", json.dumps({"at": "0", "base": state["base"],
                                                                          "text": "a1=G3 b1=G2"}).encode(), token())
            yield base, handler
    finally:
        for lg in loggers:
            lg.removeHandler(handler)


def test_time_to_refuse_is_short(server):
    """The depth is counted before parsing: a 4 MB body of brackets is refused in well under a second."""
    started = time.monotonic()
    status, _, _ = request(server, "POST", "/api/games", b"[" * (4 << 20), token())
    assert status == 400 and time.monotonic() - started < 2.0


# -- item 5: long work never blocks the server ------------------------------------------------------------------

def test_a_long_import_does_not_hold_up_other_requests(server):
    """Two imports read and validated off the event loop (a club's file of 800 games, and the slow reader's
    case of a record with a 200,000-character comment never closed) while plain requests are answered."""
    game = (Path(__file__).resolve().parent.parent / "examples" / "goldrush-2p.grn").read_text()
    # 800 games (2.7 MB, under the 4 MB body limit): about two seconds compiled on CI's machine, where 400 once
    # took 0.98 s and failed the check below that the import was long enough to matter
    big = json.dumps({"name": "club.grn", "text": "\n\n".join([game] * 800)}).encode()
    unclosed = json.dumps({"name": "u.grn", "text": game.replace("\n1. ", "\n1. {" + "x" * 200_000 + "\n", 1)
                           }).encode()
    answers: dict[str, Any] = {}

    def post(key: str, body: bytes) -> None:
        started = time.monotonic()
        answers[key] = request(server, "POST", "/api/import", body, token())[0], time.monotonic() - started

    import threading

    threads = [threading.Thread(target=post, args=("big", big)), threading.Thread(target=post, args=("u", unclosed))]
    for t in threads:
        t.start()
    time.sleep(0.2)
    waits = []
    while threads[0].is_alive():
        for path in ("/api/meta", "/api/games/1"):
            started = time.monotonic()
            assert request(server, "GET", path, headers=token())[0] == 200
            waits.append(time.monotonic() - started)
        time.sleep(0.05)
    for t in threads:
        t.join()
    # the import was long enough to matter
    assert answers["big"][0] == 200 and answers["big"][1] > 1.0, answers["big"]
    assert answers["u"][0] == 400
    # blocked, nearly every request would wait for the import's end (seconds); on a shared 2-core machine even
    # an idle server has a rare pause of a few hundred ms, so nine in ten must answer within 0.5 s
    waits.sort()
    assert len(waits) >= 10 and waits[len(waits) // 2] < 0.1 and waits[len(waits) * 9 // 10] < 0.5, waits[-5:]
