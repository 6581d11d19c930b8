"""A per-user cache of Lark's analysed grammar that cannot run code.

Building the LALR tables takes most of ``grn``'s start-up, so the result is
kept between runs.  Lark's own ``cache=`` option unpickles the cache file
before it checks the file's hash: whoever can write that file runs code as
the user.  This module keeps the same data (``Lark.memo_serialize``, the
data ``Lark.save`` would pickle) as JSON instead, so a planted or corrupt
file can at worst be rejected, and it guards the folder the file lives in:

* the folder (``$XDG_CACHE_HOME/grn`` or ``~/.cache/grn``) is created 0700;
  one that is a symlink, not a directory, owned by someone else, or writable
  by group or others is not used;
* files are opened relative to the checked folder's descriptor with
  ``O_NOFOLLOW`` and ``O_NONBLOCK`` (a symlink or a FIFO planted there is
  refused, not followed), must be regular files of the user, and are written
  to a fresh temporary file then renamed into place (``os.replace`` replaces a
  symlink, never writes through it);
* a file is used only when its header names the expected key (SHA-256 of the
  grammar, the options, the Lark and Python versions and this format) and the
  SHA-256 of its body; the grammar files it imported must still hash the same.

Any problem means building the parser as if there were no cache: the cache
can make grn faster, never make it fail.

Beside each game's tables the cache keeps a much smaller file, the grammar's
**terminal table** (:func:`load_terminals`, :func:`save_terminals`): each
terminal's regex and the order Lark's scanner tries them in, which is all the
fast reader (:mod:`grn.notation.fastread`) needs.  Reading it needs no Lark, so a game
the fast reader takes is checked without importing Lark at all (about a third
of a small file's ``grn validate``, docs/performance.md, "Start-up, round
seven"); its key names the installed Lark by the digest of its
``__init__.py`` (which holds its version), found without importing it.
Lark itself is imported by the functions that build or load a parser, not by
this module.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import stat
import sys
from typing import TYPE_CHECKING, Any, Callable

from grn.core import shipped

if TYPE_CHECKING:
    from lark import Lark

# Lark (about 166 M instructions to import, a third of a small file's validate) is imported inside the
# functions that build, load or save a parser: a game the fast reader takes needs only load_terminals.

__all__ = ["GRAMMAR_PACKAGES", "load_parser", "load_terminals", "save_terminals"]

#: Bumped when the file layout changes, so old files are simply not found.
FORMAT = "grn-grammar-cache-2"
#: The packages grn's grammars import their shared files from (``%import envelope``: ``grammar/envelope.lark``).
GRAMMAR_PACKAGES: tuple[str, ...] = ("grn.grammar",)
#: The layout of a terminal table's file (bumped like FORMAT).
TERMS_FORMAT = "grn-grammar-terminals-1"
#: A cache file is a few tens of kilobytes; anything far bigger is not ours.
MAX_BYTES = 8 * 1024 * 1024

# Options given again at load time (Lark's _LOAD_ALLOWED_OPTIONS) or that only
# matter while the grammar is read; they are not written to the file.
_RUNTIME_OPTIONS = frozenset({
    "postlex", "transformer", "lexer_callbacks", "use_bytes", "debug", "g_regex_flags", "regex",
    "propagate_positions", "tree_class", "_plugins",
})
_NOT_SAVED = _RUNTIME_OPTIONS | {"import_paths", "source_path", "cache", "cache_grammar"}
# Objects whose repr says nothing stable about what they do: left out of the key.
_UNHASHED = frozenset({"transformer", "postlex", "lexer_callbacks", "_plugins"})


def _builtin_sha256() -> Callable[[bytes], Any]:
    """CPython's own SHA-256 (``_sha2`` since 3.12, ``_sha256`` before), else :func:`hashlib.sha256`.

    The same digests; importing :mod:`hashlib` loads OpenSSL, about 2 ms of a command's start-up for the
    few kilobytes hashed here (docs/performance.md, "Start-up, round thirteen").
    """
    for name in ("_sha2", "_sha256"):
        try:
            return importlib.import_module(name).sha256  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    import hashlib  # an interpreter without the built-in module

    return hashlib.sha256


_sha256 = _builtin_sha256()


class _Unencodable(Exception):
    """Lark data holding a value this JSON form does not carry (then nothing is cached)."""


# ---------------------------------------------------------------------------
# The JSON form of Lark's serialized data
# ---------------------------------------------------------------------------
# Lark's data holds dicts with int keys, tuples and frozensets, which JSON
# does not keep apart from str keys and lists.  Every dict is written as
# {"d": [[key, value], ...]}, a tuple as {"t": [...]}, a frozenset as
# {"f": [...]}; lists stay arrays.  Decoding builds only these containers and
# scalars: there is no way to name a class or a function in the file.

def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, float)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, str):
        return str(value)  # a lark Token is a str: keep its text
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, tuple):
        return {"t": [_encode(v) for v in value]}
    if isinstance(value, frozenset):
        return {"f": [_encode(v) for v in value]}
    if isinstance(value, dict):
        return {"d": [[_encode(k), _encode(v)] for k, v in value.items()]}
    raise _Unencodable(type(value).__name__)


def _decode_object(obj: dict[str, Any]) -> Any:
    if len(obj) != 1:
        raise ValueError("not a cache container")
    if "d" in obj:
        return {k: v for k, v in obj["d"]}
    if "t" in obj:
        return tuple(obj["t"])
    if "f" in obj:
        return frozenset(obj["f"])
    raise ValueError("not a cache container")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in a cache file")


# ---------------------------------------------------------------------------
# The folder and its files
# ---------------------------------------------------------------------------

def _cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative value is to be ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "grn")


# Without these (e.g. on Windows) the folder cannot be used safely: no cache then.
_SUPPORTED = (hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY") and hasattr(os, "getuid")
              and os.open in os.supports_dir_fd and os.rename in os.supports_dir_fd)  # replace() goes with rename()


def _safe(st: os.stat_result, kind: Callable[[int], bool]) -> bool:
    """Of the right kind, the user's own, and not writable by anyone else."""
    return kind(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _open_dir(folder: str) -> int | None:
    """A descriptor of ``folder`` (made 0700 when missing), or ``None`` when it cannot be trusted."""
    if not _SUPPORTED:
        return None
    try:
        parent = os.path.dirname(folder)
        if not os.path.isdir(parent):
            os.makedirs(parent, mode=0o700, exist_ok=True)
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        # check the opened folder, not the path: what it names may change meanwhile
        if _safe(os.fstat(fd), stat.S_ISDIR):
            return fd
    except OSError:
        pass
    os.close(fd)
    return None


def _read(dir_fd: int, name: str) -> bytes | None:
    """The bytes of ``name`` in the folder, when it is a regular file of the user's (never a symlink)."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not _safe(st, stat.S_ISREG) or st.st_size > MAX_BYTES:
            return None
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
        return None
    except OSError:
        return None
    finally:
        os.close(fd)


def _write(dir_fd: int, name: str, data: bytes) -> None:
    """Put ``data`` at ``name`` atomically: a fresh 0600 file, then a rename over whatever is there."""
    tmp = f".{name}.{os.getpid()}.{os.urandom(8).hex()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                     dir_fd=dir_fd)
    except OSError:
        return
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except OSError:
        try:
            os.unlink(tmp, dir_fd=dir_fd)
        except OSError:
            pass


# ---------------------------------------------------------------------------
# Keys, used grammar files, and the file layout
# ---------------------------------------------------------------------------

def _key(grammar_text: str, options: dict[str, Any]) -> str:
    import lark

    described = sorted((k, repr(v)) for k, v in options.items() if k not in _UNHASHED)
    text = json.dumps([FORMAT, grammar_text, described, lark.__version__, list(sys.version_info[:2])])
    return _sha256(text.encode("utf-8")).hexdigest()


def _file_name(grammar_text: str, options: dict[str, Any]) -> str:
    """One file per grammar file and options: an edited grammar replaces its entry instead of adding one."""
    where = repr(options["source_path"]) if "source_path" in options else grammar_text
    described = sorted((k, repr(v)) for k, v in options.items() if k not in _UNHASHED)
    text = json.dumps([FORMAT, where, described])
    return f"{_sha256(text.encode('utf-8')).hexdigest()[:32]}.json"


def _file_text(path: Any) -> str | None:
    """The current text of a grammar file Lark imported (``None``: unreadable)."""
    from lark.load_grammar import PackageResource

    try:
        if isinstance(path, PackageResource):
            import pkgutil

            data = pkgutil.get_data(path.pkg_name, path.path)
            return None if data is None else data.decode("utf-8")
        if isinstance(path, str):
            with open(path, encoding="utf-8") as fh:
                return fh.read()
    except (OSError, ValueError, ImportError):
        pass
    return None


def _used_to_json(used: dict[Any, str]) -> list[list[str]]:
    from lark.load_grammar import PackageResource

    out = []
    for path, digest in used.items():
        if isinstance(path, PackageResource):
            out.append(["package", path.pkg_name, path.path, digest])
        elif isinstance(path, str):
            out.append(["file", "", path, digest])
        else:
            raise _Unencodable(type(path).__name__)
    return out


def _used_still_same(used: Any) -> bool:
    """Whether every imported grammar file still has the text the cached tables were built from."""
    from lark.load_grammar import PackageResource, sha256_digest

    if not isinstance(used, list):
        return False
    for entry in used:
        if not (isinstance(entry, list) and len(entry) == 4 and all(isinstance(e, str) for e in entry)):
            return False
        kind, package, path, digest = entry
        where: Any = PackageResource(package, path) if kind == "package" else path
        text = _file_text(where)
        if text is None or sha256_digest(text) != digest:
            return False
    return True


def _pack(key: str, parser: Lark, used: dict[Any, str]) -> bytes:
    from lark.common import TerminalDef
    from lark.grammar import Rule

    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _NOT_SAVED}
    doc = {"used_files": _used_to_json(used), "data": data, "memo": memo}
    body = json.dumps(_encode(doc), separators=(",", ":"), allow_nan=False).encode("utf-8")
    header = f"{FORMAT} {key} {_sha256(body).hexdigest()}\n".encode("ascii")
    return header + body


def _unpack(key: str, raw: bytes) -> tuple[Any, Any] | None:
    """The (data, memo) of a cache file, or ``None`` unless its header and checksum hold."""
    header, newline, body = raw.partition(b"\n")
    if not newline:
        return None
    want = f"{FORMAT} {key} {_sha256(body).hexdigest()}".encode("ascii")
    if header != want:
        return None
    doc = json.loads(body, object_hook=_decode_object, parse_constant=_no_constant)
    if not isinstance(doc, dict) or not _used_still_same(doc.get("used_files")):
        return None
    data, memo = doc.get("data"), doc.get("memo")
    if not isinstance(data, dict) or not isinstance(memo, dict) or not isinstance(data.get("options"), dict):
        return None
    return data, memo


# ---------------------------------------------------------------------------
# The public function
# ---------------------------------------------------------------------------

def _build(grammar_text: str, import_paths: list[Any], options: dict[str, Any]) -> tuple[Lark, dict[Any, str]]:
    """Build the parser from the grammar text, and note which grammar files it imported."""
    from lark import Lark
    from lark.load_grammar import load_grammar

    # Lark reads the grammar itself; reading it here too would double the cost,
    # so the imported files' hashes are taken from a second, cheap pass only
    # when the parser is built (that is, without a usable cache).
    parser = Lark(grammar_text, import_paths=list(import_paths), **options)
    _, used = load_grammar(grammar_text, options.get("source_path", "<string>"), list(import_paths),
                           options.get("keep_all_tokens", False))
    return parser, dict(used)


def load_parser(grammar_text: str, *, import_paths: list[Any], cache_dir: str | None = None,
                **lark_options: Any) -> Lark:
    """A Lark parser for ``grammar_text``, from the per-user cache when it holds a good one.

    ``import_paths`` and ``lark_options`` are passed to :class:`lark.Lark`
    (which must not be given ``cache``).  Only LALR parsers are cached; any
    other kind, an unusable folder or a bad file means building the parser
    afresh, exactly as ``Lark(grammar_text, import_paths=..., **lark_options)``.
    ``cache_dir`` replaces ``$XDG_CACHE_HOME/grn`` (for tests).
    """
    from lark import Lark

    if "cache" in lark_options or "cache_grammar" in lark_options:
        raise TypeError("load_parser does its own caching: do not pass cache=")
    if lark_options.get("parser") != "lalr" or lark_options.get("edit_terminals") is not None:
        return Lark(grammar_text, import_paths=list(import_paths), **lark_options)
    key = _key(grammar_text, {**lark_options, "import_paths": import_paths})
    name = _file_name(grammar_text, {**lark_options, "import_paths": import_paths})
    dir_fd = _open_dir(cache_dir or _cache_dir())
    if dir_fd is None:
        return Lark(grammar_text, import_paths=list(import_paths), **lark_options)
    try:
        raw = _read(dir_fd, name)
        if raw is not None:
            try:
                unpacked = _unpack(key, raw)
                if unpacked is not None:
                    data, memo = unpacked
                    runtime = {k: v for k, v in lark_options.items() if k in _RUNTIME_OPTIONS}
                    # lark's classmethod loads from in-memory data: no pickle involved
                    loaded: Lark = Lark._load_from_dict(data, memo, **runtime)
                    return loaded
            except Exception:  # noqa: BLE001 - a bad cache file is rebuilt, whatever is wrong with it
                pass
        parser, used = _build(grammar_text, import_paths, lark_options)
        try:
            _write(dir_fd, name, _pack(key, parser, used))
        except (_Unencodable, ValueError, TypeError):
            pass  # data this form cannot carry: run uncached
        return parser
    finally:
        os.close(dir_fd)


# ---------------------------------------------------------------------------
# The terminal table: what the fast reader needs, read without Lark
# ---------------------------------------------------------------------------

def lark_stamp() -> str | None:
    """The installed Lark, named without importing it: the SHA-256 of its ``__init__.py`` (which holds
    ``__version__``), or ``None`` when it cannot be found or read (then no terminal table is used)."""
    try:
        spec = importlib.util.find_spec("lark")
    except (ImportError, ValueError):
        return None
    origin = spec.origin if spec is not None else None
    if not origin or not os.path.isfile(origin):
        return None
    try:
        with open(origin, "rb") as fh:
            return _sha256(fh.read()).hexdigest()
    except OSError:
        return None


def _terms_key(grammar_text: str, packages: tuple[str, ...], stamp: str) -> str:
    text = json.dumps([TERMS_FORMAT, grammar_text, list(packages), stamp, list(sys.version_info[:2])])
    return _sha256(text.encode("utf-8")).hexdigest()


def _terms_file_name(grammar_text: str, packages: tuple[str, ...]) -> str:
    """One file per grammar: an edited grammar (or another Lark) replaces its entry instead of adding one."""
    text = json.dumps([TERMS_FORMAT, grammar_text, list(packages)])
    return f"{_sha256(text.encode('utf-8')).hexdigest()[:32]}.terms.json"


def _package_file_text(package: str, path: str) -> str | None:
    """The text of a grammar file shipped in ``package`` (``None``: not there), read without importing the
    package itself (Lark's own ``grammars/common.lark`` is one: finding it must not import Lark)."""
    try:
        found = shipped.file_path(package, path)
        if found is not None:
            with open(found, encoding="utf-8") as fh:
                return fh.read()
    except (OSError, ValueError, ImportError, UnicodeDecodeError):
        pass
    return None


def load_terminals(grammar_text: str, packages: tuple[str, ...], *, cache_dir: str | None = None) -> Any:
    """The terminal table :func:`save_terminals` kept for ``grammar_text`` (its JSON document), or ``None``.

    ``None`` unless the file's header names this grammar, the packages its imports come from, this Lark
    and this Python, its body's SHA-256 holds, and every grammar file it imported hashes as it did; the
    document's own shape is checked by its reader (:meth:`grn.notation.fastread.TerminalTable.from_json`).
    """
    stamp = lark_stamp()
    if stamp is None:
        return None
    dir_fd = _open_dir(cache_dir or _cache_dir())
    if dir_fd is None:
        return None
    try:
        raw = _read(dir_fd, _terms_file_name(grammar_text, packages))
    finally:
        os.close(dir_fd)
    if raw is None:
        return None
    header, newline, body = raw.partition(b"\n")
    want = f"{TERMS_FORMAT} {_terms_key(grammar_text, packages, stamp)} {_sha256(body).hexdigest()}"
    if not newline or header != want.encode("ascii"):
        return None
    try:
        doc = json.loads(body, parse_constant=_no_constant)
    except ValueError:
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("used_files"), list):
        return None
    for entry in doc["used_files"]:
        if not (isinstance(entry, list) and len(entry) == 3 and all(isinstance(e, str) for e in entry)):
            return None
        package, path, digest = entry
        text = _package_file_text(package, path)
        if text is None or _sha256(text.encode("utf-8")).hexdigest() != digest:
            return None
    return doc.get("table")


def save_terminals(grammar_text: str, packages: tuple[str, ...], table: Any, *, cache_dir: str | None = None) -> None:
    """Keep ``table`` (a JSON document) for :func:`load_terminals`, with the digests of the grammar files
    ``grammar_text`` imports from ``packages`` (found by Lark's own grammar loader).  Any problem: nothing kept."""
    from lark.load_grammar import FromPackageLoader, PackageResource, load_grammar

    stamp = lark_stamp()
    if stamp is None:
        return
    try:
        _, used = load_grammar(grammar_text, "<string>", [FromPackageLoader(p) for p in packages], False)
        files = []
        for where, digest in dict(used).items():
            if not isinstance(where, PackageResource):
                return  # a grammar file outside a package: not checked without Lark, so not kept
            files.append([where.pkg_name, where.path, digest])
        body = json.dumps({"used_files": files, "table": table}, separators=(",", ":"), allow_nan=False)
    except Exception:  # noqa: BLE001 - the table is only a cache: without it the parser is built as before
        return
    data = body.encode("utf-8")
    header = f"{TERMS_FORMAT} {_terms_key(grammar_text, packages, stamp)} {_sha256(data).hexdigest()}\n"
    dir_fd = _open_dir(cache_dir or _cache_dir())
    if dir_fd is None:
        return
    try:
        _write(dir_fd, _terms_file_name(grammar_text, packages), header.encode("ascii") + data)
    finally:
        os.close(dir_fd)
