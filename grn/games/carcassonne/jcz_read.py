"""A JCloisterZone saved game (``.jcz``) as a GRN record: :func:`jcz_to_grn`.

The turns are read from the replay's messages (``PLACE_TILE``, ``PLACE_TOKEN``,
``DEPLOY_MEEPLE`` or ``PASS``, ``COMMIT``), the discards from the draw order,
the end from ``endTurn``, and a test file's assertions about points become
the ``Result`` tag or a score checkpoint (docs/rulings.md R52-R58).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from grn.games.carcassonne.jcz_format import (
    GRN_KEY, MEEPLE_ID, MESSAGES, PLACES, POINTS, ROTATIONS, SMALL, as_int, as_list, as_object, as_str,
    comment_text, grn_tile_of, jcz_tile_ids, kind_of, location_place, mapping_data, position_of, required,
    slot_colours,
)
from grn.games.carcassonne.options import MAX_COPIES
from grn.rules.interop import ConversionProblem, one_line, player_name
from grn.rules.ruleset import COLOURS
from grn.games.tiling.tiles import load_shipped_tileset
from grn.notation.writer import quote


class _Turn:
    """One turn of the replay, as read: the tile, where, the ingot, the follower's place, the discards before it."""

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


def _options(setup: dict[str, Any]) -> tuple[list[str], bool, tuple[str, int, int, int] | None]:
    """The words of the Options tag from ``setup``, whether The Gold Mines is played, and the start tile
    when it is not the base game's (tile, x, y, rotation; R86)."""
    sets = as_object(required(setup, "sets", "$.setup"), "$.setup.sets")
    base = gold = 0
    for name, count in sets.items():
        path = f"$.setup.sets[{json.dumps(name)}]"
        copies = as_int(count, path, 0, MAX_COPIES)
        if name in ("basic", "basic:1", "basic:2"):
            base += copies  # the two editions are the same tiles as far as the base game goes (R58)
        elif name == "goldmines":
            gold += copies
        else:
            raise ConversionProblem(f"the expansion {name!r} is not supported: grn reads the base game and "
                                    "The Gold Mines", path)
    if base > MAX_COPIES or gold > MAX_COPIES:
        raise ConversionProblem(f"more than {MAX_COPIES} copies of a tile set", "$.setup.sets")
    if not base:
        raise ConversionProblem("the base game's tiles (basic:1 or basic:2) are not in the game", "$.setup.sets")
    words: list[str] = []
    farmers = True
    elements = as_object(setup.get("elements", {}), "$.setup.elements")
    for name, value in elements.items():
        path = f"$.setup.elements[{json.dumps(name)}]"
        if name == "small-follower":
            if as_int(value, path) != 7:
                raise ConversionProblem(f"{value} followers each: the base game has 7", path)
        elif name == "farmers":
            if not isinstance(value, bool):
                raise ConversionProblem(f"expected true or false, found {kind_of(value)}", path)
            farmers = value
        elif name == "gold":
            if value is not True and value is not False:
                raise ConversionProblem(f"expected true or false, found {kind_of(value)}", path)
            # the ingots come with The Gold Mines' tile set, which says whether it is played
        elif value not in (False, 0, None):
            raise ConversionProblem(f"the figure or element {name!r} is not supported: grn reads the base game's "
                                    "followers and The Gold Mines' ingots", path)
    rules = as_object(setup.get("rules", {}), "$.setup.rules")
    small = rules.get("tiny-city-scoring", "4")
    if small not in ("2", "4"):
        raise ConversionProblem(f"tiny-city-scoring is {small!r}: it is \"4\" or \"2\"",
                                '$.setup.rules["tiny-city-scoring"]')
    if gold:
        words.append("goldmines" if gold == 1 else f"goldmines={gold}")
    if not farmers:
        words.append("farmers=off")
    if small == "2":
        words.append("smallcity")
    if base != 1:
        words.append(f"basic={base}")
    return words, gold > 0, _start(setup.get("start"), gold > 0)


