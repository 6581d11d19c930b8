"""Build grn, compiling the modules on the hot path of ``grn validate`` with mypyc.

mypyc (part of mypy) compiles type-annotated Python to C extensions; the
same source files stay the definition and run unchanged where no compiler is
available.  Compiled, reading and replaying a game is two to three times
faster (``bench/bench_validate.py --pure``).

Set ``GRN_PURE_PYTHON=1`` to install without compiling; where no C compiler
can build against Python's headers, the build says so and installs pure Python.  After editing a
compiled module in a development install, run ``pip install -e .`` again:
``grn`` warns when a compiled module is older than its source.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import find_packages, setup

HERE = os.path.dirname(os.path.abspath(__file__))


def compiled_modules() -> tuple[str, ...]:
    """The list kept in grn/_compiled.py (read without importing grn, whose dependencies a build lacks)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_grn_compiled", os.path.join(HERE, "grn", "_compiled.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.COMPILED_MODULES


def compiler_problem() -> str | None:
    """None when a C compiler builds against Python's headers here, else what went wrong."""
    import tempfile
    from distutils.ccompiler import new_compiler
    from distutils.sysconfig import customize_compiler, get_python_inc

    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "probe.c")
        with open(source, "w", encoding="ascii") as fh:
            fh.write("#include <Python.h>\nint grn_probe(void) { return 0; }\n")
        compiler = new_compiler()
        customize_compiler(compiler)
        try:
            compiler.compile([source], output_dir=tmp, include_dirs=[get_python_inc()])
        except Exception as exc:  # CompileError, or no compiler at all
            text = (str(exc).strip().splitlines() or [type(exc).__name__])[-1]
            return text if len(text) <= 100 else text[:97] + "..."
    return None


def _build_cache() -> Any:
    """``build_cache.py`` beside this file (loaded by path, as grn/_compiled.py is)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_grn_build_cache", os.path.join(HERE, "build_cache.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


OPT_LEVEL = "3"


def ext_modules() -> tuple[list, dict]:
    """The extensions to build and the command classes that build them (empty: pure Python).

    An unchanged reinstall takes the compiled files from the build cache (``build_cache.py``) instead of
    running mypyc and the C compiler again.
    """
    if os.environ.get("GRN_PURE_PYTHON"):
        print("grn: GRN_PURE_PYTHON is set: installing pure Python", file=sys.stderr)
        return [], {}
    # All or nothing, decided before building: a half-built set of modules would not import.
    problem = compiler_problem()
    if problem is not None:
        print(f"grn: cannot compile C extensions here ({problem}): installing pure Python, "
              "two to three times slower", file=sys.stderr)
        return [], {}
    from importlib.metadata import version

    from setuptools import Extension
    from setuptools.command.build_ext import build_ext

    bc = _build_cache()
    paths = [os.path.join(*name.split(".")) + ".py" for name in compiled_modules()]
    cache = bc.BuildCache(os.path.join(HERE, "build", "mypyc-cache"),
                          bc.cache_key(HERE, paths, OPT_LEVEL, version("mypy")))
    names = cache.names()
    if names is not None:
        print("grn: the compiled modules are unchanged: taking them from the build cache", file=sys.stderr)
        # declared with their names only: the cached build_ext copies each file, nothing is compiled
        return ([Extension(name, sources=[]) for name in names],
                {"build_ext": bc.cached_build_ext(build_ext, cache, True)})
    from mypyc.build import mypycify

    return mypycify(paths, opt_level=OPT_LEVEL), {"build_ext": bc.cached_build_ext(build_ext, cache, False)}


_EXTENSIONS, _COMMANDS = ext_modules()
# every package under grn/ (a new game's included), and the top-level grammar/ and schemas/ shipped inside grn
_PACKAGES = find_packages(include=["grn", "grn.*"]) + ["grn.grammar", "grn.schemas"]

setup(packages=_PACKAGES, ext_modules=_EXTENSIONS, cmdclass=_COMMANDS)
