"""Where a command's output goes: the one way every grn command writes a file (rulings R80-R84).

Every command that writes (``render``, ``html``, ``site``, ``convert``, ``fmt --write``,
``selfplay``, ``tiles``, ``import``, ``export``, ``archive search``/``stats``/``export``,
and any command added later) goes through this module, so that output paths behave
the same everywhere:

* :func:`check_target` refuses, before any work, a path whose folder does not exist
  (``nosuch/x.svg: error: no folder 'nosuch'``) or that names a folder (R80);
* :func:`writing` (and :func:`write_text`, :func:`write_bytes`) writes a regular file
  under a temporary name beside it and renames it over the target only when the
  command finished, so an interrupted or failed run leaves the old file or the new
  one, never half of one (R81); a FIFO, a device or a symbolic link is written in
  place, never replaced (R82); a full disk or a refused permission is one line;
* :func:`output_folder` makes the folder a command was told to fill (``site -o DIR``),
  never a folder above it (R80);
* :func:`beside_input` names the file a drawing gets when no ``-o`` is given, and
  refuses to replace a file of that name unless told to (``--force``, R83).

Problems are :class:`OutputError`, whose :meth:`OutputError.line` is the one-line
message and :attr:`OutputError.exit_code` the exit code (2: the path cannot be used,
a usage error; 1: writing failed).  The command line turns them into that line and
that exit code for every command at once (``grn.cli.app``).
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Iterator, Optional

__all__ = ["OutputError", "check_target", "writing", "write_text", "write_bytes", "output_folder", "beside_input",
           "is_stdout"]

#: Exit codes: the path cannot be used as given (the user's to change), and writing failed.
USAGE = 2
FAILED = 1


class OutputError(Exception):
    """An output path that cannot be used, or a write that failed: one line, and an exit code."""

    def __init__(self, path: object, message: str, exit_code: int = USAGE) -> None:
        super().__init__(message)
        self.path = str(path)
        self.message = message
        self.exit_code = exit_code

    def line(self) -> str:
        """The message as grn prints it: ``PATH: error: MESSAGE``."""
        return f"{self.path}: error: {self.message}"

    def __repr__(self) -> str:
        return f"OutputError({self.path!r}, {self.message!r}, exit_code={self.exit_code})"


def is_stdout(path: Optional[Path]) -> bool:
    """True when ``path`` means standard output: no path, or ``-``."""
    return path is None or str(path) == "-"


def _folder_of(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _special(mode: int) -> bool:
    """A file that is written into, never replaced: a FIFO, a character or block device, a socket."""
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode)


def check_target(path: Optional[Path]) -> None:
    """Refuse, before any work is done, an output path that cannot be written.

    Standard output (None or ``-``) always can.  Raises :class:`OutputError` (exit 2)
    when the folder that would hold the file does not exist or is not a folder, or
    when the path names a folder.
    """
    if is_stdout(path):
        return
    assert path is not None
    folder = _folder_of(path)
    try:
        folder_mode = os.stat(folder).st_mode
    except FileNotFoundError:
        raise OutputError(path, f"no folder '{folder}' (grn makes no folders: create it first)") from None
    except OSError as exc:
        raise OutputError(path, f"cannot reach the folder '{folder}': {_reason(exc)}") from None
    if not stat.S_ISDIR(folder_mode):
        raise OutputError(path, f"'{folder}' is not a folder")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return  # a new file (or a symbolic link to one that is not there yet)
    except OSError as exc:
        raise OutputError(path, f"cannot write here: {_reason(exc)}") from None
    if stat.S_ISDIR(mode):
        raise OutputError(path, "is a folder: name a file inside it, such as "
                          f"'{path / ('out' + (path.suffix or ''))}'")


def _reason(exc: OSError) -> str:
    """An OSError in words, without Python's decoration."""
    if exc.errno == errno.ENOSPC:
        return "no space left on the device"
    if exc.errno == errno.EDQUOT:
        return "the disk quota is used up"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    return (exc.strerror or str(exc)).lower() if exc.strerror else str(exc)