def _start(value: Any, gold: bool) -> tuple[str, int, int, int] | None:
    """The start tile of ``setup.start`` (None: none given, or the base game's D at 0,0 unturned)."""
    if value is None:
        return None
    tiles = as_list(value, "$.setup.start")
    if len(tiles) != 1:
        raise ConversionProblem(f"{len(tiles)} start tiles: grn reads one (the river and other expansions' starts "
                                "are not supported)", "$.setup.start")
    entry = as_object(tiles[0], "$.setup.start[0]")
    jid = as_str(required(entry, "tile", "$.setup.start[0]"), "$.setup.start[0].tile")
    tile = grn_tile_of().get(jid)
    if tile is None or tile.startswith("GM") and not gold:
        raise ConversionProblem(f"the start tile {jid!r} is not a tile of the base game"
                                + (" or The Gold Mines" if gold else ""), "$.setup.start[0].tile")
    x, y = position_of([entry.get("x", 0), entry.get("y", 0)], "$.setup.start[0]")
    raw = entry.get("rotation", 0)
    rotation = ROTATIONS.get(raw) if isinstance(raw, str) else (
        as_int(raw, "$.setup.start[0].rotation", 0, 270) if not isinstance(raw, bool) else None)
    if rotation not in (0, 90, 180, 270):
        raise ConversionProblem(f"rotation {raw!r} is not 0, 90, 180 or 270 (R0, R90, R180, R270)",
                                "$.setup.start[0].rotation")
    assert rotation is not None
    if (tile, x, y, rotation) == ("D", 0, 0, 0):
        return None
    return tile, x, y, rotation


