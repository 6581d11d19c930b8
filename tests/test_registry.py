"""The registry sits at the bottom of grn: no import circle, and a game's package loads only when asked for.

* ``grn/games/games.json`` (checked by ``schemas/games.schema.json``) names each built-in
  game, its aliases and its package, and each package's ruleset agrees with it;
* an alias finds its game in a fresh interpreter, before the game's package is loaded (R120);
* the modules of grn import one another without a circle, counting imports inside functions
  (R121 says how an import is counted);
* ``grn validate`` of a file of one game imports that game's package and none of the others,
  nor the drawing, the archive's database code or the JSON Schema (a Gold file: not even the
  tile-laying core).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import jsonschema
import pytest

from grn.core import registry

ROOT = Path(__file__).resolve().parent.parent
GRN = ROOT / "grn"


def test_games_json_follows_its_schema_and_the_packages_agree():
    data = json.loads((GRN / "games" / "games.json").read_text(encoding="utf-8"))
    schema = json.loads((ROOT / "schemas" / "games.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["default"] in [g["name"] for g in data["games"]]
    for game in data["games"]:
        ruleset = registry.find_ruleset(game["name"])
        assert ruleset.name == game["name"]
        assert sorted(ruleset.aliases) == sorted(game["aliases"]), f"{game['name']}: aliases differ"
        assert type(ruleset).__module__.startswith(game["package"])


def _fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return done.stdout.strip()


def test_an_alias_finds_its_game_before_the_game_is_loaded():
    # R120: the registry knows the built-in aliases from its data, so "Gold Rush" works first
    out = _fresh("import sys; from grn.rules import registry; "
                 "print(registry.loaded('goldrush') is None, registry.find_ruleset('Carcassonne: Gold Rush').name, "
                 "registry.find_ruleset('carcassonne base').name, 'grn.games.gold' in sys.modules)")
    assert out == "True goldrush carcassonne False"


def test_an_unknown_game_lists_the_known_ones():
    with pytest.raises(registry.UnknownGame, match="goldrush, gold, carcassonne"):
        registry.find_ruleset("chess")


# --- import circles --------------------------------------------------------------------------------


def module_files(package: Path) -> dict[str, Path]:
    """Module name -> file, for every module under ``package`` (a folder named as the top package)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports, anywhere in its code (R121).

    Every ``import`` and ``from ... import`` counts, at the top of the module or inside a
    function, except those under ``if TYPE_CHECKING:`` (never run).  ``from P import x`` is an
    import of the module ``P.x`` when there is one, else of ``P`` (it reads ``P``'s names).  That
    Python runs a package's ``__init__`` before a module inside it is not counted: it is never
    met half made unless a module reads a name from it, which counts.
    """
    modules = module_files(package)
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test)
                for part in node.body for n in ast.walk(part)}
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                graph[name] |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                for alias in node.names:
                    target = f"{base}.{alias.name}"
                    if target in modules:
                        graph[name].add(target)
                    elif base in modules:
                        graph[name].add(base)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: its strongly connected parts of two modules or more, and self-imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1 or v in graph.get(v, ()):
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_grn_has_no_import_circle():
    found = circles(import_graph(GRN))
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


#: Package -> the packages it may import at run time (docs/design.md, "modules, layers and contracts").
#: The leaves (archive, serve, lsp, cli) may import anything; that nothing below imports them follows.
LAYERS: dict[str, set[str]] = {
    "core": set(),
    "rules": {"core"},
    "notation": {"rules", "core"},
    "check": {"notation", "rules", "core", "games.tiling"},
    "games.tiling": {"render", "notation", "rules", "core"},
    "games": {"games.tiling", "render", "notation", "rules", "core"},
    "bots": {"notation", "rules", "core"},
    "analysis": {"bots", "notation", "rules", "core"},
    "render": {"analysis", "check", "notation", "rules", "core"},
}


def layer(module: str) -> str:
    """The package of the layer picture ``module`` belongs to (``grn.games.tiling.board``: games.tiling)."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "games" and parts[2] == "tiling":
        return "games.tiling"
    return parts[1] if len(parts) > 1 else "grn"


def upward_imports(package: Path) -> list[str]:
    """Every run-time import of a module by a module of a lower layer (:data:`LAYERS`)."""
    return sorted(f"{a} imports {b}" for a, targets in import_graph(package).items() for b in targets
                  if layer(a) in LAYERS and layer(b) != layer(a) and layer(b) not in LAYERS[layer(a)])


def test_packages_import_only_lower_layers():
    wrong = upward_imports(GRN)
    assert not wrong, "upward imports: " + "; ".join(wrong)


def test_the_layer_check_sees_an_import_inside_a_function(tmp_path: Path):
    root = tmp_path / "grn"
    for folder in ("core", "cli", "games/tiling"):
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("")
    (root / "__init__.py").write_text("")
    (root / "cli" / "app.py").write_text("X = 1\n")
    (root / "games" / "tiling" / "board.py").write_text("from grn.core import value\n")
    (root / "core" / "value.py").write_text("def f():\n    from grn.cli.app import X\n    return X\n")
    assert upward_imports(root) == ["grn.core.value imports grn.cli.app"]


def test_the_circle_finder_finds_a_circle_through_a_function_level_import(tmp_path: Path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import high\n")
    (pkg / "high.py").write_text("from pkg import low\n")
    (pkg / "sub" / "__init__.py").write_text("def f():\n    from pkg.sub.leaf import x\n")
    (pkg / "sub" / "leaf.py").write_text("from pkg.sub import f\nx = 1\n")
    # a TYPE_CHECKING import is no circle; a function's import of a module that reads its package's names is
    assert circles(import_graph(pkg)) == [["pkg.sub", "pkg.sub.leaf"]]


# --- what grn validate imports -------------------------------------------------------------------------

_LIST_MODULES = """
import sys
from grn.cli.app import main
sys.argv = ["grn", "validate", sys.argv[1]]
try:
    main()
except SystemExit as exc:
    code = exc.code
print(code, " ".join(sorted(sys.modules)))
"""

#: What no validation of a GRN file needs: the drawing, the archive's database and search, the JSON Schema.
NEVER = ("grn.render", "svgwrite", "grn.archive.db", "grn.archive.search", "sqlite3", "jsonschema", "grn.notation.jsonform",
         "grn.rules.selfplay", "grn.rules.interop")


def modules_of_validate(path: Path) -> set[str]:
    done = subprocess.run([sys.executable, "-c", _LIST_MODULES, str(path)], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    code, _, names = done.stdout.strip().rpartition("\n")[2].partition(" ")
    assert code in ("0", "None"), done.stderr
    return set(names.split())


def loaded_under(modules: set[str], prefix: str) -> list[str]:
    return sorted(m for m in modules if m == prefix or m.startswith(prefix + "."))


@pytest.mark.parametrize("example, game, others", [
    ("examples/gold-2p.grn", "grn.games.gold", ("grn.games.goldrush", "grn.games.carcassonne", "grn.games.tiling")),
    ("examples/goldrush-2p.grn", "grn.games.goldrush", ("grn.games.gold", "grn.games.carcassonne")),
    ("examples/carcassonne/carcassonne-3p-goldmines.grn", "grn.games.carcassonne",
     ("grn.games.gold", "grn.games.goldrush")),
])
def test_validate_imports_only_the_game_it_reads(example: str, game: str, others: tuple[str, ...]):
    modules = modules_of_validate(ROOT / example)
    assert game in modules
    for prefix in others + NEVER:
        assert not loaded_under(modules, prefix), f"grn validate {example} imports {loaded_under(modules, prefix)}"
