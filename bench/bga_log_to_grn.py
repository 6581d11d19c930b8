"""A Board Game Arena Carcassonne game log (JSON, as BGA's replay page loads it) as a GRN record.

    .venv/bin/python bench/bga_log_to_grn.py LOG.json [--source TEXT] [--licence NAME] [--table N] [-o GAME.grn]

Used for the six logs of github Koki-Yamaguchi/carcassonne-ai (MIT): ``backend/src/data/<table>.json``,
added in commit 1ae902e089d36541f521ed1f471ba9f6fe66e1ae and deleted in 785926765654448c0d12719ba7a87e83e2f14455
(``tests/data/bga-<table>.grn``, tests/data/README.md); kept so that the conversion can be checked and repeated.

It also reads the shorter **event list** some sites keep of a BGA game (``924153644.json`` of github
zaharik-ua/carcassonne-gg, the carcassonne.gg tournament site, at commit
9c1117892b9d3e643486fda0d93b6bebf5b274e3): a JSON list of events, each with a ``seq`` and a ``type``:

- ``playTile``: ``player_id``, ``player_name``, ``tile_type`` (BGA's 1-24), ``x``, ``y`` and ``orientation``
  (1-4) as above, ``color_hex`` the player's colour;
- ``playPartisan``: ``position`` (BGA's ``pos``) on the tile of the event ``tile_event_seq``;
- ``cantPlay``: the drawn tile ``tile_type`` fitted nowhere and was discarded (the player then draws again);
- ``pickTile``: the drawing, not needed.

It holds no scores and no result: the record gets no checkpoints and no ``Result`` (``grn validate`` counts
the final scores itself), the table number comes from ``--table`` and the date is not known.

What the log holds, read from the logs themselves: ``data.data`` is a list of packets (``table_id``,
``move_id``, ``time`` in Unix seconds), each with a list of notifications:

- ``playTile``: ``player_id``, ``player_name``, the BGA tile ``type`` (1-24), ``x`` (east) and ``y`` (south)
  of the square, the start tile (type 15) being at 0,0 and not logged, and ``ori`` (1-4: ``ori - 1``
  quarter turns clockwise);
- ``playPartisan``: the follower put on the tile just played, ``pos`` being BGA's position on the tile;
- ``winPoints``: ``points`` won by ``player_id`` and ``score``, that player's total after them;
- ``gameStateChange`` with ``id`` 6 (after 5, which ends every turn): the play is over; the ``winPoints`` after it are the final scoring
  (unfinished features, then farms); ``id`` 99 holds ``result``, each player's colour and final score;
- ``pickTile`` and others: the drawing and the clocks, not needed.

A discarded tile (one that fits nowhere) would need a notification these logs do not show; the script stops
rather than guess.  The placements are turned into a CarcassonneLab replay link and read by grn's own importer
(grn/games/carcassonne/carcassonnelab.py, whose ``bga.json`` maps BGA's tile types, orientations and follower
positions to GRN), so the mapping is grn's, not this script's.  Each turn that changed a score gets a score
checkpoint with both players' totals as BGA had them after that turn (before the final scoring), and the
``Result`` tag holds BGA's final scores, so ``grn validate`` checks every score BGA wrote.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Sequence

from grn import parse
from grn.games.carcassonne.carcassonnelab import ALPHABET, encode_tiles, link_to_grn
from grn.notation.writer import write_record

#: BGA's start tile (not in the log: it lies at 0,0 at orientation 1).
START = 15
#: BGA's player colours (hex, as in ``result`` and the log's colour notes) to GRN's.  BGA draws the yellow
#: followers in orange (ffa500).
COLOURS = {"ff0000": "red", "0000ff": "blue", "008000": "green", "ffa500": "yellow", "000000": "black"}
#: The ``gameStateChange`` that ends the play: the points after it are the final scoring.
FINAL_SCORING_STATE = 6
#: The ``gameStateChange`` that ends the game (its ``args`` hold ``result``).
GAME_END_STATE = 99


class LogProblem(Exception):
    """The log holds something this script does not convert."""


def notifications(log: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(packet, notification) pairs in the log's order."""
    packets = log["data"]["data"]
    return [(p, n) for p in packets for n in p["data"]]