def _players(value: Any) -> tuple[list[str], list[str], list[str]]:
    """Names (as GRN can write them), GRN colours and names as written, of the players in turn order."""
    players = as_list(value, "$.players")
    if not 2 <= len(players) <= 5:
        raise ConversionProblem(f"Carcassonne is for 2 to 5 players, not {len(players)}", "$.players")
    names: list[str] = []
    raw_names: list[str] = []
    slots: list[int] = []
    for i, raw in enumerate(players):
        p = as_object(raw, f"$.players[{i}]")
        name = as_str(p.get("name", ""), f"$.players[{i}].name")
        raw_names.append(name)
        # a GRN name holds no comma, parenthesis or line break (the Players tag's syntax)
        names.append(player_name(name, f"$.players[{i}].name"))
        slots.append(as_int(required(p, "slot", f"$.players[{i}]"), f"$.players[{i}].slot", 0, 99))
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
        msg = as_object(raw, path)
        kind = as_str(required(msg, "type", path), path + ".type")
        payload = as_object(msg.get("payload", {}), path + ".payload")
        if kind not in MESSAGES:
            raise ConversionProblem(f"the message {kind!r} is not supported: a base game is made of "
                                    + ", ".join(MESSAGES), path + ".type")
        if kind == "PLACE_TILE":
            if cur is not None and not cur.committed:
                raise ConversionProblem("a tile is placed before the turn before it was committed", path)
            jid = as_str(required(payload, "tileId", path + ".payload"), path + ".payload.tileId")
            tile = tiles.get(jid)
            if tile is None:
                raise ConversionProblem(f"the tile {jid!r} is not a tile of the base game or The Gold Mines",
                                        path + ".payload.tileId")
            if tile.startswith("GM") and not gold:
                raise ConversionProblem(f"the tile {jid!r} belongs to The Gold Mines, which $.setup leaves out",
                                        path + ".payload.tileId")
            rot_text = as_str(payload.get("rotation", "R0"), path + ".payload.rotation")
            if rot_text not in ROTATIONS:
                raise ConversionProblem(f"rotation {rot_text!r} is not one of R0, R90, R180, R270",
                                        path + ".payload.rotation")
            xy = position_of(required(payload, "position", path + ".payload"), path + ".payload.position")
            default = len(turns) % n_players
            player = as_int(msg.get("player", default), path + ".player", 0, n_players - 1)
            cur = _Turn(player, tile, xy, ROTATIONS[rot_text], path)
            turns.append(cur)
            continue
        if cur is None or cur.committed:
            raise ConversionProblem(f"{kind} comes before the tile of its turn", path)
        if kind == "PLACE_TOKEN":
            token = as_str(required(payload, "token", path + ".payload"), path + ".payload.token")
            if token != "GOLD":
                raise ConversionProblem(f"the token {token!r} is not supported: the only token of The Gold "
                                        "Mines is GOLD", path + ".payload.token")
            if cur.ingot is not None or cur.follower is not None:
                raise ConversionProblem("a second ingot placed twice, or after the follower", path)
            cur.ingot = position_of(required(payload, "pointer", path + ".payload"), path + ".payload.pointer")
        elif kind == "DEPLOY_MEEPLE":
            if cur.follower is not None:
                raise ConversionProblem("a second follower in one turn", path)
            meeple = as_str(required(payload, "meepleId", path + ".payload"), path + ".payload.meepleId")
            m = MEEPLE_ID.match(meeple)
            if m is None:
                raise ConversionProblem(f"meeple id {meeple!r} is not PLAYER.TYPE.NUMBER", path + ".payload.meepleId")
            if m.group(2) != SMALL:
                raise ConversionProblem(f"the figure {m.group(2)!r} is not supported: the base game has only "
                                        "followers (small)", path + ".payload.meepleId")
            pointer = as_object(required(payload, "pointer", path + ".payload"), path + ".payload.pointer")
            where = position_of(required(pointer, "position", path + ".payload.pointer"), path + ".payload.pointer.position")
            if where != cur.xy:
                raise ConversionProblem("the follower goes on another tile than the one placed this turn",
                                        path + ".payload.pointer.position")
            loc = as_str(required(pointer, "location", path + ".payload.pointer"), path + ".payload.pointer.location")
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
    order = as_list(annotations["drawOrder"], "$.gameAnnotations.drawOrder")
    tiles = grn_tile_of()
    ids = [tiles.get(as_str(t, f"$.gameAnnotations.drawOrder[{k}]")) for k, t in enumerate(order)]
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
    ext = as_object(raw, f"$.{GRN_KEY}")
    tags = []
    for k, item in enumerate(as_list(ext.get("tags", []), f"$.{GRN_KEY}.tags")):
        pair = as_list(item, f"$.{GRN_KEY}.tags[{k}]")
        if len(pair) != 2:
            raise ConversionProblem("a tag is [name, value]", f"$.{GRN_KEY}.tags[{k}]")
        name = as_str(pair[0], f"$.{GRN_KEY}.tags[{k}][0]")
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
            raise ConversionProblem(f"{name!r} is not a tag name", f"$.{GRN_KEY}.tags[{k}][0]")
        value = as_str(pair[1], f"$.{GRN_KEY}.tags[{k}][1]")
        tags.append((name, one_line(value)))
    takes: dict[int, list[tuple[int, int]]] = {}
    for key, spots in as_object(ext.get("takes", {}), f"$.{GRN_KEY}.takes").items():
        path = f"$.{GRN_KEY}.takes[{json.dumps(key)}]"
        if not (key.isascii() and key.isdigit() and len(key) < 10):
            raise ConversionProblem("a key of takes is a turn number", path)
        takes[int(key)] = [position_of(s, f"{path}[{j}]") for j, s in enumerate(as_list(spots, path))]
    written: dict[int, dict[str, Any]] = {}
    for key, raw_words in as_object(ext.get("written", {}), f"$.{GRN_KEY}.written").items():
        path = f"$.{GRN_KEY}.written[{json.dumps(key)}]"
        if not (key.isascii() and key.isdigit() and len(key) < 10):
            raise ConversionProblem("a key of written is a turn number", path)
        words = as_object(raw_words, path)
        entry: dict[str, Any] = {}
        if "follower" in words:
            place = as_str(words["follower"], path + ".follower")
            if place not in PLACES:
                raise ConversionProblem(f"{place!r} is not a place of a tile", path + ".follower")
            entry["follower"] = place
        if "ingot" in words:
            entry["ingot"] = position_of(words["ingot"], path + ".ingot")
        written[int(key)] = entry
    return tags, takes, written


