"""JCloisterZone saved games (``.jcz``) to GRN and back, for the base game and The Gold Mines.

A ``.jcz`` file is JSON: ``setup`` (``sets``, ``elements``, ``rules``,
``start``), ``players`` (``name``, ``slot``), ``replay`` (the messages of
the game: ``PLACE_TILE``, ``PLACE_TOKEN`` for the second gold ingot,
``DEPLOY_MEEPLE`` or ``PASS``, then ``COMMIT``), optional
``gameAnnotations`` (``drawOrder``: the tiles in the order drawn;
``endTurn``: the game ends after that turn) and optional ``test``
(``assertions`` such as "Alice has 9 points").  JCloisterZone's y axis grows
south, GRN's north; its rotations (``R90``) are clockwise like GRN's; its
feature locations are read on the board, after the turn.  docs/interop.md
has the whole mapping and what is kept and what is not.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence, cast

from grn.errors import IllegalAction
from grn.interop import ConversionProblem, Exporter, Importer, one_line, player_name
from grn.record import Record
from grn.tiling.tiles import load_shipped_tileset
from grn.ruleset import COLOURS, SetupProblem, engine_for, player_key
from grn.writer import quote

#: The replay messages a base game (with The Gold Mines) is made of.
MESSAGES = ("PLACE_TILE", "PLACE_TOKEN", "DEPLOY_MEEPLE", "PASS", "COMMIT")
#: The follower of the base game; JCloisterZone's other figures belong to expansions.
SMALL = "small"
#: JCloisterZone's appVersion written on export (its own engine tests' version of the format).
APP_VERSION = "5.7.0"
#: The largest number GRN writes (R45: at most 9 digits).
LIMIT = 999_999_999
#: The key of a ``.jcz`` file where grn keeps what JCloisterZone has no word for (R55).
GRN_KEY = "grn"

# Location names: each edge is two bits shifted left by 8 (JCloisterZone's board/Location.java).
_EDGE_BITS = {"N": 0x0300, "E": 0x0C00, "S": 0x3000, "W": 0xC000}
_EDGE_NAMES: dict[str, int] = {
    "N": 0x0300, "E": 0x0C00, "S": 0x3000, "W": 0xC000, "NW": 0xC300, "SW": 0xF000, "SE": 0x3C00,
    "NE": 0x0F00, "WE": 0xCC00, "NS": 0x3300, "NWSE": 0xFF00, "_N": 0xFC00, "_W": 0x3F00, "_S": 0xCF00,
    "_E": 0xF300,
}
#: The half edges of fields, in JCloisterZone's bit order, and the GRN place of each.
_HALVES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
_HALF_PLACE = dict(zip(_HALVES, ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")))
_PLACES = frozenset(("NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW", "C"))
_WHOLE = (("N", "NL", "NR"), ("E", "EL", "ER"), ("S", "SL", "SR"), ("W", "WL", "WR"))
CLOISTER = "CLOISTER"
_ROTATIONS = {"R0": 0, "R90": 90, "R180": 180, "R270": 270}
_MEEPLE_ID = re.compile(r"^(\d{1,3})\.([a-z-]+)\.(\d{1,3})$")
_POINTS = re.compile(r"^\s*(.+?) has (-?\d{1,9}) points?\s*$")


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    raw: dict[str, Any] = json.loads(resources.files(__package__).joinpath("jcz.json").read_text("utf-8"))
    return raw


def jcz_tile_ids() -> dict[str, str]:
    """GRN tile id -> JCloisterZone tile id."""
    tiles: dict[str, str] = _data()["tiles"]
    return tiles


def grn_tile_of() -> dict[str, str]:
    """JCloisterZone tile id (with the garden copies of its ``basic:2`` set) -> GRN tile id."""
    table = {jid: tid for tid, jid in jcz_tile_ids().items()}
    table.update(_data()["garden"])
    return table


def slot_colours() -> list[str]:
    """The GRN colour of each JCloisterZone player slot (R53)."""
    slots: list[str] = _data()["slots"]
    return slots


# ----------------------------------------------------------------------
# checked access to JSON, each problem naming its JSON path
def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return {dict: "an object", list: "a list", str: "a string", int: "a number", float: "a number"}.get(
        type(value), type(value).__name__)


def _obj(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConversionProblem(f"expected an object, found {_kind(value)}", path)
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise ConversionProblem(f"expected a list, found {_kind(value)}", path)
    return value


def _str(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise ConversionProblem(f"expected a string, found {_kind(value)}", path)
    return value


def _int(value: Any, path: str, low: int = -LIMIT, high: int = LIMIT) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value != int(value):
        raise ConversionProblem(f"expected a whole number, found {_kind(value)}", path)
    number = int(value)
    if not low <= number <= high:
        raise ConversionProblem(f"{number} is out of range ({low} to {high})", path)
    return number


def _need(doc: dict[str, Any], key: str, path: str) -> Any:
    if key not in doc:
        raise ConversionProblem(f"{key!r} is missing", path)
    return doc[key]


def _xy(value: Any, path: str) -> tuple[int, int]:
    """A JCloisterZone position ``[x, y]`` (y grows south) as GRN ``(x, y)`` (y grows north)."""
    pair = _list(value, path)
    if len(pair) != 2:
        raise ConversionProblem(f"a position is [x, y], not {len(pair)} numbers", path)
    return _int(pair[0], path + "[0]"), -_int(pair[1], path + "[1]")


def _clean_comment(text: str) -> str:
    """``text`` as the inside of a GRN ``{comment}`` (no braces, one line)."""
    return one_line(text.replace("{", "(").replace("}", ")"))


# ----------------------------------------------------------------------
# locations
def location_place(text: str, path: str) -> str:
    """The GRN place of a JCloisterZone feature location (``N``, ``WE``, ``NL.NR.EL``, ``CLOISTER``)."""
    if text == CLOISTER:
        return "C"
    parts = text.split(".")
    if all(p in _EDGE_NAMES for p in parts) and len(parts) == 1:
        mask = _EDGE_NAMES[parts[0]]
        return next(e for e in ("N", "E", "S", "W") if mask & _EDGE_BITS[e])
    if all(p in _HALF_PLACE for p in parts):
        # as grn names a field: the middle of its first whole edge, else its first half edge
        whole = [e for e, a, b in _WHOLE if a in parts and b in parts]
        return whole[0] if whole else _HALF_PLACE[next(h for h in _HALVES if h in parts)]
    raise ConversionProblem(f"location {text!r} is not a place of the base game's features "
                            "(an edge such as N or WE, half edges such as NL.NR, or CLOISTER)", path)


def place_location(places: Sequence[str], kind: str) -> str:
    """The JCloisterZone location of a feature holding these GRN ``places`` (on the board) of a tile."""
    if kind == "cloister":
        return CLOISTER
    if kind == "field":
        return ".".join(h for h in _HALVES if _HALF_PLACE[h] in places)
    mask = 0
    for e, bits in _EDGE_BITS.items():
        if e in places:
            mask |= bits
    return next(name for name, m in _EDGE_NAMES.items() if m == mask)


# ----------------------------------------------------------------------
# import
class _Turn:
    __slots__ = ("player", "tile", "xy", "rotation", "ingot", "follower", "discards", "committed", "path",
                 "takes")

    def __init__(self, player: int, tile: str, xy: tuple[int, int], rotation: int, path: str) -> None:
        self.player = player
        self.tile = tile
        self.xy = xy
        self.rotation = rotation
        self.ingot: tuple[int, int] | None = None
        self.follower: str | None = None
        self.discards: list[str] = []
        self.committed = False
        self.path = path
        self.takes: list[tuple[int, int]] = []


def _options(setup: dict[str, Any]) -> tuple[list[str], bool]:
    """The words of the Options tag from ``setup``, and whether The Gold Mines is played."""
    sets = _obj(_need(setup, "sets", "$.setup"), "$.setup.sets")
    base = gold = False
    for name, count in sets.items():
        path = f"$.setup.sets[{json.dumps(name)}]"
        if name in ("basic", "basic:1", "basic:2"):
            base = True
        elif name == "goldmines":
            gold = True
        else:
            raise ConversionProblem(f"the expansion {name!r} is not supported: grn reads the base game and "
                                    "The Gold Mines", path)
        if _int(count, path) != 1:
            raise ConversionProblem(f"{count} copies of the tile set {name!r}: grn reads one", path)
    if not base:
        raise ConversionProblem("the base game's tiles (basic:1 or basic:2) are not in the game", "$.setup.sets")
    words: list[str] = []
    farmers = True
    elements = _obj(setup.get("elements", {}), "$.setup.elements")
    for name, value in elements.items():
        path = f"$.setup.elements[{json.dumps(name)}]"
        if name == "small-follower":
            if _int(value, path) != 7:
                raise ConversionProblem(f"{value} followers each: the base game has 7", path)
        elif name == "farmers":
            if not isinstance(value, bool):
                raise ConversionProblem(f"expected true or false, found {_kind(value)}", path)
            farmers = value
        elif name == "gold":
            if value is not True and value is not False:
                raise ConversionProblem(f"expected true or false, found {_kind(value)}", path)
            # the ingots come with The Gold Mines' tile set, which says whether it is played
        elif value not in (False, 0, None):
            raise ConversionProblem(f"the figure or element {name!r} is not supported: grn reads the base game's "
                                    "followers and The Gold Mines' ingots", path)
    rules = _obj(setup.get("rules", {}), "$.setup.rules")
    small = rules.get("tiny-city-scoring", "4")
    if small not in ("2", "4"):
        raise ConversionProblem(f"tiny-city-scoring is {small!r}: it is \"4\" or \"2\"",
                                '$.setup.rules["tiny-city-scoring"]')
    if gold:
        words.append("goldmines")
    if not farmers:
        words.append("farmers=off")
    if small == "2":
        words.append("smallcity")
    start = setup.get("start")
    if start is not None:
        tiles = _list(start, "$.setup.start")
        want = {"tile": _data()["start"], "x": 0, "y": 0, "rotation": 0}
        if len(tiles) != 1 or _obj(tiles[0], "$.setup.start[0]") != want:
            raise ConversionProblem("the start is not the base game's start tile BA/RCr at 0,0 unturned",
                                    "$.setup.start")
    return words, gold


def _players(value: Any) -> tuple[list[str], list[str], list[str]]:
    """Names (as GRN can write them), GRN colours and names as written, of the players in turn order."""
    players = _list(value, "$.players")
    if not 2 <= len(players) <= 5:
        raise ConversionProblem(f"Carcassonne is for 2 to 5 players, not {len(players)}", "$.players")
    names: list[str] = []
    raw_names: list[str] = []
    slots: list[int] = []
    for i, raw in enumerate(players):
        p = _obj(raw, f"$.players[{i}]")
        name = _str(p.get("name", ""), f"$.players[{i}].name")
        raw_names.append(name)
        # a GRN name holds no comma, parenthesis or line break (the Players tag's syntax)
        names.append(player_name(name))
        slots.append(_int(_need(p, "slot", f"$.players[{i}]"), f"$.players[{i}].slot", 0, 99))
    if len(set(slots)) != len(slots):
        raise ConversionProblem("two players have the same slot", "$.players")
    palette = slot_colours()
    colours = [palette[s] if s < len(palette) else "" for s in slots]
    spare = [c for c in COLOURS if c not in colours]
    colours = [c or spare.pop(0) for c in colours]
    return names, colours, raw_names


def _read_replay(replay: list[Any], n_players: int, gold: bool) -> list[_Turn]:
    tiles = grn_tile_of()
    turns: list[_Turn] = []
    cur: _Turn | None = None
    for i, raw in enumerate(replay):
        path = f"$.replay[{i}]"
        msg = _obj(raw, path)
        kind = _str(_need(msg, "type", path), path + ".type")
        payload = _obj(msg.get("payload", {}), path + ".payload")
        if kind not in MESSAGES:
            raise ConversionProblem(f"the message {kind!r} is not supported: a base game is made of "
                                    + ", ".join(MESSAGES), path + ".type")
        if kind == "PLACE_TILE":
            if cur is not None and not cur.committed:
                raise ConversionProblem("a tile is placed before the turn before it was committed", path)
            jid = _str(_need(payload, "tileId", path + ".payload"), path + ".payload.tileId")
            tile = tiles.get(jid)
            if tile is None:
                raise ConversionProblem(f"the tile {jid!r} is not a tile of the base game or The Gold Mines",
                                        path + ".payload.tileId")
            if tile.startswith("GM") and not gold:
                raise ConversionProblem(f"the tile {jid!r} belongs to The Gold Mines, which $.setup leaves out",
                                        path + ".payload.tileId")
            rot_text = _str(payload.get("rotation", "R0"), path + ".payload.rotation")
            if rot_text not in _ROTATIONS:
                raise ConversionProblem(f"rotation {rot_text!r} is not one of R0, R90, R180, R270",
                                        path + ".payload.rotation")
            xy = _xy(_need(payload, "position", path + ".payload"), path + ".payload.position")
            default = len(turns) % n_players
            player = _int(msg.get("player", default), path + ".player", 0, n_players - 1)
            cur = _Turn(player, tile, xy, _ROTATIONS[rot_text], path)
            turns.append(cur)
            continue
        if cur is None or cur.committed:
            raise ConversionProblem(f"{kind} comes before the tile of its turn", path)
        if kind == "PLACE_TOKEN":
            token = _str(_need(payload, "token", path + ".payload"), path + ".payload.token")
            if token != "GOLD":
                raise ConversionProblem(f"the token {token!r} is not supported: the only token of The Gold "
                                        "Mines is GOLD", path + ".payload.token")
            if cur.ingot is not None or cur.follower is not None:
                raise ConversionProblem("a second ingot placed twice, or after the follower", path)
            cur.ingot = _xy(_need(payload, "pointer", path + ".payload"), path + ".payload.pointer")
        elif kind == "DEPLOY_MEEPLE":
            if cur.follower is not None:
                raise ConversionProblem("a second follower in one turn", path)
            meeple = _str(_need(payload, "meepleId", path + ".payload"), path + ".payload.meepleId")
            m = _MEEPLE_ID.match(meeple)
            if m is None:
                raise ConversionProblem(f"meeple id {meeple!r} is not PLAYER.TYPE.NUMBER", path + ".payload.meepleId")
            if m.group(2) != SMALL:
                raise ConversionProblem(f"the figure {m.group(2)!r} is not supported: the base game has only "
                                        "followers (small)", path + ".payload.meepleId")
            pointer = _obj(_need(payload, "pointer", path + ".payload"), path + ".payload.pointer")
            where = _xy(_need(pointer, "position", path + ".payload.pointer"), path + ".payload.pointer.position")
            if where != cur.xy:
                raise ConversionProblem("the follower goes on another tile than the one placed this turn",
                                        path + ".payload.pointer.position")
            loc = _str(_need(pointer, "location", path + ".payload.pointer"), path + ".payload.pointer.location")
            cur.follower = location_place(loc, path + ".payload.pointer.location")
        elif kind == "COMMIT":
            cur.committed = True
        # PASS: no follower, nothing to write
    return turns


def _draws(annotations: dict[str, Any], turns: list[_Turn], bag_size: int) -> list[str]:
    """The discards hidden in ``drawOrder``: a drawn tile that is not the next one placed fitted nowhere.

    Those of a turn go into it; those after the last tile placed are returned.
    """
    if "drawOrder" not in annotations:
        return []
    order = _list(annotations["drawOrder"], "$.gameAnnotations.drawOrder")
    tiles = grn_tile_of()
    ids = [tiles.get(_str(t, f"$.gameAnnotations.drawOrder[{k}]")) for k, t in enumerate(order)]
    k = 0
    for n, turn in enumerate(turns, start=1):
        while k < len(ids) and ids[k] != turn.tile:
            if ids[k] is None:
                raise ConversionProblem(f"the tile {order[k]!r} is not a tile of the base game or The Gold Mines",
                                        f"$.gameAnnotations.drawOrder[{k}]")
            turn.discards.append(str(ids[k]))
            k += 1
        if k == len(ids):
            raise ConversionProblem(f"turn {n} places tile {jcz_tile_ids()[turn.tile]} that the draw order does "
                                    "not hold next", "$.gameAnnotations.drawOrder")
        k += 1
    rest = ids[k:]
    # tiles drawn after the last one placed were discarded when they empty the bag (R57); otherwise they
    # are not drawn yet, or the tile of a turn saved before it was placed
    if rest and all(r is not None for r in rest) and len(turns) + sum(len(t.discards) for t in turns) \
            + len(rest) == bag_size:
        return [str(r) for r in rest]
    return []


def _ext(doc: dict[str, Any]) -> tuple[list[tuple[str, str]], dict[int, list[tuple[int, int]]],
                                       dict[int, dict[str, Any]]]:
    """What an exported file kept for grn (R55): the record's tags, its ``take@`` choices by turn, and the
    words of turns JCloisterZone says otherwise (a follower's place, an ingot it sets by itself)."""
    raw = doc.get(GRN_KEY)
    if raw is None:
        return [], {}, {}
    ext = _obj(raw, f"$.{GRN_KEY}")
    tags = []
    for k, item in enumerate(_list(ext.get("tags", []), f"$.{GRN_KEY}.tags")):
        pair = _list(item, f"$.{GRN_KEY}.tags[{k}]")
        if len(pair) != 2:
            raise ConversionProblem("a tag is [name, value]", f"$.{GRN_KEY}.tags[{k}]")
        name = _str(pair[0], f"$.{GRN_KEY}.tags[{k}][0]")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
            raise ConversionProblem(f"{name!r} is not a tag name", f"$.{GRN_KEY}.tags[{k}][0]")
        value = _str(pair[1], f"$.{GRN_KEY}.tags[{k}][1]")
        tags.append((name, one_line(value)))
    takes: dict[int, list[tuple[int, int]]] = {}
    for key, spots in _obj(ext.get("takes", {}), f"$.{GRN_KEY}.takes").items():
        path = f"$.{GRN_KEY}.takes[{json.dumps(key)}]"
        if not (key.isascii() and key.isdigit() and len(key) < 10):
            raise ConversionProblem("a key of takes is a turn number", path)
        takes[int(key)] = [_xy(s, f"{path}[{j}]") for j, s in enumerate(_list(spots, path))]
    written: dict[int, dict[str, Any]] = {}
    for key, raw_words in _obj(ext.get("written", {}), f"$.{GRN_KEY}.written").items():
        path = f"$.{GRN_KEY}.written[{json.dumps(key)}]"
        if not (key.isascii() and key.isdigit() and len(key) < 10):
            raise ConversionProblem("a key of written is a turn number", path)
        words = _obj(raw_words, path)
        entry: dict[str, Any] = {}
        if "follower" in words:
            place = _str(words["follower"], path + ".follower")
            if place not in _PLACES:
                raise ConversionProblem(f"{place!r} is not a place of a tile", path + ".follower")
            entry["follower"] = place
        if "ingot" in words:
            entry["ingot"] = _xy(words["ingot"], path + ".ingot")
        written[int(key)] = entry
    return tags, takes, written


def _assertions(doc: dict[str, Any], names: list[str], colours: list[str]) -> tuple[dict[str, int], list[str]]:
    """Points asserted by a test file (colour -> points), and the other assertions, kept as comments."""
    test = doc.get("test")
    if test is None:
        return {}, []
    test = _obj(test, "$.test")
    points: dict[str, int] = {}
    other: list[str] = []
    description = test.get("description")
    if description is not None:
        other.append("test: " + _str(description, "$.test.description"))
    for k, raw in enumerate(_list(test.get("assertions", []), "$.test.assertions")):
        text = _str(raw, f"$.test.assertions[{k}]")
        m = _POINTS.match(text)
        if m is not None and m.group(1) in names:
            points[colours[names.index(m.group(1))]] = int(m.group(2))
        else:
            other.append("assertion: " + text)
    return points, other


def jcz_to_grn(text: str, tags: dict[str, str] | None = None) -> str:
    """The GRN record of the JCloisterZone saved game ``text``.  Raises :class:`ConversionProblem`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConversionProblem(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", "$") from None
    except RecursionError:
        raise ConversionProblem("not a saved game: JSON nested too deeply", "$") from None
    doc = _obj(data, "$")
    setup = _obj(_need(doc, "setup", "$"), "$.setup")
    words, gold = _options(setup)
    ext_tags, takes, written = _ext(doc)
    names, colours, raw_names = _players(_need(doc, "players", "$"))
    replay = _list(_need(doc, "replay", "$"), "$.replay")
    turns = _read_replay(replay, len(names), gold)
    annotations = _obj(doc.get("gameAnnotations", {}), "$.gameAnnotations")
    bag = sum(t.count for t in load_shipped_tileset(__package__)
              if gold or not t.id.startswith("GM")) - 1  # the start tile is not drawn
    last_discards = _draws(annotations, turns, bag)
    for n, spots in takes.items():
        if 1 <= n <= len(turns):
            turns[n - 1].takes = spots
    for n, entry in written.items():
        if 1 <= n <= len(turns):
            t = turns[n - 1]
            if t.follower is not None and "follower" in entry:
                t.follower = entry["follower"]
            if t.ingot is None and "ingot" in entry:
                t.ingot = entry["ingot"]
    ended = False
    if "endTurn" in annotations:
        end = _int(annotations["endTurn"], "$.gameAnnotations.endTurn", 0)
        if end < len(turns):
            raise ConversionProblem(f"the game ends after turn {end}, but the replay has {len(turns)} turns",
                                    "$.gameAnnotations.endTurn")
        ended = end == len(turns) and all(t.committed for t in turns)
    points, notes = _assertions(doc, raw_names, colours)

    header: dict[str, str] = {"Game": "carcassonne"}
    name = doc.get("name")
    if isinstance(name, str) and one_line(name):
        header["Event"] = one_line(name)
    created = doc.get("created")
    if isinstance(created, str):
        try:
            header["Date"] = datetime.fromisoformat(created.replace("Z", "+00:00")).strftime("%Y.%m.%d")
        except (ValueError, OverflowError):
            pass
    header["Players"] = ", ".join(f"{n} ({c})" if n else c for n, c in zip(names, colours))
    if words:
        header["Options"] = ", ".join(words)
    if ended:
        header["End"] = "now"
        if len(points) == len(colours):
            header["Result"] = ", ".join(f"{c} {points[c]}" for c in colours)
    header.update(dict(ext_tags))
    header.update({k: one_line(v) for k, v in (tags or {}).items()})
    lines = [f"[{k} {quote(v)}]" for k, v in header.items()]
    version = doc.get("appVersion")
    source = "JCloisterZone" + (f" {version}" if isinstance(version, str) else "") + " saved game"
    lines += ["", "{" + _clean_comment(source + (": " + "; ".join(notes) if notes else "")) + "}"]
    for n, t in enumerate(turns, start=1):
        words_ = [f"discard {d}" for d in t.discards]
        x, y = t.xy
        words_.append(f"{t.tile}@{x},{y}" + (f":{t.rotation}" if t.rotation else ""))
        if t.ingot is not None:
            words_.append(f"ingot@{t.ingot[0]},{t.ingot[1]}")
        if t.follower is not None:
            words_.append("+" + t.follower)
        words_ += [f"take@{a},{b}" for a, b in t.takes]
        if n == len(turns) and points and not ended:
            words_.append("score " + " ".join(f"{c}={p}" for c, p in points.items()))
        lines.append(f"{n}. {colours[t.player]} " + " ".join(words_))
    if last_discards:
        who = (turns[-1].player + 1) % len(colours) if turns else 0
        lines.append(f"{len(turns) + 1}. {colours[who]} " + " ".join(f"discard {d}" for d in last_discards))
    if points and ended and "Result" not in header:
        lines.append("{" + _clean_comment("points asserted after the final scoring: " + ", ".join(
            f"{c} {p}" for c, p in points.items())) + "}")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------
# export
def grn_to_jcz(record: Record) -> str:
    """The JCloisterZone saved game of ``record``'s main line.  Raises :class:`ConversionProblem`."""
    from grn.games.carcassonne import RULESET, CarcassonneState, PlaceFollower, PlaceIngot, TakeIngot
    from grn.tiling.commands import DiscardTile, PlaceTile
    from grn.tiling.places import POSITIONS

    try:
        seats = RULESET.seats(record)
        options = RULESET.parse_options(record.options())
        engine = cast(CarcassonneState, engine_for(RULESET, record, seats))
    except SetupProblem as exc:
        raise ConversionProblem(exc.message, f"[{exc.tag}]" if exc.tag else None) from None
    keys = [s.key for s in seats]
    first = engine.current_player
    # JCloisterZone's first player is its players[0]: the seats, turned so the first to play leads
    order = keys[keys.index(first):] + keys[:keys.index(first)]
    palette = slot_colours()
    players = [{"name": next(s.name for s in seats if s.key == k) or k, "slot": palette.index(k)} for k in order]
    replay: list[dict[str, Any]] = []
    draws: list[str] = []
    takes: dict[str, list[list[int]]] = {}
    written: dict[str, dict[str, Any]] = {}
    on_board: dict[int, str] = {}  # segment id -> meeple id
    ids = jcz_tile_ids()
    count = 0
    for turn in record.mainline():
        where = f"turn {turn.number}"
        if turn.number == 0:
            raise ConversionProblem("a set-up turn (0.) has no counterpart in a JCloisterZone game", where)
        count += 1
        player = order.index(player_key(seats, turn.player))
        for a in turn.actions:
            if isinstance(a, DiscardTile):
                draws.append(ids.get(a.tile, a.tile))
        place = next((a for a in turn.actions if isinstance(a, PlaceTile)), None)
        if place is not None:
            if place.tile not in ids:
                raise ConversionProblem(f"tile {place.tile!r} has no JCloisterZone id", where)
            draws.append(ids[place.tile])
            replay.append({"type": "PLACE_TILE", "payload": {
                "tileId": ids[place.tile], "rotation": f"R{place.rotation}", "position": [place.x, -place.y]},
                "player": player})
            ingot = next((a for a in turn.actions if isinstance(a, PlaceIngot)), None)
            try:
                spots = engine.ingot_options(place)
            except IllegalAction as exc:
                raise ConversionProblem(f"{exc.message} (grn validate tells more)", where) from None
            if ingot is not None and len(spots) <= 1:
                # with one tile to take it, JCloisterZone sets the second ingot itself: no message
                written.setdefault(str(count), {})["ingot"] = [ingot.x, -ingot.y]
            elif ingot is not None:
                replay.append({"type": "PLACE_TOKEN", "payload": {"token": "GOLD", "pointer": [ingot.x, -ingot.y]},
                               "player": player})
            follower = next((a for a in turn.actions if isinstance(a, PlaceFollower)), None)
            meeple = ""
            if follower is not None:
                design = engine.tileset[place.tile]
                o = design.orientation(place.rotation)
                local = engine._segment_of(design, o, 0, follower.location)
                if local < 0:
                    raise ConversionProblem(f"{follower.location} names no feature of tile {place.tile}", where)
                places = [POSITIONS[i] for i in o.segment_places[local]]
                location = place_location(places, design.kinds[local])
                if location_place(location, where) != follower.location:
                    written.setdefault(str(count), {})["follower"] = follower.location
                used = set(on_board.values())
                meeple = next(f"{player}.{SMALL}.{n}" for n in range(1, 8) if f"{player}.{SMALL}.{n}" not in used)
                replay.append({"type": "DEPLOY_MEEPLE", "payload": {
                    "pointer": {"position": [place.x, -place.y], "location": location}, "meepleId": meeple},
                    "player": player})
            else:
                replay.append({"type": "PASS", "payload": {}, "player": player})
            replay.append({"type": "COMMIT", "payload": {"salt": "0"}, "player": player})
            spots_taken = [[a.x, -a.y] for a in turn.actions if isinstance(a, TakeIngot)]
            if spots_taken:
                takes[str(count)] = spots_taken
        before = set(engine.follower_at)
        try:
            engine.play_turn(player_key(seats, turn.player), list(turn.actions))
        except IllegalAction as exc:
            raise ConversionProblem(f"{exc.message} (grn validate tells more)", where) from None
        after = set(engine.follower_at)
        for gone in before - after:
            on_board.pop(gone, None)
        new = after - before
        if place is not None and meeple and new:
            on_board[new.pop()] = meeple
    doc: dict[str, Any] = {"appVersion": APP_VERSION, "gameId": _game_id(record), "name": record.tag("Event") or ""}
    date = record.tag("Date")
    if date and re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", date.strip()):
        doc["created"] = date.strip().replace(".", "-") + "T00:00:00.000Z"
    doc["initialRandom"] = 0.0
    doc["clock"] = 0
    sets: dict[str, int] = {"basic:1": 1}
    elements: dict[str, Any] = {"small-follower": 7, "farmers": options.farmers}
    if options.goldmines:
        sets["goldmines"] = 1
        elements["gold"] = True
    doc["setup"] = {"sets": sets, "elements": elements,
                    "rules": {"tiny-city-scoring": "2"} if options.smallcity else {},
                    "start": [{"tile": _data()["start"], "x": 0, "y": 0, "rotation": 0}], "options": {}}
    doc["players"] = players
    doc["replay"] = replay
    annotations: dict[str, Any] = {"drawOrder": draws}
    if (record.tag("End") or "").strip() == "now" and not engine.is_over:
        annotations["endTurn"] = count
    doc["gameAnnotations"] = annotations
    kept = [[k, v] for k, v in record.tags if k != "Game"]
    doc[GRN_KEY] = {"tags": kept, **({"takes": takes} if takes else {}), **({"written": written} if written else {})}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _game_id(record: Record) -> str:
    import hashlib

    from grn.writer import write_record

    return hashlib.sha1(write_record(record).encode("utf-8")).hexdigest()[:32]


class JczImporter(Importer):
    """Reads JCloisterZone saved games (``.jcz``)."""

    name = "jcz"
    title = "a JCloisterZone saved game"
    suffixes = (".jcz",)

    def to_grn(self, text: str, *, tags: dict[str, str]) -> str:
        return jcz_to_grn(text, tags)


class JczExporter(Exporter):
    """Writes JCloisterZone saved games (``.jcz``)."""

    name = "jcz"
    suffix = ".jcz"

    def from_grn(self, record: Record) -> str:
        return grn_to_jcz(record)


__all__ = ["JczImporter", "JczExporter", "jcz_to_grn", "grn_to_jcz", "location_place", "place_location",
           "jcz_tile_ids", "grn_tile_of", "slot_colours"]