def read_log(log: dict[str, Any]) -> dict[str, Any]:
    """The game in ``log``: table, start time, players, placements, scores after each turn, final scores."""
    pairs = notifications(log)
    table = pairs[0][0]["table_id"]
    start = min(int(p["time"]) for p, _ in pairs)
    end = max(int(p["time"]) for p, _ in pairs)
    names: dict[str, str] = {}        # player id -> name, in the order of their first tile
    moves: list[dict[str, Any]] = []  # one per placed tile: who, type, x, y, ori, pos, scores after the turn
    scores: dict[str, int] = {}
    final_phase = False
    result: list[dict[str, Any]] | None = None
    for packet, n in pairs:
        kind, args = n["type"], n["args"]
        if kind == "playTile":
            if final_phase:
                raise LogProblem(f"table {table}: a tile played after the final scoring began")
            names.setdefault(str(args["player_id"]), args["player_name"])
            moves.append({"player": str(args["player_id"]), "id": args["id"], "type": int(args["type"]),
                          "x": int(args["x"]), "y": int(args["y"]), "ori": int(args["ori"]), "pos": 0,
                          "move_id": packet["move_id"]})
        elif kind == "playPartisan":
            last = moves[-1] if moves else None
            if last is None or args["id"] != last["id"] or str(args["player_id"]) != last["player"]:
                raise LogProblem(f"table {table}: a follower (move {packet['move_id']}) not on the tile just played")
            if args.get("ptype") != "normal" or args.get("piece") != "partisan":
                raise LogProblem(f"table {table}: a {args.get('ptype')} {args.get('piece')} is not a base-game follower")
            last["pos"] = int(args["pos"])
        elif kind == "winPoints":
            who = str(args["player_id"])
            before = scores.get(who, 0)
            scores[who] = int(args["score"])
            if scores[who] != before + int(args["points"]):
                raise LogProblem(f"table {table}: {args['player_name']} had {before}, won {args['points']} and "
                                 f"has {args['score']}")
            if not final_phase:
                moves[-1]["scores"] = dict(scores)
        elif kind == "gameStateChange" and args.get("id") == FINAL_SCORING_STATE:
            final_phase = True
        elif kind == "gameStateChange" and args.get("id") == GAME_END_STATE:
            result = (args.get("args") or {}).get("result")
    if not final_phase or result is None:
        raise LogProblem(f"table {table}: the log does not reach the end of the game")
    final = {str(r["player"]): int(r["score"]) for r in result}
    for who, pts in final.items():
        if scores.get(who, 0) != pts:
            raise LogProblem(f"table {table}: the result gives {names.get(who, who)} {pts}, the points add up to "
                             f"{scores.get(who, 0)}")
    colours = {str(r["player"]): COLOURS[r["color"].lower()] for r in result}
    return {"table": table, "start": start, "end": end, "names": names, "colours": colours, "moves": moves,
            "final": final, "result": result}


def link_of(moves: list[dict[str, Any]], discards: Sequence[tuple[int, int]] = ()) -> str:
    """The CarcassonneLab replay link of these placements (docs/interop.md), without the players.

    ``discards`` are (tiles placed before it, BGA type) of each drawn tile that fitted nowhere."""
    drawn = [START]
    for k, m in enumerate(moves):
        drawn += [t for before, t in discards if before == k]
        drawn.append(m["type"])
    drawn += [t for before, t in discards if before == len(moves)]
    tiles = encode_tiles(drawn)
    parts = []
    for m in moves:
        x, y, quarter = m["x"], m["y"], m["ori"] - 1
        if not 0 <= quarter <= 3 or abs(x) >= len(ALPHABET) or abs(y) >= len(ALPHABET) or not 0 <= m["pos"] <= 9:
            raise LogProblem(f"move {m['move_id']}: {m} cannot be written in a replay link")
        flags = quarter + (16 if x < 0 else 0) + (32 if y < 0 else 0)
        parts.append(ALPHABET[abs(x)] + ALPHABET[abs(y)] + ALPHABET[flags] + str(m["pos"]))
    marks = "".join(f".{before}" for before, _ in discards)
    return f"https://www.carcassonnelab.com/#/0/0{marks}/{tiles}/{''.join(parts)}"


def convert(log: dict[str, Any], source: str, licence: str = "MIT") -> str:
    game = read_log(log)
    names, colours, moves = game["names"], game["colours"], game["moves"]
    order = list(names)
    if len(order) != 2:
        raise LogProblem(f"table {game['table']}: {len(order)} players; this script converts 2-player games")
    for k, m in enumerate(moves):
        if m["player"] != order[k % 2]:
            raise LogProblem(f"table {game['table']}: move {m['move_id']} is not in turn (a discard?)")
    day = datetime.fromtimestamp(game["start"], timezone.utc)
    last = datetime.fromtimestamp(game["end"], timezone.utc)
    players = ", ".join(f"{names[p]} ({colours[p]})" for p in order)
    tags = {"Event": f"Board Game Arena table {game['table']}", "Date": day.strftime("%Y.%m.%d"),
            "Players": players,
            "Result": ", ".join(f"{colours[p]} {game['final'][p]}" for p in order)}
    when = (f"played {day:%Y-%m-%d %H:%M} to {last:%Y-%m-%d %H:%M} UTC"
            + (" (turn-based)" if (last - day).total_seconds() > 6 * 3600 else ""))
    describe = (f"Board Game Arena table {game['table']} (base game, 2 players, farmers), {when}; from its game "
                f"log {source}, {licence} licence, converted by bench/bga_log_to_grn.py. Score checkpoints: BGA's "
                f"scores after each turn that scored; Result: BGA's final scores.")

    def checkpoints(turns: list[str]) -> list[str]:
        if len(turns) != len(moves):
            raise LogProblem(f"table {game['table']}: {len(moves)} tiles but {len(turns)} turns")
        out = []
        previous: dict[str, int] = {}
        for line, m in zip(turns, moves):
            now = m.get("scores")
            if now and now != previous:
                line += " score " + " ".join(f"{colours[p]}={now.get(p, 0)}" for p in order)
                previous = now
            out.append(line)
        return out
    return _written(link_to_grn(link_of(moves), tags), describe, f"table {game['table']}: ", checkpoints)