def _assertions(doc: dict[str, Any], names: list[str], colours: list[str]) -> tuple[dict[str, int], list[str]]:
    """Points asserted by a test file (colour -> points), and the other assertions, kept as comments."""
    test = doc.get("test")
    if test is None:
        return {}, []
    test = as_object(test, "$.test")
    points: dict[str, int] = {}
    other: list[str] = []
    description = test.get("description")
    if description is not None:
        other.append("test: " + as_str(description, "$.test.description"))
    for k, raw in enumerate(as_list(test.get("assertions", []), "$.test.assertions")):
        text = as_str(raw, f"$.test.assertions[{k}]")
        m = POINTS.match(text)
        if m is not None and m.group(1) in names:
            points[colours[names.index(m.group(1))]] = int(m.group(2))
        else:
            other.append("assertion: " + text)
    return points, other


def _refuse_old(doc: dict[str, Any]) -> None:
    """A save of JCloisterZone 4 or earlier is named as such (its format is another)."""
    version = doc.get("appVersion")
    major = version.split(".")[0] if isinstance(version, str) else ""
    if major.isdigit() and int(major) < 5 or version is None and "players" not in doc and "setup" not in doc:
        said = f"JCloisterZone {version}" if isinstance(version, str) else "an older JCloisterZone"
        raise ConversionProblem(f"a save of {said}: grn reads the saves of JCloisterZone 5 and later, whose "
                                "format is another; open it in JCloisterZone 5 and save it again", "$.appVersion"
                                if isinstance(version, str) else "$")


def _load(text: str) -> dict[str, Any]:
    """The saved game's top object; a problem for an XML save, text that is not JSON, or JSON grn cannot read."""
    if text.lstrip().startswith("<"):
        raise ConversionProblem("an XML save of JCloisterZone 4 or earlier: grn reads the JSON saves of "
                                "JCloisterZone 5 and later; open it in JCloisterZone 5 and save it again", "$")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConversionProblem(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}", "$") from None
    except RecursionError:
        raise ConversionProblem("not a saved game: JSON nested too deeply", "$") from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise ConversionProblem(f"not JSON grn can read: {exc}", "$") from None
    doc = as_object(data, "$")
    _refuse_old(doc)
    return doc


def _bag_size(words: list[str]) -> int:
    """How many tiles the bag held at the start with these options (the start tile is not drawn)."""
    copies = {"basic": 1, "goldmines": 0}
    for word in words:
        option, _, count = word.partition("=")
        if option in copies:
            copies[option] = int(count) if count else 1
    return sum(t.count * copies["goldmines" if t.id.startswith("GM") else "basic"]
               for t in load_shipped_tileset(__package__)) - 1


@dataclass
class _Ending:
    """Where the game ends: the turns played, the discards after the last of them, how many of the replay's
    turns are cut off, and whether JCloisterZone's end (``endTurn``) is reached with every turn committed."""

    turns: list[Any]
    last_discards: list[str]
    cut: int
    ended: bool


def _ending(annotations: dict[str, Any], turns: list[Any], bag: int) -> _Ending:
    """The turns up to JCloisterZone's end of the game (``gameAnnotations.endTurn``, R86)."""
    cut = 0
    if "endTurn" in annotations:
        # JCloisterZone ends the game there, whatever the replay holds after it (R86): no more turns than
        # that, and fewer where tiles were discarded (below)
        end = as_int(annotations["endTurn"], "$.gameAnnotations.endTurn", 0)
        if end < len(turns):
            cut = len(turns) - end
            turns = turns[:end]
    last_discards = _draws(annotations, turns, bag)  # each turn's discards, and those that emptied the bag
    if cut:
        last_discards = []
    if "endTurn" not in annotations:
        return _Ending(turns, last_discards, cut, False)
    # endTurn counts draws (ForcedDrawTilePack's drawLimit), a tile that fitted nowhere among them, so
    # with discards the game ends before that many turns; cutting at endTurn turns above is the most
    # it can hold (R86)
    drawn = 0
    for n, t in enumerate(turns):
        if drawn + len(t.discards) + 1 > end:
            last_discards = t.discards[:max(0, end - drawn)]
            drawn += len(last_discards)
            cut += len(turns) - n
            turns = turns[:n]
            break
        drawn += len(t.discards) + 1
    else:
        drawn += len(last_discards)
    return _Ending(turns, last_discards, cut, end == drawn and all(t.committed for t in turns))


def _written_back(turns: list[Any], takes: dict[int, Any], written: dict[int, dict[str, Any]]) -> None:
    """What grn wrote into the save's extension data (gold ingot takes, a follower's or ingot's place)."""
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


