"""Before/after numbers of chosen bench cases on two revisions of Tau.

    bench/compare BEFORE [AFTER] [-k TEXT] [--runs N]

BEFORE and AFTER are git revisions (AFTER defaults to the working tree). Each is checked out
with ``git worktree`` into a temporary folder; the cases are the working tree's bench/ code,
run against each side's src/ (its ``tau`` processes import that side's packages), so a case
added with a change also measures the code before it. The sides alternate run by run, so a
busy patch of a shared machine hits both alike; the table shows each side's minimum (the
quiet figure) and range over the runs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


def _checkout(rev: str, into: Path) -> Path:
    if rev == ".":
        return ROOT
    _git("worktree", "add", "--detach", "--force", str(into), rev)
    return into


def _compile(tree: Path) -> None:
    """Byte-compile a side's packages, so neither side pays compilation inside a measure."""
    command = [sys.executable, "-m", "compileall", "-q", str(tree / "src")]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def _run_cases(src: Path, pattern: str, out: Path) -> dict[str, tuple[float, str]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["TAU_BENCH_SRC"] = str(src / "src")
    command = [sys.executable, str(ROOT / "bench" / "run.py"), "-k", pattern, "--out", str(out)]
    subprocess.run(command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    rows = json.loads(out.read_text())["rows"]
    return {row["name"]: (row["value"], row["unit"]) for row in rows}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("before", help="git revision measured first (e.g. main)")
    parser.add_argument("after", nargs="?", default=".", help="git revision, or . for the working tree")
    parser.add_argument("-k", default="", help="only cases whose name contains this text")
    parser.add_argument("--runs", type=int, default=3, help="runs of each side (alternating)")
    args = parser.parse_args()
    sides = {"before": args.before, "after": args.after}
    results: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    units: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="tau-compare-") as tmp:
        trees = {}
        try:
            for side, rev in sides.items():
                trees[side] = _checkout(rev, Path(tmp) / side)
                _compile(trees[side])
            for run in range(args.runs):
                for side, tree in trees.items():
                    values = _run_cases(tree, args.k, Path(tmp) / f"{side}-{run}.json")
                    for name, (value, unit) in values.items():
                        results[side].setdefault(name, []).append(value)
                        units[name] = unit
                    print(f"run {run + 1}/{args.runs} {side} done", file=sys.stderr, flush=True)
        finally:
            for tree in trees.values():
                if tree != ROOT:
                    _git("worktree", "remove", "--force", str(tree))
    names = [name for name in units if name in results["before"] and name in results["after"]]
    width = max((len(n) for n in names), default=4)
    print(f"{'case':<{width}}  {'before (min, range)':>24}  {'after (min, range)':>24}  change  unit")
    for name in names:
        b, a = results["before"][name], results["after"][name]
        change = (min(a) - min(b)) / min(b) * 100 if min(b) else float("nan")
        cells = [f"{min(v):9.2f} ({min(v):.2f}-{max(v):.2f})" for v in (b, a)]
        print(f"{name:<{width}}  {cells[0]:>24}  {cells[1]:>24}  {change:+5.0f}%  {units[name]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