def _written(text: str, describe: str, where: str,
             lines: Callable[[list[str]], list[str]] = lambda turns: turns) -> str:
    """The record ``text`` (grn's import of the replay link) with ``describe`` and the link as its first comment,
    its turn lines passed through ``lines``, read back and written in canonical form (the tags in grn's order)."""
    head, _, body = text.partition("\n\n")
    link_comment, _, turns = body.partition("\n")
    same = link_comment.strip("{}").replace("CarcassonneLab replay link:", "The same game as a CarcassonneLab replay link:")
    records = parse(head + "\n\n{" + describe + " " + same + "}\n" + "\n".join(lines(turns.splitlines())) + "\n")
    if len(records) != 1 or records[0].diagnostics:
        raise LogProblem(f"{where}the record written does not read back")
    return write_record(records[0])


def read_events(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The game in an event list: players (in the order of their first tile), colours, placements, discards."""
    names: dict[str, str] = {}
    colours: dict[str, str] = {}
    moves: list[dict[str, Any]] = []
    discards: list[tuple[int, int]] = []
    tile_seq: dict[int, dict[str, Any]] = {}
    for e in sorted(events, key=lambda e: int(e["seq"])):
        kind = e["type"]
        if kind == "playTile":
            who = str(e["player_id"])
            names.setdefault(who, e["player_name"])
            colour = COLOURS.get(str(e.get("color_hex", "")).lower())
            if colour is None:
                raise LogProblem(f"event {e['seq']}: colour {e.get('color_hex')!r} is not a BGA player colour")
            colours.setdefault(who, colour)
            move = {"player": who, "type": int(e["tile_type"]), "x": int(e["x"]), "y": int(e["y"]),
                    "ori": int(e["orientation"]), "pos": 0, "move_id": e["seq"]}
            moves.append(move)
            tile_seq[int(e["seq"])] = move
        elif kind == "playPartisan":
            on = tile_seq.get(int(e["tile_event_seq"]))
            if on is None or on is not moves[-1] or str(e["player_id"]) != on["player"]:
                raise LogProblem(f"event {e['seq']}: a follower not on the tile just played")
            on["pos"] = int(e["position"])
        elif kind == "cantPlay":
            discards.append((len(moves), int(e["tile_type"])))
        elif kind != "pickTile":
            raise LogProblem(f"event {e['seq']}: {kind!r} is not an event this script knows")
    return {"names": names, "colours": colours, "moves": moves, "discards": discards}


def convert_events(events: list[dict[str, Any]], source: str, licence: str, table: str | None) -> str:
    """The GRN record of an event list (no scores in it: no checkpoints, no ``Result``)."""
    game = read_events(events)
    names, colours, moves = game["names"], game["colours"], game["moves"]
    order = list(names)
    if len(order) != 2:
        raise LogProblem(f"{len(order)} players; this script converts 2-player games")
    for k, m in enumerate(moves):
        if m["player"] != order[k % 2]:
            raise LogProblem(f"event {m['move_id']}: tile {k + 1} is not in turn")
    tags = {"Players": ", ".join(f"{names[p]} ({colours[p]})" for p in order)}
    where = f"Board Game Arena table {table}" if table else "a Board Game Arena game"
    if table:
        tags["Event"] = where
    describe = (f"{where} (base game, 2 players, farmers); from its event list {source}, {licence}, converted by "
                f"bench/bga_log_to_grn.py. The list holds no scores: the final scores are grn's count.")
    return _written(link_to_grn(link_of(moves, game["discards"]), tags), describe, "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log", type=Path, help="a BGA game log (JSON)")
    ap.add_argument("--source", default=None,
                    help="where the log comes from, for the record's first comment (default: the file's name)")
    ap.add_argument("--licence", default="MIT", help="the log's licence, for the first comment (default: MIT)")
    ap.add_argument("--table", help="the BGA table number, for an event list (which does not hold it)")
    ap.add_argument("-o", "--output", type=Path, help="write here (default: standard output)")
    args = ap.parse_args(argv)
    try:
        log = json.loads(args.log.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        print(f"{args.log}: cannot read it as JSON: {exc}", file=sys.stderr)
        return 1
    try:
        if isinstance(log, list):  # an event list (the module's docstring)
            text = convert_events(log, args.source or args.log.name, args.licence, args.table)
        else:
            text = convert(log, args.source or args.log.name, args.licence)
    except LogProblem as exc:
        print(f"{args.log}: {exc}", file=sys.stderr)
        return 1
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a field missing or of another kind
        print(f"{args.log}: not a BGA game log or event list this script reads ({type(exc).__name__}: {exc})",
              file=sys.stderr)
        return 1
    if args.output:
        try:
            args.output.write_text(text, "utf-8")
        except OSError as exc:  # a missing folder, a directory, a full disk
            print(f"{args.output}: cannot write it: {exc.strerror or exc}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
