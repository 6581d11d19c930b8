"""How long `pip install -e .` takes: a first install (compiling the hot modules with mypyc) and a second,
unchanged one (the build cache, build_cache.py), in a scratch copy of the committed tree and a fresh venv.

    nice .venv/bin/python bench/bench_install.py [--keep DIR]

Prints each time with the load average before and after (the machine is shared: say so with the figures).

Target: a second, unchanged `pip install -e .` takes seconds, not the first install's minutes (the build cache, README).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(cmd: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr[-2000:]}")
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="build here and keep it (default: a temporary folder)")
    args = parser.parse_args()
    base = args.keep or Path(tempfile.mkdtemp(prefix="grn-install-"))
    tree = base / "grn"
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    # the committed tree, as a new user's clone has it (no build cache, no compiled files)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "venv", ".venv"], cwd=tree, check=True)
    pip = [str(tree / ".venv" / "bin" / "pip"), "install", "-q", "-e", "."]
    print(f"load average before: {load()}")
    first = timed(pip, tree)
    print(f"first install (compiles): {first:.0f} s   load average after: {load()}")
    second = timed(pip, tree)
    print(f"unchanged reinstall (build cache): {second:.0f} s   load average after: {load()}")
    version = subprocess.run([str(tree / ".venv" / "bin" / "grn"), "--version"], capture_output=True, text=True)
    print(version.stdout.strip())
    if args.keep is None:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