class _Sink:
    """The file a command writes to: a write that fails (a full disk) is an :class:`OutputError` naming the output."""

    def __init__(self, fh: IO[Any], where: object) -> None:
        self._fh = fh
        self._where = where

    def write(self, data: Any) -> int:
        """Write ``data``; a failure is one line naming the output."""
        try:
            return self._fh.write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(self._where, f"cannot write: {_reason(exc)}", FAILED) from None

    def writelines(self, lines: Any) -> None:
        """Write each of ``lines``."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fh, name)


@contextmanager
def writing(path: Optional[Path], *, binary: bool = False, whole: bool = True) -> Iterator[IO[Any]]:
    """Open ``path`` for writing; the output counts only if the ``with`` block ends without an exception.

    * ``None`` or ``-``: standard output (text, or its byte buffer with ``binary``).
      With ``whole`` (the default) the output is held in a temporary file and written
      out at the end, so a command that fails half-way prints nothing; ``whole=False``
      streams (a search whose rows should appear as they are found).
    * A regular file, or a new one: a temporary file beside it (``.NAME.XXXX.part``),
      renamed over ``path`` at the end, keeping an existing file's permissions.  An
      exception inside the block (an error, Ctrl-C) removes the temporary file and
      leaves the old file as it was.
    * A FIFO, a device or a symbolic link: held in a temporary file and written into
      ``path`` in place at the end (through the link, to its target), never replaced.

    Raises :class:`OutputError`: an unusable path (exit 2, checked first as
    :func:`check_target` does), or a write that failed, such as a full disk (exit 1).
    """
    mode = "wb" if binary else "w"
    text_args: dict[str, Any] = {} if binary else {"encoding": "utf-8", "newline": "\n"}
    if is_stdout(path):
        stream: IO[Any] = sys.stdout.buffer if binary else sys.stdout
        if not whole:
            yield _Sink(stream, "<stdout>")  # type: ignore[misc]
            _finish(stream.flush, "<stdout>")
            return
        with tempfile.TemporaryFile(mode + "+", **text_args) as spool:
            yield _Sink(spool, "<stdout>")  # type: ignore[misc]
            _copy_out(spool, stream, "<stdout>")
        return
    assert path is not None
    check_target(path)
    try:
        in_place = path.is_symlink() or _special(os.stat(path).st_mode)
    except FileNotFoundError:
        in_place = False
    except OSError as exc:
        raise OutputError(path, f"cannot write here: {_reason(exc)}") from None
    if in_place:
        with tempfile.TemporaryFile(mode + "+", **text_args) as spool:
            yield _Sink(spool, path)  # type: ignore[misc]
            try:
                target = open(path, mode, **text_args)
            except OSError as exc:
                raise OutputError(path, f"cannot write: {_reason(exc)}", FAILED) from None
            try:
                _copy_out(spool, target, path)
            finally:
                try:
                    target.close()
                except OSError:
                    pass  # _copy_out flushed and reported what failed
        return
    folder = _folder_of(path)
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise OutputError(path, f"cannot write in '{folder}': {_reason(exc)}", FAILED) from None
    done = False
    try:
        sink = os.fdopen(fd, mode, **text_args)
        yield _Sink(sink, path)  # type: ignore[misc]
        _finish(sink.close, path)  # closing writes the last bytes: a full disk may show only here
        _set_mode(temp, path)
        _finish(lambda: os.replace(temp, path), path)
        done = True
    finally:
        if not done:
            try:
                sink.close()
            except OSError:
                pass
            try:
                os.unlink(temp)
            except OSError:
                pass


def _finish(step: Any, where: object) -> None:
    try:
        step()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(where, f"cannot write: {_reason(exc)}", FAILED) from None


def _set_mode(temp: str, path: Path) -> None:
    """Give the new file the old one's permissions (and owner, where allowed), or those a new file gets (0666
    less the umask)."""
    try:
        old = os.stat(path)
        os.chmod(temp, stat.S_IMODE(old.st_mode))
        if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
            try:
                os.chown(temp, old.st_uid, old.st_gid)  # as root, another user's file stays theirs
            except OSError:
                pass
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)


def _copy_out(spool: IO[Any], target: IO[Any], where: object) -> None:
    spool.seek(0)
    try:
        shutil.copyfileobj(spool, target, 1 << 20)
        target.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(where, f"cannot write: {_reason(exc)}", FAILED) from None


def write_text(path: Optional[Path], text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` line ends) to ``path`` as :func:`writing` does (None, ``-``: standard output)."""
    with writing(path) as out:
        out.write(text)


def write_bytes(path: Optional[Path], data: bytes) -> None:
    """Write ``data`` to ``path`` as :func:`writing` does (None, ``-``: standard output)."""
    with writing(path, binary=True) as out:
        out.write(data)


def output_folder(path: Path) -> Path:
    """Make sure the folder a command fills exists: it is made when missing, but the folder that holds it must
    exist (grn makes the folder it was told to write, never one above it, R80).  Returns ``path``."""
    check_target_folder = _folder_of(path)
    if not check_target_folder.is_dir():
        if check_target_folder.exists():
            raise OutputError(path, f"'{check_target_folder}' is not a folder")
        raise OutputError(path, f"no folder '{check_target_folder}' (grn makes no folders above the one it "
                          "writes: create it first)")
    try:
        path.mkdir(exist_ok=True)
    except FileExistsError:
        raise OutputError(path, "is a file, not a folder") from None
    except OSError as exc:
        raise OutputError(path, f"cannot make the folder: {_reason(exc)}", FAILED) from None
    if not path.is_dir():
        raise OutputError(path, "is a file, not a folder")
    return path


def beside_input(source: str, name: str, *, force: bool = False) -> Path:
    """The file a command writes beside its input when given no ``-o`` (``game.grn`` -> ``game.svg``).

    ``name`` is the new file's name.  A file of that name already there is not replaced
    unless ``force`` (R83): the user did not name it.
    """
    target = Path(source).with_name(name)
    if not force and (target.exists() or target.is_symlink()):
        raise OutputError(target, "exists, and grn replaces no file you did not name: "
                          "pass -o FILE to choose the name, or --force to replace it")
    check_target(target)
    return target