def _header(doc: dict[str, Any], names: list[str], colours: list[str], words: list[str], start: Any,
            ending: _Ending, points: dict[str, int]) -> dict[str, str]:
    """The record's tags from the save: game, event, date, players, options, start tile, end and result."""
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
    if start is not None:
        tile, x, y, rotation = start
        header["Start"] = f"{tile}@{x},{y}" + (f":{rotation}" if rotation else "")
    if ending.ended:
        header["End"] = "now"
        if len(points) == len(colours):
            header["Result"] = ", ".join(f"{c} {points[c]}" for c in colours)
    return header


def _turn_lines(ending: _Ending, colours: list[str], points: dict[str, int]) -> list[str]:
    """A GRN line per turn (discards, the tile, an ingot, a follower, takes; the asserted points after the last
    turn of a game that has not ended), then the discards that emptied the bag."""
    lines: list[str] = []
    turns = ending.turns
    for n, t in enumerate(turns, start=1):
        words_ = [f"discard {d}" for d in t.discards]
        x, y = t.xy
        words_.append(f"{t.tile}@{x},{y}" + (f":{t.rotation}" if t.rotation else ""))
        if t.ingot is not None:
            words_.append(f"ingot@{t.ingot[0]},{t.ingot[1]}")
        if t.follower is not None:
            words_.append("+" + t.follower)
        words_ += [f"take@{a},{b}" for a, b in t.takes]
        if n == len(turns) and points and not ending.ended:
            words_.append("score " + " ".join(f"{c}={p}" for c, p in points.items()))
        lines.append(f"{n}. {colours[t.player]} " + " ".join(words_))
    if ending.last_discards:
        who = (turns[-1].player + 1) % len(colours) if turns else 0
        lines.append(f"{len(turns) + 1}. {colours[who]} " + " ".join(f"discard {d}" for d in ending.last_discards))
    return lines


def jcz_to_grn(text: str, tags: dict[str, str] | None = None) -> str:
    """The GRN record of the JCloisterZone saved game ``text``.  Raises :class:`ConversionProblem`."""
    doc = _load(text)
    setup = as_object(required(doc, "setup", "$"), "$.setup")
    words, gold, start = _options(setup)
    ext_tags, takes, written = _ext(doc)
    names, colours, raw_names = _players(required(doc, "players", "$"))
    replay = as_list(required(doc, "replay", "$"), "$.replay")
    turns = _read_replay(replay, len(names), gold)
    annotations = as_object(doc.get("gameAnnotations", {}), "$.gameAnnotations")
    ending = _ending(annotations, turns, _bag_size(words))
    _written_back(ending.turns, takes, written)
    points, notes = _assertions(doc, raw_names, colours)
    if ending.cut:
        notes.insert(0, f"the game ends after turn {len(ending.turns)} (gameAnnotations.endTurn): the replay's "
                     f"{ending.cut} later turn{'s are' if ending.cut != 1 else ' is'} not played")
        if points:  # asserted of the whole replay, not of the game that ends early
            notes.append("points asserted after the whole replay: " + ", ".join(f"{c} {p}" for c, p in points.items()))
            points = {}
    unread = sorted(k for k in annotations if k not in ("drawOrder", "endTurn"))
    if unread:
        notes.append("gameAnnotations not read: " + ", ".join(unread))
    header = _header(doc, names, colours, words, start, ending, points)
    header.update(dict(ext_tags))
    header.update({k: one_line(v) for k, v in (tags or {}).items()})
    lines = [f"[{k} {quote(v)}]" for k, v in header.items()]
    version = doc.get("appVersion")
    source = "JCloisterZone" + (f" {version}" if isinstance(version, str) else "") + " saved game"
    lines += ["", "{" + comment_text(source + (": " + "; ".join(notes) if notes else "")) + "}"]
    lines += _turn_lines(ending, colours, points)
    if points and ending.ended and "Result" not in header:
        lines.append("{" + comment_text("points asserted after the final scoring: " + ", ".join(
            f"{c} {p}" for c, p in points.items())) + "}")
    return "\n".join(lines) + "\n"


__all__ = ["jcz_to_grn"]
