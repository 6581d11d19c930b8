"""The grn engine protocol: its wire format, and a client that drives an engine speaking it.

A line protocol over an engine's standard input and output, modelled on UCI
and GTP and specified in ``docs/protocol.md`` (version :data:`VERSION`).  grn
sends a :class:`Query` (the record so far as GRN, what the player to move
knows, and every legal move as a GRN turn text) and a :class:`Budget`; the
engine answers ``info`` lines and ``bestmove``.  :class:`Engine` is the
client, in the style of python-chess's ``chess.engine``::

    with Engine.popen(["node", "my-engine.js"]) as engine:
        result = engine.play(query, Budget(movetime=500))
        print(result.move, result.info.margin)

Every wait has a timeout; whatever goes wrong with the engine (it dies, says
something malformed, is late, answers a move not listed) raises
:class:`EngineError` with a one-line message that quotes the engine's own words.
"""

from __future__ import annotations

import math
import os
import select
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Iterator, Sequence

#: The protocol version this module speaks (``grn-engine 1``).
VERSION = 1
#: Seconds grn waits for the handshake's ``ready`` (an engine may load a network or tables first).
HANDSHAKE_TIMEOUT = 10.0
#: Seconds grn waits beyond a ``go``'s ``movetime`` before the answer is late (pipes and a busy machine, R366).
GRACE = 1.0
#: Seconds a move may take when a ``go`` carries no ``movetime`` (R366).
DEFAULT_MOVE_TIMEOUT = 30.0
#: Seconds ``quit`` waits for the engine to exit before it is killed.
QUIT_TIMEOUT = 2.0
#: The engine's last lines of standard error kept to quote when it fails (its own words).
STDERR_LINES = 5
#: The longest line either side reads; a longer one is malformed (a runaway engine cannot fill grn's memory).
MAX_LINE = 100_000


class ProtocolError(ValueError):
    """A message that does not follow the protocol (the words say which and why)."""


class EngineError(Exception):
    """The engine failed: it died, answered late or malformed, or chose a move that is not legal.

    ``words`` are the engine's own last words (its ``info string`` lines, ``error`` line or standard error)
    when it said any; :func:`str` gives one line with them.
    """

    def __init__(self, message: str, words: str = "") -> None:
        super().__init__(message + (f" (the engine said: {words})" if words else ""))
        self.message = message
        self.words = words


# -- messages ------------------------------------------------------------------


def _words(text: str) -> str:
    """``text`` with runs of spaces made one, as the protocol compares moves."""
    return " ".join(text.split())


def _check_line(text: str, what: str) -> None:
    if "\n" in text or "\r" in text:
        raise ProtocolError(f"{what} holds a line break: {text[:40]!r}")


