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

from setuptools import setup

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


def ext_modules() -> list:
    if os.environ.get("GRN_PURE_PYTHON"):
        print("grn: GRN_PURE_PYTHON is set: installing pure Python", file=sys.stderr)
        return []
    # All or nothing, decided before building: a half-built set of modules would not import.
    problem = compiler_problem()
    if problem is not None:
        print(f"grn: cannot compile C extensions here ({problem}): installing pure Python, "
              "two to three times slower", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    paths = [os.path.join(*name.split(".")) + ".py" for name in compiled_modules()]
    return mypycify(paths, opt_level="3")


setup(ext_modules=ext_modules())