@dataclass(frozen=True, slots=True)
class Query:
    """A ``position`` message: what the player to move knows, and the moves they may choose from.

    ``record`` is the game so far as GRN text (as the player saw it: no face only others saw); ``hand``
    what the player holds privately (tiles drawn this turn, discards first); ``unseen`` what is still hidden,
    by pool (``bag``, ``cards``, ``tokens``): each word and how many of it, never their order; ``moves``
    every legal turn as GRN turn text (no number, no player), in grn's order.
    """

    game: str
    player: str
    record: str
    hand: tuple[str, ...] = ()
    unseen: dict[str, dict[str, int]] = field(default_factory=dict)
    moves: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The message as lines, without line ends (docs/protocol.md, "position")."""
        for word in (self.game, self.player, *self.hand):
            if not word or len(word.split()) != 1:
                raise ProtocolError(f"not one word: {word!r}")
        record = self.record.splitlines()
        out = [f"position {self.game} {self.player}", f"record {len(record)}", *record,
               " ".join(("hand", *self.hand))]
        for pool, counts in self.unseen.items():
            out.append(" ".join((f"unseen {pool}", *(f"{w}:{n}" for w, n in counts.items()))))
        out.append(f"moves {len(self.moves)}")
        for move in self.moves:
            _check_line(move, "a move")
        out += self.moves
        out.append("end")
        return out

    def text(self) -> str:
        """The message as text, each line ended by ``\\n``."""
        return "\n".join(self.lines()) + "\n"


def read_query(first: str, lines: Iterator[str]) -> Query:
    """The ``position`` message whose first line is ``first``, its other lines read from ``lines``
    (without line ends).  Raises :class:`ProtocolError` naming what is wrong."""
    head = first.split()
    if len(head) != 3 or head[0] != "position":
        raise ProtocolError(f"expected 'position GAME PLAYER', not {first[:60]!r}")
    game, player = head[1], head[2]

    def take(what: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise ProtocolError(f"the position ends before its {what}") from None

    def counted(keyword: str) -> list[str]:
        line = take(f"'{keyword} N' line")
        words = line.split()
        if len(words) != 2 or words[0] != keyword or not words[1].isdigit() or not words[1].isascii():
            raise ProtocolError(f"expected '{keyword} N' (a count of lines), not {line[:60]!r}")
        return [take(f"{keyword} line {i + 1} of {words[1]}") for i in range(int(words[1]))]

    record = counted("record")
    hand_line = take("'hand' line").split()
    if not hand_line or hand_line[0] != "hand":
        raise ProtocolError(f"expected 'hand ...' after the record, not {' '.join(hand_line)[:60]!r}")
    unseen: dict[str, dict[str, int]] = {}
    while True:
        line = take("'moves N' line")
        words = line.split()
        if not words or words[0] != "unseen":
            break
        if len(words) < 2:
            raise ProtocolError("expected 'unseen POOL WORD:COUNT ...', not a bare 'unseen'")
        counts: dict[str, int] = {}
        for item in words[2:]:
            w, colon, n = item.rpartition(":")
            if not colon or not w or not n.isdigit() or not n.isascii():
                raise ProtocolError(f"expected WORD:COUNT in the unseen {words[1]} line, not {item[:40]!r}")
            counts[w] = int(n)
        unseen[words[1]] = counts
    if len(words) != 2 or words[0] != "moves" or not words[1].isdigit() or not words[1].isascii():
        raise ProtocolError(f"expected 'moves N' (a count of lines), not {line[:60]!r}")
    moves = tuple(_words(take(f"move {i + 1} of {words[1]}")) for i in range(int(words[1])))
    end = take("'end' line")
    if end.strip() != "end":
        raise ProtocolError(f"expected 'end' after the {len(moves)} moves, not {end[:60]!r}")
    return Query(game, player, "\n".join(record) + ("\n" if record else ""), tuple(hand_line[1:]), unseen, moves)


@dataclass(frozen=True, slots=True)
class Budget:
    """What a ``go`` allows: ``playouts`` (a search's own unit) and ``movetime`` (milliseconds); None: unsaid."""

    playouts: int | None = None
    movetime: int | None = None

    def line(self) -> str:
        """The ``go`` line."""
        parts = ["go"]
        if self.playouts is not None:
            parts += ["playouts", str(self.playouts)]
        if self.movetime is not None:
            parts += ["movetime", str(self.movetime)]
        return " ".join(parts)

    def timeout(self) -> float:
        """Seconds grn waits for the ``bestmove`` (R366)."""
        if self.movetime is None:
            return DEFAULT_MOVE_TIMEOUT
        return self.movetime / 1000 + GRACE


def read_go(line: str) -> Budget:
    """The budget of a ``go`` line (unknown keywords with their values are ignored, as UCI does)."""
    words = line.split()
    if not words or words[0] != "go":
        raise ProtocolError(f"expected 'go ...', not {line[:60]!r}")
    values: dict[str, int] = {}
    rest = words[1:]
    if len(rest) % 2:
        raise ProtocolError(f"'go' takes KEYWORD VALUE pairs, not {line[:60]!r}")
    for key, value in zip(rest[::2], rest[1::2]):
        if not value.isdigit() or not value.isascii() or len(value) > 12:
            raise ProtocolError(f"'go {key}' takes a whole number, not {value[:20]!r}")
        values[key] = int(value)
    return Budget(values.get("playouts"), values.get("movetime"))


@dataclass(frozen=True, slots=True)
class Candidate:
    """A move the engine weighed: its expected final margin (points, ± ``error``) and win chance."""

    move: str
    margin: float | None = None
    error: float | None = None
    win: float | None = None


@dataclass(slots=True)
class Info:
    """What the engine said while thinking: the best move's expected ``margin`` ± ``error`` (points, for the
    player to move), its ``win`` chance (0 to 1), the ``playouts`` and ``time`` (ms) it spent, a few
    ``candidates`` best first, and its free words (``info string``)."""

    margin: float | None = None
    error: float | None = None
    win: float | None = None
    playouts: int | None = None
    time: int | None = None
    candidates: list[Candidate] = field(default_factory=list)
    strings: list[str] = field(default_factory=list)


def _number(key: str, value: str) -> float:
    try:
        x = float(value)
    except ValueError:
        raise ProtocolError(f"'info {key}' takes a number, not {value[:20]!r}") from None
    if not math.isfinite(x):
        raise ProtocolError(f"'info {key}' takes a finite number, not {value[:20]!r}")
    return x


_FLOATS = ("margin", "error", "win")
_INTS = ("playouts", "time")


def read_info(line: str, info: Info) -> None:
    """Add an ``info`` line to ``info``: ``info string TEXT``, ``info candidate ... move MOVE``, or KEYWORD
    VALUE pairs (``margin``, ``error``, ``win``, ``playouts``, ``time``; others are ignored)."""
    words = line.split()
    if not words or words[0] != "info":
        raise ProtocolError(f"expected 'info ...', not {line[:60]!r}")
    if len(words) > 1 and words[1] == "string":
        info.strings.append(line.split(None, 2)[2] if len(words) > 2 else "")
        return
    candidate = len(words) > 1 and words[1] == "candidate"
    if candidate and (len(words) < 3 or not words[2].isdigit()):
        raise ProtocolError("'info candidate' takes its rank first: 'info candidate 1 margin ... move MOVE'")
    rest = words[3:] if candidate else words[1:]
    values: dict[str, float] = {}
    move: str | None = None
    i = 0
    while i < len(rest):
        key = rest[i]
        if key == "move":
            move = " ".join(rest[i + 1:])
            break
        if i + 1 >= len(rest):
            raise ProtocolError(f"'info {key}' has no value")
        value = rest[i + 1]
        if key in _FLOATS or key in _INTS:
            values[key] = _number(key, value)
        i += 2
    win = values.get("win")
    if win is not None and not 0 <= win <= 1:
        raise ProtocolError(f"'info win' is a chance from 0 to 1, not {win:g}")
    if candidate:
        if not move:
            raise ProtocolError("'info candidate' ends with 'move MOVE'")
        info.candidates.append(Candidate(move, values.get("margin"), values.get("error"), win))
        return
    for key in _FLOATS:
        if key in values:
            setattr(info, key, values[key])
    for key in _INTS:
        if key in values:
            setattr(info, key, int(values[key]))


@dataclass(frozen=True, slots=True)
class Option:
    """An option the engine offers: ``option name NAME type TYPE default VALUE [min N max N]``."""

    name: str
    type: str
    default: str = ""
    min: int | None = None
    max: int | None = None


def read_option(line: str) -> Option:
    """The option an ``option`` line declares."""
    words = line.split()
    if len(words) < 5 or words[0] != "option" or words[1] != "name" or words[3] != "type":
        raise ProtocolError(f"expected 'option name NAME type TYPE ...', not {line[:60]!r}")
    extra = dict(zip(words[4::2], words[5::2]))

    def whole(key: str) -> int | None:
        v = extra.get(key)
        if v is None:
            return None
        try:
            return int(v)
        except ValueError:
            raise ProtocolError(f"option {words[2]}: '{key}' takes a whole number, not {v[:20]!r}") from None

    return Option(words[2], words[4], extra.get("default", ""), whole("min"), whole("max"))


@dataclass(frozen=True, slots=True)
class PlayResult:
    """An engine's answer to a ``go``: the move it chose (one of the query's moves) and what it said."""

    move: str
    info: Info


# -- the client ------------------------------------------------------------------


@dataclass(slots=True)
class Costs:
    """Where the time of the moves went, in seconds: grn framing, sending and parsing (``framing``), and
    waiting for the answers (``waiting``, which holds the engine's thinking and the pipes)."""

    moves: int = 0
    framing: float = 0.0
    waiting: float = 0.0


class Engine:
    """A running engine that speaks the protocol (python-chess's ``SimpleEngine``, for grn).

    Open one with :meth:`popen`; it is a context manager that quits the engine on leaving.  ``id`` holds the
    engine's ``id`` lines (``name``, ``author``), ``options`` what it offers, ``version`` the protocol
    version it speaks.
    """

    def __init__(self, process: "subprocess.Popen[bytes]", command: str, *, timeout: float = HANDSHAKE_TIMEOUT) -> None:
        self.process = process
        self.command = command
        self.id: dict[str, str] = {}
        self.options: dict[str, Option] = {}
        self.version = 0
        self.costs = Costs()
        self._stderr: list[str] = []
        self._said: list[str] = []  # the engine's words since the last query (info string, error)
        self._dead = False
        # the answers are read from the pipe by this thread, waiting with select (a timeout on every wait, and
        # no hand-over between threads on each line); standard error is drained by a thread of its own
        assert process.stdin is not None and process.stdout is not None
        self._in = process.stdin.fileno()
        self._out = process.stdout.fileno()
        os.set_blocking(self._in, False)
        self._buffer = b""
        self._eof = False
        threading.Thread(target=self._drain, args=(process.stderr,), daemon=True).start()
        try:
            self._handshake(timeout)
        except BaseException:
            self.close()
            raise

    @classmethod
    def popen(cls, command: str | Sequence[str], *, timeout: float = HANDSHAKE_TIMEOUT, cwd: str | None = None,
              env: dict[str, str] | None = None) -> "Engine":
        """Start ``command`` (a list of words, or a string split as a shell would) and shake hands with it."""
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        shown = command if isinstance(command, str) else shlex.join(argv)
        if not argv:
            raise EngineError("no engine command given")
        try:
            process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       bufsize=0, cwd=cwd, env=env if env is not None else dict(os.environ))
        except OSError as exc:
            raise EngineError(f"cannot start the engine {shown!r}: {exc.strerror or exc}") from None
        return cls(process, shown, timeout=timeout)

    def __repr__(self) -> str:
        return f"<Engine {self.id.get('name', self.command)!r} pid={self.process.pid}>"

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    # -- the pipes ---------------------------------------------------------------
    def _drain(self, stream: IO[bytes]) -> None:
        try:
            for line in stream:
                self._stderr.append(line.decode("utf-8", "replace").rstrip()[:300])
                del self._stderr[:-STDERR_LINES]
        except (OSError, ValueError):
            pass

    def words(self) -> str:
        """The engine's last words: its ``info string`` and ``error`` lines since the query, else its standard
        error's last lines."""
        said = [w for w in self._said if w]
        if said:
            return "; ".join(said[-3:])[:300]
        return " / ".join(s for s in self._stderr if s)[:300]

    def _fail(self, message: str) -> EngineError:
        return EngineError(f"engine {self.id.get('name', self.command)!r}: {message}", self.words())

    def _stop(self, message: str) -> EngineError:
        """The failure of an engine out of step with the protocol: it is stopped (what it says next would be
        read as the answer to the next message)."""
        error = self._fail(message)
        self.close(0.5)
        return error

    def _send(self, text: str, timeout: float = HANDSHAKE_TIMEOUT) -> None:
        """Write ``text``; an engine that reads none of it for ``timeout`` seconds has failed."""
        if self._dead:
            raise self._fail("it has stopped")
        data = memoryview(text.encode("utf-8"))
        deadline = time.monotonic() + timeout
        while data:
            try:
                sent = os.write(self._in, data)
            except BlockingIOError:  # the pipe is full: wait until the engine reads
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [self._in], [], left)[1]:
                    raise self._fail(f"it read nothing of a message for {timeout:g} s") from None
                continue
            except (OSError, ValueError):
                self._dead = True
                raise self._gone() from None
            data = data[sent:]

    def _gone(self) -> EngineError:
        try:
            code = self.process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            code = None
        time.sleep(0.05)  # let the standard error's last lines arrive: they are the engine's words
        how = "it closed its output" if code is None else f"it exited with code {code}"
        return self._fail(f"the engine died ({how})")

    def _readline(self, deadline: float, waiting_for: str, within: str) -> str:
        """The engine's next line, waiting until ``deadline`` (``time.monotonic``)."""
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                self._buffer = buffer[end + 1:]
                if end > MAX_LINE:
                    raise self._fail(f"a line longer than {MAX_LINE} characters")
                return buffer[:end].decode("utf-8", "replace").rstrip("\r")
            if len(buffer) > MAX_LINE:
                raise self._fail(f"a line longer than {MAX_LINE} characters")
            if self._eof:
                self._dead = True
                raise self._gone()
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._out], [], [], left)[0]:
                self._buffer = buffer
                error = self._fail(f"no {waiting_for} within {within}")
                self.close(0.5)  # a late answer would be taken for the next one's: the engine is stopped
                raise error
            try:
                chunk = os.read(self._out, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                self._eof = True
            buffer += chunk

    def _handshake(self, timeout: float) -> None:
        self._send(f"grn-engine {VERSION}\n")
        deadline = time.monotonic() + timeout
        while True:
            line = self._readline(deadline, "'ready' line", f"{timeout:g} s of 'grn-engine {VERSION}'")
            words = line.split()
            if not words:
                continue
            if words[0] == "id" and len(words) >= 3:
                self.id[words[1]] = line.split(None, 2)[2].strip()
            elif words[0] == "option":
                try:
                    option = read_option(line)
                except ProtocolError as exc:
                    raise self._fail(str(exc)) from None
                self.options[option.name] = option
            elif words[0] == "ready":
                version = words[1] if len(words) > 1 else ""
                if not version.isdigit() or int(version) != VERSION:
                    raise self._fail(f"it speaks protocol version {version or '(none given)'}, grn speaks "
                                     f"{VERSION}: expected 'ready {VERSION}'")
                self.version = int(version)
                return
            elif words[0] == "error":
                self._said.append(line.split(None, 1)[1] if len(words) > 1 else "")
                raise self._fail("it refused the handshake")
            elif words[0] == "info":
                continue
            else:
                raise self._fail(f"expected 'id', 'option' or 'ready {VERSION}' in the handshake, not "
                                 f"{line[:60]!r}")

    # -- what bot writers call ---------------------------------------------------------
    def configure(self, options: dict[str, str | int | bool]) -> None:
        """Set options the engine offers (``setoption name NAME value VALUE``); an unknown name is an error."""
        for name, value in options.items():
            if name not in self.options:
                known = ", ".join(self.options) or "none"
                raise self._fail(f"it offers no option {name!r} (its options: {known})")
            text = str(value).lower() if isinstance(value, bool) else str(value)
            _check_line(text, "an option's value")
            self._send(f"setoption name {name} value {text}\n")

    def play(self, query: Query, budget: Budget = Budget(), *, timeout: float | None = None) -> PlayResult:
        """The engine's move at ``query`` within ``budget``: one of ``query.moves`` (as listed), and its info.

        ``timeout`` (seconds) defaults to the budget's movetime and a grace (R366).  Raises
        :class:`EngineError` when the engine dies, is late, says something malformed or answers a move not
        listed."""
        start = time.perf_counter()
        self._said = []
        text = query.text() + budget.line() + "\n"
        limit = budget.timeout() if timeout is None else timeout
        self._send(text, limit)
        deadline = time.monotonic() + limit
        info = Info()
        waited = 0.0
        while True:
            before = time.perf_counter()
            line = self._readline(deadline, "bestmove", f"{limit:g} s")
            got = time.perf_counter()
            waited += got - before
            words = line.split(None, 1)
            if not words:
                continue
            key = words[0]
            if key == "info":
                try:
                    read_info(line, info)
                except ProtocolError as exc:
                    raise self._stop(f"a malformed info line: {exc}") from None
                if line.split(None, 2)[1:2] == ["string"]:
                    self._said.append(info.strings[-1])
            elif key == "bestmove":
                move = _words(words[1]) if len(words) > 1 else ""
                break
            elif key == "error":
                self._said.append(words[1] if len(words) > 1 else "")
                raise self._fail("it could not choose a move")
            else:
                raise self._stop(f"expected 'info' or 'bestmove', not {line[:60]!r}")
        legal = query.moves
        if move not in legal:
            shown = move[:60] if move else "nothing"
            raise self._fail(f"bestmove {shown!r} is not one of the {len(legal)} legal moves sent")
        costs = self.costs
        costs.moves += 1
        costs.waiting += waited
        costs.framing += (time.perf_counter() - start) - waited
        return PlayResult(move, info)

    def analyse(self, query: Query, budget: Budget = Budget(), *, timeout: float | None = None) -> Info:
        """What the engine thinks of ``query``: its info (margin, error, win chance), whose candidates begin with
        the move it chose."""
        result = self.play(query, budget, timeout=timeout)
        info = result.info
        if not info.candidates or info.candidates[0].move != result.move:
            info.candidates.insert(0, Candidate(result.move, info.margin, info.error, info.win))
        return info

    def ping(self, timeout: float = HANDSHAKE_TIMEOUT) -> None:
        """Wait until the engine has read everything sent (``ping`` is answered by ``pong``)."""
        self._send("ping\n")
        deadline = time.monotonic() + timeout
        while True:
            line = self._readline(deadline, "'pong'", f"{timeout:g} s")
            if line.strip() == "pong":
                return

    @property
    def alive(self) -> bool:
        """Whether the engine's process still runs."""
        return not self._dead and self.process.poll() is None

    def quit(self, timeout: float = QUIT_TIMEOUT) -> None:
        """Ask the engine to quit; killed if it has not within ``timeout`` seconds.  Safe to call twice."""
        if self.process.poll() is None and not self._dead:
            try:
                self._send("quit\n")
            except EngineError:
                pass
        self.close(timeout)

    def close(self, timeout: float = QUIT_TIMEOUT) -> None:
        """Stop the engine's process (killed if it does not end within ``timeout`` seconds)."""
        self._dead = True
        process = self.process
        try:
            if process.stdin is not None:
                process.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:  # pragma: no cover - a process that outlives SIGKILL
                pass


__all__ = ["VERSION", "Query", "Budget", "Info", "Candidate", "Option", "PlayResult", "Engine", "EngineError",
           "ProtocolError", "Costs", "read_query", "read_go", "read_info", "read_option"]
